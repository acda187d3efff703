# gemmscope — see README.md.  `make` builds everything; `make test` runs the
# host tests; `make report SHAPE=...` records (GPU) or renders a sample (no GPU).

# CUDA: $(CUDA_HOME), else the nvcc on PATH, else the standard location.
NVCC_ON_PATH := $(shell command -v nvcc 2>/dev/null)
ifeq ($(CUDA_HOME),)
  ifneq ($(NVCC_ON_PATH),)
    CUDA_HOME := $(patsubst %/bin/nvcc,%,$(realpath $(NVCC_ON_PATH)))
  else
    CUDA_HOME := /usr/local/cuda
  endif
endif
NVCC := $(CUDA_HOME)/bin/nvcc
CUDA_INC := $(CUDA_HOME)/include
CUDA_LIB := $(firstword $(wildcard $(CUDA_HOME)/lib64 $(CUDA_HOME)/targets/x86_64-linux/lib) $(CUDA_HOME)/lib64)

CC := gcc
CFLAGS := -std=c11 -O2 -g -Wall -Wextra -Werror -I.
ARCH := -gencode=arch=compute_90a,code=sm_90a
NVFLAGS := -std=c++17 -O3 -lineinfo $(ARCH) -Xcompiler -Wall,-Wextra,-Werror -I.
# extra flags for the twin / detail-twin objects only, and for all three builds of the stamped
# kernels: experiments built beside the kept kernel and timed against it
# (scripts/study/build-twin-alt.sh, GS_STEPS="alt ab" or "exp ab" of scripts/gpu-session.sh)
TWIN_FLAGS :=
DETAIL_FLAGS :=
KERNEL_FLAGS :=
# the NVFP4 production points, production build and twin, must not spill registers (ptxas
# fails the build if one does: tests/no-spill.sh); the evidence points' builds and the detail
# twin name their spills in the build log instead (docs/testing.md)
NO_SPILL := -Xptxas -warn-spills,-Werror
SPILL_NOTE := -Xptxas -warn-spills
BUILD := build
NPROC := $(shell nproc 2>/dev/null || echo 2)

SHAPE ?= g8k7168
VARIANT ?= default
METRICS ?= default
DETAIL ?= 1
RUN ?=

include kernels/nvfp4/nvfp4.mk
include instrument/cupti.mk

# The run-directory files, host only (no CUDA): written by the recorder and by users' own
# programs (libgemmscope.a), read by the analyzers.
GS_RUNDIR_SRCS := instrument/gs_file.c instrument/gs_run.c instrument/gs_phase_table.c instrument/gs_units.c \
                  instrument/gs_rundir.c instrument/gs_probes.c instrument/gs_tsv.c \
                  instrument/gs_sources.c
# The analyzers: they know no kernel (tests/test_layout.c checks that nothing here comes from kernels/).
GS_ANALYSIS_SRCS := analysis/edges.c analysis/json.c analysis/timeline.c analysis/phases.c analysis/run.c \
                analysis/checks.c analysis/smtime.c analysis/boundaries.c analysis/verdicts.c analysis/trace.c analysis/diff.c \
                analysis/roofline.c analysis/proposals.c analysis/evidence.c analysis/hwmetrics.c analysis/stalls.c \
                analysis/plots.c analysis/widths.c analysis/workload.c analysis/warproles.c analysis/report.c instrument/gs_sequence.c
GS_HOST_SRCS := $(GS_ANALYSIS_SRCS) $(GS_RUNDIR_SRCS)
GS_HOST_OBJS := $(GS_HOST_SRCS:%.c=$(BUILD)/%.o)
# importers of other tools' traces (jansson)
# importers of other tools' traces need jansson; where its header is missing (a GPU machine with
# no package mirror) gemmscope is built without them and `gemmscope import` says why
HAVE_JANSSON := $(shell printf '\043include <jansson.h>\n' | $(CC) -E -x c - >/dev/null 2>&1 && echo yes || echo no)
GS_IMPORT_SRCS := $(if $(filter yes,$(HAVE_JANSSON)),analysis/proton.c,analysis/proton_none.c)
GS_IMPORT_OBJS := $(GS_IMPORT_SRCS:%.c=$(BUILD)/%.o)
GS_IMPORT_LIBS := $(if $(filter yes,$(HAVE_JANSSON)),-ljansson)
# what building the host programs needs: zlib (stamp files); jansson where it can be had
BUILD_PKGS := zlib1g-dev
BUILD_PKGS_OPTIONAL := libjansson-dev
# the gemmscope program: its command table and one file per command
GS_CLI_SRCS := analysis/gemmscope.c analysis/cli.c $(wildcard analysis/builtin-*.c)
GS_CLI_OBJS := $(GS_CLI_SRCS:%.c=$(BUILD)/%.o)
NVFP4_HOST_OBJS := $(NVFP4_HOST_C:%.c=$(BUILD)/%.o)

# libgemmscope.a: what a program of your own links to time its kernel, take its twin's stamps
# and write a run directory (docs/library.md); the headers are GS_LIB_HEADERS
GS_LIB_CUDA_C := instrument/gs_timing.c instrument/gs_device.c
GS_LIB_CU := instrument/gs_stamps.cu instrument/gs_ceilings.cu
GS_LIB_OBJS := $(GS_RUNDIR_SRCS:%.c=$(BUILD)/%.o) $(GS_LIB_CUDA_C:%.c=$(BUILD)/cuda/%.o) $(GS_LIB_CU:%.cu=$(BUILD)/%.o)
GS_LIB_HEADERS := instrument/gemmscope.h instrument/gs_format.h instrument/gs_stamp.cuh instrument/gs_stamps.h \
                  instrument/gs_timing.h instrument/gs_run.h instrument/gs_rundir.h instrument/gs_phase_table.h \
                  instrument/gs_units.h instrument/gs_device.h instrument/gs_ceilings.h
GS_LIB_LIBS := -lz -lcublas -lcudart

# recorder: C host code with the CUDA runtime, kernels built as production + twin (+ detail twin for NVFP4)
REC_C_SRCS := instrument/record_main.c kernels/subjects.c kernels/subject_calib.c \
              kernels/subject_nvfp4.c kernels/subject_dual.c kernels/subject_harness.c $(NVFP4_CUDA_C)
REC_CU_SRCS := instrument/gs_flush.cu $(NVFP4_CU)
# The NVFP4 GEMM's objects: the production points (gemm.cu) in its three builds, and the
# evidence points (points.h) in theirs with NVFP4_POINT_SET=all (`make nvfp4-evidence`), else
# a stub that refuses them.  Programs that link them are relinked when the set changes.
NVFP4_POINT_SET ?= production
NVFP4_BUILDS := prod twin detail
NVFP4_EVIDENCE_OBJS := $(foreach b,$(NVFP4_BUILDS),$(NVFP4_EVIDENCE_CU:%.cu=$(BUILD)/%_$(b).o))
NVFP4_KERNEL_OBJS := $(foreach b,$(NVFP4_BUILDS),$(NVFP4_KERNEL_CU:%.cu=$(BUILD)/%_$(b).o)) \
    $(if $(filter all,$(NVFP4_POINT_SET)),$(NVFP4_EVIDENCE_OBJS) $(NVFP4_EVIDENCE_BUILT:%.c=$(BUILD)/%.o),$(NVFP4_EVIDENCE_NONE:%.c=$(BUILD)/cuda/%.o)) \
    $(BUILD)/nvfp4-points-$(NVFP4_POINT_SET)
# nvfp4-bench also links the null twin: gemm_null.cu, gemm.cu's production points compiled
# again as production under a launcher of its own (what its ratio reads is what the timing
# resolves: docs/method.md)
NVFP4_NULL_OBJ := $(NVFP4_NULL_CU:%.cu=$(BUILD)/%_prod.o)
KERNEL_SRCS := kernels/calib.cu
REC_OBJS := $(REC_C_SRCS:%.c=$(BUILD)/cuda/%.o) $(REC_CU_SRCS:%.cu=$(BUILD)/%.o) \
            $(KERNEL_SRCS:%.cu=$(BUILD)/%_prod.o) $(KERNEL_SRCS:%.cu=$(BUILD)/%_twin.o) \
            $(NVFP4_KERNEL_OBJS) $(NVFP4_HOST_OBJS) $(GS_LIB_OBJS)
# the recorder holds the text of the device sources it is compiled from (gs-embed): its runs'
# sources/ copy is the text the compiler read, whatever the working folder holds later
REC_EMBED_SRCS := $(sort $(REC_CU_SRCS) $(KERNEL_SRCS) $(NVFP4_KERNEL_CU) $(NVFP4_EVIDENCE_CU) \
    $(NVFP4_HEADERS) $(wildcard instrument/*.cuh) kernels/calib.h instrument/gs_flush.h instrument/gs_args.h \
    instrument/gs_cublas_check.h)
REC_OBJS += $(BUILD)/rec_sources.o
# the activity collector splits its records into launches with gs_sequence (plain C, also a host object)
CUPTI_OBJS := $(CUPTI_C:%.c=$(BUILD)/cupti/%.o) $(CUPTI_CPP:%.cpp=$(BUILD)/cupti/%.o) $(BUILD)/instrument/gs_sequence.o
REC_OBJS += $(CUPTI_OBJS)
NVFP4_CHECK_OBJS := $(BUILD)/cuda/$(NVFP4_SELFCHECK:.c=.o) $(NVFP4_CUDA_C:%.c=$(BUILD)/cuda/%.o) \
            $(NVFP4_CU:%.cu=$(BUILD)/%.o) $(NVFP4_KERNEL_OBJS) $(NVFP4_HOST_OBJS) $(BUILD)/libgemmscope.a

TEST_NAMES := test_format test_sequence test_analysis test_report test_trace test_diff test_evidence test_nvfp4 test_cli \
              test_ptx test_ncu_compare test_widths test_rundir test_layout test_stalls test_checks test_proton test_builds \
              test_dual test_near test_timing_order test_warproles
TEST_BINS := $(TEST_NAMES:%=$(BUILD)/tests/%) $(BUILD)/tests/test_cupti
TEST_PKGS := libcmocka-dev $(BUILD_PKGS) $(BUILD_PKGS_OPTIONAL) gnuplot-nox

.PHONY: deps-build all nvfp4-evidence host install print-gemmscope-objects test test-build-yes test-build-no \
        test-run-yes test-run-no test-common example readme fuzz fuzz-replay deps-fuzz report check-gpu plots compare evidence bench-analyzer bench-variants overhead clean cuda-check deps-test
all: $(BUILD)/gemmscope $(BUILD)/libgemmscope.a $(BUILD)/gemmscope-record $(BUILD)/nvfp4-selfcheck $(BUILD)/nvfp4-bench $(BUILD)/cupti-check \
     $(BUILD)/ncu-compare $(BUILD)/launch-cost $(BUILD)/nvfp4-mma-rate
host: $(BUILD)/gemmscope

cuda-check:
	@test -x "$(NVCC)" || { echo "gemmscope: nvcc not found (looked in CUDA_HOME=$(CUDA_HOME), PATH); set CUDA_HOME to your CUDA install" >&2; exit 1; }

deps-build:
	@scripts/ensure-packages.sh $(BUILD_PKGS) && scripts/ensure-packages.sh --optional $(BUILD_PKGS_OPTIONAL)

$(BUILD)/%.o: %.c | deps-build
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/cuda/%.o: %.c | cuda-check deps-build
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -I$(CUDA_INC) -c $< -o $@

$(BUILD)/%.o: %.cu | cuda-check
	@mkdir -p $(dir $@)
	$(NVCC) $(NVFLAGS) -c $< -o $@

$(BUILD)/%_prod.o: %.cu instrument/gs_stamp.cuh instrument/gs_format.h | cuda-check
	@mkdir -p $(dir $@)
	$(NVCC) $(NVFLAGS) $(KERNEL_FLAGS) -c $< -o $@

$(BUILD)/%_twin.o: %.cu instrument/gs_stamp.cuh instrument/gs_format.h | cuda-check
	@mkdir -p $(dir $@)
	$(NVCC) $(NVFLAGS) $(KERNEL_FLAGS) -DGS_TWIN=1 $(TWIN_FLAGS) -c $< -o $@

$(BUILD)/%_detail.o: %.cu instrument/gs_stamp.cuh instrument/gs_format.h | cuda-check
	@mkdir -p $(dir $@)
	$(NVCC) $(NVFLAGS) $(KERNEL_FLAGS) -DGS_TWIN=2 $(DETAIL_FLAGS) -c $< -o $@

# gemm_evidence.cu and gemm_dual_evidence.cu are gemm.cu with the evidence points
$(NVFP4_EVIDENCE_OBJS) $(NVFP4_NULL_OBJ): $(NVFP4_KERNEL_CU)
$(NVFP4_EVIDENCE_OBJS) $(NVFP4_KERNEL_CU:%.cu=$(BUILD)/%_detail.o): NVFLAGS += $(SPILL_NOTE)
$(NVFP4_KERNEL_CU:%.cu=$(BUILD)/%_prod.o) $(NVFP4_KERNEL_CU:%.cu=$(BUILD)/%_twin.o) $(NVFP4_NULL_OBJ): NVFLAGS += $(NO_SPILL)

# the NVFP4 point set the programs were last linked with (the marker's name holds it)
$(BUILD)/nvfp4-points-$(NVFP4_POINT_SET):
	@mkdir -p $(BUILD) && rm -f $(BUILD)/nvfp4-points-* && touch $@

# The evidence points' kernels, linked into the programs that run them: the recorder
# (scripts/evidence.sh), nvfp4-selfcheck (make check-gpu) and nvfp4-bench (make bench-variants).
nvfp4-evidence:
	@$(MAKE) --no-print-directory NVFP4_POINT_SET=all $(BUILD)/gemmscope-record $(BUILD)/nvfp4-selfcheck \
	    $(BUILD)/nvfp4-bench

# relinked when jansson comes or goes (the marker's name holds HAVE_JANSSON)
$(BUILD)/jansson-$(HAVE_JANSSON):
	@mkdir -p $(BUILD) && rm -f $(BUILD)/jansson-* && touch $@

$(BUILD)/gemmscope: $(GS_CLI_OBJS) $(GS_HOST_OBJS) $(GS_IMPORT_OBJS) $(BUILD)/jansson-$(HAVE_JANSSON)
	$(CC) $(CFLAGS) $(filter %.o,$^) $(GS_IMPORT_LIBS) -lz -lm -o $@

$(BUILD)/libgemmscope.a: $(GS_LIB_OBJS)
	rm -f $@
	ar rcs $@ $(filter %.o,$^)

$(BUILD)/gemmscope-record: $(REC_OBJS) | cuda-check
	$(NVCC) $(ARCH) $(filter %.o %.a,$^) -L$(CUDA_LIB) -lcudart $(NVFP4_LIBS) $(CUPTI_NVCC_LIBS) -lz -lm -o $@

$(BUILD)/gs-embed: $(BUILD)/instrument/gs_embed.o $(BUILD)/instrument/gs_sources.o $(BUILD)/instrument/gs_run.o \
    $(BUILD)/instrument/gs_file.o
	$(CC) $(CFLAGS) $^ -lz -lm -o $@
# the list itself, rewritten only when it (or the folder the compiler runs in) changes: a file
# added to or left off the list regenerates the table
$(BUILD)/rec_sources.list: FORCE
	@mkdir -p $(BUILD) && echo '$(CURDIR) $(REC_EMBED_SRCS)' | cmp -s - $@ || echo '$(CURDIR) $(REC_EMBED_SRCS)' >$@
$(BUILD)/rec_sources.c: $(REC_EMBED_SRCS) $(BUILD)/rec_sources.list $(BUILD)/gs-embed
	$(BUILD)/gs-embed $@ $(CURDIR) $(REC_EMBED_SRCS)
$(BUILD)/rec_sources.o: $(BUILD)/rec_sources.c
	$(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/ncu-compare: $(BUILD)/instrument/ncu_compare.o
	$(CC) $(CFLAGS) $^ -lm -o $@

# CUPTI collectors: C11, and C++ where cupti_profiler_host.h needs it
$(BUILD)/cupti/%.o: %.c $(CUPTI_HEADERS) | cuda-check
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -I$(CUDA_INC) -I$(CUPTI_INC) -c $< -o $@

$(BUILD)/cupti/%.o: %.cpp $(CUPTI_HEADERS) | cuda-check
	@mkdir -p $(dir $@)
	$(NVCC) -std=c++17 -O2 -g -Xcompiler -Wall,-Wextra,-Werror -I. -I$(CUPTI_INC) -c $< -o $@

CUPTI_CHECK_OBJS := $(BUILD)/cupti/instrument/cupti_check.o $(CUPTI_OBJS) $(BUILD)/cuda/instrument/gs_timing.o \
    $(BUILD)/instrument/gs_flush.o $(BUILD)/instrument/gs_probe.o \
    $(NVFP4_CUDA_C:%.c=$(BUILD)/cuda/%.o) $(NVFP4_CU:%.cu=$(BUILD)/%.o) $(NVFP4_KERNEL_OBJS) $(NVFP4_HOST_OBJS)
$(BUILD)/cupti-check: $(CUPTI_CHECK_OBJS) | cuda-check
	$(NVCC) $(ARCH) $(filter %.o %.a,$^) -L$(CUDA_LIB) -lcudart $(NVFP4_LIBS) $(CUPTI_NVCC_LIBS) -lm -o $@

$(BUILD)/nvfp4-selfcheck: $(NVFP4_CHECK_OBJS) | cuda-check
	$(NVCC) $(ARCH) $(filter %.o %.a,$^) -L$(CUDA_LIB) -lcudart $(NVFP4_LIBS) -lz -lm -o $@

NVFP4_BENCH_OBJS := $(BUILD)/cuda/kernels/nvfp4/bench.o $(NVFP4_NULL_OBJ) \
            $(filter-out $(BUILD)/cuda/$(NVFP4_SELFCHECK:.c=.o),$(NVFP4_CHECK_OBJS))
$(BUILD)/nvfp4-bench: $(NVFP4_BENCH_OBJS) | cuda-check
	$(NVCC) $(ARCH) $(filter %.o %.a,$^) -L$(CUDA_LIB) -lcudart $(NVFP4_LIBS) -lz -lm -o $@

# launch cost against parameter size, in the toolkit's timing (scripts/gpu-session.sh, step launch)
$(BUILD)/launch-cost: $(BUILD)/instrument/launch_cost.o $(BUILD)/cuda/instrument/gs_timing.o | cuda-check
	$(NVCC) $(ARCH) $^ -L$(CUDA_LIB) -lcudart -o $@
# the consumer's per-stage floor per wgmma width (scripts/gpu-session.sh, step mmarate)
$(BUILD)/nvfp4-mma-rate: $(BUILD)/kernels/nvfp4/mma_rate.o | cuda-check
	$(NVCC) $(ARCH) $^ -L$(CUDA_LIB) -lcudart -o $@

# every object depends on the headers it includes (kept simple: all of them)
HEADERS := $(wildcard instrument/*.h instrument/*.cuh analysis/*.h kernels/*.h) $(NVFP4_HEADERS) $(CUPTI_HEADERS)
$(filter %.o,$(GS_HOST_OBJS) $(REC_OBJS) $(NVFP4_CHECK_OBJS) $(NVFP4_BENCH_OBJS) $(CUPTI_CHECK_OBJS)) \
    $(NVFP4_EVIDENCE_OBJS) $(BUILD)/instrument/ncu_compare.o $(GS_CLI_OBJS) $(GS_IMPORT_OBJS) $(BUILD)/analysis/proton.o \
    $(NVFP4_HOST_OBJS): $(HEADERS)

# the objects build/gemmscope links (tests/test_layout.c checks that none comes from kernels/)
print-gemmscope-objects:
	@echo $(GS_CLI_OBJS) $(GS_HOST_OBJS) $(GS_IMPORT_OBJS)

# ---- install: the gemmscope program, its recorder, libgemmscope.a and its headers ----
PREFIX ?= /usr/local
install: $(BUILD)/gemmscope $(BUILD)/gemmscope-record $(BUILD)/libgemmscope.a
	install -d $(PREFIX)/bin $(PREFIX)/lib $(PREFIX)/include/gemmscope $(PREFIX)/share/gemmscope
	install -m 755 $(BUILD)/gemmscope $(BUILD)/gemmscope-record $(PREFIX)/bin/
	install -m 644 $(BUILD)/libgemmscope.a $(PREFIX)/lib/
	install -m 644 $(GS_LIB_HEADERS) $(PREFIX)/include/gemmscope/
	install -m 644 analysis/proposals.txt $(PREFIX)/share/gemmscope/

# ---- tests (host only; test_ptx compiles kernels to PTX) ----
deps-test:
	@scripts/ensure-packages.sh $(TEST_PKGS)

$(BUILD)/tests/%: tests/%.c $(GS_HOST_OBJS) $(BUILD)/analysis/proton.o $(NVFP4_HOST_OBJS) tests/synth.h tests/run_fixture.h tests/near.h \
    tests/tmpdir.h | deps-test
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -DGS_NVCC='"$(NVCC)"' -DGS_EXTRA_KERNELS='$(foreach f,$(NVFP4_KERNEL_CU) $(NVFP4_EVIDENCE_CU),"$(f)",)' $< $(GS_HOST_OBJS) \
	    $(BUILD)/analysis/proton.o $(NVFP4_HOST_OBJS) -lcmocka -ljansson -lz -lm -o $@

# the CUPTI host test links the collectors and CUPTI's host libraries
$(BUILD)/tests/test_cupti: tests/test_cupti.c $(CUPTI_OBJS) | deps-test
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -I$(CUDA_INC) -I$(CUPTI_INC) $< $(CUPTI_OBJS) -L$(CUDA_LIB) -lcudart $(CUPTI_LIBS) -lcmocka -o $@

# packages first, then a second make that sees them (HAVE_JANSSON).  Without nvcc the host
# tests run alone and the CUDA ones are named as skipped, with why.
HAVE_NVCC := $(shell test -x "$(NVCC)" && echo yes || echo no)
CUDA_TEST_NAMES := test_ptx test_cupti
HOST_TEST_BINS := $(filter-out $(CUDA_TEST_NAMES:%=$(BUILD)/tests/%),$(TEST_BINS))
test: deps-test
	@$(MAKE) --no-print-directory -j$(NPROC) test-build-$(HAVE_NVCC)
	@$(MAKE) --no-print-directory test-run-$(HAVE_NVCC)
# what the tests need, no more: the programs they run and the tests themselves
test-build-yes: $(BUILD)/gemmscope $(BUILD)/gemmscope-record $(BUILD)/libgemmscope.a $(BUILD)/ncu-compare $(BUILD)/gs-embed $(TEST_BINS) \
    $(BUILD)/nvfp4-selfcheck $(BUILD)/nvfp4-bench $(BUILD)/cupti-check
test-build-no: $(BUILD)/gemmscope $(BUILD)/ncu-compare $(BUILD)/gs-embed $(HOST_TEST_BINS)
test-run-yes:
	@set -e; for t in $(TEST_BINS); do echo "== $$t"; ./$$t; done
	@echo "== the GPU programs refuse bad arguments before they touch the GPU"
	@tests/programs-refuse.sh
	@echo "== ptxas refuses a kernel that spills under the flags the production points build with"
	@tests/no-spill.sh "$(NVCC)" "$(ARCH)" "$(NO_SPILL)"
	@$(MAKE) --no-print-directory test-common
	@$(MAKE) --no-print-directory example
test-run-no:
	@set -e; for t in $(HOST_TEST_BINS); do echo "== $$t"; ./$$t; done
	@$(MAKE) --no-print-directory test-common
	@echo "== skipped, no nvcc at $(NVCC) (set CUDA_HOME): $(CUDA_TEST_NAMES), the recorder's part of test_cli, the own-kernel example"
test-common:
	@echo "== fuzz corpora and past failures, replayed (ASan, UBSan)"
	@$(MAKE) --no-print-directory fuzz-replay
	@echo "== make check-gpu's gate on missing tools"
	@tests/check-gpu-gate.sh
	@echo "== the overhead benchmark writes a table only when every build was correct"
	@tests/overhead-bench-gate.sh
	@echo "== gs-embed compiles the recorder's sources into it byte for byte, and refuses bad names"
	@tests/embed-check.sh
	@echo "== every recorded sample renders with no GPU"
	@tests/samples-render.sh
	@echo "== the rendered figures of $(RENDERED_DOCS) against the samples"
	@[ -n "$(RENDERED_DOCS)" ] || { echo "no page with rendered blocks found" >&2; exit 1; }
	@tests/readme-check.sh && for f in $(RENDERED_DOCS); do scripts/readme.sh --check $$f || exit 1; done
	@echo "== the reference pages name only samples that exist"
	@tests/doc-paths.sh
	@echo "== the reference pages quote no measured figure outside the rendered blocks"
	@tests/doc-figures.sh

# The rendered figures of every page that has them, again from the committed samples
# (scripts/readme.sh; the blocks that need the recorder's defaults only where it is built).
RENDERED_DOCS = $(shell grep -l '^<!-- gemmscope ' README.md docs/*.md)
readme: $(BUILD)/gemmscope
	@for f in $(RENDERED_DOCS); do scripts/readme.sh $$f || exit 1; done

# Your own kernel, out of tree: examples/own-kernel built against a fresh `make install` into
# build/install, its host self-check (the kernel's index math, a synthetic run reported and
# checked), and its committed GPU recording reported and checked with the installed gemmscope.
EXAMPLE_PREFIX := $(abspath $(BUILD)/install)
EXAMPLE_BUILD := $(abspath $(BUILD)/own-kernel)
example: $(BUILD)/gemmscope $(BUILD)/gemmscope-record $(BUILD)/libgemmscope.a
	@echo "== examples/own-kernel against $(EXAMPLE_PREFIX)"
	@$(MAKE) --no-print-directory install PREFIX=$(EXAMPLE_PREFIX) >/dev/null
	@$(MAKE) --no-print-directory -C examples/own-kernel GEMMSCOPE=$(EXAMPLE_PREFIX) BUILD=$(EXAMPLE_BUILD) all selfcheck
	@rm -rf $(EXAMPLE_BUILD)/sample && mkdir -p $(EXAMPLE_BUILD)/sample
	@cp samples/own-kernel/meta.txt samples/own-kernel/timings.tsv samples/own-kernel/units.tsv $(EXAMPLE_BUILD)/sample/
	@gzip -dc samples/own-kernel/stamps.gss.gz >$(EXAMPLE_BUILD)/sample/stamps.gss
	BUILD=$(EXAMPLE_BUILD) examples/own-kernel/check.sh $(EXAMPLE_PREFIX) --run $(EXAMPLE_BUILD)/sample

# ---- fuzzing: clang's libFuzzer with ASan and UBSan over every parser a user's file reaches ----
# tests/fuzz/fuzz_<name>.c; seed corpora in tests/fuzz/corpus/<name>/, inputs that once failed
# in tests/fuzz/crashes/<name>/.  `make fuzz` runs each harness FUZZ_SECONDS (new inputs land in
# build/fuzz/corpus/, failures in tests/fuzz/crashes/); `make test` replays both folders.
FUZZ_CC := clang
FUZZ_CFLAGS := -std=c11 -g -O1 -Wall -Wextra -Werror -I. -fsanitize=address,undefined -fno-sanitize-recover=all \
               -fno-omit-frame-pointer
FUZZ_NAMES := fuzz_stamps fuzz_meta fuzz_timings fuzz_units fuzz_probes fuzz_pcsamp fuzz_source fuzz_proposals fuzz_shapes \
              fuzz_ncu_csv fuzz_proton
FUZZ_SRCS := $(GS_HOST_SRCS) analysis/proton.c kernels/nvfp4/shapes.c kernels/nvfp4/dual.c kernels/nvfp4/format.c \
             kernels/nvfp4/reference_cpu.c
FUZZ_OBJS := $(FUZZ_SRCS:%.c=$(BUILD)/fuzz/%.o)
FUZZ_BINS := $(FUZZ_NAMES:%=$(BUILD)/fuzz/bin/%)
FUZZ_SECONDS ?= 60
FUZZ_PKGS := clang libclang-rt-14-dev libjansson-dev
.SECONDARY: $(FUZZ_OBJS)

$(BUILD)/fuzz/%.o: %.c $(HEADERS) | deps-fuzz
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

$(BUILD)/fuzz/bin/%: tests/fuzz/%.c tests/fuzz/fuzz_run.h tests/run_fixture.h tests/synth.h $(FUZZ_OBJS) | deps-fuzz
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $< $(FUZZ_OBJS) -ljansson -lz -lm -o $@

deps-fuzz:
	@scripts/ensure-packages.sh $(FUZZ_PKGS)

# every corpus input and every past failure once (part of `make test`)
fuzz-replay: $(FUZZ_BINS)
	@set -e; for n in $(FUZZ_NAMES); do \
	    dirs=$$(for d in tests/fuzz/corpus/$$n tests/fuzz/crashes/$$n; do if [ -d $$d ]; then echo $$d; fi; done); \
	    printf '%-16s ' $$n; \
	    ASAN_OPTIONS=detect_leaks=1 $(BUILD)/fuzz/bin/$$n -runs=0 -close_fd_mask=3 $$dirs >$(BUILD)/fuzz/$$n.replay.log 2>&1 \
	        || { echo FAIL; tail -n 30 $(BUILD)/fuzz/$$n.replay.log; exit 1; }; \
	    grep -Eo 'INITED.*|Done [0-9]+ runs.*' $(BUILD)/fuzz/$$n.replay.log | tail -n 1; \
	done

fuzz: $(FUZZ_BINS)
	@for n in $(FUZZ_NAMES); do \
	    mkdir -p $(BUILD)/fuzz/corpus/$$n tests/fuzz/crashes/$$n; \
	    echo "== $$n ($(FUZZ_SECONDS) s)"; \
	    $(BUILD)/fuzz/bin/$$n -max_total_time=$(FUZZ_SECONDS) -close_fd_mask=3 -print_final_stats=1 \
	        -artifact_prefix=tests/fuzz/crashes/$$n/ $(BUILD)/fuzz/corpus/$$n tests/fuzz/corpus/$$n 2>&1 \
	        | grep -E '^stat::number_of_executed_units|^stat::average_exec_per_sec|ERROR|SUMMARY|artifact' ; \
	done

# every NVFP4 knob point on the benchmark shapes (GPU): time, TFLOP/s, ceiling, cuBLAS, twin
SHAPES ?= g8k7168,g8k2048,g2k4096,g2k1536
VARIANTS ?= all
bench-variants:
	@$(MAKE) -j$(NPROC) --no-print-directory nvfp4-evidence
	@mkdir -p reports
	$(BUILD)/nvfp4-bench --shapes $(SHAPES) --variants $(VARIANTS) --tsv reports/variants.tsv

# the twins' overhead on each shape's production point (GPU; samples/overhead-twin.tsv is a run)
overhead: all
	@mkdir -p reports
	BUILD=$(BUILD) scripts/overhead-bench.sh reports/overhead-twin.tsv

# records analysed per second on one core (a benchmark, not a test)
bench-analyzer: $(GS_HOST_OBJS)
	@mkdir -p $(BUILD)/tests
	$(CC) $(CFLAGS) -O3 tests/bench_analyzer.c $(GS_HOST_OBJS) -lm -o $(BUILD)/tests/bench_analyzer
	taskset -c 0 $(BUILD)/tests/bench_analyzer 10000000 2>/dev/null || $(BUILD)/tests/bench_analyzer 10000000

# ---- the main job ----
report:
	@scripts/ensure-packages.sh $(BUILD_PKGS) && scripts/ensure-packages.sh --optional $(BUILD_PKGS_OPTIONAL) gnuplot-nox
	@if scripts/has-gpu.sh; then \
	    $(MAKE) -j$(NPROC) --no-print-directory $(BUILD)/gemmscope $(BUILD)/gemmscope-record && \
	    $(BUILD)/gemmscope record SHAPE=$(SHAPE) VARIANT=$(VARIANT) METRICS=$(METRICS) DETAIL=$(DETAIL); \
	else \
	    $(MAKE) --no-print-directory host >/dev/null && scripts/render-sample.sh $(SHAPE); \
	fi

plots: host
	@test -n "$(RUN)" || { echo "usage: make plots RUN=<run directory>" >&2; exit 1; }
	$(BUILD)/gemmscope plots $(RUN)

compare: host
	@test -n "$(A)" -a -n "$(B)" || { echo "usage: make compare A=<run> B=<run>" >&2; exit 1; }
	$(BUILD)/gemmscope diff $(A) $(B)

# evidence page for a proposal on the latest run of SHAPE (or its recorded
# sample); A=... B=... add a measured A/B (proposal off, on)
PROPOSAL ?=
evidence: host
	@test -n "$(PROPOSAL)" || { echo "usage: make evidence SHAPE=... PROPOSAL=... [A=run-off B=run-on]; proposals: $$(grep '^proposal' analysis/proposals.txt | cut -d' ' -f2 | tr '\n' ' ')" >&2; exit 1; }
	@run=reports/$(SHAPE)/default/latest; \
	if [ ! -d $$run ]; then scripts/render-sample.sh $(SHAPE) >/dev/null || exit 1; run=reports/samples/$(SHAPE); fi; \
	mkdir -p reports/evidence; \
	$(BUILD)/gemmscope evidence $(PROPOSAL) $$run $(if $(A),--ab $(A) $(B)) -o reports/evidence/$(SHAPE)-$(PROPOSAL).md

check-gpu: all
	@$(MAKE) -j$(NPROC) --no-print-directory nvfp4-evidence
	@scripts/check-gpu.sh

clean:
	rm -rf $(BUILD)

FORCE:
