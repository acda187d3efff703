/* ncu-compare: our CUPTI metrics (the "metric <set> <name> <value> [<kernel>]" lines of
 * cupti-check, medians of its collections) against Nsight Compute's CSV for the same
 * launches (the median of ncu's launches of the kernel whose name contains <kernel>, or of
 * all its launches).  Durations (in ns, and in cycles: gpc__cycles_elapsed.max) must agree
 * within 2%, throughput percentages within 3 points or 10% of ncu's value, whichever is less
 * (0.2 points at least: a percentage of 3.9 is judged within 0.39 points, not 77% of itself);
 * bytes and the clock are shown for information.  A row outside its bound still passes,
 * marked so, when the middle half of ncu's own launches (their interquartile range) spreads
 * wider than the bound and ours lies inside it: ncu's median is then no reference at the
 * bound's precision (seen on lts__throughput under ncu's kernel replay, whose launches fell
 * into two groups 4-5 points apart; check-gpu now uses application replay: docs/method.md).  The interquartile range, not the
 * extremes: one outlying launch must not widen what passes.  A comparison that compares
 * nothing fails.  Where cupti-check gave a truth ("truth <set>
 * <name> <lo> <hi>", cupti-check --truth) the row is judged by it instead: ours must lie
 * in [lo, hi], and whether ncu's does is shown.  Prints both columns and
 * 'N passed, N failed'.
 * Several pairs (rounds taken alternately, ours then ncu's) pool what drifts between
 * processes: ours is then the median of the rounds' medians, ncu's the median of all its
 * launches.
 * --durations NCU_D.csv ...: the duration rows (gpu__time_duration, gpc__cycles_elapsed.max)
 * take ncu's figure from these files instead: ncu's duration of a short kernel depends on
 * the metrics it collects beside it (g2k1536: 3% longer with the sol set's throughputs than
 * with the default set's one pass), ours does not (docs/method.md, "Comparison with Nsight
 * Compute"), so durations are compared against ncu's run of the light set.
 * usage: ncu-compare OURS.txt NCU.csv [OURS2.txt NCU2.csv ...] [--durations NCU_D.csv ...]
 *        ncu-compare --names NCU.csv   (its metric names, comma-separated) */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gs_stats.h"

#define MAXM 128
#define MAXROWS 4096

#define MAXROUNDS 16

typedef struct metric {
    char name[160], set[32], kernel[160];
    double v, lo, hi; /* v: the median of the rounds' values; lo, hi: the truth, when has_truth */
    double round_v[MAXROUNDS];
    int rounds, has_truth;
} metric;

typedef struct ncu_row {
    char name[160], kernel[512];
    double v;
} ncu_row;

/* The q-quantile of sorted v[0..k) (linear between neighbours). */
static double quantile_sorted(const double *v, int k, double q)
{
    const double pos = q * (k - 1);
    const int i = (int)pos;
    return i >= k - 1 ? v[k - 1] : v[i] + (pos - i) * (v[i + 1] - v[i]);
}

/* The median of ncu's values of `name` over the launches whose kernel name contains
 * `kernel` (every launch when it is empty), their interquartile range in *q1, *q3; NAN when
 * there is none. */
static double ncu_median(const ncu_row *rows, int n, const char *name, const char *kernel, double *q1, double *q3)
{
    static double v[MAXROWS];
    int k = 0;
    for (int i = 0; i < n; i++)
        if (!strcmp(rows[i].name, name) && (!kernel[0] || strstr(rows[i].kernel, kernel)))
            v[k++] = rows[i].v;
    if (!k)
        return NAN;
    const double med = gs_sort_median(v, k); /* sorts v */
    *q1 = quantile_sorted(v, k, 0.25);
    *q3 = quantile_sorted(v, k, 0.75);
    return med;
}

/* The verdict of a row with a bound: within it of ncu's median; or outside it, inside the
 * interquartile range [q1, q3] of ncu's launches when that is wider than the bound. */
static void bounded_verdict(char *res, size_t n, double ours, double med, double q1, double q3, double bound)
{
    if (fabs(ours - med) <= bound)
        snprintf(res, n, "pass");
    else if (q3 - q1 > bound && ours >= q1 && ours <= q3)
        snprintf(res, n, "pass (inside ncu's own interquartile spread %.4g..%.4g)", q1, q3);
    else
        snprintf(res, n, "FAIL (ncu's launches' middle half %.4g..%.4g)", q1, q3);
}

/* A percentage's bound: 3 points, or 10% of ncu's value where that is less, 0.2 at least. */
static double pct_bound(double ncu)
{
    const double rel = 0.10 * fabs(ncu);
    return rel < 0.2 ? 0.2 : rel > 3.0 ? 3.0 : rel;
}

/* Splits one CSV line of quoted fields; returns the field count. */
static int csv_fields(char *line, char **f, int max)
{
    int n = 0;
    char *p = line;
    while (*p && n < max) {
        if (*p == '"') {
            char *start = ++p, *w = p;
            while (*p && !(*p == '"' && p[1] != '"')) {
                if (*p == '"' && p[1] == '"')
                    p++;
                *w++ = *p++;
            }
            if (*p == '"')
                p++;
            *w = 0;
            f[n++] = start;
        } else {
            f[n++] = p;
            while (*p && *p != ',')
                p++;
            if (*p == ',')
                *p = 0, p++;
            continue;
        }
        if (*p == ',')
            p++;
    }
    return n;
}

static double unit_scale(const char *u, int *is_time)
{
    *is_time = strstr(u, "second") != NULL;
    if (!strcmp(u, "usecond"))
        return 1e3;
    if (!strcmp(u, "msecond"))
        return 1e6;
    if (!strcmp(u, "second"))
        return 1e9;
    if (!strcmp(u, "Kbyte"))
        return 1e3;
    if (!strcmp(u, "Mbyte"))
        return 1e6;
    if (!strcmp(u, "Gbyte"))
        return 1e9;
    return 1;
}

/* Reads one file of ours: its "metric" lines join the table (a metric seen in an earlier
 * round gains a value), its "truth" lines mark rows.  0, or -1 when it cannot be read. */
static int read_ours(const char *path, metric *ours, int *no)
{
    char line[8192];
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "ncu-compare: cannot open %s\n", path);
        return -1;
    }
    while (fgets(line, sizeof line, f)) {
        char set[32], name[160], kernel[160] = "";
        double v, lo, hi;
        if (!strncmp(line, "metric ", 7) && sscanf(line + 7, "%31s %159s %lf %159s", set, name, &v, kernel) >= 3) {
            int i = 0;
            while (i < *no && !(!strcmp(ours[i].set, set) && !strcmp(ours[i].name, name) &&
                                !strcmp(ours[i].kernel, kernel)))
                i++;
            if (i == *no) {
                if (*no == MAXM) {
                    fprintf(stderr, "ncu-compare: more than %d metrics in %s\n", MAXM, path);
                    fclose(f);
                    return -1;
                }
                memset(&ours[i], 0, sizeof ours[i]);
                snprintf(ours[i].set, sizeof ours[i].set, "%s", set);
                snprintf(ours[i].name, sizeof ours[i].name, "%s", name);
                snprintf(ours[i].kernel, sizeof ours[i].kernel, "%s", kernel);
                (*no)++;
            }
            if (ours[i].rounds < MAXROUNDS)
                ours[i].round_v[ours[i].rounds++] = v;
        } else if (!strncmp(line, "truth ", 6) && sscanf(line + 6, "%31s %159s %lf %lf", set, name, &lo, &hi) == 4) {
            for (int i = 0; i < *no; i++)
                if (!strcmp(ours[i].set, set) && !strcmp(ours[i].name, name)) {
                    ours[i].has_truth = 1;
                    ours[i].lo = lo;
                    ours[i].hi = hi;
                }
        }
    }
    fclose(f);
    return 0;
}

/* Appends the metric rows of one ncu CSV to rows[*nn].  0, or -1 when it cannot be read or
 * has no metric column. */
static int read_ncu(const char *path, ncu_row *ncu, int *nn)
{
    char line[8192];
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "ncu-compare: cannot open %s\n", path);
        return -1;
    }
    int c_name = -1, c_unit = -1, c_val = -1, c_kernel = -1;
    while (fgets(line, sizeof line, f)) {
        if (line[0] != '"')
            continue;
        line[strcspn(line, "\r\n")] = 0;
        char *fld[64];
        int n = csv_fields(line, fld, 64);
        if (c_name < 0) {
            c_unit = c_val = c_kernel = -1;
            for (int i = 0; i < n; i++) {
                if (!strcmp(fld[i], "Metric Name"))
                    c_name = i;
                if (!strcmp(fld[i], "Metric Unit"))
                    c_unit = i;
                if (!strcmp(fld[i], "Metric Value"))
                    c_val = i;
                if (!strcmp(fld[i], "Kernel Name"))
                    c_kernel = i;
            }
            if (c_name >= 0 && (c_unit < 0 || c_val < 0)) {
                fprintf(stderr, "ncu-compare: %s: the header names no \"Metric %s\" column\n", path,
                        c_unit < 0 ? "Unit" : "Value");
                fclose(f);
                return -1;
            }
            continue;
        }
        if (c_name >= n || c_val >= n || c_unit >= n)
            continue;
        char num[64], *w = num;
        for (const char *p = fld[c_val]; *p && w < num + sizeof num - 1; p++)
            if (*p != ',')
                *w++ = *p;
        *w = 0;
        char *end;
        double v = strtod(num, &end);
        if (end == num)
            continue;
        int is_time;
        v *= unit_scale(fld[c_unit], &is_time);
        if (*nn == MAXROWS) { /* never compare against a silently cut list */
            fprintf(stderr, "ncu-compare: more than %d metric rows in the ncu files (from %s on)\n", MAXROWS, path);
            fclose(f);
            return -1;
        }
        ncu_row *r = &ncu[(*nn)++];
        snprintf(r->name, sizeof r->name, "%s", fld[c_name]);
        snprintf(r->kernel, sizeof r->kernel, "%s", c_kernel >= 0 && c_kernel < n ? fld[c_kernel] : "");
        r->v = v;
    }
    fclose(f);
    if (c_name < 0) {
        fprintf(stderr, "ncu-compare: no metrics in %s\n", path);
        return -1;
    }
    return 0;
}

/* A duration row: compared within 2%, and against the --durations files when given. */
static int is_duration(const char *name)
{
    return strstr(name, "time_duration") || strstr(name, "cycles_elapsed.max");
}

/* --names NCU.csv: the metric names of ncu's CSV, each once, comma-separated (what
 * cupti-check --metrics takes: a breakdown's parts, scripts/study/metric-breakdown.sh). */
static int print_names(const char *path)
{
    static ncu_row ncu[MAXROWS];
    int nn = 0, printed = 0;
    if (read_ncu(path, ncu, &nn))
        return 2;
    for (int i = 0; i < nn; i++) {
        int seen = 0;
        for (int j = 0; j < i && !seen; j++)
            seen = !strcmp(ncu[j].name, ncu[i].name);
        if (!seen)
            printf("%s%s", printed++ ? "," : "", ncu[i].name);
    }
    printf("\n");
    if (!printed) {
        fprintf(stderr, "ncu-compare: no metric values in %s\n", path);
        return 2;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--names"))
        return print_names(argv[2]);
    int npair = argc; /* the arguments before --durations: the pairs */
    for (int a = 1; a < argc; a++)
        if (!strcmp(argv[a], "--durations")) {
            npair = a;
            break;
        }
    if (npair < 3 || npair % 2 == 0 || npair - 1 > 2 * MAXROUNDS || npair == argc - 1) {
        fprintf(stderr,
                "usage: ncu-compare OURS.txt NCU.csv [OURS2.txt NCU2.csv ...] [--durations NCU_D.csv ...] "
                "(at most %d pairs)\n       ncu-compare --names NCU.csv\n",
                MAXROUNDS);
        return 2;
    }
    static metric ours[MAXM];
    static ncu_row ncu[MAXROWS], ncu_d[MAXROWS];
    int no = 0, nn = 0, nd = 0;
    for (int a = 1; a < npair; a += 2)
        if (read_ours(argv[a], ours, &no) || read_ncu(argv[a + 1], ncu, &nn))
            return 2;
    for (int a = npair + 1; a < argc; a++)
        if (read_ncu(argv[a], ncu_d, &nd))
            return 2;
    if (npair < argc && !nd) {
        fprintf(stderr, "ncu-compare: no metric values in the --durations files\n");
        return 2;
    }
    for (int i = 0; i < no; i++) {
        metric *m = &ours[i];
        m->v = gs_sort_median(m->round_v, m->rounds);
    }
    if (!nn) {
        fprintf(stderr, "ncu-compare: no metric values in the ncu files\n");
        return 2;
    }
    int pass = 0, fail = 0;
    printf("%-70s %-12s %14s %14s %12s %s\n", "metric", "set", "ours", "ncu", "difference", "result");
    for (int i = 0; i < no; i++) {
        const metric *m = &ours[i];
        double nlo = NAN, nhi = NAN;
        const int from_d = nd > 0 && is_duration(m->name);
        const double nv = ncu_median(from_d ? ncu_d : ncu, from_d ? nd : nn, m->name, m->kernel, &nlo, &nhi);
        if (isnan(nv)) {
            printf("%-70s %-12s %14.6g %14s %12s FAIL (ncu has no value%s)\n", m->name, m->set, m->v, "-", "-",
                   from_d ? " in the --durations files" : "");
            fail++;
            continue;
        }
        char diff[32], res[128];
        if (strstr(m->name, ".pct"))
            snprintf(diff, sizeof diff, "%+.2f pts", m->v - nv);
        else
            snprintf(diff, sizeof diff, "%+.2f %%", nv ? 100 * (m->v - nv) / nv : 0.0);
        if (m->has_truth) {
            const int ok = m->v >= m->lo && m->v <= m->hi, nok = nv >= m->lo && nv <= m->hi;
            snprintf(res, sizeof res, "%s (truth %.4g..%.4g; ncu %s)", ok ? "pass" : "FAIL", m->lo, m->hi,
                     nok ? "inside" : "OUTSIDE");
        } else if (strstr(m->name, ".pct"))
            bounded_verdict(res, sizeof res, m->v, nv, nlo, nhi, pct_bound(nv));
        else if (is_duration(m->name))
            bounded_verdict(res, sizeof res, m->v, nv, nlo, nhi, 0.02 * nv);
        else
            snprintf(res, sizeof res, "info");
        printf("%-70s %-12s %14.6g %14.6g %12s %s%s\n", m->name, m->set, m->v, nv, diff, res,
               from_d ? " [ncu: durations run]" : "");
        if (!strncmp(res, "pass", 4))
            pass++;
        else if (!strncmp(res, "FAIL", 4))
            fail++;
    }
    if (pass + fail == 0) { /* nothing of ours to judge: a check that checked nothing */
        printf("%-70s FAIL (no metric of ours was compared)\n", "comparisons");
        fail++;
    }
    printf("%d passed, %d failed\n", pass, fail);
    return fail ? 1 : 0;
}
