/* Every subject gemmscope-record knows, in the order `--help` lists them. */
#include "subject.h"
#include <stddef.h>

const gs_subject *const gs_subjects[] = {&gs_subject_calib, &gs_subject_release, &gs_subject_nvfp4, NULL};
