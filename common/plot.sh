#!/usr/bin/env bash
# make plot: draws every figure of a lesson from its stored CSV, as SVG beside its README.
#
#   plot.sh LESSON_DIR [GPU [CSV...]]        (a lesson's `make plot` runs: plot.sh . $(RESULTS_GPU) $(CSV))
#
#   - each LESSON_DIR/plot-<name>.gp draws <name>.svg, by gnuplot, after common/plot-style.gp (which
#     says what the scripts are given);
#   - the data: the CSV files named, or by default ../results/<GPU>/<prog>.csv for each program of
#     the lesson (`make -s print-PROGS`); GPU defaults to NVIDIA_H100_80GB_HBM3;
#   - results/<GPU>/run.txt beside the (first) CSV names the GPU, CUDA version, driver and date of the
#     run (lines gpu=, cuda=, driver=, date=); every figure carries them; a lesson's own
#     results/<GPU>/<lesson>.run.txt (make results writes one per lesson) comes first, so that a
#     later run of another lesson does not re-date this lesson's figures;
#   - the diagrams that are computed rather than measured (02 and 05: the sectors a warp touches,
#     07: the bank of every element of a tile, 08: the slots of the XOR swizzle) come from figures/diagrams.c (at the course's root: it reads the lessons' C models), built here with the
#     lesson headers that hold the model;
#   - run from the course root (LESSON_DIR is the folder with common/), it draws the course map,
#     course.svg: each step of the course's two journeys, every GPU's run under results/ side by
#     side (common/compare_gpus.py --map).
#
# A figure is replaced only when it was drawn: gnuplot writes to a temporary file, which is moved in
# place when gnuplot succeeded without a warning and the file is not empty.  A CSV that is missing,
# empty or of another lesson (its first column is not the lesson's folder) stops everything before
# anything is drawn (exit 1); only by default, a program with no CSV under results/<GPU>/ yet is
# left out with a note (figures whose "# needs:" experiments are then absent are not drawn).
# Without gnuplot: one line saying how to get it, exit 0, nothing changed.
# PLOT_OUT=dir writes the figures there instead of beside the README (common/test_figures.sh).
set -u
export LC_ALL=C   # the same numbers, the same bytes, whatever the locale
COMMON=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$COMMON")
err() { echo "make plot: $*" >&2; }

[ $# -ge 1 ] || { err "usage: plot.sh LESSON_DIR [GPU [CSV...]]"; exit 2; }
dir=$(cd "$1" 2>/dev/null && pwd) || { err "no folder $1"; exit 2; }
gpu_slug=${2:-NVIDIA_H100_80GB_HBM3}
[ -n "$gpu_slug" ] || gpu_slug=NVIDIA_H100_80GB_HBM3
shift $(( $# >= 2 ? 2 : 1 ))

if ! command -v gnuplot >/dev/null 2>&1; then
    err "gnuplot is not installed, no figure was drawn (Debian/Ubuntu: apt-get install gnuplot-nox)"
    exit 0
fi

if [ "$dir" = "$ROOT" ]; then
    # the course map (course.svg, drawn below by compare_gpus.py --map); this GPU's CSVs are
    # still read and checked first, as for a lesson
    course=1
    lesson=""
    scripts=()
    if [ $# -eq 0 ]; then
        for f in "$ROOT/results/$gpu_slug"/*.csv; do [ -e "$f" ] && set -- "$@" "$f"; done
        [ $# -gt 0 ] || { err "no CSV in $ROOT/results/$gpu_slug/"; exit 1; }
    fi
else
    course=0
    lesson=$(basename "$dir")
    scripts=()
    for s in "$dir"/plot-*.gp; do [ -f "$s" ] && scripts+=("$s"); done
    if [ $# -eq 0 ]; then
        # the lesson's programs' CSV; one not measured on this GPU yet (a new program) is left out
        # with a note, and the figures that need its rows are not drawn
        read -r -a progs <<<"$(make -s --no-print-directory -C "$dir" print-PROGS 2>/dev/null)"
        [ ${#progs[@]} -gt 0 ] || { err "$dir: make print-PROGS names no program"; exit 1; }
        for p in "${progs[@]}"; do
            f="$ROOT/results/$gpu_slug/$p.csv"
            if [ -e "$f" ]; then set -- "$@" "$f"
            else echo "make plot: note: no $f yet ($p was not measured on this GPU); figures that need it are not drawn" >&2; fi
        done
        [ $# -gt 0 ] || { err "no CSV of this lesson's programs (${progs[*]}) in $ROOT/results/$gpu_slug/; nothing was drawn"; exit 1; }
    fi
fi
out_dir=${PLOT_OUT:-$dir}
mkdir -p "$out_dir" || exit 1

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ---- the CSV: every file checked before anything is drawn -----------------------------------
# to_tsv: CSV (with "quoted, fields") -> tab-separated fields, quotes dropped, header removed
to_tsv() {
    awk '
    NR == 1 && $0 ~ /^lesson,experiment,/ { next }
    {
        sub(/\r$/, "")
        out = ""; f = ""; q = 0; n = length($0)
        for (i = 1; i <= n; i++) {
            c = substr($0, i, 1)
            if (q) {
                if (c == "\"") { if (substr($0, i + 1, 1) == "\"") { f = f "\""; i++ } else q = 0 }
                else f = f c
            } else if (c == "\"") q = 1
            else if (c == ",") { out = out f "\t"; f = "" }
            else f = f c
        }
        print out f
    }' "$1"
}
files=()
names=()
i=0
status=0
for f in "$@"; do
    i=$((i + 1))
    case "$f" in /*) ;; *) f="$PWD/$f" ;; esac   # relative to where make runs: the lesson folder
    case "$f" in *"'"*|*'"'*) err "$f: a CSV path may not contain quotes"; status=1; continue ;; esac
    if [ ! -f "$f" ] || [ ! -r "$f" ]; then err "$f: no such CSV file"; status=1; continue; fi
    to_tsv "$f" >"$tmp/$i.tsv"
    if [ ! -s "$tmp/$i.tsv" ]; then err "$f: the CSV is empty (no rows below the header)"; status=1; continue; fi
    if [ "$course" = 1 ]; then
        other=$(awk -F'\t' '$1 !~ /^[0-9][0-9]_/ {print $1; exit}' "$tmp/$i.tsv")
        [ -z "$other" ] || { err "$f: not a lesson's CSV (first column '$other')"; status=1; continue; }
    else
        other=$(awk -F'\t' -v l="$lesson" '$1 != l {print $1; exit}' "$tmp/$i.tsv")
        if [ -n "$other" ]; then
            err "$f: a CSV of '$other', not of this lesson ($lesson): its first column must be $lesson"
            status=1; continue
        fi
    fi
    files+=("$tmp/$i.tsv")
    names+=("$(basename "$f" | tr -d "'\"")")
done
[ $status = 0 ] || { err "nothing was drawn"; exit 1; }
cat "${files[@]}" >"$tmp/all.tsv"

# ---- the run: results/<GPU>/run.txt beside the first CSV --------------------------------------
first=$1
case "$first" in /*) ;; *) first="$PWD/$first" ;; esac
run_txt="$(dirname "$first")/run.txt"
# a lesson's own run, when make results recorded it (results.sh): its figures name that run's date
[ -n "$lesson" ] && [ -f "$(dirname "$first")/$lesson.run.txt" ] && run_txt="$(dirname "$first")/$lesson.run.txt"
run_gpu=""; run_cuda=""; run_driver=""; run_date=""
if [ -f "$run_txt" ]; then
    while IFS='=' read -r k v; do
        v=$(printf '%s' "$v" | tr -d "'\"\r")
        case "$k" in
            gpu) run_gpu=$v ;; cuda) run_cuda=$v ;; driver) run_driver=$v ;; date) run_date=$v ;;
        esac
    done <"$run_txt"
fi

vars="ncsv=${#files[@]}; all='$tmp/all.tsv'; gpu='$run_gpu'; cuda='$run_cuda'; driver='$run_driver'; date='$run_date'; lesson='$lesson'"
n=0
for f in "${files[@]}"; do
    n=$((n + 1))
    if [ $n = 1 ]; then vars="$vars; csv='$f'; csvname='${names[0]}'"
    else vars="$vars; csv$n='$f'; csvname$n='${names[$((n - 1))]}'"; fi
done

# put_in_place NEW TARGET: moves NEW over TARGET (through a temporary file beside it), says so
put_in_place() {
    local new=$1 target=$2 name
    name=$(basename "$target")
    if [ -f "$target" ] && cmp -s "$new" "$target"; then
        echo "$name: unchanged"
        return 0
    fi
    if ! { cp "$new" "$target.tmp.$$" && mv -f "$target.tmp.$$" "$target"; }; then
        rm -f "$target.tmp.$$"
        err "could not write $target"
        return 1
    fi
    echo "wrote $name"
}

# ---- the course map (course.svg): every GPU's run side by side, drawn by compare_gpus.py --map -----
if [ "$course" = 1 ]; then
    if python3 "$COMMON/compare_gpus.py" "$ROOT" --map --svg "$tmp/course.svg" >/dev/null 2>"$tmp/map.err"; then
        put_in_place "$tmp/course.svg" "$out_dir/course.svg" || exit 1
        exit 0
    fi
    err "course.svg was not drawn; the committed figure is unchanged:"
    sed 's/^/    /' "$tmp/map.err" >&2
    exit 1
fi

# ---- the figures ------------------------------------------------------------------------------
for s in "${scripts[@]}"; do
    name=$(basename "$s" .gp)
    name=${name#plot-}
    # "# needs: exp1 exp2": draw only when the CSV has rows of every one of these experiments
    needs=$(sed -n 's/^# needs: *//p' "$s" | head -1)
    missing=""
    for e in $needs; do
        awk -F'\t' -v e="$e" '$2 == e && $4 == "ok" {found = 1; exit} END {exit !found}' "$tmp/all.tsv" || missing="$missing $e"
    done
    if [ -n "$missing" ]; then
        echo "$name.svg: not drawn, the CSV has no rows of experiment(s)$missing (kept as it was)" >&2
        continue
    fi
    new="$tmp/$name.svg"
    (cd "$(dirname "$s")" && gnuplot -e "$vars; out='$new'" "$COMMON/plot-style.gp" "$s") >"$tmp/gp.out" 2>"$tmp/gp.err"
    rc=$?
    if [ $rc -ne 0 ] || [ ! -s "$new" ] || grep -qi 'warning\|error' "$tmp/gp.err"; then
        err "$name.svg was not drawn (gnuplot exit $rc); the committed figure is unchanged:"
        sed 's/^/    /' "$tmp/gp.err" >&2
        status=1
        continue
    fi
    put_in_place "$new" "$out_dir/$name.svg" || status=1
done

# ---- the computed diagrams (no data: the lesson's C model) ------------------------------------
if [ "$course" = 0 ] && grep -q "\"$lesson\"" "$ROOT/figures/diagrams.c" 2>/dev/null; then
    cc=${CC:-cc}
    command -v "$cc" >/dev/null 2>&1 || cc=gcc
    if ! command -v "$cc" >/dev/null 2>&1; then
        echo "diagrams: no C compiler (cc or gcc): the diagrams were not redrawn" >&2
    elif ! "$cc" -std=c99 -O2 -Wall -Wextra -Werror -pedantic -I"$ROOT" -o "$tmp/diagrams" \
            "$ROOT/figures/diagrams.c" -lm 2>"$tmp/cc.err"; then
        err "figures/diagrams.c does not build; the diagrams are unchanged:"
        sed 's/^/    /' "$tmp/cc.err" >&2
        status=1
    else
        mkdir -p "$tmp/diagrams.out"
        if "$tmp/diagrams" "$lesson" "$tmp/diagrams.out" 2>"$tmp/d.err"; then
            for d in "$tmp/diagrams.out"/*.svg; do
                [ -s "$d" ] && { put_in_place "$d" "$out_dir/$(basename "$d")" || status=1; }
            done
        else
            err "the diagrams program failed; the diagrams are unchanged:"
            sed 's/^/    /' "$tmp/d.err" >&2
            status=1
        fi
    fi
fi
exit $status
