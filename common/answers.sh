#!/usr/bin/env bash
# make answers (needs a GPU): runs the commands that answer each lesson's predictions and
# exercises (ANSWER_RUNS in the lesson's Makefile, separated by ';', each run in the lesson's
# folder) and stores their output in results/<GPU>/answers/<lesson>.txt, which the instructors'
# pages (teaching/<lesson>.md) quote.  usage: answers.sh [lesson dirs...]
set -u
COMMON=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$COMMON")
if ! nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
    echo "make answers needs a GPU (nvidia-smi sees none). Nothing was changed."
    exit 3
fi
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader -i "${CUDA_VISIBLE_DEVICES:-0}" 2>/dev/null | head -1)
driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)
cuda=$(nvcc --version 2>/dev/null | sed -n 's/.*release \([0-9.]*\),.*/\1/p')
day=$(date -u +%F)
slug=$(echo "$gpu" | sed 's/[^A-Za-z0-9]\+/_/g; s/_$//')
mkdir -p "$ROOT/results/$slug/answers"
[ $# -eq 0 ] && set -- "$ROOT"/0*/
status=0
for d in "$@"; do
    d=${d%/}
    [ -f "$d/Makefile" ] || continue
    name=$(basename "$d")
    IFS=';' read -r -a runs <<<"$(make -s --no-print-directory -C "$d" print-ANSWER_RUNS)"
    [ ${#runs[@]} -gt 0 ] || continue
    make -s --no-print-directory -C "$d" all >/dev/null || { echo "$name: build failed"; status=1; continue; }
    out="$ROOT/results/$slug/answers/$name.txt"
    {
        echo "Answers to $name's predictions and exercises, measured on an $gpu with CUDA $cuda"
        echo "(driver $driver), $day, by \`make answers\` (the commands are ANSWER_RUNS in $name/Makefile)."
    } >"$out"
    for cmd in "${runs[@]}"; do
        cmd=$(echo "$cmd" | sed 's/^ *//; s/ *$//')
        [ -n "$cmd" ] || continue
        t0=$(date +%s%N)
        { echo; echo "\$ $cmd"; } >>"$out"
        (cd "$d" && bash -c "$cmd") >>"$out" 2>&1
        rc=$?
        echo "== $name: $cmd ($(( ($(date +%s%N) - t0) / 1000000 )) ms, exit $rc)"
        [ $rc -eq 0 ] || { echo "(exit $rc)" >>"$out"; status=1; }
    done
done
echo "Answers are in results/$slug/answers/."
exit $status
