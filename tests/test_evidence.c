/* Proposals file parsing and go / no-go decisions on both sides of every
 * threshold of the shipped proposals; the evidence page's claim vs bound. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "near.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include "analysis/evidence.h"
#include "analysis/proposals.h"
#include "synth.h"

static gs_proposals shipped;

static int setup(void **state)
{
    (void)state;
    char err[512];
    if (gs_proposals_read("analysis/proposals.txt", &shipped, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    return 0;
}

/* A run whose metrics are set directly: what the rules read.  Its kernel names three
 * sub-phases of the main loop, one per role, and recorded them (a detail twin's run). */
static void set_run(gs_rundata *r, double load_wait, double dequant, double mma, double exp_epi, double exp_store,
                    double idle, double padding)
{
    char err[128];
    memset(r, 0, sizeof *r);
    gs_phase_table_init(&r->names);
    assert_int_equal(gs_phase_table_name(&r->names, SYN_WAIT, "LOAD_WAIT", GS_MAINLOOP, "wait", err, sizeof err), 0);
    assert_int_equal(gs_phase_table_name(&r->names, SYN_PREP, "DEQUANT", GS_MAINLOOP, "prep", err, sizeof err), 0);
    assert_int_equal(gs_phase_table_name(&r->names, SYN_MMA, "MMA", GS_MAINLOOP, "mma", err, sizeof err), 0);
    for (int p = SYN_WAIT; p <= SYN_MMA; p++)
        r->phases.ph[p].instances = 1;
    r->phases.ph[SYN_WAIT].busy_share = load_wait;
    r->phases.ph[SYN_PREP].busy_share = dequant;
    r->phases.ph[SYN_MMA].busy_share = mma;
    r->smt.exposed_share[GS_EPILOGUE] = exp_epi;
    r->smt.exposed_share[GS_STORE] = exp_store;
    r->smt.amdahl_bound[GS_EPILOGUE] = exp_epi;
    r->smt.amdahl_bound[GS_STORE] = exp_store;
    r->smt.share[GS_SMT_IDLE] = idle;
    r->perf.padding = padding;
}

static gs_decision decide(const char *name, const gs_rundata *r, int *rule)
{
    char err[256];
    const gs_proposal *p = gs_proposal_find(&shipped, name);
    assert_non_null(p);
    *rule = gs_proposal_decide(r, p, err, sizeof err);
    if (*rule < 0)
        fail_msg("%s", err);
    return p->rule[*rule].decision;
}

static void shipped_file_has_the_seed_proposals(void **state)
{
    (void)state;
    assert_int_equal(shipped.n, 5);
    assert_non_null(gs_proposal_find(&shipped, "ping-pong"));
    assert_non_null(gs_proposal_find(&shipped, "pipeline-stages"));
    assert_non_null(gs_proposal_find(&shipped, "tile-size"));
    assert_non_null(gs_proposal_find(&shipped, "tma-store"));
    assert_non_null(gs_proposal_find(&shipped, "warp-specialisation"));
    assert_null(gs_proposal_find(&shipped, "magic"));
}

/* seed 000: exposed epilogue < 3% abort, < 5% withdraw, 5-10% caution, > 10% proceed */
static void tma_store_thresholds(void **state)
{
    (void)state;
    gs_rundata r;
    int k;
    set_run(&r, 0, 0, 0, 0.01, 0.0199, 0, 0);
    assert_int_equal(decide("tma-store", &r, &k), GS_NO_GO);
    assert_int_equal(k, 0);
    set_run(&r, 0, 0, 0, 0.015, 0.015, 0, 0); /* exactly 3%: not under it */
    assert_int_equal(decide("tma-store", &r, &k), GS_NO_GO);
    assert_int_equal(k, 1);
    set_run(&r, 0, 0, 0, 0.03, 0.0199, 0, 0);
    assert_int_equal(decide("tma-store", &r, &k), GS_NO_GO);
    assert_int_equal(k, 1);
    set_run(&r, 0, 0, 0, 0.03, 0.021, 0, 0);
    assert_int_equal(decide("tma-store", &r, &k), GS_CAUTION);
    set_run(&r, 0, 0, 0, 0.05, 0.0499, 0, 0);
    assert_int_equal(decide("tma-store", &r, &k), GS_CAUTION);
    set_run(&r, 0, 0, 0, 0.05, 0.051, 0, 0);
    assert_int_equal(decide("tma-store", &r, &k), GS_GO);
}

static void pipeline_stages_thresholds(void **state)
{
    (void)state;
    gs_rundata r;
    int k;
    set_run(&r, 0.049, 0.5, 0.4, 0, 0, 0, 0);
    assert_int_equal(decide("pipeline-stages", &r, &k), GS_NO_GO);
    set_run(&r, 0.051, 0.5, 0.4, 0, 0, 0, 0);
    assert_int_equal(decide("pipeline-stages", &r, &k), GS_CAUTION);
    set_run(&r, 0.149, 0.5, 0.4, 0, 0, 0, 0);
    assert_int_equal(decide("pipeline-stages", &r, &k), GS_CAUTION);
    set_run(&r, 0.151, 0.5, 0.4, 0, 0, 0, 0);
    assert_int_equal(decide("pipeline-stages", &r, &k), GS_GO);
}

static void tile_size_thresholds(void **state)
{
    (void)state;
    gs_rundata r;
    int k;
    set_run(&r, 0, 0, 0, 0, 0, 0.05, 0.049);
    assert_int_equal(decide("tile-size", &r, &k), GS_NO_GO);
    set_run(&r, 0, 0, 0, 0, 0, 0.05, 0.051);
    assert_int_equal(decide("tile-size", &r, &k), GS_CAUTION);
    set_run(&r, 0, 0, 0, 0, 0, 0.2, 0.049);
    assert_int_equal(decide("tile-size", &r, &k), GS_CAUTION);
    set_run(&r, 0, 0, 0, 0, 0, 0.2, 0.051);
    assert_int_equal(decide("tile-size", &r, &k), GS_GO);
}

/* min(DEQUANT, MMA): only the shorter of two serial streams can be hidden */
static void warp_specialisation_thresholds(void **state)
{
    (void)state;
    gs_rundata r;
    int k;
    set_run(&r, 0.02, 0.60, 0.07, 0.0, 0.0, 0, 0); /* 0.02 + 0.07 = 0.09 */
    assert_int_equal(decide("warp-specialisation", &r, &k), GS_NO_GO);
    set_run(&r, 0.02, 0.07, 0.60, 0.005, 0.01, 0, 0); /* 0.105 */
    assert_int_equal(decide("warp-specialisation", &r, &k), GS_CAUTION);
    set_run(&r, 0.02, 0.60, 0.17, 0.0, 0.0, 0, 0); /* 0.19 */
    assert_int_equal(decide("warp-specialisation", &r, &k), GS_CAUTION);
    set_run(&r, 0.02, 0.60, 0.19, 0.0, 0.0, 0, 0); /* 0.21 */
    assert_int_equal(decide("warp-specialisation", &r, &k), GS_GO);
}

/* seed 002's ping-pong: what no main loop covers, exposed ACC_TO_REG + EPILOGUE + STORE; the
 * load waits and the operand work do not count (a second consumer hides neither) */
static void ping_pong_thresholds(void **state)
{
    (void)state;
    gs_rundata r;
    int k;
    char err[256];
    set_run(&r, 0.40, 0.60, 0.80, 0.01, 0.0199, 0.3, 0.2); /* 2.99%, whatever else waits */
    assert_int_equal(decide("ping-pong", &r, &k), GS_NO_GO);
    set_run(&r, 0, 0, 0, 0.02, 0.011, 0, 0); /* 3.1% */
    assert_int_equal(decide("ping-pong", &r, &k), GS_CAUTION);
    r.smt.exposed_share[GS_ACC_TO_REG] = 0.07; /* 10.1% with the drain */
    assert_int_equal(decide("ping-pong", &r, &k), GS_GO);
    set_run(&r, 0, 0, 0, 0.05, 0.0499, 0, 0); /* 9.99% */
    assert_int_equal(decide("ping-pong", &r, &k), GS_CAUTION);
    r.smt.amdahl_bound[GS_ACC_TO_REG] = 0.001;
    assert_float_equal(gs_expr_eval(&r, &gs_proposal_find(&shipped, "ping-pong")->bound, err, sizeof err), 0.1009,
                       1e-12);
    assert_string_equal(gs_proposal_find(&shipped, "ping-pong")->knob, "pingpong");
}

static void expect_parse_error(const char *text, const char *needle)
{
    static gs_proposals ps;
    char err[512] = "";
    assert_int_equal(gs_proposals_parse(text, "p.txt", &ps, err, sizeof err), -1);
    if (!strstr(err, needle))
        fail_msg("error '%s' lacks '%s'", err, needle);
}

#define HEAD "# gemmscope proposals, format 1\n"

static void bad_files_are_rejected_with_the_line(void **state)
{
    (void)state;
    expect_parse_error("proposal x\n", "first line");
    expect_parse_error(HEAD "\nproposal x\n  bound busy.MMA\n  rule busy.MMA < 0.1 go \"r\"\nend\n", "p.txt:6: the last rule");
    expect_parse_error(HEAD "proposal x\n  colour red\nend\n", "p.txt:3: unknown key 'colour'");
    expect_parse_error(HEAD "proposal x\n  bound busy.MMA\n  rule busy.MMA ~ 0.1 go \"r\"\n", "bad comparison");
    expect_parse_error(HEAD "proposal x\n  bound busy.MMA\n  rule busy.MMA < 0.1 maybe \"r\"\n", "bad decision");
    expect_parse_error(HEAD "proposal x\n  bound busy.MMA\n  rule busy.MMA < 0.1 go\n", "double quotes");
    expect_parse_error(HEAD "proposal x\n  bound busy.MMA\n  rule always go \"r\"\n", "has no 'end'");
    expect_parse_error(HEAD "proposal x\n  rule always go \"r\"\nend\n", "needs a bound");
    /* thresholds and claims no real comparison or pitch has */
    expect_parse_error(HEAD "proposal x\n  bound busy.MMA\n  rule busy.MMA < nan go \"r\"\n", "bad threshold 'nan'");
    expect_parse_error(HEAD "proposal x\n  bound busy.MMA\n  rule busy.MMA < inf go \"r\"\n", "bad threshold 'inf'");
    expect_parse_error(HEAD "proposal x\n  claimed_speedup inf\n", "positive finite number");
    expect_parse_error(HEAD "proposal x\n  claimed_speedup -2\n", "positive finite number");
    static gs_proposals ps;
    char err[256];
    assert_int_equal(gs_proposals_parse(HEAD "proposal x\n  bound busy.NOPE\n  rule always go \"r\"\nend\n", "p.txt",
                                        &ps, err, sizeof err),
                     0);
    gs_rundata r;
    set_run(&r, 0, 0, 0, 0, 0, 0, 0);
    assert_true(isnan(gs_expr_eval(&r, &ps.p[0].bound, err, sizeof err)));
    assert_non_null(strstr(err, "unknown phase or role 'NOPE'"));
}

static void evidence_page_compares_claim_and_bound(void **state)
{
    (void)state;
    gs_rundata r;
    char err[256];
    set_run(&r, 0.1, 0.6, 0.2, 0.001, 0.006, 0.14, 0.27);
    r.time_ms = 0.48;
    snprintf(r.dir, sizeof r.dir, "synthetic");
    gs_buf b = {0};
    assert_int_equal(gs_evidence_write(gs_proposal_find(&shipped, "tma-store"), &r, NULL, 0, &b, err, sizeof err), 0);
    assert_non_null(strstr(b.s, "**Decision: NO-GO**"));
    assert_non_null(strstr(b.s, "= **0.70%** of the time"));
    assert_non_null(strstr(b.s, "the claim exceeds what the profile allows"));
    assert_non_null(strstr(b.s, "Not measured"));
    assert_null(strstr(b.s, "already has the proposal on"));
    gs_buf_free(&b);
    /* a profile whose point has the knob on says so: its bound is what the knob left */
    gs_meta_set(&r.meta, "knobs", "stages=4 tma_store=2 split_k=0");
    assert_int_equal(gs_evidence_write(gs_proposal_find(&shipped, "tma-store"), &r, NULL, 0, &b, err, sizeof err), 0);
    assert_non_null(strstr(b.s, "already has the proposal on** (`tma_store=2`)"));
    gs_buf_free(&b);
    gs_meta_set(&r.meta, "knobs", "stages=4 tma_store=0");
    assert_int_equal(gs_evidence_write(gs_proposal_find(&shipped, "tma-store"), &r, NULL, 0, &b, err, sizeof err), 0);
    assert_null(strstr(b.s, "already has the proposal on"));
    gs_buf_free(&b);
    /* stages are off at 1, not 0: a one-stage point does not have the proposal on, four do;
     * a tile size is no switch: never on */
    gs_meta_set(&r.meta, "knobs", "stages=1 tile_t=128");
    const char *never[] = {"pipeline-stages", "tile-size"};
    for (int i = 0; i < 2; i++) {
        assert_int_equal(gs_evidence_write(gs_proposal_find(&shipped, never[i]), &r, NULL, 0, &b, err, sizeof err), 0);
        assert_null(strstr(b.s, "already has the proposal on"));
        gs_buf_free(&b);
    }
    gs_meta_set(&r.meta, "knobs", "stages=4 tile_t=64");
    assert_int_equal(gs_evidence_write(gs_proposal_find(&shipped, "pipeline-stages"), &r, NULL, 0, &b, err, sizeof err),
                     0);
    assert_non_null(strstr(b.s, "already has the proposal on** (`stages=4`)"));
    gs_buf_free(&b);
    assert_int_equal(gs_evidence_write(gs_proposal_find(&shipped, "tile-size"), &r, NULL, 0, &b, err, sizeof err), 0);
    assert_null(strstr(b.s, "already has the proposal on"));
    gs_buf_free(&b);
    gs_meta_free(&r.meta);
}

/* A pair whose speedup exceeds the profile's bound even at its interval's slow end is
 * flagged; one inside the bound is not. */
static void evidence_flags_a_speedup_beyond_the_bound(void **state)
{
    (void)state;
    gs_rundata r, off, on, near;
    char err[256];
    set_run(&r, 0.1, 0.6, 0.2, 0.001, 0.006, 0.02, 0.03); /* tile-size bound: idle + padding = 5% */
    r.time_ms = 0.03;
    snprintf(r.dir, sizeof r.dir, "synthetic");
    double ms_off[16], ms_on[16], ms_near[16];
    for (int i = 0; i < 16; i++) {
        ms_off[i] = 0.0318 + 1e-5 * (i % 4);
        ms_on[i] = 0.0292 + 1e-5 * (i % 4);   /* x1.089: beyond x1.053 */
        ms_near[i] = 0.0310 + 1e-5 * (i % 4); /* x1.026: inside */
    }
    gs_rundata *runs[3] = {&off, &on, &near};
    double *ms[3] = {ms_off, ms_on, ms_near};
    for (int k = 0; k < 3; k++) {
        memset(runs[k], 0, sizeof *runs[k]);
        runs[k]->tim.n = 1;
        snprintf(runs[k]->tim.name[0], sizeof runs[k]->tim.name[0], "production");
        runs[k]->tim.count[0] = 16;
        runs[k]->tim.ms[0] = ms[k];
    }
    gs_ab ab[2] = {{&off, &on, "beyond"}, {&off, &near, "inside"}};
    gs_buf b = {0};
    assert_int_equal(gs_evidence_write(gs_proposal_find(&shipped, "tile-size"), &r, ab, 2, &b, err, sizeof err), 0);
    const char *first = strstr(b.s, "### beyond"), *second = strstr(b.s, "### inside");
    assert_non_null(first);
    assert_non_null(second);
    const char *flag = strstr(first, "**Beyond the profile's bound**");
    assert_non_null(flag);
    assert_true(flag < second);
    assert_null(strstr(second, "**Beyond the profile's bound**"));
    gs_buf_free(&b);

    /* an "off" run with stamps bounds its own pair: 12% idle there allows x1.136, so the same
     * x1.089 is no longer beyond; the page quotes that bound */
    set_run(&off, 0.1, 0.6, 0.2, 0.001, 0.006, 0.12, 0.0);
    off.tl.n_events = 1;
    off.tim = on.tim;
    off.tim.ms[0] = ms_off;
    gs_ab own = {&off, &on, "own bound"};
    assert_int_equal(gs_evidence_write(gs_proposal_find(&shipped, "tile-size"), &r, &own, 1, &b, err, sizeof err), 0);
    assert_non_null(strstr(b.s, "In the off point's own stamps `idle + padding` = 12.00%: at most x1.136."));
    assert_null(strstr(b.s, "**Beyond"));
    gs_buf_free(&b);

    /* and where the off point's own bound is the tighter one (2% idle: x1.020), a x1.026 that
     * the profile's 5% allowed is beyond it, and the page says whose bound */
    off.smt.share[GS_SMT_IDLE] = 0.02;
    gs_ab tight = {&off, &near, "tight"};
    assert_int_equal(gs_evidence_write(gs_proposal_find(&shipped, "tile-size"), &r, &tight, 1, &b, err, sizeof err),
                     0);
    assert_non_null(strstr(b.s, "**Beyond the off point's bound**"));
    gs_buf_free(&b);

    /* an off run recorded by the plain twin, whose kernel names the sub-phases but did not
     * record them: the wait role there is unknown, not 0, and the page keeps the profile's bound */
    for (int p = SYN_WAIT; p <= SYN_MMA; p++)
        off.phases.ph[p].instances = 0;
    assert_true(isnan(gs_expr_eval(&off, &gs_proposal_find(&shipped, "pipeline-stages")->bound, err, sizeof err)));
    assert_non_null(strstr(err, "DETAIL=1"));
    assert_int_equal(gs_evidence_write(gs_proposal_find(&shipped, "pipeline-stages"), &r, &own, 1, &b, err, sizeof err),
                     0);
    assert_null(strstr(b.s, "off point's own stamps"));
    assert_null(strstr(b.s, "**Beyond"));
    gs_buf_free(&b);
}

/* Rules name roles, not a kernel's phases: a kernel that calls its sub-phases otherwise
 * (and has no CUDA-core operand work) decides the same way; one that names no sub-phase of
 * its main loop cannot be decided on them. */
static void roles_not_names_decide(void **state)
{
    (void)state;
    gs_rundata r;
    char err[256];
    int rule;
    memset(&r, 0, sizeof r);
    gs_phase_table_init(&r.names);
    assert_int_equal(gs_phase_table_name(&r.names, SYN_WAIT, "TMA_WAIT", GS_MAINLOOP, "wait", err, sizeof err), 0);
    assert_int_equal(gs_phase_table_name(&r.names, SYN_MMA, "WGMMA", GS_MAINLOOP, "mma", err, sizeof err), 0);
    r.phases.ph[SYN_WAIT].instances = r.phases.ph[SYN_MMA].instances = 1;
    r.phases.ph[SYN_WAIT].busy_share = 0.16;
    r.phases.ph[SYN_MMA].busy_share = 0.7;
    assert_int_equal(decide("pipeline-stages", &r, &rule), GS_GO);
    /* no prep work: min(prep, mma) = 0, so 0.16 + exposed 0.03 = 0.19 is under 0.20 */
    r.smt.exposed_share[GS_EPILOGUE] = 0.03;
    assert_int_equal(decide("warp-specialisation", &r, &rule), GS_CAUTION);
    assert_float_equal(gs_expr_eval(&r, &gs_proposal_find(&shipped, "warp-specialisation")->bound, err, sizeof err),
                       0.19, 1e-12);
    /* exposed or amdahl of a role is refused: roles live inside the main loop */
    gs_expr e = {1, {"exposed.wait"}};
    assert_true(isnan(gs_expr_eval(&r, &e, err, sizeof err)));
    assert_non_null(strstr(err, "busy.wait"));
    /* a kernel that names no sub-phase of its main loop */
    gs_phase_table_init(&r.names);
    assert_true(isnan(gs_expr_eval(&r, &gs_proposal_find(&shipped, "pipeline-stages")->bound, err, sizeof err)));
    assert_non_null(strstr(err, "no sub-phase"));
    assert_int_equal(gs_proposal_decide(&r, gs_proposal_find(&shipped, "pipeline-stages"), err, sizeof err), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(shipped_file_has_the_seed_proposals),
        cmocka_unit_test(ping_pong_thresholds),
        cmocka_unit_test(tma_store_thresholds),
        cmocka_unit_test(pipeline_stages_thresholds),
        cmocka_unit_test(tile_size_thresholds),
        cmocka_unit_test(warp_specialisation_thresholds),
        cmocka_unit_test(bad_files_are_rejected_with_the_line),
        cmocka_unit_test(evidence_page_compares_claim_and_bound),
        cmocka_unit_test(evidence_flags_a_speedup_beyond_the_bound),
        cmocka_unit_test(roles_not_names_decide),
    };
    return cmocka_run_group_tests_name("evidence", tests, setup, NULL);
}
