#!/usr/bin/env bash
# make results (needs a GPU): reruns every lesson, stores its CSV rows under results/<GPU>/, and
# refreshes the measured output in each lesson's README between <!-- results:begin/end --> (and
# <!-- profile:begin/end --> when ncu is there), naming the GPU, CUDA version and date.
# A lesson's Makefile may list extra runs for its README in RESULTS_ARGS, separated by ';'
# (every program of the lesson also runs once with no arguments).
# usage: results.sh [lesson dirs...]
set -u
COMMON=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$COMMON")
if ! nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
    echo "make results needs a GPU (nvidia-smi sees none). Nothing was changed."
    exit 3
fi
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader -i "${CUDA_VISIBLE_DEVICES:-0}" 2>/dev/null | head -1)
[ -n "$gpu" ] || gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)
cuda=$(nvcc --version 2>/dev/null | sed -n 's/.*release \([0-9.]*\),.*/\1/p')
day=$(date -u +%F)
slug=$(echo "$gpu" | sed 's/[^A-Za-z0-9]\+/_/g; s/_$//')
mkdir -p "$ROOT/results/$slug"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ $# -eq 0 ] && set -- "$ROOT"/0*/
status=0
for d in "$@"; do
    d=${d%/}
    [ -f "$d/Makefile" ] || continue
    name=$(basename "$d")
    read -r -a progs <<<"$(make -s --no-print-directory -C "$d" print-PROGS)"
    make -s --no-print-directory -C "$d" all >/dev/null || { echo "$name: build failed"; status=1; continue; }
    IFS=';' read -r -a runs <<<"$(make -s --no-print-directory -C "$d" print-RESULTS_ARGS)"
    [ ${#runs[@]} -eq 0 ] && runs=("")
    {
        echo "Measured on an $gpu with CUDA $cuda (driver $driver), $day, by \`make results\`."
        echo
    } >"$tmp/block"
    # every program once with no arguments, then the first with each RESULTS_ARGS entry
    jobs=()
    for p in "${progs[@]}"; do jobs+=("$p|"); done
    for args in "${runs[@]}"; do [ -n "$(echo "$args" | tr -d ' ')" ] && jobs+=("${progs[0]}|$args"); done
    for job in "${jobs[@]}"; do
        prog=${job%%|*}
        args=${job#*|}
        args=$(echo "$args" | sed 's/^ *//; s/ *$//')
        t0=$(date +%s%N)
        # The run without arguments also writes its rows, as --csv would print them, to the CSV
        # (report.c's LESSON_SUMMARY_FILE): the CSV and the README block are the same measurement.
        csv=/dev/null
        [ -z "$args" ] && { csv="$tmp/$prog.csv"; rm -f "$csv"; }
        # shellcheck disable=SC2086
        (cd "$d" && LESSON_SUMMARY_FILE=$csv ./"$prog" $args) >"$tmp/out" 2>&1
        rc=$?
        echo "== $name: ./$prog $args ($(( ($(date +%s%N) - t0) / 1000000 )) ms)"
        [ $rc -eq 0 ] || { echo "$name: ./$prog $args exited $rc"; status=1; }
        {
            echo "\`./$prog${args:+ $args}\`:"
            echo '```text'
            cat "$tmp/out"
            echo '```'
            echo
        } >>"$tmp/block"
    done
    for p in "${progs[@]}"; do
        cp "$tmp/$p.csv" "$ROOT/results/$slug/$p.csv" 2>/dev/null || status=1
    done
    python3 "$COMMON/readme_block.py" "$d/README.md" results "$tmp/block"
    # a lesson with a figure (03's offset_stride.png) redraws it from the CSV just stored
    if grep -q '^plot:' "$d/Makefile" && command -v gnuplot >/dev/null 2>&1; then
        make -s --no-print-directory -C "$d" plot CSV="$ROOT/results/$slug/${progs[0]}.csv" >/dev/null || status=1
    fi
    if grep -q '<!-- profile:begin -->' "$d/README.md" && command -v ncu >/dev/null 2>&1; then
        {
            echo "\`make profile\` on the same GPU ($day):"
            echo '```text'
            make -s --no-print-directory -C "$d" profile 2>&1 | grep -v '^Profiling'
            echo '```'
        } >"$tmp/prof"
        python3 "$COMMON/readme_block.py" "$d/README.md" profile "$tmp/prof"
    fi
done
# The root README's one-page summary, from every lesson's CSV of this GPU.
{
    echo "Measured on an $gpu with CUDA $cuda (driver $driver), $day, by \`make results\`"
    echo "(full tables in each lesson's README; the CSV in [\`results/$slug/\`](results/$slug/)):"
    echo '```text'
    python3 "$COMMON/summary.py" "$ROOT/results/$slug"/*.csv | sed '/^$/d'
    echo '```'
} >"$tmp/summary"
python3 "$COMMON/readme_block.py" "$ROOT/README.md" summary "$tmp/summary"
echo "CSV rows are in results/$slug/; the READMEs' results blocks were refreshed."
exit $status
