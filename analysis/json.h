/* A small streaming JSON writer (objects, arrays, numbers, strings) into a gs_buf. */
#ifndef GS_JSON_H
#define GS_JSON_H

#include "../instrument/gs_run.h"

typedef struct gs_json {
    gs_buf *b;
    int depth;
    int need_comma[32];
    char kind[32]; /* '}' or ']' per open level */
} gs_json;

void gs_json_begin(gs_json *j, gs_buf *b);       /* opens the top-level object */
void gs_json_end(gs_json *j);                    /* closes it, adds a newline */
void gs_json_obj(gs_json *j, const char *key);   /* key may be NULL inside arrays */
void gs_json_arr(gs_json *j, const char *key);
void gs_json_close(gs_json *j);                  /* closes the innermost object or array */
void gs_json_num(gs_json *j, const char *key, double v);   /* non-finite becomes null */
void gs_json_int(gs_json *j, const char *key, long long v);
void gs_json_str(gs_json *j, const char *key, const char *s);
void gs_json_bool(gs_json *j, const char *key, int v);

#endif
