/* Warp roles (analysis/warproles.c): the phases of each named range of a CTA's warps, with
 * known answers; the check that the roles are the warps that recorded, on both sides; and every
 * role declaration no real run writes, refused with one line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <jansson.h>

#include "synth.h"
#include "slurp.h"
#include "tmpdir.h"
#include "analysis/checks.h"
#include "analysis/report.h"
#include "analysis/run.h"

/* 2 CTAs x 4 warps on 2 SMs, each CTA 10 us.  Warp 0 (the "producer"): MAINLOOP 0-2 us;
 * warp 1 (B1): MAINLOOP 1-8, EPILOGUE 8-9.5, STORE 9.5-10; warp 2 (B2): MAINLOOP 1-8, EPILOGUE
 * 8-8.4; warp 3 records nothing.  The detail twin: MMA (a sub-phase of MAINLOOP) 1-5 us on warp
 * 1, 2-4 us on warp 2. */
static void write_stamps(const char *path, int detail)
{
    char err[256];
    synth s;
    synth_init(&s, 2, 4, 16);
    s.ghz[1] = 1.75;
    for (uint32_t c = 0; c < 2; c++) {
        for (uint16_t w = 0; w < 4; w++)
            synth_warp(&s, c, w, (uint16_t)c, 0, 10000);
        if (detail) {
            synth_event(&s, c, 1, SYN_MMA, 1000, 5000, 0);
            synth_event(&s, c, 2, SYN_MMA, 2000, 4000, 0);
            continue;
        }
        synth_event(&s, c, 0, GS_MAINLOOP, 0, 2000, 0);
        synth_event(&s, c, 1, GS_MAINLOOP, 1000, 8000, 0);
        synth_event(&s, c, 1, GS_EPILOGUE, 8000, 9500, 0);
        synth_event(&s, c, 1, GS_STORE, 9500, 10000, 0);
        synth_event(&s, c, 2, GS_MAINLOOP, 1000, 8000, 0);
        synth_event(&s, c, 2, GS_EPILOGUE, 8000, 8400, 0);
    }
    gs_record *seg = synth_segments(&s);
    assert_int_equal(gs_file_write(path, 32, 2, 4, 16, s.w, seg, err, sizeof err), 0);
    free(seg);
    free(s.ev);
    free(s.w);
}

static const char *const base_roles[][2] = {
    {"warp_roles", "3"},
    {"warp_role.0.name", "producer"},
    {"warp_role.0.warps", "0"},
    {"warp_role.1.name", "B1 warpgroup (GEMM1)"},
    {"warp_role.1.warps", "1-1"},
    {"warp_role.2.name", "B2 warpgroup (GEMM2)"},
    {"warp_role.2.warps", "2-2"},
};
#define N_BASE (sizeof base_roles / sizeof base_roles[0])

/* A run in d with the base roles, then `more` keys over them (a value NULL drops the key). */
static void write_run(const char *d, const char *const (*more)[2], size_t n_more)
{
    char p[512], err[256];
    snprintf(p, sizeof p, "%s/stamps.gss", d);
    write_stamps(p, 0);
    snprintf(p, sizeof p, "%s/stamps-detail.gss", d);
    write_stamps(p, 1);
    gs_meta m = {0};
    gs_meta_set(&m, "subject", "synthetic");
    gs_meta_set(&m, "shape", "roles");
    gs_meta_set(&m, "variant", "default");
    gs_meta_set(&m, "sm_count", "2");
    char key[64];
    snprintf(key, sizeof key, "phase.%d.name", SYN_MMA);
    gs_meta_set(&m, key, "MMA");
    snprintf(key, sizeof key, "phase.%d.within", SYN_MMA);
    gs_meta_set(&m, key, "MAINLOOP");
    snprintf(key, sizeof key, "phase.%d.role", SYN_MMA);
    gs_meta_set(&m, key, "mma");
    for (size_t i = 0; i < N_BASE; i++)
        gs_meta_set(&m, base_roles[i][0], "%s", base_roles[i][1]);
    gs_meta out = {0};
    for (int i = 0; i < m.n; i++) { /* the keys `more` drops are left out */
        int dropped = 0;
        for (size_t k = 0; k < n_more; k++)
            dropped |= !more[k][1] && !strcmp(more[k][0], m.kv[i].key);
        if (!dropped)
            gs_meta_set(&out, m.kv[i].key, "%s", m.kv[i].val);
    }
    for (size_t k = 0; k < n_more; k++)
        if (more[k][1])
            gs_meta_set(&out, more[k][0], "%s", more[k][1]);
    snprintf(p, sizeof p, "%s/meta.txt", d);
    assert_int_equal(gs_meta_write(&out, p, err, sizeof err), 0);
    gs_meta_free(&m);
    gs_meta_free(&out);
    gs_timings t = {0};
    double prod[10], twin[10];
    for (int i = 0; i < 10; i++)
        prod[i] = 0.01, twin[i] = 0.0101;
    gs_timings_add(&t, "production", prod, 10);
    gs_timings_add(&t, "twin", twin, 10);
    snprintf(p, sizeof p, "%s/timings.tsv", d);
    assert_int_equal(gs_timings_write(&t, p, err, sizeof err), 0);
    gs_timings_free(&t);
}

/* After the load each role's stats hold the twin's phases and the detail twin's main-loop
 * sub-phases (gs_phases_take_subs), as the run's own phase stats do. */
static const gs_phase_stats *role_phase(const gs_rundata *r, int role, int phase)
{
    return &r->roles.role[role].ph.ph[phase];
}

static const gs_check_row *roles_row(const gs_rundata *r, gs_checklist *cl)
{
    gs_checks_run(r, cl);
    for (int i = 0; i < cl->n; i++)
        if (strstr(cl->row[i].name, ": warp roles"))
            return &cl->row[i];
    return NULL;
}

/* Each role's busy shares are its own warps' unions over the whole CTA time; the detail twin's
 * sub-phases per role; the report's table, summary.json's array and the passing check. */
static void phases_per_role(void **state)
{
    (void)state;
    char d[128], err[256], p[512];
    snprintf(d, sizeof d, "%s/base", dir);
    assert_int_equal(mkdir(d, 0755), 0);
    write_run(d, NULL, 0);
    gs_rundata r;
    assert_int_equal(gs_rundata_load(&r, d, GS_NEED_ALL, err, sizeof err), 0);
    assert_int_equal(r.roles.n, 3);
    assert_string_equal(r.roles.role[1].name, "B1 warpgroup (GEMM1)");
    assert_float_equal(role_phase(&r, 0, GS_MAINLOOP)->busy_share, 0.20, 1e-3);
    assert_float_equal(role_phase(&r, 1, GS_MAINLOOP)->busy_share, 0.70, 1e-3);
    assert_float_equal(role_phase(&r, 1, GS_EPILOGUE)->busy_share, 0.15, 1e-3);
    assert_float_equal(role_phase(&r, 1, GS_STORE)->busy_share, 0.05, 1e-3);
    assert_float_equal(role_phase(&r, 2, GS_MAINLOOP)->busy_share, 0.70, 1e-3);
    assert_float_equal(role_phase(&r, 2, GS_EPILOGUE)->busy_share, 0.04, 1e-3);
    assert_int_equal(role_phase(&r, 2, GS_STORE)->instances, 0);
    assert_int_equal(role_phase(&r, 0, GS_EPILOGUE)->instances, 0);
    assert_float_equal(role_phase(&r, 1, SYN_MMA)->busy_share, 0.40, 1e-3);
    assert_float_equal(role_phase(&r, 2, SYN_MMA)->busy_share, 0.20, 1e-3);
    assert_int_equal(role_phase(&r, 1, SYN_MMA)->instances, 2);
    /* the whole CTA's union is unchanged: MAINLOOP 0-8 us */
    assert_float_equal(r.phases.ph[GS_MAINLOOP].busy_share, 0.80, 1e-3);
    assert_int_equal(r.roles.warps_outside, 0);
    gs_checklist cl;
    const gs_check_row *row = roles_row(&r, &cl);
    assert_non_null(row);
    assert_true(row->pass);
    assert_string_equal(row->measured, "0 warps outside, 0 of 3 roles silent");

    snprintf(p, sizeof p, "%s/report.md", d);
    assert_int_equal(gs_report_write(&r, p, NULL, err, sizeof err), 0);
    const char *md = slurp(p);
    assert_non_null(strstr(md, "\n### Phases by warp role\n"));
    assert_non_null(strstr(md, "| producer | 0-0 | MAINLOOP | 20.00% | 2.00 | 2.00 | 2.00 | 2 | 2.00 | 2.00 |\n"));
    assert_non_null(strstr(md, "| B1 warpgroup (GEMM1) | 1-1 | EPILOGUE | 15.00% | 1.50 | 1.50 | 1.50 | 2 | 1.50 | 1.50 |\n"));
    assert_non_null(strstr(md, "| B2 warpgroup (GEMM2) | 2-2 | EPILOGUE | 4.00% | 0.40 | 0.40 | 0.40 | 2 | 0.40 | 0.40 |\n"));
    assert_non_null(strstr(md, "| B2 warpgroup (GEMM2) | 2-2 |   MMA | 20.00% | 2.00 | 2.00 | 2.00 | 2 | 2.00 | 2.00 |\n"));
    assert_null(strstr(md, "| B2 warpgroup (GEMM2) | 2-2 | STORE |"));
    assert_non_null(strstr(md, "| synthetic: warp roles | every recording warp in a role, each role recorded | "
                               "0 warps outside, 0 of 3 roles silent |"));

    snprintf(p, sizeof p, "%s/summary.json", d);
    assert_int_equal(gs_summary_write(&r, p, err, sizeof err), 0);
    json_error_t je;
    json_t *root = json_load_file(p, 0, &je);
    assert_non_null(root);
    json_t *roles = json_object_get(root, "warp_roles");
    assert_true(json_is_array(roles));
    assert_int_equal(json_array_size(roles), 3);
    json_t *b1 = json_array_get(roles, 1);
    assert_string_equal(json_string_value(json_object_get(b1, "name")), "B1 warpgroup (GEMM1)");
    assert_int_equal(json_integer_value(json_object_get(b1, "first_warp")), 1);
    json_t *ph = json_object_get(b1, "phases");
    assert_float_equal(json_number_value(json_object_get(json_object_get(ph, "MAINLOOP"), "busy_share")), 0.70, 1e-3);
    assert_float_equal(json_number_value(json_object_get(json_object_get(ph, "MMA"), "busy_share")), 0.40, 1e-3);
    assert_float_equal(json_number_value(json_object_get(json_object_get(ph, "STORE"), "cta_p50_us")), 0.5, 1e-3);
    json_decref(root);
    gs_rundata_free(&r);
}

/* The check fails where a warp that recorded is in no role, and where a role's warps recorded
 * nothing; a run that names no roles has neither the check nor the table. */
static void roles_check_fails(void **state)
{
    (void)state;
    char d[128], err[256], p[512];
    gs_rundata r;
    gs_checklist cl;
    snprintf(d, sizeof d, "%s/outside", dir);
    assert_int_equal(mkdir(d, 0755), 0);
    static const char *const two[][2] = {{"warp_roles", "2"}, {"warp_role.2.name", NULL}, {"warp_role.2.warps", NULL}};
    write_run(d, two, 3);
    assert_int_equal(gs_rundata_load(&r, d, GS_NEED_ALL, err, sizeof err), 0);
    const gs_check_row *row = roles_row(&r, &cl);
    assert_false(row->pass);
    assert_string_equal(row->measured, "2 warps outside, 0 of 2 roles silent");
    gs_rundata_free(&r);

    snprintf(d, sizeof d, "%s/silent", dir);
    assert_int_equal(mkdir(d, 0755), 0);
    static const char *const idle[][2] = {
        {"warp_roles", "4"}, {"warp_role.3.name", "publisher"}, {"warp_role.3.warps", "3-3"}};
    write_run(d, idle, 3);
    assert_int_equal(gs_rundata_load(&r, d, GS_NEED_ALL, err, sizeof err), 0);
    row = roles_row(&r, &cl);
    assert_false(row->pass);
    assert_string_equal(row->measured, "0 warps outside, 1 of 4 roles silent");
    snprintf(p, sizeof p, "%s/report.md", d);
    assert_int_equal(gs_report_write(&r, p, NULL, err, sizeof err), 0);
    assert_non_null(strstr(slurp(p), "| publisher | 3-3 | (no phase records) | - | - | - | - | 0 | - | - |\n"));
    gs_rundata_free(&r);

    snprintf(d, sizeof d, "%s/none", dir);
    assert_int_equal(mkdir(d, 0755), 0);
    static const char *const none[][2] = {{"warp_roles", NULL},          {"warp_role.0.name", NULL},
                                          {"warp_role.0.warps", NULL},   {"warp_role.1.name", NULL},
                                          {"warp_role.1.warps", NULL},   {"warp_role.2.name", NULL},
                                          {"warp_role.2.warps", NULL}};
    write_run(d, none, 7);
    assert_int_equal(gs_rundata_load(&r, d, GS_NEED_ALL, err, sizeof err), 0);
    assert_int_equal(r.roles.n, 0);
    assert_null(roles_row(&r, &cl));
    snprintf(p, sizeof p, "%s/report.md", d);
    assert_int_equal(gs_report_write(&r, p, NULL, err, sizeof err), 0);
    assert_null(strstr(slurp(p), "warp role"));
    gs_rundata_free(&r);
}

/* Declarations no real run writes: refused when the run loads, with the key at fault. */
static void bad_declarations_refused(void **state)
{
    (void)state;
    static const struct {
        const char *key, *val, *why;
    } bad[] = {
        {"warp_roles", "0", "warp_roles = 0 is not a whole number in [1, 32]"},
        {"warp_roles", "33", "warp_roles = 33 is not"},
        {"warp_roles", "two", "warp_roles = two is not"},
        {"warp_roles", "3x", "warp_roles = 3x is not"},
        {"warp_roles", "4", "warp_role.3.name missing"},
        {"warp_role.1.name", "`B1`", "warp_role.1.name must be 1..63 characters"},
        {"warp_role.1.name", "B1 | B2", "warp_role.1.name must be 1..63 characters without '|'"},
        {"warp_role.1.name", "0123456789012345678901234567890123456789012345678901234567890123", "must be 1..63"},
        {"warp_role.1.warps", "2-1", "warp_role.1.warps = 2-1 is not a range A-B of the CTA's 4 warps"},
        {"warp_role.1.warps", "1-4", "warp_role.1.warps = 1-4 is not a range"},
        {"warp_role.1.warps", "-1", "warp_role.1.warps = -1 is not a range"},
        {"warp_role.1.warps", "1-", "warp_role.1.warps = 1- is not a range"},
        {"warp_role.1.warps", "1,2", "warp_role.1.warps = 1,2 is not a range"},
        {"warp_role.1.warps", "99999999999999999999", "is not a range"},
        {"warp_role.2.warps", "0-2", "warp_role.2.warps (0-2) overlaps warp_role.0's (0-0)"},
        {"warp_role.1.warps", NULL, "warp_role.1.warps = (missing) is not a range"},
        {"warp_role.2.name", "producer", "warp_role.2.name repeats warp_role.0's (producer)"},
        {"warp_role.3.name", "publisher", "warp_role.3.name is not a key of one of the run's 3 warp roles"},
        {"warp_role.1.first", "1", "warp_role.1.first is not a key of one of the run's 3 warp roles"},
        {"warp_role.x.name", "a", "warp_role.x.name is not a key"},
        {"warp_roles", NULL, "warp_role.0.name is not a key of one of the run's 0 warp roles"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char d[128], err[256];
        snprintf(d, sizeof d, "%s/bad%zu", dir, i);
        assert_int_equal(mkdir(d, 0755), 0);
        const char *const kv[1][2] = {{bad[i].key, bad[i].val}};
        write_run(d, kv, 1);
        gs_rundata r;
        err[0] = 0;
        assert_int_equal(gs_rundata_load(&r, d, GS_NEED_ALL, err, sizeof err), -1);
        if (!strstr(err, bad[i].why))
            fail_msg("case %zu: '%s' does not say '%s'", i, err, bad[i].why);
        assert_null(strchr(err, '\n'));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(phases_per_role),
        cmocka_unit_test(roles_check_fails),
        cmocka_unit_test(bad_declarations_refused),
    };
    return cmocka_run_group_tests(tests, tmpdir_setup, tmpdir_teardown);
}
