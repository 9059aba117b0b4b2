# What every build of the course shares: which nvcc, which GPU targets, which flags, and where the
# objects go.  Included by common/Makefile (the library) and common/lesson.mk (each lesson).
#
# Variables a user may set (make help lists them):
#   NVCC=path       the CUDA compiler (default: nvcc on PATH, else $CUDA_HOME/bin, $CUDA_PATH/bin,
#                   /usr/local/cuda/bin)
#   ARCH=auto|native|sm_XY|compute_XY, or a list ("sm_75 sm_86")   GPU targets (default auto: the
#                   GPU present, else a fixed list); common/arch.sh says what each entry builds
#   HOSTCXX=g++-11  the host compiler nvcc uses (nvcc's -ccbin); NVCC_CCBIN is read too
#   CUDART=shared   link the CUDA runtime as a shared library (default static)
#   NVCCFLAGS, CFLAGS, LDFLAGS   extra flags, appended after the course's own
#   WERROR=0        warnings stay warnings (default 1: warnings are errors; make test keeps 1)
#   VERBOSE=1       nvcc -Xptxas -v: registers, shared memory and spills of every kernel
#   CC=gcc          the C compiler for the host-only files

COMMON := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))

# ---- nvcc ---------------------------------------------------------------------------------------
# PATH first, then $CUDA_HOME/bin and $CUDA_PATH/bin, then the toolkit's usual home: a student who
# installed CUDA but never added it to PATH still builds.
ifeq ($(origin NVCC),undefined)
  NVCC := $(firstword $(shell command -v nvcc 2>/dev/null) \
                      $(wildcard $(if $(CUDA_HOME),$(CUDA_HOME)/bin/nvcc)) \
                      $(wildcard $(if $(CUDA_PATH),$(CUDA_PATH)/bin/nvcc)) \
                      $(wildcard /usr/local/cuda/bin/nvcc))
endif
NVCC_MISSING := $(if $(NVCC),$(if $(shell command -v $(NVCC) 2>/dev/null),,yes),yes)
NVCC_HELP := nvcc (the CUDA compiler) was not found on PATH, in $$CUDA_HOME/bin, $$CUDA_PATH/bin or in /usr/local/cuda/bin: install the CUDA Toolkit 11.8 or newer, or say where it is with NVCC=/path/to/nvcc or CUDA_HOME=/path/to/cuda.
# Goals that need no compiler: help, clean, print-VAR; and none in a tree we may not write (a
# shared build, TEACHING.md), where the programs already built are run as they are.
NEEDS_NVCC := $(if $(shell test -w $(COMMON) && echo yes),$(if $(MAKECMDGOALS),$(filter-out help clean plot print-%,$(MAKECMDGOALS)),all))
ifneq ($(NEEDS_NVCC),)
  ifeq ($(NVCC_MISSING),yes)
    $(error $(NVCC_HELP))
  endif
endif

# The toolkit's version (11.8, 13.0, ...); its major version: 11.x needs two work-arounds below.
NVCC_VERSION := $(if $(NVCC_MISSING),,$(shell $(NVCC) --version 2>/dev/null | sed -n 's/.*release \([0-9][0-9]*\.[0-9][0-9]*\).*/\1/p' | head -1))
NVCC_MAJOR := $(if $(NVCC_MISSING),0,$(firstword $(subst ., ,$(NVCC_VERSION))))

# ---- target GPU -----------------------------------------------------------------------------
# common/arch.sh turns ARCH into nvcc's -gencode flags.  auto (the default): the GPU nvidia-smi sees,
# checked against this nvcc (nvcc --list-gpu-arch) and the course's compute capability 7.0;
# without a GPU (CI) a fixed list so that such a machine still builds: sm_70 (sm_75 where the
# toolkit dropped Volta, as CUDA 13 did), sm_80, sm_90, and compute_90 PTX that newer GPUs compile at
# load time.  native: the GPU, or an error without one.  sm_XY / compute_XY: that target (machine
# code / PTX only); a list builds each.  An nvcc older than 11.8, a GPU below 7.0, or a GPU or
# entry this nvcc cannot build for stops the build here, before anything is compiled, with one line
# that names the fix (arch.sh says "error: ..."); goals that need no compiler never stop.
ARCH ?= auto
ARCH_OUT   := $(shell bash '$(COMMON)/arch.sh' '$(if $(NVCC_MISSING),,$(NVCC))' '$(ARCH)' '$(NVCC_VERSION)')
ARCH_ERROR := $(if $(filter error:,$(firstword $(ARCH_OUT))),$(wordlist 2,$(words $(ARCH_OUT)),$(ARCH_OUT)))
ARCH_FLAGS := $(if $(ARCH_ERROR),,$(ARCH_OUT))
ifneq ($(NEEDS_NVCC),)
  ifneq ($(ARCH_ERROR),)
    $(error $(ARCH_ERROR))
  endif
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
