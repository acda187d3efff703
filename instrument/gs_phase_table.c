#include "gs_phase_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const fixed_names[GS_NUM_FIXED_PHASES] = {"MAINLOOP", "ACC_TO_REG", "EPILOGUE", "STORE",
                                                             "PROLOGUE"};
static const char *const role_names[GS_NUM_PROLES] = {"", "wait", "prep", "mma"};
static const char *const warp_role_names[GS_NUM_ROLES] = {"all", "producer", "consumer", "epilogue"};

void gs_phase_table_init(gs_phase_table *t)
{
    memset(t, 0, sizeof *t);
    for (int p = 0; p < GS_NUM_PHASES; p++) {
        if (p < GS_NUM_FIXED_PHASES)
            snprintf(t->p[p].name, sizeof t->p[p].name, "%s", fixed_names[p]);
        else
            snprintf(t->p[p].name, sizeof t->p[p].name, "PHASE%d", p);
        t->p[p].named = p < GS_NUM_FIXED_PHASES;
        t->p[p].within = -1;
    }
}

/* Upper-case letters, digits and '_', a letter first; not a name the reports use for
 * something else (summary.json's stall groups). */
static int valid_name(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n >= GS_PHASE_NAME_MAX || !(s[0] >= 'A' && s[0] <= 'Z'))
        return 0;
    for (const char *c = s; *c; c++)
        if (!((*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '_'))
            return 0;
    return strcmp(s, "ALL") && strcmp(s, "UNATTRIBUTED");
}

int gs_prole_from_name(const char *name)
{
    for (int r = 1; r < GS_NUM_PROLES; r++)
        if (!strcmp(name, role_names[r]))
            return r;
    return *name ? -1 : GS_PROLE_NONE;
}

const char *gs_prole_name(gs_phase_role r) { return r >= 0 && r < GS_NUM_PROLES ? role_names[r] : "?"; }

const char *gs_role_name(int r) { return r >= 0 && r < GS_NUM_ROLES ? warp_role_names[r] : "?"; }

int gs_phase_table_name(gs_phase_table *t, int id, const char *name, int within, const char *role, char *err,
                        size_t errlen)
{
    if (id < GS_NUM_FIXED_PHASES || id >= GS_NUM_PHASES) {
        snprintf(err, errlen, "phase id %d is not a kernel phase (%d..%d)", id, GS_NUM_FIXED_PHASES,
                 GS_NUM_PHASES - 1);
        return -1;
    }
    if (!valid_name(name)) {
        snprintf(err, errlen, "phase %d: name '%.40s' is not 1-31 of A-Z, 0-9 and '_' starting with a letter", id,
                 name);
        return -1;
    }
    const int other = gs_phase_find(t, name);
    if (other >= 0 && other != id) {
        snprintf(err, errlen, "phase %d: name %s is taken by phase %d", id, name, other);
        return -1;
    }
    if (within < -1 || within >= GS_NUM_FIXED_PHASES) {
        snprintf(err, errlen, "phase %s: it can nest only inside a fixed phase (MAINLOOP ... PROLOGUE)", name);
        return -1;
    }
    const int r = gs_prole_from_name(role ? role : "");
    if (r < 0) {
        snprintf(err, errlen, "phase %s: role '%.20s' is not wait, prep or mma", name, role);
        return -1;
    }
    if (r != GS_PROLE_NONE && within != GS_MAINLOOP) {
        snprintf(err, errlen, "phase %s: a role is for sub-phases of MAINLOOP", name);
        return -1;
    }
    gs_phase_info *p = &t->p[id];
    snprintf(p->name, sizeof p->name, "%s", name);
    p->named = 1;
    p->within = within;
    p->role = (gs_phase_role)r;
    return 0;
}

int gs_phase_table_from_meta(gs_phase_table *t, const gs_meta *m, char *err, size_t errlen)
{
    gs_phase_table_init(t);
    for (int i = 0; i < m->n; i++) {
        const char *k = m->kv[i].key;
        int id = -1, used = 0;
        char field[16];
        if (strncmp(k, "phase.", 6) != 0)
            continue;
        if (sscanf(k, "phase.%d.%15s%n", &id, field, &used) != 2 || k[used] != 0 ||
            (strcmp(field, "name") && strcmp(field, "within") && strcmp(field, "role"))) {
            snprintf(err, errlen, "meta.txt: key %.60s is not phase.<id>.name, .within or .role", k);
            return -1;
        }
        if (strcmp(field, "name") != 0)
            continue;
        char key[64];
        snprintf(key, sizeof key, "phase.%d.within", id);
        const char *in = gs_meta_get(m, key);
        int within = -1;
        if (in && *in) {
            within = -2;
            for (int p = 0; p < GS_NUM_FIXED_PHASES; p++)
                if (!strcmp(in, fixed_names[p]))
                    within = p;
        }
        snprintf(key, sizeof key, "phase.%d.role", id);
        char sub[256];
        if (gs_phase_table_name(t, id, m->kv[i].val, within, gs_meta_get(m, key), sub, sizeof sub)) {
            snprintf(err, errlen, "meta.txt: %s", sub);
            return -1;
        }
    }
    /* a .within or .role without a name is a typo worth refusing */
    for (int i = 0; i < m->n; i++) {
        int id = -1;
        if (sscanf(m->kv[i].key, "phase.%d.", &id) == 1 && (id < GS_NUM_FIXED_PHASES || id >= GS_NUM_PHASES ||
                                                             !t->p[id].named)) {
            snprintf(err, errlen, "meta.txt: %.60s names no kernel phase (phase.%d.name missing)", m->kv[i].key, id);
            return -1;
        }
    }
    return 0;
}

int gs_phase_table_to_meta(const gs_phase_table *t, gs_meta *m)
{
    char key[64];
    for (int p = GS_NUM_FIXED_PHASES; p < GS_NUM_PHASES; p++) {
        const gs_phase_info *x = &t->p[p];
        if (!x->named)
            continue;
        snprintf(key, sizeof key, "phase.%d.name", p);
        if (gs_meta_set(m, key, "%s", x->name))
            return -1;
        if (x->within >= 0) {
            snprintf(key, sizeof key, "phase.%d.within", p);
            if (gs_meta_set(m, key, "%s", fixed_names[x->within]))
                return -1;
        }
        if (x->role != GS_PROLE_NONE) {
            snprintf(key, sizeof key, "phase.%d.role", p);
            if (gs_meta_set(m, key, "%s", role_names[x->role]))
                return -1;
        }
    }
    return 0;
}

const char *gs_phase_name(const gs_phase_table *t, int p) { return p >= 0 && p < GS_NUM_PHASES ? t->p[p].name : "?"; }

int gs_phase_find(const gs_phase_table *t, const char *name)
{
    for (int p = 0; p < GS_NUM_PHASES; p++)
        if (!strcmp(name, t->p[p].name))
            return p;
    return -1;
}

int gs_phase_is_sub(const gs_phase_table *t, int p) { return p >= 0 && p < GS_NUM_PHASES && t->p[p].within >= 0; }

int gs_phase_is_pipeline(int p) { return p >= GS_MAINLOOP && p <= GS_STORE; }

int gs_phase_main_subs(const gs_phase_table *t, int *out)
{
    int n = 0;
    for (int p = 0; p < GS_NUM_PHASES; p++)
        if (t->p[p].within == GS_MAINLOOP)
            out[n++] = p;
    return n;
}
