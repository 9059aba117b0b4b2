#!/usr/bin/env bash
# make results (needs a GPU): reruns every lesson, stores its CSV rows under results/<GPU>/, and
# refreshes the measured output in each lesson's README between <!-- results:begin/end --> (and
# <!-- profile:begin/end --> when ncu is there), naming the GPU, CUDA version and date.
# Every program of the lesson runs once with no arguments (the results block). A lesson's Makefile
# may list extra runs of its first program in RESULTS_ARGS, separated by ';': they go to the page's
# <!-- results-more:begin/end --> block (in its In depth section) when it has one, else to the
# results block. RESULTS_PAGES names the notes page of a program that has its own
# (`async_copy=ASYNC.md`; the others go to README.md). RESULTS_ROWS names the rows the README's core
# reads: results_rows.py copies them from the new block into its <!-- results-rows:begin/end -->
# block, above the fold (a run that lacks one of them changes nothing).
# A lesson changes only when all its runs succeeded: a build or run that fails leaves its CSV, notes
# and figures as they were, shows the failing command and the end of its output, and makes the
# exit code 1.  Each run is announced before it starts.
# usage: results.sh [lesson dirs...]
# RESULTS_CSV_ONLY=1 stores the CSV (and run.txt) of a second GPU without touching the READMEs,
# which quote one GPU (the root README's "Two memory systems" compares the stored runs).
# RESULTS_PROFILE_ONLY=1 runs no program: it refreshes only the pages' profile blocks (after a
# lesson's PROFILE_METRICS changed), each naming its own date; CSV, results blocks and figures stay.
set -u
COMMON=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$COMMON")
TARGET=results
# shellcheck source=run_info.sh
. "$COMMON/run_info.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=lessons.sh
. "$COMMON/lessons.sh"
[ $# -eq 0 ] && set -- $(course_lesson_dirs "$ROOT")
status=0
profile_only=${RESULTS_PROFILE_ONLY:-0}
if [ "$profile_only" = 1 ] && ! command -v ncu >/dev/null 2>&1; then
    echo "RESULTS_PROFILE_ONLY=1 refreshes the profile blocks with Nsight Compute's ncu, which is not on PATH here: nothing was changed." >&2
    exit 2
fi
refreshed=()
unchanged=()
for d in "$@"; do
    d=${d%/}
    [ -f "$d/Makefile" ] || continue
    name=$(basename "$d")
    read -r -a progs <<<"$(make -s --no-print-directory -C "$d" print-PROGS)"
    echo "== $name: building ..."
    if ! make -s --no-print-directory -C "$d" all >"$tmp/build" 2>&1; then
        echo "== $name: the build FAILED; nothing of $name was changed:"
        tail -20 "$tmp/build" | sed 's/^/    /'
        status=1; unchanged+=("$name"); continue
    fi
    IFS=';' read -r -a runs <<<"$(make -s --no-print-directory -C "$d" print-RESULTS_ARGS)"
    [ ${#runs[@]} -eq 0 ] && runs=("")
    read -r -a pages <<<"$(make -s --no-print-directory -C "$d" print-RESULTS_PAGES)"
    # page_of PROG: the notes page its output goes to
    page_of() { local m; for m in "${pages[@]}"; do [ "${m%%=*}" = "$1" ] && { echo "${m#*=}"; return; }; done; echo README.md; }
    rm -f "$tmp"/block.* "$tmp"/more.* "$tmp"/*.csv "$tmp"/rows.README.md
    for p in "${progs[@]}"; do
        pg=$(page_of "$p")
        [ -f "$tmp/block.$pg" ] || {
            echo "Measured on an $gpu with CUDA $cuda (driver $driver), $day, by \`make results\`."
            echo
        } >"$tmp/block.$pg"
    done
    # every program once with no arguments, then the first with each RESULTS_ARGS entry
    jobs=()
    if [ "$profile_only" != 1 ]; then
        for p in "${progs[@]}"; do jobs+=("$p|"); done
        for args in "${runs[@]}"; do [ -n "$(echo "$args" | tr -d ' ')" ] && jobs+=("${progs[0]}|$args"); done
    fi
    ok=1
    n=0
    for job in "${jobs[@]}"; do
        n=$((n + 1))
        prog=${job%%|*}
        args=${job#*|}
        args=$(echo "$args" | sed 's/^ *//; s/ *$//')
        echo "== $name: running ./$prog${args:+ $args} ($n of ${#jobs[@]}) ..."
        t0=$(date +%s%N)
        # The run without arguments also writes its rows, as --csv would print them, to the CSV
        # (report.c's LESSON_SUMMARY_FILE): the CSV and the README block are the same measurement.
        csv=/dev/null
        [ -z "$args" ] && { csv="$tmp/$prog.csv"; rm -f "$csv"; }
        # shellcheck disable=SC2086
        (cd "$d" && LESSON_SUMMARY_FILE=$csv ./"$prog" $args) >"$tmp/out" 2>&1
        rc=$?
        if [ $rc -ne 0 ]; then
            # A failed run changes nothing of its lesson: its notes keep the last good measurement.
            echo "== $name: ./$prog${args:+ $args} FAILED (exit $rc); nothing of $name was changed. Its output ends:"
            tail -25 "$tmp/out" | sed 's/^/    /'
            ok=0
            break
        fi
        echo "   done in $(( ($(date +%s%N) - t0) / 1000000 )) ms"
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
    [ "$profile_only" = 1 ] || for p in "${progs[@]}"; do [ -s "$tmp/$p.csv" ] || ok=0; done
    if [ $ok = 0 ]; then
        status=1; unchanged+=("$name"); continue
    fi
    # the rows the README's core reads (RESULTS_ROWS) must all be in the new run, before anything changes
    rows=$(make -s --no-print-directory -C "$d" print-RESULTS_ROWS)
    if [ "$profile_only" != 1 ] && [ -n "$rows" ] && [ -f "$tmp/block.README.md" ]; then
        { echo '<!-- results:begin -->'; cat "$tmp/block.README.md"; echo '<!-- results:end -->'; } >"$tmp/page.md"
        if ! python3 "$COMMON/results_rows.py" "$tmp/page.md" "$rows" >"$tmp/rows.README.md" 2>"$tmp/rows.err"; then
            echo "== $name: $(sed 's#.*RESULTS_ROWS#RESULTS_ROWS#' "$tmp/rows.err"); nothing of $name was changed (fix RESULTS_ROWS in $name/Makefile)."
            status=1; unchanged+=("$name"); continue
        fi
    fi
    # every run succeeded: now, and only now, the lesson's CSV, blocks, figures and profile change
    refreshed+=("$name")
    if [ "$profile_only" != 1 ]; then
        mkdir -p "$ROOT/results/$slug"
        for p in "${progs[@]}"; do cp "$tmp/$p.csv" "$ROOT/results/$slug/$p.csv"; done
        # what the figures (make plot) and the comparison of GPUs name as the run's origin: run.txt, the
        # GPU's latest run; <lesson>.run.txt, this lesson's (a lesson's figures name the run of its own
        # CSV, not a later run of another lesson)
        printf 'gpu=%s\ncuda=%s\ndriver=%s\ndate=%s\n' "$gpu" "$cuda" "$driver" "$day" >"$ROOT/results/$slug/run.txt"
        cp "$ROOT/results/$slug/run.txt" "$ROOT/results/$slug/$name.run.txt"
        if [ "${RESULTS_CSV_ONLY:-0}" = 1 ]; then continue; fi
        for b in "$tmp"/block.*; do
            python3 "$COMMON/readme_block.py" "$d/${b##*/block.}" results "$b"
        done
        # the table of the rows the core reads, made above from the block just written
        [ -f "$tmp/rows.README.md" ] && python3 "$COMMON/readme_block.py" "$d/README.md" results-rows "$tmp/rows.README.md"
        for b in "$tmp"/more.*; do
            [ -f "$b" ] && python3 "$COMMON/readme_block.py" "$d/${b##*/more.}" results-more "$b"
        done
        # the lesson's figures, redrawn from the CSV just stored (make plot; skipped without gnuplot)
        echo "== $name: redrawing its figures ..."
        make -s --no-print-directory -C "$d" plot RESULTS_GPU="$slug" >/dev/null || status=1
    fi
    # each page's profile block: `make profile` of the programs whose results it shows; a profile
    # that fails leaves the page's profile block as it was
    for b in "$tmp"/block.*; do
        pg=${b##*/block.}
        grep -q '<!-- profile:begin -->' "$d/$pg" && command -v ncu >/dev/null 2>&1 || continue
        echo "== $name: make profile for $pg ..."
        prof_ok=1
        # a table's key columns (PROFILE_KEY) and rows (PROFILE_ROWS) in the block; what follows
        # "More counters:" (or, with PROFILE_ROWS, "Every kernel and counter:") in a fold of its own
        # inside it, so that the page shows first what its notes read, and the rest one click away
        : >"$tmp/prof.key"; : >"$tmp/prof.more"; more_title="More counters"
        for p in "${progs[@]}"; do
            [ "$(page_of "$p")" = "$pg" ] || continue
            make -s --no-print-directory -C "$d" profile PROG="$p" >"$tmp/prof.out" 2>&1 || prof_ok=0
            grep -v '^Profiling' "$tmp/prof.out" |
                awk -v key="$tmp/prof.key" -v more="$tmp/prof.more" '/^(More counters|Every kernel and counter):$/ { m = 1; next } { print >> (m ? more : key) }'
            grep -q '^Every kernel and counter:$' "$tmp/prof.out" && more_title="Every kernel and counter"
        done
        {
            if [ "$profile_only" = 1 ]; then echo "\`make profile\` on an $gpu with CUDA $cuda ($day; a later run than the results above):"
            else echo "\`make profile\` on the same GPU ($day):"; fi
            echo '```text'
            python3 -c 'import sys; print(open(sys.argv[1]).read().strip("\n"))' "$tmp/prof.key"
            echo '```'
            if [ -s "$tmp/prof.more" ]; then
                printf '\n<details><summary>%s</summary>\n\n```text\n' "$more_title"
                python3 -c 'import sys; print(open(sys.argv[1]).read().strip("\n"))' "$tmp/prof.more"
                printf '```\n\n</details>\n'
            fi
        } >"$tmp/prof"
        if [ $prof_ok = 1 ]; then python3 "$COMMON/readme_block.py" "$d/$pg" profile "$tmp/prof"
        else echo "== $name: make profile FAILED; $pg's profile block was left as it was:"; tail -15 "$tmp/prof.out" | sed 's/^/    /'; status=1; fi
    done
done
if [ "${RESULTS_CSV_ONLY:-0}" = 1 ]; then
    [ ${#refreshed[@]} -gt 0 ] && echo "CSV rows of ${refreshed[*]} are in results/$slug/ (RESULTS_CSV_ONLY: no README was changed)."
    [ ${#unchanged[@]} -gt 0 ] && echo "NOT changed, a build or run failed (see above): ${unchanged[*]}."
    exit $status
fi
if [ "$profile_only" = 1 ]; then
    [ ${#refreshed[@]} -gt 0 ] && echo "Profile blocks of ${refreshed[*]} refreshed (RESULTS_PROFILE_ONLY: no program was timed; CSV, results blocks and figures are as they were)."
    [ ${#unchanged[@]} -gt 0 ] && echo "NOT changed, a build failed (see above): ${unchanged[*]}."
    exit $status
fi
if [ ${#refreshed[@]} -eq 0 ]; then
    echo "No lesson ran through: nothing was changed."
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
    # the course map's measured column (README "The map of the course"); course.svg is plot.sh's
    python3 "$COMMON/compare_gpus.py" "$ROOT" --map >"$tmp/map" && python3 "$COMMON/readme_block.py" "$ROOT/README.md" map "$tmp/map"
    command -v gnuplot >/dev/null && { python3 "$COMMON/compare_gpus.py" "$ROOT" --svg "$ROOT/gpus.svg" >/dev/null || status=1; }
fi
[ ${#refreshed[@]} -gt 0 ] && echo "Refreshed (CSV in results/$slug/, results blocks, figures): ${refreshed[*]}."
[ ${#unchanged[@]} -gt 0 ] && echo "NOT changed, a build or run failed (see above): ${unchanged[*]}."
exit $status
