/* Plain-word verdicts drawn from the SM-time decomposition, only where the
 * data says so (thresholds in docs/method.md). */
#ifndef GS_VERDICTS_H
#define GS_VERDICTS_H

#include "run.h"

#define GS_MAX_VERDICTS 16

typedef struct gs_verdicts {
    int n;
    char text[GS_MAX_VERDICTS][256];
} gs_verdicts;

/* thresholds */
#define GS_SHADOW_EXPOSED 0.01  /* exposed below this ... */
#define GS_SHADOW_BUSY 0.05     /* ... while busy above this: hidden behind the main loop */
#define GS_EXPOSED_LARGE 0.05   /* exposed share worth naming */
#define GS_TAIL_BOUND 0.20      /* tail share of the span */
#define GS_WAVE_FILL 0.50       /* last wave filled to at most this: wave-quantised */
#define GS_BALANCE_BOUND 0.03   /* an even spread of the work saves at least this: unbalanced */
#define GS_PLAN_MARGIN 0.01     /* planned balance bound within this of the measured: planned */
#define GS_FETCH_SHARE 0.30     /* an exposed phase's PC samples in no_instructions: fetch-bound */
#define GS_FETCH_MIN 0.005      /* ... when the phase holds at least this share of all samples */
#define GS_START_BOUND 0.03     /* a CTA's first unit's extra start, of the span: slow start */
#define GS_START_UNITS 4        /* ... from at least this many first and later units */
#define GS_ABOVE_STEADY 0.05    /* a main loop's time above its steady K blocks, of it: said */

void gs_verdicts_compute(const gs_rundata *r, gs_verdicts *out);

#endif
