#!/usr/bin/env bash
# The build configuration (common/config.mk, common/arch.sh) with stand-in `nvcc` and `nvidia-smi`
# scripts, so that every case runs on a machine without a GPU: the GPU code a build chooses for the
# GPU present and for ARCH, and the one-line stop, before anything is compiled, for an nvcc older
# than 11.8, a GPU below compute capability 7.0, or a GPU this nvcc cannot build for.
# Prints one "PASS name" / "FAIL name" line per check (common/test.sh counts them); exit 1 if any
# failed.  Nothing is built: the builds are `make -n` (print the commands) and `make print-VAR`.
set -u
COMMON=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ROOT=$(dirname "$COMMON")
. "$COMMON/lessons.sh"
LESSON=$ROOT/$(course_lessons "$ROOT" | head -n 1)   # the first lesson stands for every one
# (an outer `make test NVCC=...` passes its variables down in MAKEFLAGS: each case names its own)
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES CUDA_VISIBLE_DEVICES ARCH NVCC
failed=0
ok()  { echo "PASS build: $*"; }
bad() { echo "FAIL build: $*"; failed=$((failed + 1)); }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin"

# stand-in nvidia-smi: FAKE_GPU="X.Y, name" as --query-gpu=compute_cap,name prints it (FAKE_GPU_1
# for -i 1), FAKE_GPU=none: no GPU (it fails as it does without a driver), FAKE_SMI_OLD=1: a driver
# too old to know the field compute_cap
cat >"$tmp/bin/nvidia-smi" <<'EOF'
#!/bin/sh
gpu=$FAKE_GPU
case " $* " in *" -i 1 "*) gpu=${FAKE_GPU_1:-$FAKE_GPU} ;; esac
if [ "$gpu" = none ]; then
    echo "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver."; exit 9
fi
case " $* " in
    *" -L "*) echo "GPU 0: ${gpu#*, } (UUID: GPU-00000000-0000-0000-0000-000000000000)" ;;
    *compute_cap*)
        if [ -n "${FAKE_SMI_OLD:-}" ]; then echo 'Field "compute_cap" is not a valid field to query.'; exit 2; fi
        echo "$gpu" ;;
    *) echo "$gpu" ;;
esac
EOF
# stand-in nvcc: FAKE_NVCC is its release, FAKE_ARCHS the compute capabilities it lists
cat >"$tmp/bin/nvcc" <<'EOF'
#!/bin/sh
case "$1" in
    --version) echo "nvcc: NVIDIA (R) Cuda compiler driver"
               echo "Cuda compilation tools, release $FAKE_NVCC, V$FAKE_NVCC.99" ;;
    --list-gpu-arch) for a in $FAKE_ARCHS; do echo "compute_$a"; done ;;
esac
exit 0
EOF
chmod +x "$tmp/bin/nvidia-smi" "$tmp/bin/nvcc"
# what nvcc --list-gpu-arch prints, release by release (12.6 and 13.0 as NVIDIA's nvcc lists them)
ARCHS_11_7="35 37 50 52 53 60 61 62 70 72 75 80 86 87"
ARCHS_12_6="50 52 53 60 61 62 70 72 75 80 86 87 89 90"
ARCHS_13_0="75 80 86 87 88 89 90 100 110 103 120 121"

# mk GPU RELEASE ARCHS MAKE-ARGS...: make in lesson 01 with the stand-ins on PATH and as NVCC;
# stdout and stderr in $tmp/out; echoes make's exit code
extra=()   # more variables for the next mk
mk() {
    local gpu=$1 release=$2 archs=$3
    shift 3
    env ${extra[@]+"${extra[@]}"} PATH="$tmp/bin:$PATH" FAKE_GPU="$gpu" FAKE_NVCC="$release" FAKE_ARCHS="$archs" \
        make --no-print-directory -C "$LESSON" NVCC="$tmp/bin/nvcc" "$@" >"$tmp/out" 2>&1
    echo $?
}
# stopped RC STRING...: make failed with one "*** ... Stop." line holding every STRING, and no
# command ran before it (make -n printed nothing: the stop came while reading the makefiles)
stopped() {
    local rc=$1 s
    shift
    [ "$rc" != 0 ] && [ "$(grep -c '\*\*\*' "$tmp/out")" = 1 ] && grep -q '\*\*\*.*Stop\.$' "$tmp/out" || return 1
    ! grep -q -- '-c .*\.cu' "$tmp/out" || return 1
    for s in "$@"; do grep -qF -- "$s" "$tmp/out" || return 1; done
}
first() { grep -m1 '\*\*\*' "$tmp/out" | cut -c1-200; }
# compiles_with RC FLAGS: make -n succeeded and every nvcc compile line of the lesson carries exactly FLAGS
compiles_with() {
    local rc=$1 want=$2 line n=0
    [ "$rc" = 0 ] || return 1
    while IFS= read -r line; do
        n=$((n + 1))
        [[ $line == *" $want -I"* ]] || return 1
        [[ $line != *"-arch="* ]] || return 1
    done < <(grep -- ' -c .*\.cu ' "$tmp/out")
    [ $n -gt 0 ]
}

# ---- the GPU present, ARCH=auto (the default) -----------------------------------------------------
rc=$(mk "12.0, NVIDIA GeForce RTX 5090" 12.6 "$ARCHS_12_6" -n all)
if stopped "$rc" "NVIDIA GeForce RTX 5090 (sm_120" "needs CUDA 12.8 or newer" "CUDA 12.6" "NVCC=" "ARCH=compute_90"; then
    ok "an RTX 50 (sm_120) with CUDA 12.6 stops the build in one line: needs CUDA 12.8 or newer, or PTX (ARCH=compute_90)"
else bad "an RTX 50 (sm_120) with CUDA 12.6 stops the build naming CUDA 12.8 (exit $rc: $(first))"; fi

rc=$(mk "7.0, Tesla V100-SXM2-16GB" 13.0 "$ARCHS_13_0" -n all)
if stopped "$rc" "Tesla V100-SXM2-16GB (sm_70" "needs CUDA 12.x or older" "CUDA 13 dropped Volta" "NVCC="; then
    ok "a V100 (sm_70) with CUDA 13.0 stops the build in one line: CUDA 13 dropped Volta, use CUDA 12.x"
else bad "a V100 (sm_70) with CUDA 13.0 stops the build saying CUDA 13 dropped Volta (exit $rc: $(first))"; fi

rc=$(mk "6.1, NVIDIA GeForce GTX 1080" 12.6 "$ARCHS_12_6" -n all)
if stopped "$rc" "compute capability 6.1" "NVIDIA GeForce GTX 1080" "below the course's 7.0" "RUNNING.md"; then
    ok "a GPU of compute capability 6.1 stops the build in one line: below the course's 7.0"
else bad "a GPU of compute capability 6.1 stops the build: below the course's 7.0 (exit $rc: $(first))"; fi

rc=$(mk "7.5, Tesla T4" 11.7 "$ARCHS_11_7" -n all)
if stopped "$rc" "CUDA 11.7 is too old" "11.8 or newer" "NVCC=/path/to/nvcc"; then
    ok "nvcc 11.7 stops the build in one line: the course needs CUDA 11.8 or newer"
else bad "nvcc 11.7 stops the build: the course needs CUDA 11.8 or newer (exit $rc: $(first))"; fi
rc=$(mk none 11.7 "$ARCHS_11_7" -n all)
if stopped "$rc" "CUDA 11.7 is too old"; then ok "nvcc 11.7 stops the build without a GPU too"
else bad "nvcc 11.7 stops the build without a GPU too (exit $rc: $(first))"; fi

rc=$(mk "8.6, NVIDIA GeForce RTX 3080" 12.6 "$ARCHS_12_6" -n all)
if compiles_with "$rc" "-gencode arch=compute_86,code=sm_86"; then
    ok "an RTX 30 (sm_86) with CUDA 12.6 compiles -gencode arch=compute_86,code=sm_86 (not -arch=native)"
else bad "an RTX 30 (sm_86) compiles -gencode arch=compute_86,code=sm_86 (exit $rc: $(grep -m1 -- ' -c ' "$tmp/out" | cut -c1-160))"; fi

rc=$(mk "12.0, NVIDIA GeForce RTX 5090" 13.0 "$ARCHS_13_0" -n all)
if compiles_with "$rc" "-gencode arch=compute_120,code=sm_120"; then ok "an RTX 50 (sm_120) with CUDA 13.0 compiles for sm_120"
else bad "an RTX 50 (sm_120) with CUDA 13.0 compiles for sm_120 (exit $rc: $(first))"; fi

extra=(FAKE_SMI_OLD=1)
rc=$(mk "9.0, NVIDIA H100 80GB HBM3" 12.6 "$ARCHS_12_6" -s print-ARCH_FLAGS)
extra=()
if [ "$rc" = 0 ] && [ "$(cat "$tmp/out")" = "-arch=native" ]; then
    ok "a driver too old to report compute_cap: -arch=native, as before"
else bad "a driver too old to report compute_cap: -arch=native (exit $rc: $(head -1 "$tmp/out"))"; fi

extra=(CUDA_VISIBLE_DEVICES=1 "FAKE_GPU_1=8.0, NVIDIA A100-SXM4-40GB")
rc=$(mk "9.0, NVIDIA H100 80GB HBM3" 12.6 "$ARCHS_12_6" -s print-ARCH_FLAGS)
extra=()
if [ "$rc" = 0 ] && [ "$(cat "$tmp/out")" = "-gencode arch=compute_80,code=sm_80" ]; then
    ok "CUDA_VISIBLE_DEVICES=1: the build targets that GPU (sm_80), not the first (sm_90)"
else bad "CUDA_VISIBLE_DEVICES=1: the build targets that GPU (exit $rc: $(head -1 "$tmp/out"))"; fi

# goals that need no compiler never stop, even where a build would
for goal in help print-PROGS; do
    rc=$(mk "12.0, NVIDIA GeForce RTX 5090" 12.6 "$ARCHS_12_6" -s "$goal")
    if [ "$rc" = 0 ] && ! grep -q '\*\*\*' "$tmp/out"; then ok "make $goal works where a build would stop"
    else bad "make $goal works where a build would stop (exit $rc: $(first))"; fi
done

# ---- no GPU: the fixed list -----------------------------------------------------------------------
fixed="-gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90"
rc=$(mk none 12.6 "$ARCHS_12_6" -s print-ARCH_FLAGS)
if [ "$rc" = 0 ] && [ "$(cat "$tmp/out")" = "-gencode arch=compute_70,code=sm_70 $fixed" ]; then
    ok "no GPU, CUDA 12.6: the fixed list sm_70, sm_80, sm_90 and compute_90 PTX"
else bad "no GPU, CUDA 12.6: the fixed list (got: $(head -1 "$tmp/out"))"; fi
rc=$(mk none 13.0 "$ARCHS_13_0" -s print-ARCH_FLAGS)
if [ "$rc" = 0 ] && [ "$(cat "$tmp/out")" = "-gencode arch=compute_75,code=sm_75 $fixed" ]; then
    ok "no GPU, CUDA 13.0: the fixed list starts at sm_75 (Volta dropped)"
else bad "no GPU, CUDA 13.0: the fixed list starts at sm_75 (got: $(head -1 "$tmp/out"))"; fi
rc=$(mk none 13.0 "$ARCHS_13_0" -n all ARCH=native)
if stopped "$rc" "ARCH=native needs a GPU that nvidia-smi can see"; then ok "ARCH=native without a GPU stops the build and says so"
else bad "ARCH=native without a GPU stops the build and says so (exit $rc: $(first))"; fi

# ---- ARCH lists and entries -----------------------------------------------------------------------
want="-gencode arch=compute_75,code=sm_75 -gencode arch=compute_86,code=sm_86"
rc=$(mk none 12.6 "$ARCHS_12_6" -s print-ARCH_FLAGS ARCH="sm_75 sm_86")
if [ "$rc" = 0 ] && [ "$(cat "$tmp/out")" = "$want" ]; then ok "ARCH=\"sm_75 sm_86\": one -gencode per entry"
else bad "ARCH=\"sm_75 sm_86\": one -gencode per entry (got: $(head -1 "$tmp/out"))"; fi
rc=$(mk none 12.6 "$ARCHS_12_6" -n all ARCH="sm_75,sm_86")
if compiles_with "$rc" "$want"; then ok "ARCH=sm_75,sm_86 (commas): every compile line carries both"
else bad "ARCH=sm_75,sm_86: every compile line carries both (exit $rc: $(first))"; fi
rc=$(mk "9.0, NVIDIA H100 80GB HBM3" 12.6 "$ARCHS_12_6" -s print-ARCH_FLAGS ARCH="native compute_80")
if [ "$rc" = 0 ] && [ "$(cat "$tmp/out")" = "-gencode arch=compute_90,code=sm_90 -gencode arch=compute_80,code=compute_80" ]; then
    ok "ARCH=\"native compute_80\": the GPU's sm_90 and compute_80 PTX"
else bad "ARCH=\"native compute_80\" (got: $(head -1 "$tmp/out"))"; fi
for ptx in compute_75 compute_80; do
    rc=$(mk "9.0, NVIDIA H100 80GB HBM3" 13.0 "$ARCHS_13_0" -n all ARCH=$ptx)
    if compiles_with "$rc" "-gencode arch=$ptx,code=$ptx"; then ok "ARCH=$ptx: PTX only (-gencode arch=$ptx,code=$ptx)"
    else bad "ARCH=$ptx: PTX only (exit $rc: $(first))"; fi
done
rc=$(mk none 12.6 "$ARCHS_12_6" -n all ARCH=sm_120)
if stopped "$rc" "ARCH entry sm_120" "needs CUDA 12.8 or newer"; then ok "ARCH=sm_120 with CUDA 12.6 stops: needs CUDA 12.8 or newer"
else bad "ARCH=sm_120 with CUDA 12.6 stops: needs CUDA 12.8 or newer (exit $rc: $(first))"; fi
rc=$(mk none 12.6 "$ARCHS_12_6" -n all ARCH=sm_61)
if stopped "$rc" "ARCH entry sm_61" "below the course's compute capability 7.0"; then ok "ARCH=sm_61 stops: below the course's 7.0"
else bad "ARCH=sm_61 stops: below the course's 7.0 (exit $rc: $(first))"; fi
rc=$(mk none 12.6 "$ARCHS_12_6" -n all ARCH=sm75)
if stopped "$rc" "ARCH entry 'sm75'" "sm_XY"; then ok "ARCH=sm75 (a typo) stops, naming the entry and the forms"
else bad "ARCH=sm75 (a typo) stops, naming the entry (exit $rc: $(first))"; fi

# ---- where nvcc is found: CUDA_PATH like CUDA_HOME ------------------------------------------------
mkdir -p "$tmp/cuda-path/bin" "$tmp/cuda-home/bin"
cp "$tmp/bin/nvcc" "$tmp/cuda-path/bin/nvcc"
cp "$tmp/bin/nvcc" "$tmp/cuda-home/bin/nvcc"
if [ -z "$(PATH=/usr/bin:/bin command -v nvcc)" ]; then
    got=$(env -u CUDA_HOME PATH=/usr/bin:/bin CUDA_PATH="$tmp/cuda-path" FAKE_GPU=none \
          make -s --no-print-directory -C "$COMMON" print-NVCC 2>&1)
    if [ "$got" = "$tmp/cuda-path/bin/nvcc" ]; then ok "nvcc is found in \$CUDA_PATH/bin"
    else bad "nvcc is found in \$CUDA_PATH/bin (got '$got')"; fi
    got=$(env PATH=/usr/bin:/bin CUDA_HOME="$tmp/cuda-home" CUDA_PATH="$tmp/cuda-path" FAKE_GPU=none \
          make -s --no-print-directory -C "$COMMON" print-NVCC 2>&1)
    if [ "$got" = "$tmp/cuda-home/bin/nvcc" ]; then ok "\$CUDA_HOME comes before \$CUDA_PATH"
    else bad "\$CUDA_HOME comes before \$CUDA_PATH (got '$got')"; fi
else
    echo "(CUDA_PATH: skipped, /usr/bin or /bin holds an nvcc)"
fi

[ "$failed" = 0 ]
