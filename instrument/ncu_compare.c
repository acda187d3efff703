/* ncu-compare: our CUPTI metrics (the "metric <set> <name> <value>" lines of
 * cupti-check) against Nsight Compute's CSV for the same launch.  Durations
 * must agree within 2%, throughput percentages within 3 points; bytes are
 * shown for information.  Prints both columns and 'N passed, N failed'.
 * usage: ncu-compare OURS.txt NCU.csv */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXM 128

typedef struct metric {
    char name[160], set[16];
    double v;
} metric;

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
    static metric ours[MAXM], ncu[MAXM];
    int no = 0, nn = 0;
    char line[8192];
    FILE *f = fopen(argv[1], "r");
    if (!f) {
        fprintf(stderr, "ncu-compare: cannot open %s\n", argv[1]);
        return 2;
    }
    while (fgets(line, sizeof line, f) && no < MAXM)
        if (!strncmp(line, "metric ", 7) &&
            sscanf(line + 7, "%15s %159s %lf", ours[no].set, ours[no].name, &ours[no].v) == 3)
            no++;
    fclose(f);
    f = fopen(argv[2], "r");
    if (!f) {
        fprintf(stderr, "ncu-compare: cannot open %s\n", argv[2]);
        return 2;
    }
    int c_name = -1, c_unit = -1, c_val = -1;
    while (fgets(line, sizeof line, f) && nn < MAXM) {
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
        ncu[nn++].v = v;
    }
    fclose(f);
    if (c_name < 0 || !nn) {
        fprintf(stderr, "ncu-compare: no metrics in %s\n", argv[2]);
        return 2;
    }
    int pass = 0, fail = 0;
    printf("%-70s %-7s %14s %14s %12s %s\n", "metric", "set", "ours", "ncu", "difference", "result");
    for (int i = 0; i < no; i++) {
        const metric *m = &ours[i];
        double nv = NAN;
        for (int k = 0; k < nn; k++)
            if (!strcmp(ncu[k].name, m->name))
                nv = ncu[k].v;
        if (isnan(nv)) {
            printf("%-70s %-7s %14.6g %14s %12s FAIL (ncu has no value)\n", m->name, m->set, m->v, "-", "-");
            fail++;
            continue;
        }
        char diff[32];
        const char *res;
        if (strstr(m->name, ".pct")) {
            snprintf(diff, sizeof diff, "%+.2f pts", m->v - nv);
            res = fabs(m->v - nv) <= 3.0 ? "pass" : "FAIL";
        } else if (strstr(m->name, "time_duration")) {
            snprintf(diff, sizeof diff, "%+.2f %%", 100 * (m->v - nv) / nv);
            res = fabs(m->v - nv) <= 0.02 * nv ? "pass" : "FAIL";
        } else {
            snprintf(diff, sizeof diff, "%+.2f %%", nv ? 100 * (m->v - nv) / nv : 0.0);
            res = "info";
        }
        printf("%-70s %-7s %14.6g %14.6g %12s %s\n", m->name, m->set, m->v, nv, diff, res);
        if (!strcmp(res, "pass"))
            pass++;
        else if (!strcmp(res, "FAIL"))
            fail++;
    }
    printf("%d passed, %d failed\n", pass, fail);
    return fail ? 1 : 0;
}
