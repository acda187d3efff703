/* gs-embed: writes a C file holding the text of source files, as a gs_source_text table named
 * gs_compiled_sources, and the folder they were compiled in, gs_compiled_sources_root
 * (instrument/gs_sources.h).  The Makefile runs it on the device sources the recorder is built
 * from, so a recording's sources/ copy is the text the compiler read (the working folder may
 * have changed since), and the recorder names them relative to that folder wherever it runs.
 * usage: gs-embed OUT.c ROOT FILE...   (ROOT: the absolute folder the compiler ran in; names
 * relative to it, as the line tables give them; written under a temporary name, then renamed) */
#define _POSIX_C_SOURCE 200809L
#include "gs_run.h"
#include "gs_sources.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define MAX_FILE_BYTES (16L << 20) /* a source file of 16 MiB or more is not a kernel's */

/* s as a C string literal's contents: '?' escaped (no trigraph), '"' and '\\' too. */
static void put_c_string(gs_buf *b, const char *s)
{
    for (; *s; s++)
        gs_buf_printf(b, "%s%c", *s == '?' || *s == '"' || *s == '\\' ? "\\" : "", *s);
}

/* Appends one file's bytes as the array s<i>; its length into *len.  0, or -1 (message printed). */
static int put_array(gs_buf *b, int i, const char *name, long *len)
{
    FILE *f = fopen(name, "rb");
    if (!f) {
        fprintf(stderr, "gs-embed: cannot read %s: %s\n", name, strerror(errno));
        return -1;
    }
    gs_buf_printf(b, "static const unsigned char s%d[] = {", i);
    long n = 0;
    int c;
    while ((c = getc(f)) != EOF && n < MAX_FILE_BYTES)
        gs_buf_printf(b, "%s%d", n == 0 ? "\n    " : n % 24 ? "," : ",\n    ", c), n++;
    const int unread = ferror(f), large = n >= MAX_FILE_BYTES; /* 16 MiB refused, a byte less taken */
    fclose(f);
    if (unread || large) {
        fprintf(stderr, "gs-embed: cannot read %s: %s\n", name, unread ? "read error" : "16 MiB or larger");
        return -1;
    }
    gs_buf_printf(b, "%s0};\n", n ? ",\n    " : "\n    "); /* a 0 after the text: never an empty array */
    *len = n;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3 || argv[2][0] != '/') {
        fprintf(stderr, "gs-embed: usage: gs-embed OUT.c ROOT FILE... (ROOT an absolute folder)\n");
        return 2;
    }
    const int nf = argc - 3;
    if (nf > 1024) {
        fprintf(stderr, "gs-embed: more than 1024 files\n");
        return 1;
    }
    for (int i = 3; i < argc; i++) {
        if (!gs_source_name_ok(argv[i])) {
            fprintf(stderr, "gs-embed: '%s' is not a relative name without '..' (docs/run-directory.md)\n", argv[i]);
            return 1;
        }
    }
    /* the whole file in memory first: nothing is written unless every source was read */
    gs_buf b = {0};
    gs_buf_printf(&b, "/* Written by gs-embed (instrument/gs_embed.c) at build time: do not edit. */\n"
                      "#include \"instrument/gs_sources.h\"\n\n");
    long lens[1024];
    for (int i = 0; i < nf; i++) {
        if (put_array(&b, i, argv[i + 3], &lens[i]) != 0) {
            gs_buf_free(&b);
            return 1;
        }
    }
    gs_buf_printf(&b, "\nconst gs_source_text gs_compiled_sources[] = {\n");
    for (int i = 0; i < nf; i++) {
        gs_buf_printf(&b, "    {\"");
        put_c_string(&b, argv[i + 3]);
        gs_buf_printf(&b, "\", s%d, %ld},\n", i, lens[i]);
    }
    if (nf == 0)
        gs_buf_printf(&b, "    {\"\", 0, 0},\n"); /* C has no empty array; the count says none */
    gs_buf_printf(&b, "};\nconst int gs_compiled_sources_count = %d;\nconst char gs_compiled_sources_root[] = \"", nf);
    put_c_string(&b, argv[2]);
    gs_buf_printf(&b, "\";\n");
    char err[512];
    const int rc = gs_buf_write(&b, argv[1], err, sizeof err); /* a temporary name, then renamed */
    gs_buf_free(&b);
    if (rc != 0) {
        fprintf(stderr, "gs-embed: %s\n", err);
        return 1;
    }
    return 0;
}
