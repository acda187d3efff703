#include "names.h"
#include <string.h>

static const char *const phase_names[GS_NUM_PHASES] = {
    "MAINLOOP", "ACC_TO_REG", "EPILOGUE", "STORE", "PROLOGUE", "LOAD_WAIT",
    "DEQUANT",  "MMA",        "USER0",    "USER1", "USER2",    "USER3",
};

static const char *const role_names[GS_NUM_ROLES] = {"all", "producer", "consumer", "epilogue"};

const char *gs_phase_name(int p) { return p >= 0 && p < GS_NUM_PHASES ? phase_names[p] : "?"; }
const char *gs_role_name(int r) { return r >= 0 && r < GS_NUM_ROLES ? role_names[r] : "?"; }

int gs_phase_from_name(const char *name)
{
    for (int p = 0; p < GS_NUM_PHASES; p++)
        if (strcmp(name, phase_names[p]) == 0)
            return p;
    return -1;
}

int gs_phase_is_top(int p) { return p >= GS_MAINLOOP && p <= GS_STORE; }

const char *gs_smt_category_name(int c)
{
    if (c < GS_NUM_PHASES)
        return gs_phase_name(c);
    return c == GS_NUM_PHASES ? "resident" : "idle";
}
