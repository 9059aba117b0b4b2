# Shared build rules for every lesson.  A lesson's Makefile sets a few variables and includes this:
#
#   PROG            the program, built from $(PROG).cu (plus LOCAL_SRC if any)
#   PROGS           optional: several programs, in the order `make run` runs them (default $(PROG))
#   LOCAL_SRC       extra lesson-local .cu files (optional)
#   LESSON_LIBS     extra libraries, e.g. -lcublas (optional)
#   PROFILE_METRICS comma-separated Nsight Compute metrics for `make profile`
#   BAD_ARGS        lesson-specific bad arguments for `make test`, separated by ';'
#                   (the last word of each is the token the error message must name)
#   include ../common/lesson.mk
#
# If the lesson has exercise.cu, solution.cu and exercise_check.cu, two more programs are built:
# ./student (built from exercise.cu, the student's kernel) and ./solution (the reference), both
# driven by exercise_check.cu.

COMMON   := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
BUILD    := build
NVCC     ?= nvcc
CC       ?= gcc
ARCH     ?= auto
ARGS     ?=

# ---- target GPU ---------------------------------------------------------------------------
# auto: the GPU in this machine if nvidia-smi sees one, otherwise a fixed list so that a machine
# without a GPU (CI) still builds: sm_70 (sm_75 where the toolkit dropped Volta, as CUDA 13 did),
# sm_80, sm_90, and compute_90 PTX that newer GPUs compile at load time.
ifeq ($(ARCH),auto)
  HAVE_GPU := $(shell nvidia-smi -L 2>/dev/null | grep -q '^GPU' && echo yes)
  ifeq ($(HAVE_GPU),yes)
    ARCH_FLAGS := -arch=native
  else
    KNOWN_ARCHS := $(shell $(NVCC) --list-gpu-arch 2>/dev/null)
    FIRST_SM    := $(if $(filter compute_70,$(KNOWN_ARCHS)),70,75)
    ARCH_FLAGS  := $(foreach s,$(FIRST_SM) 80 90,-gencode arch=compute_$(s),code=sm_$(s)) \
                   -gencode arch=compute_90,code=compute_90
  endif
else ifeq ($(ARCH),native)
  ARCH_FLAGS := -arch=native
else
  ARCH_FLAGS := -arch=$(ARCH)
endif

# All warnings, warnings as errors, for device code (nvcc) and host code (the host compiler).
NVCCFLAGS := -O3 -lineinfo $(ARCH_FLAGS) -I$(COMMON) -Werror all-warnings -Wno-deprecated-gpu-targets \
             -Xcompiler -Wall,-Wextra,-Werror $(if $(VERBOSE),-Xptxas -v)
CFLAGS    := -std=c99 -O2 -Wall -Wextra -Werror -pedantic -I$(COMMON)
LDLIBS    := $(LESSON_LIBS) -ldl

COMMON_C   := $(wildcard $(COMMON)/*.c)
COMMON_CU  := $(wildcard $(COMMON)/*.cu)
COMMON_OBJ := $(patsubst $(COMMON)/%.c,$(BUILD)/common_%.o,$(COMMON_C)) \
              $(patsubst $(COMMON)/%.cu,$(BUILD)/common_%_cu.o,$(COMMON_CU))
HEADERS    := $(wildcard $(COMMON)/*.h $(COMMON)/*.cuh *.h *.cuh)
LOCAL_OBJ  := $(patsubst %.cu,$(BUILD)/%.o,$(LOCAL_SRC))

HAS_EXERCISE := $(wildcard exercise.cu)
PROGS    ?= $(PROG)
PROGRAMS := $(PROGS) $(if $(HAS_EXERCISE),student solution)

.PHONY: all run check profile sanitize clean help exercise test
.DEFAULT_GOAL := all

all: $(PROGRAMS)

$(BUILD):
	@mkdir -p $(BUILD)

# The ARCH flags are recorded so that changing ARCH rebuilds everything.
$(BUILD)/arch.stamp: FORCE | $(BUILD)
	@echo '$(ARCH_FLAGS)' | cmp -s - $@ || echo '$(ARCH_FLAGS)' > $@
FORCE:

$(BUILD)/common_%.o: $(COMMON)/%.c $(HEADERS) | $(BUILD)
	$(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/common_%_cu.o: $(COMMON)/%.cu $(HEADERS) $(BUILD)/arch.stamp | $(BUILD)
	$(NVCC) $(NVCCFLAGS) -c $< -o $@

$(BUILD)/%.o: %.cu $(HEADERS) $(BUILD)/arch.stamp | $(BUILD)
	$(NVCC) $(NVCCFLAGS) -c $< -o $@

$(PROGS): %: $(BUILD)/%.o $(LOCAL_OBJ) $(COMMON_OBJ)
	$(NVCC) $(ARCH_FLAGS) $^ -o $@ $(LDLIBS)

student: $(BUILD)/exercise.o $(BUILD)/exercise_check.o $(COMMON_OBJ)
	$(NVCC) $(ARCH_FLAGS) $^ -o $@ $(LDLIBS)

solution: $(BUILD)/solution.o $(BUILD)/exercise_check.o $(COMMON_OBJ)
	$(NVCC) $(ARCH_FLAGS) $^ -o $@ $(LDLIBS)

run: $(PROGS)
	@for p in $(PROGS); do ./$$p $(ARGS) || exit $$?; done

check: $(PROGRAMS)
	@for p in $(PROGS) $(if $(HAS_EXERCISE),solution); do ./$$p --check $(ARGS) || exit $$?; done

exercise: student
	./student $(ARGS)

profile: $(PROGS)
	@for p in $(PROGS); do bash $(COMMON)/profile.sh ./$$p '$(PROFILE_METRICS)' $(ARGS) || exit $$?; done

sanitize: $(PROGRAMS)
	@bash $(COMMON)/sanitize.sh $(addprefix ./,$(PROGS)) $(if $(HAS_EXERCISE),./solution)

test:
	@bash $(COMMON)/test.sh .

clean:
	rm -rf $(BUILD) $(PROGRAMS)

print-%:
	@echo '$($*)'

help::
	@echo "make            build $(PROGRAMS) (ARCH=$(ARCH): $(ARCH_FLAGS))"
	@echo "make run        run the lesson (ARGS='--quick', '--csv', '--size ...' are passed on)"
	@echo "make check      verify every kernel at odd sizes (--check)"
	$(if $(HAS_EXERCISE),@echo "make exercise   build ./student from your exercise.cu; verify and time it")
	@echo "make profile    Nsight Compute counters for the lesson's kernels"
	@echo "make sanitize   compute-sanitizer memcheck, racecheck, initcheck, synccheck on --check"
	@echo "make test       this lesson's tests (as the root 'make test' runs them)"
	@echo "make clean      remove build outputs"
	@echo "make VERBOSE=1  also print registers/shared memory per kernel (-Xptxas -v)"
	@echo "ARCH=sm_90|native|auto (default auto: the GPU present, else sm_70/75,80,90+PTX)"
