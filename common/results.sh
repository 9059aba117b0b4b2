#!/usr/bin/env bash
# make results (needs a GPU): reruns every lesson, stores its CSV rows under results/<GPU>/, and
# refreshes the measured output in each lesson's README between <!-- results:begin/end --> (and
# <!-- profile:begin/end --> when ncu is there), naming the GPU, CUDA version and date.
# Every program of the lesson runs once with no arguments (the results block). A lesson's Makefile
# may list extra runs of its first program in RESULTS_ARGS, separated by ';': they go to the page's
# <!-- results-more:begin/end --> block (in its In depth section) when it has one, else to the
# results block. RESULTS_PAGES names the notes page of a program that has its own
# (`async_copy=ASYNC.md`; the others go to README.md).
# usage: results.sh [lesson dirs...]
# RESULTS_CSV_ONLY=1 stores the CSV (and run.txt) of a second GPU without touching the READMEs,
# which quote one GPU (the root README's "Two memory systems" compares the stored runs).
set -u
COMMON=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$COMMON")
TARGET=results
# shellcheck source=run_info.sh
. "$COMMON/run_info.sh"
mkdir -p "$ROOT/results/$slug"
# what the figures (make plot) and the comparison of GPUs name as the run's origin
printf 'gpu=%s\ncuda=%s\ndriver=%s\ndate=%s\n' "$gpu" "$cuda" "$driver" "$day" >"$ROOT/results/$slug/run.txt"
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
    read -r -a pages <<<"$(make -s --no-print-directory -C "$d" print-RESULTS_PAGES)"
    # page_of PROG: the notes page its output goes to
    page_of() { local m; for m in "${pages[@]}"; do [ "${m%%=*}" = "$1" ] && { echo "${m#*=}"; return; }; done; echo README.md; }
    rm -f "$tmp"/block.* "$tmp"/more.*
    for p in "${progs[@]}"; do
        pg=$(page_of "$p")
        [ -f "$tmp/block.$pg" ] || {
            echo "Measured on an $gpu with CUDA $cuda (driver $driver), $day, by \`make results\`."
            echo
        } >"$tmp/block.$pg"
    done
    # every program once with no arguments, then the first with each RESULTS_ARGS entry
    jobs=()
    k=0
    for p in "${progs[@]}"; do jobs+=("$p|"); done
    for args in "${runs[@]}"; do [ -n "$(echo "$args" | tr -d ' ')" ] && jobs+=("${progs[0]}|$args"); done
    for job in "${jobs[@]}"; do
        prog=${job%%|*}
        args=${job#*|}
        args=$(echo "$args" | sed 's/^ *//; s/ *$//')
        echo "== $name: running ./$prog${args:+ $args} ... ($((k += 1)) of ${#jobs[@]})"
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
        # a run with arguments goes to the page's In depth block (results-more) when it has one,
        # so the body of the notes keeps only the default run a student repeats with `make run`
        pg=$(page_of "$prog")
        dest="$tmp/block.$pg"
        if [ -n "$args" ] && grep -q '<!-- results-more:begin -->' "$d/$pg"; then
            dest="$tmp/more.$pg"
            [ -f "$dest" ] || printf 'Measured on an %s with CUDA %s (driver %s), %s, by `make results`.\n\n' \
                "$gpu" "$cuda" "$driver" "$day" >"$dest"
        fi
        {
            echo "\`./$prog${args:+ $args}\`:"
            echo '```text'
            cat "$tmp/out"
            echo '```'
            echo
        } >>"$dest"
    done
    for p in "${progs[@]}"; do
        cp "$tmp/$p.csv" "$ROOT/results/$slug/$p.csv" 2>/dev/null || status=1
    done
    [ "${RESULTS_CSV_ONLY:-0}" = 1 ] && continue
    for b in "$tmp"/block.*; do
        python3 "$COMMON/readme_block.py" "$d/${b##*/block.}" results "$b"
    done
    for b in "$tmp"/more.*; do
        [ -f "$b" ] && python3 "$COMMON/readme_block.py" "$d/${b##*/more.}" results-more "$b"
    done
    # the lesson's figures, redrawn from the CSV just stored (make plot; skipped without gnuplot)
    make -s --no-print-directory -C "$d" plot RESULTS_GPU="$slug" >/dev/null || status=1
    # each page's profile block: `make profile` of the programs whose results it shows
    for b in "$tmp"/block.*; do
        pg=${b##*/block.}
        grep -q '<!-- profile:begin -->' "$d/$pg" && command -v ncu >/dev/null 2>&1 || continue
        {
            echo "\`make profile\` on the same GPU ($day):"
            echo '```text'
            for p in "${progs[@]}"; do
                [ "$(page_of "$p")" = "$pg" ] || continue
                make -s --no-print-directory -C "$d" profile PROG="$p" 2>&1 | grep -v '^Profiling'
            done
            echo '```'
        } >"$tmp/prof"
        python3 "$COMMON/readme_block.py" "$d/$pg" profile "$tmp/prof"
    done
done
if [ "${RESULTS_CSV_ONLY:-0}" = 1 ]; then
    echo "CSV rows are in results/$slug/ (RESULTS_CSV_ONLY: no README was changed)."
    exit $status
fi
# The root README's one-page summary, from every lesson's CSV of this GPU.
{
    echo "Measured on an $gpu with CUDA $cuda (driver $driver), $day, by \`make results\`"
    echo "(full tables in each lesson's README; the CSV in [\`results/$slug/\`](results/$slug/)):"
    echo '```text'
    python3 "$COMMON/summary.py" "$ROOT/results/$slug"/*.csv | sed '/^$/d'
    echo '```'
} >"$tmp/summary"
python3 "$COMMON/readme_block.py" "$ROOT/README.md" summary "$tmp/summary"
bash "$COMMON/plot.sh" "$ROOT" "$slug" >/dev/null || status=1
# the GPUs side by side (README "Two memory systems"), when two or more have a complete run
if python3 "$COMMON/compare_gpus.py" "$ROOT" >"$tmp/gpus" 2>/dev/null && [ -s "$tmp/gpus" ]; then
    python3 "$COMMON/readme_block.py" "$ROOT/README.md" gpus "$tmp/gpus"
    command -v gnuplot >/dev/null && { python3 "$COMMON/compare_gpus.py" "$ROOT" --svg "$ROOT/gpus.svg" >/dev/null || status=1; }
fi
echo "CSV rows are in results/$slug/; the READMEs' results blocks were refreshed."
exit $status
