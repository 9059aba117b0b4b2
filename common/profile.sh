#!/usr/bin/env bash
# make profile: runs a lesson once under Nsight Compute with the lesson's metrics and prints one
# compact table row per kernel, named after the lesson's own table rows (NVTX ranges "L:<row>").
# usage: profile.sh ./program "metric1,metric2,..." [program args...]
set -u
prog=$1
metrics=$2
shift 2
COMMON=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
NCU=${NCU:-ncu}
if ! command -v "$NCU" >/dev/null 2>&1; then
    [ -x /usr/local/cuda/bin/ncu ] && NCU=/usr/local/cuda/bin/ncu
fi
if ! command -v "$NCU" >/dev/null 2>&1; then
    echo "make profile needs Nsight Compute's 'ncu', which is neither on PATH nor in /usr/local/cuda/bin." >&2
    echo "It is the CUDA Toolkit's Nsight Compute component (NVIDIA's package cuda-nsight-compute-<version>," >&2
    echo "e.g. cuda-nsight-compute-13-0); put its folder on PATH or say NCU=/path/to/ncu. Nothing was profiled." >&2
    exit 2
fi
if ! command -v python3 >/dev/null 2>&1; then
    echo "make profile needs python3 to format ncu's CSV (Debian/Ubuntu: apt-get install python3). Nothing was profiled." >&2
    exit 2
fi
if [ -z "$metrics" ]; then
    echo "this lesson sets no PROFILE_METRICS" >&2
    exit 2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# One timed launch per kernel, no warm-up, no flush of our own: ncu flushes the caches before
# every profiled kernel (--cache-control all, its default).  --clock-control none keeps the GPU's
# own clocks, as the timings were taken.  The program's --csv rows carry the useful bytes per row.
echo "Profiling $prog with ncu (one launch per kernel; this takes a while) ..."
"$NCU" --clock-control none --nvtx --print-nvtx-rename kernel --print-units base --csv \
    --metrics "$metrics" --log-file "$tmp/ncu.csv" \
    "$prog" --reps 1 --warmup 0 --no-flush --csv "$@" >"$tmp/rows.csv" 2>"$tmp/err"
rc=$?
if [ $rc -ne 0 ]; then
    echo "ncu or the program failed (exit $rc):"
    tail -20 "$tmp/err"
    tail -20 "$tmp/ncu.csv" 2>/dev/null
    exit 1
fi
python3 "$COMMON/ncu_table.py" "$tmp/ncu.csv" "$tmp/rows.csv"
