#!/usr/bin/env bash
# The figures' tests (common/test.sh runs them): every committed figure is what `make plot` draws
# from the committed CSV, byte for byte, and a bad CSV leaves the committed figures alone.
#
#   test_figures.sh [LESSON_DIR...]      (default: every lesson with a Makefile, and the course chart)
#
# One line per figure, "PASS  figures: ..." or "FAIL  figures: ..."; without gnuplot one line
# "SKIP figures: gnuplot is not installed" and nothing else.  The redraw goes to a temporary folder:
# nothing in the tree is written.  Figures drawn by gnuplot carry its version (the SVG's <desc>); one
# drawn by another version than the one installed is reported as SKIP, not compared (its bytes may
# differ for reasons that are not the data's).  Exit 1 if anything failed.
set -u
COMMON=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$COMMON")
GPU_SLUG=${RESULTS_GPU:-NVIDIA_H100_80GB_HBM3}
fail=0
ok()  { echo "PASS  figures: $*"; }
bad() { fail=1; echo "FAIL  figures: $*"; }

if ! command -v gnuplot >/dev/null 2>&1; then
    echo "SKIP figures: gnuplot is not installed"
    exit 0
fi
have=$(gnuplot --version 2>/dev/null | sed -n 's/^gnuplot \([0-9.]*\) patchlevel \([0-9a-z]*\).*/\1 patchlevel \2/p')

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

lessons=()
course=0
if [ $# -eq 0 ]; then
    # shellcheck source=lessons.sh
    . "$COMMON/lessons.sh"
    for d in $(course_lesson_dirs "$ROOT"); do [ -f "$d/Makefile" ] && lessons+=("$d"); done
    course=1
else
    for d in "$@"; do
        d=$(cd "$d" && pwd)
        if [ "$d" = "$ROOT" ]; then course=1; else lessons+=("$d"); fi
    done
fi

# compare DIR NAME OUTDIR: every figure plot.sh drew into OUTDIR against the one committed in DIR
compare() {
    local dir=$1 label=$2 out=$3 f name drawn_by
    for f in "$out"/*.svg; do
        [ -f "$f" ] || continue
        name=$(basename "$f")
        if [ ! -f "$dir/$name" ]; then
            bad "$label/$name is drawn by make plot but not in the tree (run make plot and commit it)"
            continue
        fi
        drawn_by=$(sed -n 's/^<desc>Produced by GNUPLOT \(.*[^ ]\) *<\/desc>$/\1/p' "$dir/$name" | head -1)
        if [ -n "$drawn_by" ] && [ "$drawn_by" != "$have" ]; then
            echo "SKIP figures: $label/$name was drawn by gnuplot $drawn_by, this is gnuplot $have: not compared"
        elif cmp -s "$f" "$dir/$name"; then
            ok "$label/$name is redrawn byte for byte from the committed CSV"
        else
            bad "$label/$name differs from what make plot draws from the committed CSV (run make plot)"
        fi
    done
}

for d in "${lessons[@]}"; do
    name=$(basename "$d")
    out="$tmp/$name"
    mkdir -p "$out"
    if ! PLOT_OUT="$out" bash "$COMMON/plot.sh" "$d" "$GPU_SLUG" >"$tmp/log" 2>&1; then
        bad "$name: make plot fails on the committed CSV:"
        sed 's/^/      /' "$tmp/log"
        continue
    fi
    compare "$d" "$name" "$out"
    for f in "$d"/*.svg; do
        [ -f "$f" ] || continue
        [ -f "$out/$(basename "$f")" ] || bad "$name/$(basename "$f") is in the tree but make plot does not draw it"
    done
done

if [ "$course" = 1 ]; then
    mkdir -p "$tmp/course"
    if PLOT_OUT="$tmp/course" bash "$COMMON/plot.sh" "$ROOT" "$GPU_SLUG" >"$tmp/log" 2>&1; then
        if [ -f "$ROOT/course.svg" ]; then
            compare "$ROOT" "." "$tmp/course"
        else
            echo "SKIP figures: course.svg is not in the tree (bash common/plot.sh . draws it)"
        fi
    else
        bad "the course chart fails on the committed CSV:"
        sed 's/^/      /' "$tmp/log"
    fi
fi

# A bad CSV changes nothing: every lesson's `make plot CSV=/no/such.csv` and `make plot` with
# another lesson's CSV must exit non-zero and leave its figures as they were.
snapshot() {
    local d
    for d in "${lessons[@]}"; do
        (cd "$d" && for f in *.svg; do [ -f "$f" ] && cksum "$f"; done) | sed "s|^|$(basename "$d") |"
        git -C "$d" status --porcelain -- . 2>/dev/null | grep '\.svg$'
    done
}
if [ ${#lessons[@]} -gt 0 ]; then
    snapshot >"$tmp/before"
    missing_ok=1
    other_ok=1
    for d in "${lessons[@]}"; do
        make -s --no-print-directory -C "$d" plot CSV=/no/such.csv >"$tmp/log" 2>&1 && { missing_ok=0; echo "      $(basename "$d"): make plot CSV=/no/such.csv exited 0"; }
        grep -q '/no/such.csv' "$tmp/log" || { missing_ok=0; echo "      $(basename "$d"): the error does not name /no/such.csv"; }
        # a CSV of another lesson: the first lesson's CSV for the others, the second's for the first
        other=""
        for o in "$ROOT/results/$GPU_SLUG"/*.csv; do
            [ -f "$o" ] || continue
            first=$(sed -n '2s/,.*//p' "$o")
            [ -n "$first" ] && [ "$first" != "$(basename "$d")" ] && { other=$o; break; }
        done
        if [ -n "$other" ]; then
            make -s --no-print-directory -C "$d" plot CSV="$other" >"$tmp/log" 2>&1 && { other_ok=0; echo "      $(basename "$d"): make plot CSV=$other exited 0"; }
        fi
    done
    snapshot >"$tmp/after"
    if ! cmp -s "$tmp/before" "$tmp/after"; then
        bad "make plot with a bad CSV changed committed figures:"
        diff "$tmp/before" "$tmp/after" | sed 's/^/      /'
    elif [ $missing_ok = 1 ]; then
        ok "make plot CSV=/no/such.csv exits non-zero, names the file and leaves the figures untouched (${#lessons[@]} lessons)"
    else
        bad "make plot CSV=/no/such.csv must exit non-zero naming the file"
    fi
    if [ $other_ok = 1 ]; then ok "make plot refuses a CSV of another lesson (${#lessons[@]} lessons)"
    else bad "make plot must refuse a CSV of another lesson"; fi
fi
exit $fail
