# Shared build rules for every lesson.  A lesson's Makefile sets a few variables and includes this:
#
#   PROGS           the lesson's programs, each built from <name>.cu, in the order `make run` runs them
#   LESSON_LIBS     extra libraries, e.g. -lcublas (optional)
#   PROFILE_METRICS comma-separated Nsight Compute metrics for `make profile`
#   PROFILE_KEY     the profile columns the lesson's notes read (ncu_table.py's names, comma-separated;
#                   optional): `make profile` prints them first, the others under "More counters:"
#   PROFILE_ROWS    the profile rows the notes read (the table's row labels, separated by ';'; optional):
#                   `make profile` prints them first, then every row and column under "Every kernel and counter:"
#   BAD_ARGS        lesson-specific bad arguments for `make test`, separated by ';'
#                   (the last word of each is the token the error message must name)
#   RESULTS_ARGS    extra runs of the first program for `make results`, separated by ';'
#   RESULTS_ROWS    the rows the README's core reads (table labels, separated by ';'; 'N:label' for
#                   experiment N only; optional): `make results` copies them from the run into the
#                   README's results-rows block, above the folded output (common/results_rows.py)
#   ANSWER_RUNS     the commands whose output answers the lesson's predictions and exercises
#                   (root `make answers`), separated by ';', each run in the lesson's folder
#   include ../common/lesson.mk
#
# If the lesson has exercise.cu, solution.cu and exercise_check.cu, two more programs are built:
# ./student (built from exercise.cu, the student's kernel) and ./solution (the reference), both
# driven by exercise_check.cu.  The shared helpers come from common/'s library (common/Makefile),
# built once for every lesson; config.mk says which compiler, targets and flags.

include $(dir $(lastword $(MAKEFILE_LIST)))config.mk

ARGS  ?=
BUILD := build/$(BUILD_KEY)
HAS_EXERCISE := $(wildcard exercise.cu)
# The students' copy of the course (root `make handout`) has no solution.cu: nothing to build or run.
HAS_SOLUTION := $(if $(HAS_EXERCISE),$(wildcard solution.cu))
PROGRAMS := $(PROGS) $(if $(HAS_EXERCISE),student) $(if $(HAS_SOLUTION),solution)
LDLIBS := $(LESSON_LIBS) -ldl
# Which programs run, check, profile and sanitize: all of them, or the one named by PROG=...
# on the command line (e.g. make profile PROG=shared_tiled ARGS="--size 8192x4097").
RUN_PROGS := $(if $(filter command line,$(origin PROG)),$(filter $(PROG),$(PROGS)),$(PROGS))
# From the root (make run PROG=shared_tiled) a lesson without that program has nothing to do.
ifeq ($(RUN_PROGS)$(MAKELEVEL),0)
  $(error PROG=$(PROG) is not a program of this lesson; its programs: $(PROGS))
endif
# A tree that is not ours to write (an instructor's shared build, TEACHING.md) runs the programs
# already built rather than trying to rebuild them.
WRITABLE := $(shell test -w . && echo yes)
BUILT = $(if $(WRITABLE),$(1))

.PHONY: all run check profile profile-report sass sanitize clean help exercise test lib plot wrong
.DEFAULT_GOAL := all

all: $(PROGRAMS)

# common/'s library: its own make decides whether anything is out of date (cheap when nothing is;
# make looks at the library's time again afterwards, so nothing relinks unless it changed).
$(LIB): FORCE
	@$(MAKE) --no-print-directory -C $(COMMON) lib
lib: $(LIB)

$(BUILD):
	@mkdir -p $@

$(BUILD)/%.o: %.cu | $(BUILD)
	$(NVCC) $(COURSE_NVCCFLAGS) $(NVCCFLAGS) $(CHECKED_BUILD) -c $< -o $@

# The student's kernel (and the reference's, and the corpus's) are built with the course's helpers
# checking how they are called: warp_sum_xor stops a kernel whose lanes did not all call it
# (common/warp.cuh).  The lessons' own programs are built without, as they are timed.
CHECKED_BUILD =
$(BUILD)/exercise.o $(BUILD)/solution.o $(BUILD)/wrong/%.o: CHECKED_BUILD = -DCOURSE_CHECK_WHOLE_WARP

# Warnings in a student's own exercise.cu are shown without stopping the build (make test sets
# EXERCISE_WERROR=1 to hold the reference solution and the skeleton to the course's standard).
EXERCISE_WERROR ?= 0
$(BUILD)/exercise.o: WERROR = $(EXERCISE_WERROR)

# The link records which build it came from, so that switching ARCH back and forth relinks.
$(BUILD)/linked: FORCE | $(BUILD)
	@[ "$$(cat build/last 2>/dev/null)" = "$(BUILD_KEY)" ] || { echo $(BUILD_KEY) > build/last; touch $@; }
	@[ -f $@ ] || touch $@
FORCE:

$(PROGS): %: $(BUILD)/%.o $(LIB) $(BUILD)/linked
	$(NVCC) $(COURSE_LDFLAGS) $(LDFLAGS) $(BUILD)/$*.o $(LIB) -o $@ $(LDLIBS)

student: $(BUILD)/exercise.o $(BUILD)/exercise_check.o $(LIB) $(BUILD)/linked
	$(NVCC) $(COURSE_LDFLAGS) $(LDFLAGS) $(BUILD)/exercise.o $(BUILD)/exercise_check.o $(LIB) -o $@ $(LDLIBS)

solution: $(BUILD)/solution.o $(BUILD)/exercise_check.o $(LIB) $(BUILD)/linked
	$(NVCC) $(COURSE_LDFLAGS) $(LDFLAGS) $(BUILD)/solution.o $(BUILD)/exercise_check.o $(LIB) -o $@ $(LDLIBS)

# The checker's corpus (tests/wrong/*.cu): wrong solutions of the kinds students hand in, each built
# with the exercise checker in place of exercise.cu; common/test.sh runs them with a GPU and checks
# the verdict each file's "expect:" line names.
WRONG := $(basename $(notdir $(wildcard tests/wrong/*.cu)))
$(BUILD)/wrong:
	@mkdir -p $@
$(BUILD)/wrong/%.o: WERROR = 0
$(BUILD)/wrong/%.o: tests/wrong/%.cu | $(BUILD)/wrong
	$(NVCC) $(COURSE_NVCCFLAGS) $(NVCCFLAGS) $(CHECKED_BUILD) -I. -c $< -o $@
$(BUILD)/wrong/%: $(BUILD)/wrong/%.o $(BUILD)/exercise_check.o $(LIB) $(BUILD)/linked
	$(NVCC) $(COURSE_LDFLAGS) $(LDFLAGS) $< $(BUILD)/exercise_check.o $(LIB) -o $@ $(LDLIBS)
wrong: $(addprefix $(BUILD)/wrong/,$(WRONG))

run: $(call BUILT,$(RUN_PROGS))
	@for p in $(RUN_PROGS); do ./$$p $(ARGS) || exit $$?; done

check: $(call BUILT,$(PROGRAMS))
	@for p in $(RUN_PROGS) $(if $(HAS_SOLUTION),$(if $(filter command line,$(origin PROG)),,solution)); do \
	    ./$$p --check $(ARGS) || exit $$?; done

# The checker runs your kernel once more under compute-sanitizer: the one next to this nvcc, unless
# COMPUTE_SANITIZER names another (checker.h).
SANITIZER_NEXT_TO_NVCC := $(wildcard $(dir $(NVCC))compute-sanitizer)
exercise: $(call BUILT,student)
	$(if $(SANITIZER_NEXT_TO_NVCC),COMPUTE_SANITIZER=$${COMPUTE_SANITIZER:-$(SANITIZER_NEXT_TO_NVCC)}) ./student $(ARGS)

profile: $(call BUILT,$(RUN_PROGS))
	@for p in $(RUN_PROGS); do PROFILE_KEY='$(PROFILE_KEY)' PROFILE_ROWS='$(PROFILE_ROWS)' bash $(COMMON)/profile.sh ./$$p '$(PROFILE_METRICS)' $(ARGS) || exit $$?; done

# make profile-report PROG=name ROW="row": one launch of that row of the program's table under
# Nsight Compute with every section (ncu --set full) and the source, into an .ncu-rep file for
# Nsight Compute's GUI (REPORT=path chooses it; profile.sh says where it went).  ARGS as usual.
# Without PROG or ROW: one line saying what to type, and nothing is built.
profile-report: $(if $(and $(filter command line,$(origin PROG)),$(ROW)),$(call BUILT,$(RUN_PROGS)))
	@PROFILE_PROGS='$(PROGS)' RESULTS_GPU='$(RESULTS_GPU)' bash $(COMMON)/profile.sh --report \
	    '$(if $(filter command line,$(origin PROG)),$(addprefix ./,$(RUN_PROGS)))' '$(subst ','\'',$(ROW))' '$(REPORT)' $(ARGS)

# make sass [PROG=name] [KERNELS='piece of a name;another']: the kernels' machine code (SASS) counted by
# opcode, side by side (common/sass_ops.py, through the cuobjdump next to this nvcc or on PATH);
# without KERNELS, the kernels each program holds.
CUOBJDUMP_NEXT_TO_NVCC := $(wildcard $(dir $(NVCC))cuobjdump)
sass: $(call BUILT,$(RUN_PROGS))
	@for p in $(RUN_PROGS); do \
	    $(if $(CUOBJDUMP_NEXT_TO_NVCC),CUOBJDUMP=$${CUOBJDUMP:-$(CUOBJDUMP_NEXT_TO_NVCC)}) \
	    python3 $(COMMON)/sass_ops.py ./$$p $(if $(KERNELS),'$(subst ;,' ',$(subst ','\'',$(KERNELS)))') || exit $$?; done

sanitize: $(call BUILT,$(PROGRAMS))
	@bash $(COMMON)/sanitize.sh $(addprefix ./,$(RUN_PROGS)) \
	    $(if $(HAS_SOLUTION),$(if $(filter command line,$(origin PROG)),,./solution))

test:
	@bash $(COMMON)/test.sh .

# make plot: the lesson's figures (SVG beside the README) from a stored run, by common/plot.sh:
# CSV=file(s) names the CSV (default: the committed results/<GPU>/ of RESULTS_GPU); a figure is
# replaced only when it was drawn.  Without gnuplot: one line saying how to get it.
RESULTS_GPU ?= NVIDIA_H100_80GB_HBM3
plot:
	@bash $(COMMON)/plot.sh . $(RESULTS_GPU) $(CSV)

clean:
	rm -rf build $(PROGRAMS)

print-%:
	@echo '$($*)'

help::
	@echo "make            build $(PROGRAMS) (ARCH=$(ARCH): $(if $(ARCH_ERROR),not buildable here; make says why,$(ARCH_FLAGS)))"
	@echo "make run        run the lesson (ARGS='--quick', '--csv', '--size ...' are passed on)"
	@echo "make check      verify every kernel at odd sizes (--check)"
	$(if $(HAS_EXERCISE),@echo "make exercise   build ./student from your exercise.cu: verify it (and run it under compute-sanitizer) then time it and give the verdict")
	@echo "make profile    Nsight Compute counters for the lesson's kernels"
	@echo "make profile-report PROG=name ROW=\"row\"  one row's launch, every Nsight Compute section and the"
	@echo "                source, into an .ncu-rep file for the Nsight Compute GUI (REPORT=path to choose)"
	@echo "make sass       the kernels' machine code counted by opcode (KERNELS='name piece;another': side"
	@echo "                by side; without KERNELS, the list of kernels; needs cuobjdump)"
	@echo "make sanitize   compute-sanitizer memcheck, racecheck, initcheck, synccheck on --check"
	@echo "make test       this lesson's tests (as the root 'make test' runs them)"
	@echo "make clean      remove build outputs"
	@echo "make plot       redraw the lesson's figures from results/$(RESULTS_GPU)/ (CSV=file: another run; needs gnuplot)"
	@echo "PROG=name       run, check, profile or sanitize only that program ($(PROGS))"
	@echo "ARCH=auto|native|sm_XY|compute_XY, or a list ('sm_75 sm_86'): GPU targets (default auto: the GPU"
	@echo "                present, if this nvcc can build for it; without a GPU sm_70/75,80,90+PTX)"
	@echo "VERBOSE=1       also print registers/shared memory per kernel (-Xptxas -v; rebuilds)"
	@echo "WERROR=0        warnings do not stop the build (your exercise.cu never stops on them)"
	@echo "NVCC=path HOSTCXX=g++-11 CUDART=shared NVCCFLAGS=.. LDFLAGS=..  compiler, host compiler,"
	@echo "                shared CUDA runtime, extra flags (appended to the course's own)"

-include $(wildcard $(BUILD)/*.d)
