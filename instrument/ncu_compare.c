/* ncu-compare: our CUPTI metrics (the "metric <set> <name> <value> [<kernel>]" lines of
 * cupti-check, medians of its collections) against Nsight Compute's CSV for the same
 * launches (the median of ncu's launches of the kernel whose name contains <kernel>, or of
 * all its launches).  Durations (in ns, and in cycles: gpc__cycles_elapsed.max) must agree
 * within 2%, throughput percentages within 3 points; bytes and the clock are shown for
 * information.  A row outside its bound still passes, marked so, when ncu's own launches
 * spread wider than the bound and ours lies inside that spread: ncu's median is then no
 * reference at the bound's precision (seen on lts__throughput, whose launches under ncu's
 * cache control fall into two groups 4-5 points apart; docs/method.md).  Where cupti-check gave a truth ("truth <set>
 * <name> <lo> <hi>", cupti-check --truth) the row is judged by it instead: ours must lie
 * in [lo, hi], and whether ncu's does is shown.  Prints both columns and
 * 'N passed, N failed'.
 * usage: ncu-compare OURS.txt NCU.csv */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXM 128
#define MAXROWS 4096

typedef struct metric {
    char name[160], set[32], kernel[160];
    double v, lo, hi; /* lo, hi: the truth, when has_truth */
    int has_truth;
} metric;

typedef struct ncu_row {
    char name[160], kernel[512];
    double v;
} ncu_row;

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of ncu's values of `name` over the launches whose kernel name contains
 * `kernel` (every launch when it is empty), their extremes in *lo and *hi; NAN when there
 * is none. */
static double ncu_median(const ncu_row *rows, int n, const char *name, const char *kernel, double *lo, double *hi)
{
    static double v[MAXROWS];
    int k = 0;
    for (int i = 0; i < n; i++)
        if (!strcmp(rows[i].name, name) && (!kernel[0] || strstr(rows[i].kernel, kernel)))
            v[k++] = rows[i].v;
    if (!k)
        return NAN;
    qsort(v, (size_t)k, sizeof v[0], cmp_double);
    *lo = v[0];
    *hi = v[k - 1];
    return k % 2 ? v[k / 2] : 0.5 * (v[k / 2 - 1] + v[k / 2]);
}

/* The verdict of a row with a bound: within it of ncu's median; or outside it, inside ncu's
 * own spread [lo, hi] when that spread is wider than the bound. */
static void bounded_verdict(char *res, size_t n, double ours, double med, double lo, double hi, double bound)
{
    if (fabs(ours - med) <= bound)
        snprintf(res, n, "pass");
    else if (hi - lo > bound && ours >= lo && ours <= hi)
        snprintf(res, n, "pass (inside ncu's own spread %.4g..%.4g)", lo, hi);
    else
        snprintf(res, n, "FAIL (ncu's launches %.4g..%.4g)", lo, hi);
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

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: ncu-compare OURS.txt NCU.csv\n");
        return 2;
    }
    static metric ours[MAXM];
    static ncu_row ncu[MAXROWS];
    int no = 0, nn = 0;
    char line[8192];
    FILE *f = fopen(argv[1], "r");
    if (!f) {
        fprintf(stderr, "ncu-compare: cannot open %s\n", argv[1]);
        return 2;
    }
    while (fgets(line, sizeof line, f)) {
        char set[32], name[160];
        double lo, hi;
        if (!strncmp(line, "metric ", 7) && no < MAXM) {
            metric *m = &ours[no];
            m->kernel[0] = 0;
            m->has_truth = 0;
            if (sscanf(line + 7, "%31s %159s %lf %159s", m->set, m->name, &m->v, m->kernel) >= 3)
                no++;
        } else if (!strncmp(line, "truth ", 6) && sscanf(line + 6, "%31s %159s %lf %lf", set, name, &lo, &hi) == 4) {
            for (int i = 0; i < no; i++)
                if (!strcmp(ours[i].set, set) && !strcmp(ours[i].name, name)) {
                    ours[i].has_truth = 1;
                    ours[i].lo = lo;
                    ours[i].hi = hi;
                }
        }
    }
    fclose(f);
    f = fopen(argv[2], "r");
    if (!f) {
        fprintf(stderr, "ncu-compare: cannot open %s\n", argv[2]);
        return 2;
    }
    int c_name = -1, c_unit = -1, c_val = -1, c_kernel = -1;
    while (fgets(line, sizeof line, f) && nn < MAXROWS) {
        if (line[0] != '"')
            continue;
        line[strcspn(line, "\r\n")] = 0;
        char *fld[64];
        int n = csv_fields(line, fld, 64);
        if (c_name < 0) {
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
        snprintf(ncu[nn].name, sizeof ncu[nn].name, "%s", fld[c_name]);
        snprintf(ncu[nn].kernel, sizeof ncu[nn].kernel, "%s", c_kernel >= 0 && c_kernel < n ? fld[c_kernel] : "");
        ncu[nn++].v = v;
    }
    fclose(f);
    if (c_name < 0 || !nn) {
        fprintf(stderr, "ncu-compare: no metrics in %s\n", argv[2]);
        return 2;
    }
    int pass = 0, fail = 0;
    printf("%-70s %-12s %14s %14s %12s %s\n", "metric", "set", "ours", "ncu", "difference", "result");
    for (int i = 0; i < no; i++) {
        const metric *m = &ours[i];
        double nlo = NAN, nhi = NAN;
        const double nv = ncu_median(ncu, nn, m->name, m->kernel, &nlo, &nhi);
        if (isnan(nv)) {
            printf("%-70s %-12s %14.6g %14s %12s FAIL (ncu has no value)\n", m->name, m->set, m->v, "-", "-");
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
            bounded_verdict(res, sizeof res, m->v, nv, nlo, nhi, 3.0);
        else if (strstr(m->name, "time_duration") || strstr(m->name, "cycles_elapsed.max"))
            bounded_verdict(res, sizeof res, m->v, nv, nlo, nhi, 0.02 * nv);
        else
            snprintf(res, sizeof res, "info");
        printf("%-70s %-12s %14.6g %14.6g %12s %s\n", m->name, m->set, m->v, nv, diff, res);
        if (!strncmp(res, "pass", 4))
            pass++;
        else if (!strncmp(res, "FAIL", 4))
            fail++;
    }
    printf("%d passed, %d failed\n", pass, fail);
    return fail ? 1 : 0;
}
