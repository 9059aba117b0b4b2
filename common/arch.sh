#!/usr/bin/env bash
# config.mk's choice of GPU code: the nvcc flags for ARCH, this nvcc and this GPU.
#
#   arch.sh NVCC ARCH [NVCC_VERSION]
#
# Prints the flags on one line, or one line "error: <what is wrong and the fix>", which config.mk
# turns into a stop of the build when the goal needs nvcc (make help, clean, print-VAR never stop).
# Exits 0 either way: config.mk reads what it prints.
#
# ARCH is a list of entries, separated by spaces or commas:
#   auto        the GPU nvidia-smi sees; with none (CI, a login node) a fixed list: sm_70 (sm_75 when
#               this nvcc has dropped Volta, as CUDA 13 did), sm_80, sm_90 and compute_90 PTX
#   native      the GPU nvidia-smi sees; an error when it sees none
#   sm_XY       machine code for compute capability X.Y only (sm_90a, sm_120f: those variants)
#   compute_XY  PTX only, which the driver compiles at load time for any GPU of X.Y or newer
# Each entry gives one -gencode.  "The GPU" is the first one nvidia-smi lists, or the first of
# CUDA_VISIBLE_DEVICES when that is set (the GPU the lessons use when the numbering agrees).  Its
# compute capability (nvidia-smi --query-gpu=compute_cap) is checked against the course's minimum,
# 7.0, and against the targets this nvcc can build (nvcc --list-gpu-arch); an nvcc older than 11.8
# is refused.  A driver too old to report compute_cap gets -arch=native, as before.
set -u
nvcc=${1:-}
arch=${2:-auto}
version=${3:-}
fail() { echo "error: $*"; exit 0; }

# ---- the toolkit --------------------------------------------------------------------------------
if [ -z "$version" ] && [ -n "$nvcc" ]; then
    version=$($nvcc --version 2>/dev/null | sed -n 's/.*release \([0-9][0-9]*\.[0-9][0-9]*\).*/\1/p' | head -1)
fi
major=${version%%.*}
minor=${version#*.}
if [ -n "$version" ] && { [ "$major" -lt 11 ] || { [ "$major" = 11 ] && [ "$minor" -lt 8 ]; }; }; then
    fail "CUDA $version is too old: the course needs the CUDA Toolkit 11.8 or newer ($nvcc is CUDA $version). Install a newer toolkit and name it with NVCC=/path/to/nvcc or CUDA_HOME=/path/to/cuda"
fi
# The compute capabilities this nvcc builds for, as numbers (75 80 86 ...), oldest first; none when
# nvcc is missing or says nothing (then nothing is checked here: nvcc itself will say).
known=$( { [ -n "$nvcc" ] && $nvcc --list-gpu-arch 2>/dev/null; } |
         sed -n 's/^compute_\([0-9][0-9]*\)[af]\{0,1\}$/\1/p' | sort -nu | tr '\n' ' ')
read -r -a known_list <<<"$known"
oldest="" newest=""
if [ ${#known_list[@]} -gt 0 ]; then
    oldest=${known_list[0]}
    newest=${known_list[${#known_list[@]}-1]}
fi
knows() { [ -z "$known" ] || [[ " $known " == *" $1 "* ]]; }
this_nvcc="this nvcc ($nvcc) is CUDA ${version:-of unknown version}"

# ---- what the notes and messages call a compute capability ----------------------------------------
# family XY: the architecture and well-known GPUs of compute capability X.Y (NVIDIA's CUDA GPUs list)
family() {
    case $1 in
        30|32|35|37) echo "Kepler, e.g. K80" ;;
        50|52|53) echo "Maxwell, e.g. GTX 900, M40" ;;
        60) echo "Pascal, e.g. P100" ;;
        61) echo "Pascal, e.g. GTX 10, P4, P40" ;;
        62) echo "Pascal, Jetson TX2" ;;
        70) echo "Volta, e.g. V100, Titan V" ;;
        72) echo "Volta, Jetson AGX Xavier" ;;
        75) echo "Turing, e.g. T4, RTX 20, GTX 16" ;;
        80) echo "Ampere, e.g. A100, A30" ;;
        86) echo "Ampere, e.g. RTX 30, A10, A40" ;;
        87) echo "Ampere, Jetson Orin" ;;
        89) echo "Ada, e.g. RTX 40, L4, L40S" ;;
        90) echo "Hopper, e.g. H100, H200" ;;
        100) echo "Blackwell, e.g. B200" ;;
        101|110) echo "Blackwell, Jetson Thor" ;;
        103) echo "Blackwell, e.g. B300" ;;
        120) echo "Blackwell, e.g. RTX 50" ;;
        121) echo "Blackwell, DGX Spark" ;;
        *) echo "compute capability $(( $1 / 10 )).$(( $1 % 10 ))" ;;
    esac
}
# first_cuda XY: the first CUDA release that builds machine code for X.Y (release notes of 11.8,
# 12.8, 12.9, 13.0), for the ones a course toolkit (11.8 or newer) can lack
first_cuda() {
    case $1 in
        100|101|120) echo 12.8 ;;
        103|121) echo 12.9 ;;
        110) echo 13.0 ;;
        *) echo "" ;;
    esac
}
# newest_below XY: the newest target of this nvcc below X.Y (its PTX runs on X.Y)
newest_below() {
    local k best=""
    for k in ${known_list[@]+"${known_list[@]}"}; do [ "$k" -lt "$1" ] && best=$k; done
    echo "$best"
}

# not_buildable XY WHAT WHOM: the message for a compute capability this nvcc has no target for
# (WHAT names it, WHOM is how the PTX advice refers to it)
not_buildable() {
    local n=$1 what=$2 whom=$3 first below ptx
    below=$(newest_below "$n")
    ptx=${below:+, or build PTX that the driver compiles for $whom at load time: ARCH=compute_$below}
    if [ -n "$newest" ] && [ "$n" -gt "$newest" ]; then
        first=$(first_cuda "$n")
        if [ -n "$first" ]; then
            echo "$what needs CUDA $first or newer, and $this_nvcc: install CUDA $first or newer and name its nvcc with NVCC=/path/to/nvcc or CUDA_HOME=/path/to/cuda$ptx"
        else
            echo "$what needs a CUDA newer than $this_nvcc knows (its newest target is sm_$newest): install a newer toolkit and name its nvcc with NVCC=/path/to/nvcc$ptx"
        fi
    elif [ -n "$oldest" ] && [ "$n" -lt "$oldest" ]; then
        if [ "$n" -lt 75 ] && [ "${major:-0}" -ge 13 ]; then
            echo "$what needs CUDA 12.x or older: CUDA 13 dropped Volta, and $this_nvcc. Install CUDA 11.8 to 12.9 and name it with NVCC=/path/to/cuda-12/bin/nvcc or CUDA_HOME=/path/to/cuda-12"
        else
            echo "$what needs an older CUDA: $this_nvcc, whose oldest target is sm_$oldest. Install one that builds sm_$n and name it with NVCC=/path/to/nvcc"
        fi
    else
        local targets k
        targets=$(for k in ${known_list[@]+"${known_list[@]}"}; do printf 'sm_%s ' "$k"; done)
        echo "$what is not a target of this nvcc ($nvcc, CUDA ${version:-of unknown version}; its targets: ${targets% }): name another toolkit with NVCC=/path/to/nvcc$ptx"
    fi
}

# ---- the GPU ----------------------------------------------------------------------------------------
gpu_cc="" gpu_name="" gpu_seen=""
query_gpu() {
    local first=${CUDA_VISIBLE_DEVICES:-} line=""
    first=${first%%,*}
    if [ -n "$first" ]; then
        line=$(nvidia-smi --query-gpu=compute_cap,name --format=csv,noheader -i "$first" 2>/dev/null | head -1)
    fi
    [[ $line =~ ^[0-9]+\.[0-9]+, ]] ||
        line=$(nvidia-smi --query-gpu=compute_cap,name --format=csv,noheader 2>/dev/null | head -1)
    if [[ $line =~ ^([0-9]+)\.([0-9]+),[[:space:]]*(.*)$ ]]; then
        gpu_cc=$((10 * BASH_REMATCH[1] + BASH_REMATCH[2]))
        gpu_name=${BASH_REMATCH[3]}
        gpu_seen=yes
    elif nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
        gpu_seen=yes   # a GPU, but a driver that does not report compute_cap
    fi
}

flags=()
add() {
    local f="-gencode arch=$1,code=$2" x
    for x in ${flags[@]+"${flags[@]}"}; do [ "$x" = "$f" ] && return; done
    flags+=("$f")
}

# gpu_flags ENTRY: the code for the GPU present (auto, native)
gpu_flags() {
    local n=$gpu_cc what
    if [ -z "$n" ]; then
        add_native=yes
        return
    fi
    what="this GPU, $gpu_name (sm_$n: $(family "$n")),"
    if [ "$n" -lt 70 ]; then
        fail "a GPU of compute capability $((n / 10)).$((n % 10)) ($gpu_name: $(family "$n")) is below the course's 7.0: the lessons need a Volta (V100) or newer GPU. Run them on another one: RUNNING.md lists where (Colab's and Kaggle's free T4 is 7.5)"
    fi
    knows "$n" || fail "$(not_buildable "$n" "$what" "this GPU")"
    add "compute_$n" "sm_$n"
}

add_native=""
queried=""
IFS=', ' read -r -a entries <<<"$arch"
[ ${#entries[@]} -gt 0 ] || entries=(auto)
for e in "${entries[@]}"; do
    [ -n "$e" ] || continue
    case $e in
        auto|native)
            [ -n "$queried" ] || { query_gpu; queried=yes; }
            if [ -n "$gpu_seen" ]; then
                gpu_flags
            elif [ "$e" = native ]; then
                fail "ARCH=native needs a GPU that nvidia-smi can see, and there is none here. Build for the fixed list with ARCH=auto (sm_70/75, sm_80, sm_90 and PTX), or name a target: ARCH=sm_90"
            else
                first=75
                knows 70 && [ -n "$known" ] && first=70
                for s in $first 80 90; do add "compute_$s" "sm_$s"; done
                add compute_90 compute_90
            fi
            ;;
        *)
            if [[ $e =~ ^(sm|compute)_([0-9]+)([af]?)$ ]]; then
                kind=${BASH_REMATCH[1]} n=${BASH_REMATCH[2]} suffix=${BASH_REMATCH[3]}
                if [ "$n" -lt 70 ]; then
                    fail "ARCH entry $e is below the course's compute capability 7.0 ($(family "$n")): the lessons need sm_70 or newer, e.g. ARCH=sm_75"
                fi
                knows "$n" || fail "ARCH entry $e: $(not_buildable "$n" "sm_$n ($(family "$n"))" it)"
                if [ "$kind" = sm ]; then add "compute_$n$suffix" "sm_$n$suffix"
                else add "compute_$n$suffix" "compute_$n$suffix"; fi
            else
                fail "ARCH entry '$e' is not auto, native, sm_XY or compute_XY (e.g. ARCH=sm_86, ARCH=\"sm_75 sm_86\", ARCH=compute_75)"
            fi
            ;;
    esac
done
# An older driver without compute_cap: nvcc's own detection, as the course did before
[ -n "$add_native" ] && flags+=("-arch=native")
echo "${flags[*]}"
