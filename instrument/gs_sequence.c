/* The launch sequence from kernel records; see gs_sequence.h. */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include "gs_sequence.h"
#include "gs_stats.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define ANON_DEMANGLED "(anonymous namespace)"
#define ANON_MANGLED "_GLOBAL__N"

static double ns_to_ms(int64_t ns) { return (double)ns * 1e-6; }

/* Index of name in s->names, added when new; -1 out of memory. */
static int intern(gs_sequence *s, const char *name)
{
    for (int i = 0; i < s->nnames; i++)
        if (strcmp(s->names[i], name) == 0)
            return i;
    char **v = realloc(s->names, (size_t)(s->nnames + 1) * sizeof *v);
    if (!v)
        return -1;
    s->names = v;
    if (!(v[s->nnames] = strdup(name)))
        return -1;
    return s->nnames++;
}

static int is_main(const gs_seq_rec *r, const char *main_substring)
{
    return !main_substring || !*main_substring || strstr(r->name, main_substring) != NULL;
}

/* The launch of main record m, whose kernels before it are recs[first..m) less the
 * ignored ones. */
static int add_launch(gs_sequence *s, const gs_seq_rec *recs, size_t first, size_t m)
{
    gs_seq_launch *l = &s->per[s->launches];
    memset(l, 0, sizeof *l);
    uint64_t earliest = recs[m].start;
    for (size_t i = first; i < m; i++) {
        const gs_seq_rec *k = &recs[i];
        if (strstr(k->name, GS_SEQ_IGNORE))
            continue;
        if (k->start < earliest)
            earliest = k->start;
        if (l->before < GS_SEQ_MAX_BEFORE) {
            const int id = intern(s, k->name);
            if (id < 0)
                return -1;
            l->name_id[l->before] = id;
            l->time_ms[l->before] = ns_to_ms((int64_t)(k->end - k->start));
            l->gap_ms[l->before] = ns_to_ms((int64_t)recs[m].start - (int64_t)k->end);
        }
        l->before++;
    }
    l->span_ms = ns_to_ms((int64_t)(recs[m].end - earliest));
    s->launches++;
    return 0;
}

int gs_sequence_build(const gs_seq_rec *recs, size_t n, const char *main_substring, gs_sequence *out)
{
    memset(out, 0, sizeof *out);
    out->per = malloc((n ? n : 1) * sizeof *out->per); /* at most one launch per record */
    out->scratch = malloc((n ? n : 1) * sizeof *out->scratch);
    if (!out->per || !out->scratch) {
        gs_sequence_free(out);
        return -1;
    }
    size_t first = 0; /* first record after the previous main one */
    for (size_t i = 0; i < n; i++) {
        if (strstr(recs[i].name, GS_SEQ_IGNORE) || !is_main(&recs[i], main_substring))
            continue;
        if (add_launch(out, recs, first, i)) {
            gs_sequence_free(out);
            return -1;
        }
        first = i + 1;
    }
    gs_sequence_summarise(out);
    return 0;
}

/* Same count of kernels before the main one and the same names. */
static int same_shape(const gs_seq_launch *a, const gs_seq_launch *b)
{
    if (a->before != b->before)
        return 0;
    for (int i = 0; i < a->before && i < GS_SEQ_MAX_BEFORE; i++)
        if (a->name_id[i] != b->name_id[i])
            return 0;
    return 1;
}

/* The launch whose shape the most launches share (the earliest of a tie); *count = how many. */
static int most_common_shape(const gs_sequence *s, int *count)
{
    int best = -1;
    *count = 0;
    for (int i = 0; i < s->launches; i++) {
        int c = 0;
        for (int j = 0; j < s->launches; j++)
            c += same_shape(&s->per[i], &s->per[j]);
        if (c > *count)
            best = i, *count = c;
    }
    return best;
}

enum { SPAN, TIME, GAP };

static double launch_value(const gs_seq_launch *l, int what, int i)
{
    return what == SPAN ? l->span_ms : what == TIME ? l->time_ms[i] : l->gap_ms[i];
}

/* Median of one value (what, kernel i) over the launches shaped like ref. */
static double median_over(const gs_sequence *s, const gs_seq_launch *ref, int what, int i)
{
    double *const tmp = s->scratch;
    int n = 0;
    for (int k = 0; k < s->launches; k++)
        if (same_shape(&s->per[k], ref))
            tmp[n++] = launch_value(&s->per[k], what, i);
    return n ? gs_sort_median(tmp, n) : 0;
}

void gs_sequence_summarise(gs_sequence *s)
{
    s->kernels = s->shown = s->used = s->mismatched = 0;
    s->span_ms = 0;
    memset(s->name, 0, sizeof s->name);
    memset(s->time_ms, 0, sizeof s->time_ms);
    memset(s->gap_ms, 0, sizeof s->gap_ms);
    int used = 0;
    const int best = most_common_shape(s, &used);
    if (best < 0)
        return;
    const gs_seq_launch *ref = &s->per[best];
    s->kernels = ref->before;
    s->shown = ref->before < GS_SEQ_MAX_BEFORE ? ref->before : GS_SEQ_MAX_BEFORE;
    s->used = used;
    s->mismatched = s->launches - used;
    s->span_ms = median_over(s, ref, SPAN, 0);
    for (int i = 0; i < s->shown; i++) {
        gs_kernel_short_name(s->names[ref->name_id[i]], s->name[i], sizeof s->name[i]);
        s->time_ms[i] = median_over(s, ref, TIME, i);
        s->gap_ms[i] = median_over(s, ref, GAP, i);
    }
}

void gs_sequence_drop_first(gs_sequence *s, int k)
{
    if (k <= 0 || !s->per)
        return;
    if (k > s->launches)
        k = s->launches;
    memmove(s->per, s->per + k, (size_t)(s->launches - k) * sizeof *s->per);
    s->launches -= k;
    gs_sequence_summarise(s);
}

void gs_sequence_free(gs_sequence *s)
{
    for (int i = 0; i < s->nnames; i++)
        free(s->names[i]);
    free(s->names);
    free(s->per);
    free(s->scratch);
    memset(s, 0, sizeof *s);
}

/* ---- short names ---- */

/* Appends src[0..len) to out (size n, NUL-terminated), truncating. */
static void append(char *out, size_t n, const char *src, size_t len)
{
    size_t have = strlen(out);
    if (have + 1 >= n)
        return;
    if (len > n - 1 - have)
        len = n - 1 - have;
    memcpy(out + have, src, len);
    out[have + len] = 0;
}

/* Reads "<length><identifier>" at *p; 0 and the identifier, or -1. */
static int source_name(const char **p, const char **id, size_t *len)
{
    if (!isdigit((unsigned char)**p))
        return -1;
    char *end;
    unsigned long l = strtoul(*p, &end, 10);
    if (l == 0 || strnlen(end, l) < l)
        return -1;
    *id = end;
    *len = (size_t)l;
    *p = end + l;
    return 0;
}

/* The name part of an Itanium-mangled name (_Z[L]<name> or _Z[L]N[qualifiers]<name>...E),
 * components joined by "::"; -1 for anything else (substitutions, operators, ...). */
static int mangled_name(const char *m, char *out, size_t n)
{
    const char *p = m + 2;
    if (*p == 'L')
        p++;
    const int nested = *p == 'N';
    if (nested)
        for (p++; *p == 'K' || *p == 'V' || *p == 'r'; p++)
            ;
    out[0] = 0;
    for (int parts = 0;; parts++) {
        const char *id;
        size_t len;
        if (source_name(&p, &id, &len))
            return parts ? 0 : -1; /* the name ends at template arguments or parameters */
        if (parts)
            append(out, n, "::", 2);
        if (len >= strlen(ANON_MANGLED) && !strncmp(id, ANON_MANGLED, strlen(ANON_MANGLED)))
            append(out, n, ANON_DEMANGLED, strlen(ANON_DEMANGLED));
        else
            append(out, n, id, len);
        if (!nested)
            return 0;
    }
}

/* Length of the demangled name's identifier part: up to the first '(' or '<' that does
 * not open "(anonymous namespace)". */
static size_t demangled_len(const char *s)
{
    size_t i = 0;
    while (s[i]) {
        if (!strncmp(s + i, ANON_DEMANGLED, strlen(ANON_DEMANGLED))) {
            i += strlen(ANON_DEMANGLED);
            continue;
        }
        if (s[i] == '(' || s[i] == '<')
            break;
        i++;
    }
    while (i > 0 && s[i - 1] == ' ')
        i--;
    return i;
}

void gs_kernel_short_name(const char *name, char *out, size_t n)
{
    if (!n)
        return;
    out[0] = 0;
    if (!strncmp(name, "_Z", 2) && mangled_name(name, out, n) == 0)
        return;
    if (!strncmp(name, "void ", 5))
        name += 5;
    const size_t len = demangled_len(name);
    append(out, n, name, len ? len : strlen(name));
}
