#!/usr/bin/env bash
# The course's test runner: `make test` at the root runs it over every lesson that has a Makefile,
# `make test` in a lesson folder over that lesson.  One line per check, then "N passed, N failed".
#
#   1. the host-side unit tests of common/ (plain C, no GPU needed), and the measured output in
#      the READMEs against the CSV committed under results/ (results_check.py)
#   2. each lesson (and its exercise) builds with warnings as errors
#   3. --help exits 0; bad arguments exit 2 and the message names the bad token
#   4. without a usable GPU: the lesson exits 3 with its no-GPU message
#      with a GPU: --check (verification at odd sizes) passes, the exercise's reference solution
#      passes its checker, the unsolved skeleton is caught by it, and --csv prints only CSV
#
# TEST_GPU=0 or TEST_GPU=1 overrides the GPU detection (nvidia-smi -L).
set -u
COMMON=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$COMMON")
pass=0
fail=0
ok()  { pass=$((pass + 1)); echo "PASS  $*"; }
bad() { fail=$((fail + 1)); echo "FAIL  $*"; }
LOG=$(mktemp -d)
trap 'rm -rf "$LOG"' EXIT

if [ -n "${TEST_GPU:-}" ]; then
    gpu=$TEST_GPU
elif nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
    gpu=1
else
    gpu=0
fi
[ "$gpu" = 1 ] && echo "GPU found: running verification too" || echo "No GPU: build, host and argument tests only"

# ---- 1. host unit tests: every tests/test_*.c (in common/ and in a lesson) is a program ------
# unit_tests LABEL DIR: builds each DIR/tests/test_*.c with common/*.c, runs it, counts its lines
unit_tests() {
    local label=$1 dir=$2 t tname rc line
    mkdir -p "$dir/build"
    for t in "$dir"/tests/test_*.c; do
        [ -f "$t" ] || continue
        tname=$(basename "$t" .c)
        if ${CC:-gcc} -std=c99 -O2 -Wall -Wextra -Werror -pedantic -I"$COMMON" -I"$dir" -o "$dir/build/$tname" \
                "$t" "$COMMON"/*.c -lm 2>"$LOG/unit_build"; then
            "$dir/build/$tname" >"$LOG/unit" 2>&1
            rc=$?
            while read -r line; do
                case "$line" in
                    PASS*) ok "$label: ${line#PASS }" ;;
                    FAIL*) bad "$label: ${line#FAIL }" ;;
                    *) echo "      $line" ;;
                esac
            done <"$LOG/unit"
            [ $rc -eq 0 ] || bad "$label: $tname exited $rc"
        else
            bad "$label: $tname does not build with warnings as errors"
            cat "$LOG/unit_build"
        fi
    done
}
unit_tests common "$COMMON"

# results_check ARGS...: the READMEs' measured output against the committed CSV (results_check.py)
results_check() {
    local line
    command -v python3 >/dev/null || return 0
    python3 "$COMMON/results_check.py" "$ROOT" "$@" >"$LOG/results" 2>&1
    while read -r line; do
        case "$line" in
            PASS*) ok "${line#PASS }" ;;
            FAIL*) bad "${line#FAIL }" ;;
            *) echo "      $line" ;;
        esac
    done <"$LOG/results"
}

# ---- per lesson -------------------------------------------------------------------------------
# run NAME EXPECTED_RC PROGRAM ARGS... : runs it, keeps stdout/stderr in $LOG/out, $LOG/err
run() { "$@" >"$LOG/out" 2>"$LOG/err"; echo $?; }

COMMON_BAD=("--bogus" "--size" "--size 0" "--size -5" "--size abc" "--size 99999999999999999999"
            "--size 4096x" "--size 70000x70000" "--reps 0" "--reps 1.5" "--warmup -1" "--block 64x32"
            "--block 2000" "--block 0x4" "--seed x1")

test_lesson() {
    local dir=$1 name prog progs mains p args tok rc extra
    name=$(basename "$(cd "$dir" && pwd)")
    unit_tests "$name" "$(cd "$dir" && pwd)"
    results_check "$dir"
    if ! make -s --no-print-directory -C "$dir" -j2 all >"$LOG/build" 2>&1; then
        bad "$name: builds with warnings as errors"
        sed 's/^/    /' "$LOG/build" | head -40
        return
    fi
    ok "$name: builds with warnings as errors"
    read -r -a mains <<<"$(make -s --no-print-directory -C "$dir" print-PROGS)"
    progs=("${mains[@]}")
    [ -f "$dir/exercise.cu" ] && progs+=(solution student)

    rc=$(run make -s --no-print-directory -C "$dir" help)
    if [ "$rc" = 0 ] && grep -q '^make run ' "$LOG/out" && grep -q '^make clean ' "$LOG/out"; then
        ok "$name: make help lists the targets"
    else bad "$name: make help lists the targets (got $rc: $(head -1 "$LOG/err"))"; fi
    for p in "${progs[@]}"; do
        rc=$(run "$dir/$p" --help)
        if [ "$rc" = 0 ] && grep -q '^Usage:' "$LOG/out"; then ok "$name: $p --help exits 0 with usage"
        else bad "$name: $p --help exits 0 with usage (got $rc)"; fi
    done

    extra=$(make -s --no-print-directory -C "$dir" print-BAD_ARGS)
    local bads=("${COMMON_BAD[@]}")
    if [ -n "$extra" ]; then
        IFS=';' read -r -a more <<<"$extra"
        bads+=("${more[@]}")
    fi
    for prog in "${mains[@]}"; do
        for args in "${bads[@]}"; do
            args=$(echo "$args" | sed 's/^ *//; s/ *$//')
            [ -n "$args" ] || continue
            tok=${args##* }
            # shellcheck disable=SC2086
            rc=$(run "$dir/$prog" $args)
            if [ "$rc" = 2 ] && head -1 "$LOG/err" | grep -qF -- "$tok" && grep -q '^Usage:' "$LOG/err"; then
                ok "$name: $prog '$args' exits 2 naming '$tok'"
            else
                bad "$name: $prog '$args' exits 2 naming '$tok' (got $rc: $(head -1 "$LOG/err"))"
            fi
        done
    done

    if [ "$gpu" = 0 ]; then
        for p in "${progs[@]}"; do
            rc=$(run "$dir/$p" --check)
            if [ "$rc" = 3 ] && grep -q 'No usable GPU' "$LOG/err"; then ok "$name: $p without a GPU exits 3 and says why"
            else bad "$name: $p without a GPU exits 3 and says why (got $rc: $(head -1 "$LOG/err"))"; fi
        done
        return
    fi

    for prog in "${mains[@]}"; do
        rc=$(run "$dir/$prog" --check)
        if [ "$rc" = 0 ] && grep -q 'PASS' "$LOG/out" && ! grep -q 'FAIL' "$LOG/out"; then
            ok "$name: $prog --check verifies every kernel ($(grep -c PASS "$LOG/out") checks)"
        else
            bad "$name: $prog --check (exit $rc)"
            grep -E 'FAIL|rror' "$LOG/out" "$LOG/err" | head -10 | sed 's/^/    /'
        fi
    done
    if [ -f "$dir/exercise.cu" ]; then
        rc=$(run "$dir/solution" --check)
        if [ "$rc" = 0 ] && ! grep -q 'FAIL' "$LOG/out"; then ok "$name: the exercise's reference solution passes its checker"
        else bad "$name: the exercise's reference solution passes its checker (exit $rc)"; fi
        # The skeleton is unsolved on purpose: the checker must catch it, or it checks nothing.
        if grep -q 'TODO' "$dir/exercise.cu"; then
            rc=$(run "$dir/student" --check)
            if [ "$rc" = 1 ] && grep -q 'FAIL' "$LOG/out"; then ok "$name: the checker catches the unsolved exercise skeleton"
            else bad "$name: the checker catches the unsolved exercise skeleton (exit $rc)"; fi
        fi
    fi
    for prog in "${mains[@]}"; do
        rc=$(run "$dir/$prog" --quick --csv)
        if [ "$rc" = 0 ] && head -1 "$LOG/out" | grep -q '^lesson,' &&
                [ "$(grep -vc ',' "$LOG/out")" = 0 ] && ! grep -q ',FAILED,' "$LOG/out"; then
            ok "$name: $prog --quick --csv runs and prints only CSV ($(($(wc -l <"$LOG/out") - 1)) rows)"
        else
            bad "$name: $prog --quick --csv runs and prints only CSV (exit $rc)"
            head -5 "$LOG/err" | sed 's/^/    /'
        fi
    done
}

if [ $# -eq 0 ]; then
    results_check --summary
    set -- "$ROOT"/0*/
fi
for d in "$@"; do
    if [ -f "$d/Makefile" ]; then test_lesson "$d"; fi
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
