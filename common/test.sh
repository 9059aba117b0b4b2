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
# relay FILE [PREFIX]: another tool's PASS/FAIL lines in FILE counted here (PREFIX before each), its
# other lines indented; relay_fails is set to the number of FAIL lines.
relay() {
    local line rest
    relay_fails=0
    while IFS= read -r line; do
        rest=${line#????}
        rest=${rest#"${rest%%[! ]*}"}   # the words after PASS or FAIL and its spaces
        case "$line" in
            PASS*) ok "${2:-}$rest" ;;
            FAIL*) bad "${2:-}$rest"; relay_fails=$((relay_fails + 1)) ;;
            *) echo "      $line" ;;
        esac
    done <"$1"
}
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
    local label=$1 dir=$2 t tname rc
    mkdir -p "$dir/build"
    for t in "$dir"/tests/test_*.c; do
        [ -f "$t" ] || continue
        tname=$(basename "$t" .c)
        if ${CC:-gcc} -std=c99 -O2 -Wall -Wextra -Werror -pedantic -I"$COMMON" -I"$dir" -o "$dir/build/$tname" \
                "$t" "$COMMON"/*.c -lm 2>"$LOG/unit_build"; then
            "$dir/build/$tname" >"$LOG/unit" 2>&1
            rc=$?
            relay "$LOG/unit" "$label: "
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
    command -v python3 >/dev/null || return 0
    python3 "$COMMON/results_check.py" "$ROOT" "$@" >"$LOG/results" 2>&1
    relay "$LOG/results"
}

# ---- per lesson -------------------------------------------------------------------------------
# run NAME EXPECTED_RC PROGRAM ARGS... : runs it, keeps stdout/stderr in $LOG/out, $LOG/err
run() { "$@" >"$LOG/out" 2>"$LOG/err"; echo $?; }

# Bad arguments every program must refuse (the loop splits each on spaces; the last word is the
# token the first line of the error must quote).  Sizes: a side fits an int, NX*NY <= 2^40.
COMMON_BAD=("--bogus" "--size" "--size 0" "--size -5" "--size abc" "--size 99999999999999999999"
            "--size 4096x" "--size 2000000x2000000" "--size 3000000000x1" "--size 064" "--size +5"
            "--size=abc" "--reps 0" "--reps 1.5" "--reps +5" "--reps 064" "--reps 0x10" "--reps=+5"
            "--warmup -1" "--warmup -0" "--warmup 1e3" "--block 64x32" "--block 2000" "--block 0x4"
            "--block 064" "--block +32" "--seed x1" "--seed -0" "--seed 18446744073709551616"
            "--seed --quick" "--quick=1" "--csv 5")

test_lesson() {
    local dir=$1 name prog progs mains p args tok rc extra
    name=$(basename "$(cd "$dir" && pwd)")
    unit_tests "$name" "$(cd "$dir" && pwd)"
    results_check "$dir"
    echo "== building $name (make -j2 all, warnings as errors) ..."
    if ! make -s --no-print-directory -C "$dir" -j2 EXERCISE_WERROR=1 all >"$LOG/build" 2>&1; then
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
    # A usage error: exit 2; the first stderr line quotes the bad token as typed ('tok'), or says
    # "unknown option '--x'" for a shared option --x this program goes without (args_configure);
    # the second line is the pointer to --help; no usage text (it pushes the reason off screen).
    local first opt shared=" --size --reps --warmup --block --seed --flush --no-flush --check --quick --csv "
    for prog in "${mains[@]}"; do
        for args in "${bads[@]}"; do
            args=$(echo "$args" | sed 's/^ *//; s/ *$//')
            [ -n "$args" ] || continue
            tok=${args##* }
            opt=${args%% *}
            opt=${opt%%=*}
            # shellcheck disable=SC2086
            rc=$(run "$dir/$prog" $args)
            first=$(head -1 "$LOG/err")
            if [ "$rc" = 2 ] && { [[ $first == *"'$tok'"* ]] ||
                    { [[ $shared == *" $opt "* ]] && [[ $first == *"unknown option '$opt'"* ]]; }; } &&
                    [ "$(sed -n 2p "$LOG/err")" = "run with --help for the options" ] && ! grep -q 'Usage:' "$LOG/err"; then
                ok "$name: $prog '$args' exits 2 naming '$tok'"
            else
                bad "$name: $prog '$args' exits 2 naming '$tok', then 'run with --help for the options' (got $rc: $(head -2 "$LOG/err" | paste -sd'|'))"
            fi
        done
    done

    corpus "$dir" "$name"
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

# corpus DIR NAME: the checker's corpus of wrong solutions (DIR/tests/wrong/*.cu, each built with the
# lesson's checker by `make wrong`): each must get the verdict its first line names --
# "/* expect: wrong" (exit 1), "short" (exit 6, correct but short of the goal) or "met" (exit 0) --
# and, when the line quotes a text ("/* expect: wrong \"wrote outside\""), say it.  With a GPU only;
# without one the corpus must build.
corpus() {
    local dir=$1 name=$2 f w exp text want rc build sanitizer n=0 good=0
    [ -d "$dir/tests/wrong" ] || return 0
    if ! make -s --no-print-directory -C "$dir" -j2 wrong >"$LOG/build" 2>&1; then
        bad "$name: the checker's corpus of wrong solutions builds"
        sed 's/^/    /' "$LOG/build" | head -20
        return
    fi
    [ "$gpu" = 1 ] || { ok "$name: the checker's corpus of wrong solutions builds ($(ls "$dir"/tests/wrong/*.cu | wc -l) files)"; return; }
    build=$(make -s --no-print-directory -C "$dir" print-BUILD)
    sanitizer=$(make -s --no-print-directory -C "$dir" print-SANITIZER_NEXT_TO_NVCC)
    for f in "$dir"/tests/wrong/*.cu; do
        w=$(basename "$f" .cu)
        exp=$(head -n 1 "$f" | sed -n 's|^/\* expect: \([a-z]*\).*|\1|p')
        text=$(head -n 1 "$f" | sed -n 's|^/\* expect: [a-z]* "\(.*\)".*|\1|p')
        case "$exp" in wrong) want=1 ;; short) want=6 ;; met) want=0 ;; *) bad "$name: tests/wrong/$w.cu: no 'expect:' line"; continue ;; esac
        rc=$(cd "$dir" && COMPUTE_SANITIZER=${COMPUTE_SANITIZER:-$sanitizer} run "$build/wrong/$w")
        if [ "$rc" = "$want" ] && { [ -z "$text" ] || cat "$LOG/out" "$LOG/err" | grep -qF -- "$text"; }; then
            ok "$name: the checker calls tests/wrong/$w.cu $exp${text:+ (\"$text\")}"
        else
            bad "$name: the checker calls tests/wrong/$w.cu $exp${text:+ (\"$text\")} (got exit $rc: $(cat "$LOG/out" "$LOG/err" | grep -m1 -E 'FAIL|VERDICT|rror' ))"
        fi
    done
}

# ---- the build rules themselves (root `make test` only) -----------------------------------------
# make_out ARGS...: runs make, keeps its output (stdout and stderr) in $LOG/make; echoes the exit code
make_out() { make --no-print-directory "$@" >"$LOG/make" 2>&1; echo $?; }

build_rule_tests() {
    local lesson rc line prog t
    lesson=$ROOT/$(course_lessons "$ROOT" | head -n 1)   # the first lesson stands for every one
    prog=$(make -s --no-print-directory -C "$lesson" print-PROGS | awk '{print $1}')
    # nvcc is found without PATH's help when the toolkit sits in its usual home
    if [ -x /usr/local/cuda/bin/nvcc ]; then
        line=$(env PATH=/usr/bin:/bin make -s --no-print-directory -C "$ROOT/common" print-NVCC 2>&1)
        if [ -x "$line" ]; then ok "build: nvcc found outside PATH ($line)"
        else bad "build: nvcc found outside PATH (got '$line')"; fi
    fi
    # no nvcc at all: one line that says what to install or set, and make fails
    rc=$(make_out -C "$lesson" NVCC=/nonexistent/nvcc all)
    if [ "$rc" != 0 ] && grep -q 'nvcc (the CUDA compiler) was not found' "$LOG/make" && grep -q 'NVCC=' "$LOG/make"; then
        ok "build: a missing nvcc stops the build with what to install or set"
    else bad "build: a missing nvcc stops the build with what to install or set (exit $rc: $(head -1 "$LOG/make"))"; fi
    # ARCH=native without a GPU: said, not a silent default target
    if [ "$gpu" = 0 ]; then
        rc=$(make_out -C "$lesson" ARCH=native all)
        if [ "$rc" != 0 ] && grep -q 'ARCH=native needs a GPU' "$LOG/make"; then ok "build: ARCH=native without a GPU says so"
        else bad "build: ARCH=native without a GPU says so (exit $rc: $(head -1 "$LOG/make"))"; fi
        # make results and make answers measure: without a GPU they stop at once and change nothing
        for t in results answers; do
            rc=$(run bash "$COMMON/$t.sh")
            if [ "$rc" = 3 ] && grep -q "make $t needs a GPU" "$LOG/out"; then ok "build: make $t without a GPU exits 3 and says why"
            else bad "build: make $t without a GPU exits 3 and says why (exit $rc)"; fi
        done
    fi
    # make grade without a GPU: every lesson skipped, saying so, in the table and the JUnit file
    if [ "$gpu" = 0 ]; then
        rc=$(GRADE_GPU=0 run bash "$COMMON/grade.sh" "$LOG/grade.xml")
        nex=$(for l in $(course_lesson_dirs "$ROOT"); do [ -f "$l/exercise.cu" ] && echo "$l"; done | wc -l)
        if [ "$rc" = 3 ] && [ "$(grep -c 'skipped: no GPU' "$LOG/out")" = "$nex" ] &&
                python3 -c 'import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); s = r.find("testsuite"); sys.exit(0 if s is not None and int(s.get("tests")) == int(sys.argv[2]) == len(s.findall("testcase/skipped")) else 1)' "$LOG/grade.xml" "$nex"; then
            ok "build: make grade without a GPU skips all $nex exercises, saying so, in its table and its JUnit XML (exit 3)"
        else bad "build: make grade without a GPU (exit $rc: $(tail -2 "$LOG/out" | head -1))"; fi
    fi
    # VERBOSE=1 on a built tree rebuilds (its own objects) to show the register report
    rc=$(make_out -s -C "$lesson" -n VERBOSE=1 all)
    if [ "$rc" = 0 ] && grep -q -- '-Xptxas -v' "$LOG/make"; then ok "build: VERBOSE=1 rebuilds with the register report"
    else bad "build: VERBOSE=1 rebuilds with the register report (exit $rc)"; fi
    # a student's exercise.cu: warnings shown, not fatal; make test holds it to -Werror
    rc=$(make_out -s -C "$lesson" -n -W exercise.cu student)
    line=$(grep 'exercise\.cu' "$LOG/make" | grep -- '-c ')
    if [ "$rc" = 0 ] && [ -n "$line" ] && ! echo "$line" | grep -q -- '-Werror'; then
        ok "build: make exercise keeps warnings in exercise.cu as warnings"
    else bad "build: make exercise keeps warnings in exercise.cu as warnings (exit $rc: $line)"; fi
    rc=$(make_out -s -C "$lesson" -n -W exercise.cu EXERCISE_WERROR=1 student)
    if [ "$rc" = 0 ] && grep 'exercise\.cu' "$LOG/make" | grep -q -- '-Werror'; then
        ok "build: EXERCISE_WERROR=1 makes them errors"
    else bad "build: EXERCISE_WERROR=1 makes them errors (exit $rc)"; fi
    # touching a header that one lesson includes rebuilds that lesson only (compiler-made dependencies)
    rc=$(make_out -s -C "$lesson" -n -W kernels.cuh all)
    if [ "$rc" = 0 ] && grep -q "$prog\.cu" "$LOG/make" && ! grep -q 'gpu\.cu' "$LOG/make"; then
        ok "build: a lesson's header rebuilds only what includes it"
    else bad "build: a lesson's header rebuilds only what includes it (exit $rc)"; fi
    # common/tests/test_*.sh (the GPU code config.mk picks, make profile's messages, the notebook,
    # make results' failures, the toy lesson of ADDING_A_LESSON.md; stand-in nvcc, nvidia-smi and
    # ncu where a GPU would be needed): their PASS/FAIL lines, counted as above.  Each gets 1 or 0:
    # whether this machine has a GPU.
    for t in "$COMMON"/tests/test_*.sh; do
        bash "$t" "$gpu" >"$LOG/sh_test" 2>&1
        rc=$?
        relay "$LOG/sh_test"
        [ $rc -eq 0 ] || [ "$relay_fails" -gt 0 ] || bad "$(basename "$t") exited $rc"
    done
}

# The instructors' shared-server recipe (TEACHING.md): one user builds, another runs from a tree
# they cannot write.  As root the second user is `nobody`; otherwise the copy is made read-only.
shared_tree_test() {
    local copy rc as=()
    copy=$(mktemp -d)
    cp -a "$ROOT/." "$copy/"
    chmod -R a+rX,a-w "$copy"
    chmod a+rx "$copy"
    if [ "$(id -u)" = 0 ]; then
        if command -v runuser >/dev/null && runuser -u nobody -- true 2>/dev/null; then as=(runuser -u nobody --)
        else echo "      (shared tree: no runuser here; skipped)"; rm -rf "$copy"; return; fi
    fi
    # shellcheck disable=SC2086
    rc=$(cd "$copy" && run "${as[@]}" env HOME=/tmp make --no-print-directory -s run ARGS=--dry-run)
    if [ "$rc" = 0 ] && [ "$(grep -c '^dry run: arguments accepted' "$LOG/out")" -ge 8 ]; then
        ok "shared tree: another user runs every lesson from a read-only build"
    else bad "shared tree: another user runs every lesson from a read-only build (exit $rc: $(head -2 "$LOG/err" | tr '\n' ' '))"; fi
    chmod -R u+w "$copy"
    rm -rf "$copy"
}

# The students' copy (make handout): no reference solution, no instructors' pages; it builds, and
# each lesson's `make exercise` builds and runs the checker on the student's exercise.cu (with a
# GPU: the unsolved skeleton is caught; without one: the checker starts and stops at the GPU).
handout_test() {
    local tmpd rc leaks les n=0 good=0
    # make handout packs what git tracks: a copy of the tree without .git (CI's toolkit runs) has none
    if ! git -C "$ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        echo "      (handout: not a git checkout here; skipped)"
        return
    fi
    tmpd=$(mktemp -d)
    rc=$(run make --no-print-directory -C "$ROOT" handout HANDOUT="$tmpd/h.tar.gz")
    if [ "$rc" != 0 ]; then bad "handout: make handout (exit $rc: $(head -1 "$LOG/err"))"; rm -rf "$tmpd"; return; fi
    leaks=$(tar -tzf "$tmpd/h.tar.gz" | grep -E '/solution\.cu$|/tests/wrong/|/TEACHING\.md$|/teaching/|/answers/' | head -3)
    if [ -z "$leaks" ] && [ "$(tar -tzf "$tmpd/h.tar.gz" | grep -c '/exercise\.cu$')" -ge 8 ]; then
        ok "handout: the students' tarball has every exercise and no solution.cu, tests/wrong/, TEACHING.md or teaching/"
    else bad "handout: the students' tarball holds answers or lacks exercises (${leaks:-exercise.cu missing})"; fi
    tar -xzf "$tmpd/h.tar.gz" -C "$tmpd"
    echo "== building the students' copy (make handout, then make -j2 in it) ..."
    rc=$(run make --no-print-directory -C "$tmpd/course-handout" -j2 WERROR=1)
    if [ "$rc" = 0 ]; then ok "handout: the students' copy builds with warnings as errors"
    else bad "handout: the students' copy builds (exit $rc: $(grep -m1 -i error "$LOG/out" "$LOG/err"))"; fi
    for les in $(course_lesson_dirs "$tmpd/course-handout"); do
        [ -f "$les/exercise.cu" ] || continue
        n=$((n + 1))
        if [ "$gpu" = 1 ]; then
            # the checker exits 1 (a wrong result); make then stops with its own exit code, 2
            rc=$(run make --no-print-directory -s -C "$les" exercise)
            [ "$rc" != 0 ] && grep -q FAIL "$LOG/out" "$LOG/err" && good=$((good + 1))
        else
            rc=$(run make --no-print-directory -s -C "$les" exercise ARGS=--dry-run)
            [ "$rc" = 0 ] && grep -q '^dry run: arguments accepted' "$LOG/out" && good=$((good + 1))
        fi
    done
    if [ "$n" -gt 0 ] && [ "$good" = "$n" ]; then
        ok "handout: make exercise runs the checker in all $n lessons ($([ "$gpu" = 1 ] && echo 'skeletons caught' || echo 'up to the GPU'))"
    else bad "handout: make exercise works in $good of $n lessons"; fi
    rm -rf "$tmpd"
}

# shellcheck source=lessons.sh
. "$COMMON/lessons.sh"
# --course-only: the course-wide tests alone (build rules, library GPU tests, handout, documented
# commands, figures), without each lesson's: a GPU session can then run the lessons in parts.
if [ "${1:-}" = --course-only ]; then
    results_check --summary
    set --
    roottest=1
elif [ $# -eq 0 ]; then
    results_check --summary
    set -- $(course_lesson_dirs "$ROOT")
    roottest=1
fi
for d in "$@"; do
    if [ -f "$d/Makefile" ]; then test_lesson "$d"; fi
done
# The library's own GPU tests (common/tests/test_*.cu): built always, run with a GPU.
gpu_unit_tests() {
    local p
    if ! make -s --no-print-directory -C "$COMMON" tests >"$LOG/build" 2>&1; then
        bad "common: the GPU tests (tests/test_*.cu) build with warnings as errors"
        sed 's/^/    /' "$LOG/build" | head -20
        return
    fi
    ok "common: the GPU tests (tests/test_*.cu) build with warnings as errors"
    [ "$gpu" = 1 ] || return 0
    for p in $(make -s --no-print-directory -C "$COMMON" print-GPU_TESTS); do
        "$p" >"$LOG/unit" 2>&1 || bad "common: $(basename "$p") exited $?"
        relay "$LOG/unit" "common: "
    done
}

if [ "${roottest:-0}" = 1 ]; then
    gpu_unit_tests
    build_rule_tests
    shared_tree_test
    handout_test
fi

# ---- documented commands ------------------------------------------------------------------------
# Every `./program args` and `make <target> ARGS=...` the Markdown files show runs, without a GPU,
# with --dry-run added: each program it would run must accept its arguments (doc_commands.py says
# how commands are found and which are skipped).  Commands of lessons not tested here are left out.
doc_commands() {
    local rc
    command -v python3 >/dev/null || { echo "      (no python3: the documented commands are not checked)"; return 0; }
    python3 "$COMMON/doc_commands.py" "$ROOT" "$@" >"$LOG/docs" 2>&1
    rc=$?
    relay "$LOG/docs"
    [ "$rc" = 0 ] || [ "$relay_fails" -gt 0 ] || bad "docs: doc_commands.py exited $rc"
}
doc_commands "$@"

# ---- the page order: every lesson page asks (Predict) before it shows anything measured ------------
page_order() {
    command -v python3 >/dev/null || return 0
    python3 "$COMMON/page_order.py" "$ROOT" >"$LOG/order" 2>&1
    relay "$LOG/order"
}
[ "${roottest:-0}" = 1 ] && page_order

# ---- links: every relative link in a page leads to a file, and its #anchor to a heading ----------
doc_links() {
    command -v python3 >/dev/null || return 0
    python3 "$COMMON/doc_links.py" "$ROOT" >"$LOG/links" 2>&1
    relay "$LOG/links"
}
[ "${roottest:-0}" = 1 ] && doc_links

# ---- figures: every committed SVG is what make plot draws from the committed CSV (test_figures.sh)
figures() {
    local rc
    bash "$COMMON/test_figures.sh" "$@" >"$LOG/figures" 2>&1
    rc=$?
    relay "$LOG/figures"
    [ "$rc" = 0 ] || [ "$relay_fails" -gt 0 ] || bad "figures: test_figures.sh exited $rc"
}
if [ "${roottest:-0}" = 1 ] && [ $# -eq 0 ]; then figures $(course_lesson_dirs "$ROOT") "$ROOT"; else figures "$@" ${roottest:+"$ROOT"}; fi

# ---- the two memory systems (root README): table and chart are what compare_gpus.py makes ------
# block_is NAME FILE: 0 when README.md's <!-- NAME:begin/end --> block holds exactly FILE's text
block_is() {
    python3 - "$ROOT/README.md" "$1" "$2" <<'PY'
import sys
text = open(sys.argv[1]).read()
block = text.split("<!-- %s:begin -->\n" % sys.argv[2], 1)[1].split("<!-- %s:end -->" % sys.argv[2], 1)[0]
sys.exit(0 if block.strip() == open(sys.argv[3]).read().strip() else 1)
PY
}

gpus_section() {
    local tmpd
    command -v python3 >/dev/null || return 0
    tmpd=$(mktemp -d)
    if python3 "$COMMON/compare_gpus.py" "$ROOT" >"$tmpd/table" 2>"$tmpd/err"; then
        if block_is gpus "$tmpd/table"; then ok "README: the two-GPU table is what compare_gpus.py makes of results/*/"
        else bad "README: the two-GPU table differs from what compare_gpus.py makes of results/*/ (make results)"; fi
        python3 "$COMMON/compare_gpus.py" "$ROOT" --map >"$tmpd/map" 2>/dev/null
        if block_is map "$tmpd/map"; then
            ok "README: the course map's measured column is what compare_gpus.py --map makes of results/*/"
        else bad "README: the course map's measured column differs from compare_gpus.py --map (make results)"; fi
        if command -v gnuplot >/dev/null; then
            if python3 "$COMMON/compare_gpus.py" "$ROOT" --svg "$tmpd/gpus.svg" >/dev/null 2>&1 &&
                    cmp -s "$tmpd/gpus.svg" "$ROOT/gpus.svg"; then
                ok "figures: gpus.svg is redrawn byte for byte from the committed CSV"
            else bad "figures: gpus.svg differs from what compare_gpus.py draws (make plot)"; fi
        fi
    else
        echo "      (two-GPU comparison: $(head -1 "$tmpd/err"))"
    fi
    rm -rf "$tmpd"
}
[ "${roottest:-0}" = 1 ] && gpus_section

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
