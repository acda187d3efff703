/* Optimisation proposals and their go / no-go rules, read from a small text
 * file users edit (analysis/proposals.txt; format in docs/proposals.md). */
#ifndef GS_PROPOSALS_H
#define GS_PROPOSALS_H

#include <stddef.h>
#include "run.h"

#define GS_MAX_PROPOSALS 32
#define GS_MAX_RULES 8
#define GS_MAX_TERMS 8

typedef enum gs_decision { GS_NO_GO, GS_CAUTION, GS_GO } gs_decision;

/* A sum of metrics, e.g. exposed.EPILOGUE+exposed.STORE. */
typedef struct gs_expr {
    int n;
    char term[GS_MAX_TERMS][32];
} gs_expr;

typedef struct gs_rule {
    int always;
    gs_expr expr;
    char op[3];           /* <, <=, >, >= */
    double threshold;
    gs_decision decision;
    char reason[256];
} gs_rule;

typedef struct gs_proposal {
    char name[64], title[160], source[160], targets[160], claim[160], knob[32];
    char knob_off[32]; /* the knob's value with the proposal off ("" when it has none: a size) */
    double claimed_speedup; /* NaN if none */
    gs_expr bound;
    int n_rules;
    gs_rule rule[GS_MAX_RULES];
} gs_proposal;

typedef struct gs_proposals {
    int n;
    gs_proposal p[GS_MAX_PROPOSALS];
} gs_proposals;

/* Parses the file; -1 with "path:line: reason" in err. */
int gs_proposals_read(const char *path, gs_proposals *out, char *err, size_t errlen);
int gs_proposals_parse(const char *text, const char *name, gs_proposals *out, char *err, size_t errlen);
const gs_proposal *gs_proposal_find(const gs_proposals *ps, const char *name);

/* Value of one metric on a run (fraction), or NaN with the reason in err. */
double gs_metric(const gs_rundata *r, const char *term, char *err, size_t errlen);
double gs_expr_eval(const gs_rundata *r, const gs_expr *e, char *err, size_t errlen);
void gs_expr_format(const gs_expr *e, char *buf, size_t len);
/* Index of the first rule that holds, or -1 (no rule matched, or a metric was unknown: err says). */
int gs_proposal_decide(const gs_rundata *r, const gs_proposal *p, char *err, size_t errlen);
const char *gs_decision_name(gs_decision d);

#endif
