/* gs-embed: writes a C file holding the text of source files, as a gs_source_text table named
 * gs_compiled_sources, and the folder they were compiled in, gs_compiled_sources_root
 * (instrument/gs_sources.h).  The Makefile runs it on the device sources the recorder is built
 * from, so a recording's sources/ copy is the text the compiler read (the working folder may
 * have changed since), and the recorder names them relative to that folder wherever it runs.
 * usage: gs-embed OUT.c ROOT FILE...   (ROOT: the absolute folder the compiler ran in; names
 * relative to it, as the line tables give them; written to OUT.c.tmp, then renamed) */
#define _POSIX_C_SOURCE 200809L
#include "gs_sources.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define MAX_FILE_BYTES (16L << 20) /* a source file of 16 MiB or more is not a kernel's */

/* s as a C string literal's contents: '?' escaped (no trigraph), '"' and '\\' too. */
static void put_c_string(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '?' || *s == '"' || *s == '\\')
            putc('\\', out);
        putc(*s, out);
    }
}

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
    const int bad = ferror(f) || n >= MAX_FILE_BYTES; /* 16 MiB refused, a byte less accepted */
    fclose(f);
    if (bad) {
        fprintf(stderr, "gs-embed: cannot read %s: %s\n", name, ferror(f) ? "read error" : "16 MiB or larger");
        return -1;
    }
    fprintf(out, "%s0};\n", n ? ",\n    " : "\n    "); /* a 0 after the text: never an empty array */
    *len = n;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3 || argv[2][0] != '/') {
        fprintf(stderr, "gs-embed: usage: gs-embed OUT.c ROOT FILE... (ROOT an absolute folder)\n");
        return 2;
    }
    for (int i = 3; i < argc; i++) {
        if (!gs_source_name_ok(argv[i])) {
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
    const int nf = argc - 3;
    long lens[1024];
    int ok = nf <= 1024;
    if (!ok)
        fprintf(stderr, "gs-embed: more than 1024 files\n");
    for (int i = 0; i < nf && ok; i++)
        ok = write_array(out, i, argv[i + 3], &lens[i]) == 0;
    if (ok) {
        fprintf(out, "\nconst gs_source_text gs_compiled_sources[] = {\n");
        for (int i = 0; i < nf; i++) {
            fprintf(out, "    {\"");
            put_c_string(out, argv[i + 3]);
            fprintf(out, "\", s%d, %ld},\n", i, lens[i]);
        }
        if (nf == 0)
            fprintf(out, "    {\"\", 0, 0},\n"); /* C has no empty array; the count says none */
        fprintf(out, "};\nconst int gs_compiled_sources_count = %d;\nconst char gs_compiled_sources_root[] = \"", nf);
        put_c_string(out, argv[2]);
        fprintf(out, "\";\n");
    }
    ok = !ferror(out) && ok;
    ok = fclose(out) == 0 && ok;
    if (!ok || rename(tmp, argv[1]) != 0) {
        if (ok)
            fprintf(stderr, "gs-embed: cannot rename %s: %s\n", tmp, strerror(errno));
        remove(tmp);
        return 1;
    }
    return 0;
}
