# What every build of the course shares: which nvcc, which GPU targets, which flags, and where the
# objects go.  Included by common/Makefile (the library) and common/lesson.mk (each lesson).
#
# Variables a user may set (make help lists them):
#   NVCC=path       the CUDA compiler (default: nvcc on PATH, else $CUDA_HOME/bin, else /usr/local/cuda/bin)
#   ARCH=auto|native|sm_XX   GPU targets (default auto: the GPU present, else a fixed list)
#   HOSTCXX=g++-11  the host compiler nvcc uses (nvcc's -ccbin); NVCC_CCBIN is read too
#   CUDART=shared   link the CUDA runtime as a shared library (default static)
#   NVCCFLAGS, CFLAGS, LDFLAGS   extra flags, appended after the course's own
#   WERROR=0        warnings stay warnings (default 1: warnings are errors; make test keeps 1)
#   VERBOSE=1       nvcc -Xptxas -v: registers, shared memory and spills of every kernel
#   CC=gcc          the C compiler for the host-only files

COMMON := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))

# ---- nvcc ---------------------------------------------------------------------------------------
# PATH first, then $CUDA_HOME/bin, then the toolkit's usual home: a student who installed CUDA but
# never added it to PATH still builds.
ifeq ($(origin NVCC),undefined)
  NVCC := $(firstword $(shell command -v nvcc 2>/dev/null) \
                      $(wildcard $(if $(CUDA_HOME),$(CUDA_HOME)/bin/nvcc)) \
                      $(wildcard /usr/local/cuda/bin/nvcc))
endif
NVCC_MISSING := $(if $(NVCC),$(if $(shell command -v $(NVCC) 2>/dev/null),,yes),yes)
NVCC_HELP := nvcc (the CUDA compiler) was not found on PATH, in $$CUDA_HOME/bin or in /usr/local/cuda/bin: install the CUDA Toolkit 11.8 or newer, or say where it is with NVCC=/path/to/nvcc or CUDA_HOME=/path/to/cuda.
# Goals that need no compiler: help, clean, print-VAR; and none in a tree we may not write (a
# shared build, TEACHING.md), where the programs already built are run as they are.
NEEDS_NVCC := $(if $(shell test -w $(COMMON) && echo yes),$(if $(MAKECMDGOALS),$(filter-out help clean plot print-%,$(MAKECMDGOALS)),all))
ifneq ($(NEEDS_NVCC),)
  ifeq ($(NVCC_MISSING),yes)
    $(error $(NVCC_HELP))
  endif
endif

# The toolkit's major version: 11.x needs two work-arounds below.
NVCC_MAJOR := $(if $(NVCC_MISSING),0,$(shell $(NVCC) --version 2>/dev/null | sed -n 's/.*release \([0-9]*\)\..*/\1/p'))

# ---- target GPU -----------------------------------------------------------------------------
# auto: the GPU in this machine if nvidia-smi sees one, otherwise a fixed list so that a machine
# without a GPU (CI) still builds: sm_70 (sm_75 where the toolkit dropped Volta, as CUDA 13 did),
# sm_80, sm_90, and compute_90 PTX that newer GPUs compile at load time.
ARCH ?= auto
FIXED_ARCH_FLAGS = $(foreach s,$(FIRST_SM) 80 90,-gencode arch=compute_$(s),code=sm_$(s)) \
                   -gencode arch=compute_90,code=compute_90
FIRST_SM = $(if $(filter compute_70,$(shell $(NVCC) --list-gpu-arch 2>/dev/null)),70,75)
HAVE_GPU := $(shell nvidia-smi -L 2>/dev/null | grep -q '^GPU' && echo yes)
ifeq ($(ARCH),auto)
  ARCH_FLAGS := $(if $(HAVE_GPU),-arch=native,$(FIXED_ARCH_FLAGS))
else ifeq ($(ARCH),native)
  # nvcc would fall back to its default target with a warning; say what happened instead.
  ifneq ($(HAVE_GPU),yes)
    ifneq ($(NEEDS_NVCC),)
      $(error ARCH=native needs a GPU that nvidia-smi can see, and there is none here. Build for the fixed list with ARCH=auto (sm_70/75, sm_80, sm_90 and PTX), or name a target: ARCH=sm_90)
    endif
  endif
  ARCH_FLAGS := -arch=native
else
  ARCH_FLAGS := -arch=$(ARCH)
endif

# ---- flags ------------------------------------------------------------------------------------
WERROR  ?= 1
CUDART  ?= static
HOSTCXX ?= $(NVCC_CCBIN)
ifeq ($(origin CC),default)
  CC := gcc
endif
# ptxas 11.8 crashes (exit 139) on some sm_90 kernels of lessons 04 and 06 when they carry line
# information: CUDA 11 builds go without -lineinfo (it only maps SASS back to source in ncu).
LINEINFO := $(if $(filter 11,$(NVCC_MAJOR)),,-lineinfo)
WERROR_NVCC = $(if $(filter 1,$(WERROR)),-Werror all-warnings)
WERROR_HOST = $(if $(filter 1,$(WERROR)),$(comma)-Werror)
comma := ,
# -MMD -MP: the compilers write each object's header dependencies next to it (build/.../*.d), so
# touching a header rebuilds only what includes it.
COURSE_NVCCFLAGS = -O3 $(LINEINFO) $(ARCH_FLAGS) -I$(COMMON) $(WERROR_NVCC) -Wno-deprecated-gpu-targets \
                   -Xcompiler -Wall,-Wextra$(WERROR_HOST) $(if $(HOSTCXX),-ccbin $(HOSTCXX)) \
                   $(if $(filter 1,$(VERBOSE)),-Xptxas -v) -MMD -MP
COURSE_CFLAGS    = -std=c99 -O2 -Wall -Wextra $(if $(filter 1,$(WERROR)),-Werror) -pedantic -I$(COMMON) -MMD -MP
# The cu11/cu12 runtime packages on PyPI carry no static cudart/cudadevrt: CUDART=shared links
# the shared library instead (run with LD_LIBRARY_PATH pointing at it).
COURSE_LDFLAGS   = $(ARCH_FLAGS) -Wno-deprecated-gpu-targets $(if $(HOSTCXX),-ccbin $(HOSTCXX)) \
                   $(if $(filter shared,$(CUDART)),-cudart shared -cudadevrt none)

# ---- where objects go --------------------------------------------------------------------------
# One folder per combination of what changes the machine code, so switching ARCH (or VERBOSE, or
# the compiler) never mixes objects, and switching back costs nothing.
BUILD_KEY := $(shell echo '$(ARCH_FLAGS)|$(NVCC)|$(HOSTCXX)|$(CUDART)|$(NVCCFLAGS)|$(VERBOSE)|$(LINEINFO)' | cksum | cut -d' ' -f1)
LIB_DIR   := $(COMMON)/build/$(BUILD_KEY)
LIB       := $(LIB_DIR)/libcourse.a
