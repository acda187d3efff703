# CUPTI collectors (instrument/gs_cupti*.{c,cpp}).  Variables only; expects
# CUDA_HOME and CUDA_LIB from the top Makefile (recursive '=' so the order of
# definition does not matter).
#
# CUPTI_INC / CUPTI_LIB: where cupti.h and libcupti.so are: CUDA 13 keeps them
#   in the toolkit's include/ and lib64/ (lib/ on some installs); older
#   layouts in extras/CUPTI.
# CUPTI_C:        C11 sources (-I$(CUPTI_INC)).  The PC sampling collector is C.
# CUPTI_CPP:      C++17 sources (cupti_profiler_host.h includes <string>):
#                 compile with g++ -std=c++17 or nvcc; exports are extern "C".
# CUPTI_CHECK:    the GPU check program's main (instrument/cupti_check.c).
# CUPTI_TEST:     the host test (tests/test_cupti.c, cmocka, no GPU).
# CUPTI_HEADERS:  for dependencies.
# CUPTI_LIBS:     link flags for gcc/g++ as the linker driver.
# CUPTI_NVCC_LIBS: the same for nvcc as the linker driver.
#
# The loader path: libcupti dlopens libnvperf_host.so by bare name, and a
# library's dlopen does not search the executable's RUNPATH.  Three things
# cover it, any one is enough:
#   1. libnvperf_host is linked directly (--no-as-needed), so it is already
#      loaded under its soname when libcupti asks for it;
#   2. the rpath is written as an old-style DT_RPATH (--disable-new-dtags),
#      which glibc also searches for dlopen calls made by libcupti;
#   3. gs_cupti_preload_nvperf() dlopens libnvperf_host.so from the directory
#      libcupti was loaded from before any profiler call.
# If a binary is relinked without these flags, set
#   LD_LIBRARY_PATH=$(CUPTI_LIB)
# (the symptom otherwise is CUPTI_ERROR_NOT_INITIALIZED from the profiler calls).
# setenv("LD_LIBRARY_PATH") inside the process does NOT work: glibc reads it at
# start-up only.

CUPTI_INC = $(patsubst %/cupti.h,%,$(firstword $(wildcard $(CUDA_HOME)/include/cupti.h \
                $(CUDA_HOME)/targets/x86_64-linux/include/cupti.h $(CUDA_HOME)/extras/CUPTI/include/cupti.h) \
                $(CUDA_HOME)/include/cupti.h))
CUPTI_LIB = $(patsubst %/libcupti.so,%,$(firstword $(wildcard $(CUDA_HOME)/lib64/libcupti.so \
                $(CUDA_HOME)/lib/libcupti.so $(CUDA_HOME)/targets/x86_64-linux/lib/libcupti.so \
                $(CUDA_HOME)/extras/CUPTI/lib64/libcupti.so) $(CUDA_LIB)/libcupti.so))

CUPTI_C       = instrument/gs_cupti_activity.c instrument/gs_cupti_pcsamp.c
CUPTI_CPP     = instrument/gs_cupti_metrics.cpp
CUPTI_CHECK   = instrument/cupti_check.c
CUPTI_TEST    = tests/test_cupti.c
CUPTI_HEADERS = instrument/gs_cupti.h instrument/gs_timing.h instrument/gs_stats.h instrument/gs_sequence.h

CUPTI_LIBS = -L$(CUPTI_LIB) -Wl,--disable-new-dtags,-rpath,$(CUPTI_LIB) \
             -Wl,--no-as-needed -lnvperf_host -Wl,--as-needed -lcupti -lstdc++ -ldl -lpthread
# nvcc moves -l options after the -Xlinker ones, so libnvperf_host goes inside -Xlinker
CUPTI_NVCC_LIBS = -L$(CUPTI_LIB) -Xlinker --disable-new-dtags,-rpath,$(CUPTI_LIB),--no-as-needed,-lnvperf_host,--as-needed \
             -lcupti -ldl -lpthread
