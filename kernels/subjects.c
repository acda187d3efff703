/* Every subject gemmscope-record knows, in the order listings show them. */
#include "subject.h"
#include <stddef.h>

extern const gs_subject gs_subject_calib;
extern const gs_subject gs_subject_release;
extern const gs_subject gs_subject_clock;
extern const gs_subject gs_subject_nvfp4;
extern const gs_subject gs_subject_dual;

const gs_subject *const gs_subjects[] = {&gs_subject_calib, &gs_subject_release, &gs_subject_clock, &gs_subject_nvfp4,
                                         &gs_subject_dual,  NULL};
