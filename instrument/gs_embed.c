/* gs-embed: writes a C file holding the text of source files, as a gs_source_text table named
 * gs_compiled_sources (instrument/gs_sources.h).  The Makefile runs it on the device sources the
 * recorder is built from, so a recording's sources/ copy is the text the compiler read (the
 * working folder may have changed since).
 * usage: gs-embed OUT.c FILE...   (names relative to the repository root, as the line tables
 * give them; written to OUT.c.tmp, then renamed) */
#define _POSIX_C_SOURCE 200809L
#include "gs_sources.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define MAX_FILE_BYTES (16L << 20) /* a source file of 16 MiB or more is not a kernel's */

/* Writes one file's bytes as the array s<i>; its length into *len.  0, or -1 (message printed). */
static int write_array(FILE *out, int i, const char *name, long *len)
{
    FILE *f = fopen(name, "rb");
    if (!f) {
        fprintf(stderr, "gs-embed: cannot read %s: %s\n", name, strerror(errno));
        return -1;
    }
    fprintf(out, "static const unsigned char s%d[] = {", i);
    long n = 0;
    int c;
    while ((c = getc(f)) != EOF && n < MAX_FILE_BYTES)
        fprintf(out, "%s%d", n == 0 ? "\n    " : n % 24 ? "," : ",\n    ", c), n++;
    const int bad = ferror(f) || c != EOF;
    fclose(f);
    if (bad) {
        fprintf(stderr, "gs-embed: cannot read %s: %s\n", name, c != EOF ? "16 MiB or larger" : "read error");
        return -1;
    }
    fprintf(out, "%s0};\n", n ? ",\n    " : "\n    "); /* a 0 after the text: never an empty array */
    *len = n;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "gs-embed: usage: gs-embed OUT.c FILE...\n");
        return 2;
    }
    for (int i = 2; i < argc; i++) {
        if (!gs_source_name_ok(argv[i]) || strchr(argv[i], '"')) {
            fprintf(stderr, "gs-embed: '%s' is not a relative name without '..' (docs/run-directory.md)\n", argv[i]);
            return 1;
        }
    }
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", argv[1]) >= (int)sizeof tmp) {
        fprintf(stderr, "gs-embed: output name too long\n");
        return 1;
    }
    FILE *out = fopen(tmp, "w");
    if (!out) {
        fprintf(stderr, "gs-embed: cannot write %s: %s\n", tmp, strerror(errno));
        return 1;
    }
    fprintf(out, "/* Written by gs-embed (instrument/gs_embed.c) at build time: do not edit. */\n"
                 "#include \"instrument/gs_sources.h\"\n\n");
    long lens[1024];
    int ok = argc - 2 <= 1024;
    if (!ok)
        fprintf(stderr, "gs-embed: more than 1024 files\n");
    for (int i = 2; i < argc && ok; i++)
        ok = write_array(out, i - 2, argv[i], &lens[i - 2]) == 0;
    if (ok) {
        fprintf(out, "\nconst gs_source_text gs_compiled_sources[] = {\n");
        for (int i = 2; i < argc; i++)
            fprintf(out, "    {\"%s\", s%d, %ld},\n", argv[i], i - 2, lens[i - 2]);
        if (argc == 2)
            fprintf(out, "    {\"\", 0, 0},\n"); /* C has no empty array; the count says none */
        fprintf(out, "};\nconst int gs_compiled_sources_count = %d;\n", argc - 2);
    }
    ok = fclose(out) == 0 && ok;
    if (!ok || rename(tmp, argv[1]) != 0) {
        if (ok)
            fprintf(stderr, "gs-embed: cannot rename %s: %s\n", tmp, strerror(errno));
        remove(tmp);
        return 1;
    }
    return 0;
}
