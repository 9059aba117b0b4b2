#!/usr/bin/env bash
# make answers (needs a GPU): runs the commands that answer each lesson's predictions and
# exercises (ANSWER_RUNS in the lesson's Makefile, separated by ';', each run in the lesson's
# folder) and stores their output in results/<GPU>/answers/<lesson>.txt, which the instructors'
# pages (teaching/<lesson>.md) quote.  usage: answers.sh [lesson dirs...]
set -u
COMMON=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$COMMON")
TARGET=answers
# shellcheck source=run_info.sh
. "$COMMON/run_info.sh"
mkdir -p "$ROOT/results/$slug/answers"
# shellcheck source=lessons.sh
. "$COMMON/lessons.sh"
[ $# -eq 0 ] && set -- $(course_lesson_dirs "$ROOT")
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
    total=0
    for cmd in "${runs[@]}"; do [ -n "$(echo "$cmd" | tr -d ' ')" ] && total=$((total + 1)); done
    k=0
    for cmd in "${runs[@]}"; do
        cmd=$(echo "$cmd" | sed 's/^ *//; s/ *$//')
        [ -n "$cmd" ] || continue
        echo "== $name: running $cmd ... ($((k += 1)) of $total)"
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
