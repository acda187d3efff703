#include "json.h"

#include <math.h>
#include <string.h>

static void indent(gs_json *j)
{
    gs_buf_printf(j->b, "\n%*s", 2 * j->depth, "");
}

static void put_string(gs_buf *b, const char *s)
{
    gs_buf_printf(b, "\"");
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            gs_buf_printf(b, "\\%c", c);
        else if (c < 0x20)
            gs_buf_printf(b, "\\u%04x", c);
        else
            gs_buf_printf(b, "%c", c);
    }
    gs_buf_printf(b, "\"");
}

static void key(gs_json *j, const char *k)
{
    if (j->need_comma[j->depth])
        gs_buf_printf(j->b, ",");
    j->need_comma[j->depth] = 1;
    indent(j);
    if (k) {
        put_string(j->b, k);
        gs_buf_printf(j->b, ": ");
    }
}

void gs_json_begin(gs_json *j, gs_buf *b)
{
    memset(j, 0, sizeof *j);
    j->b = b;
    gs_buf_printf(b, "{");
    j->depth = 1;
}

void gs_json_end(gs_json *j)
{
    while (j->depth > 1)
        gs_json_close(j);
    gs_buf_printf(j->b, "\n}\n");
    j->depth = 0;
}

static void open_(gs_json *j, const char *k, char c)
{
    key(j, k);
    gs_buf_printf(j->b, "%c", c);
    if (j->depth < 31)
        j->depth++;
    j->need_comma[j->depth] = 0;
    j->kind[j->depth] = c == '{' ? '}' : ']';
}

void gs_json_obj(gs_json *j, const char *k) { open_(j, k, '{'); }
void gs_json_arr(gs_json *j, const char *k) { open_(j, k, '['); }

void gs_json_close(gs_json *j)
{
    if (j->depth <= 1)
        return;
    int had = j->need_comma[j->depth];
    char c = j->kind[j->depth];
    j->depth--;
    if (had)
        indent(j);
    gs_buf_printf(j->b, "%c", c);
}

void gs_json_num(gs_json *j, const char *k, double v)
{
    key(j, k);
    if (isfinite(v))
        gs_buf_printf(j->b, "%.10g", v);
    else
        gs_buf_printf(j->b, "null");
}

void gs_json_int(gs_json *j, const char *k, long long v)
{
    key(j, k);
    gs_buf_printf(j->b, "%lld", v);
}

void gs_json_str(gs_json *j, const char *k, const char *s)
{
    key(j, k);
    put_string(j->b, s ? s : "");
}

void gs_json_bool(gs_json *j, const char *k, int v)
{
    key(j, k);
    gs_buf_printf(j->b, v ? "true" : "false");
}
