#!/usr/bin/env bash
# common/ADDING_A_LESSON.md is kept true: in a copy of the course (common/, with its library already
# built, the root Makefile and lessons.txt), the toy lesson is written from the page's own code
# blocks ("<!-- file: PATH -->" before each), its line is added to lessons.txt as the page shows,
# and then: the root Makefile lists it, it builds with warnings as errors, its --check passes on a
# GPU (without one it exits 3), and with a GPU its rows reach the summary of `make run`.
# usage: test_new_lesson.sh GPU(0|1).  One "PASS name" / "FAIL name" line per check.
set -u
COMMON=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ROOT=$(dirname "$COMMON")
gpu=${1:-0}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass() { echo "PASS $*"; }
fail() { echo "FAIL $*"; }

mkdir -p "$tmp/course"
cp -a "$COMMON" "$tmp/course/common"
cp "$ROOT/Makefile" "$ROOT/lessons.txt" "$tmp/course/"
# the files and the lessons.txt line, as the page gives them
python3 - "$COMMON/ADDING_A_LESSON.md" "$tmp/course" <<'PY' || { fail "new lesson: the page's code blocks could not be read"; exit 0; }
import os, re, sys
text = open(sys.argv[1]).read()
files = re.findall(r"<!-- file: (\S+) -->\n```[a-z]*\n(.*?)```", text, re.S)
line = re.search(r"<!-- lessons.txt line -->\n```text\n(.*?)```", text, re.S)
assert files and line, "no <!-- file: --> blocks or no lessons.txt line"
for path, body in files:
    path = os.path.join(sys.argv[2], path)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    open(path, "w").write(body)
with open(os.path.join(sys.argv[2], "lessons.txt"), "a") as f:
    f.write(line.group(1))
print("wrote", len(files), "files")
PY
. "$COMMON/lessons.sh"
les=$(course_lessons "$tmp/course" | tail -n 1)   # the line the page adds comes last
prog=$(sed -n 's/^PROGS := //p' "$tmp/course/$les/Makefile")
if make -s --no-print-directory -C "$tmp/course" print-LESSONS | grep -qw "$les"; then
    pass "new lesson: the root Makefile lists $les once lessons.txt does"
else fail "new lesson: the root Makefile lists $les once lessons.txt does"; fi
if make -s --no-print-directory -C "$tmp/course/$les" WERROR=1 all >"$tmp/build" 2>&1; then
    pass "new lesson: $les builds from the page with warnings as errors"
else
    fail "new lesson: $les builds from the page with warnings as errors"
    sed 's/^/    /' "$tmp/build" | head -20
    exit 0
fi
(cd "$tmp/course/$les" && "./$prog" --check) >"$tmp/out" 2>&1
rc=$?
if [ "$gpu" = 1 ]; then
    if [ "$rc" = 0 ] && grep -q '^OK: ' "$tmp/out"; then pass "new lesson: $les --check passes ($(grep -c PASS "$tmp/out") checks)"
    else fail "new lesson: $les --check passes (exit $rc)"; tail -5 "$tmp/out" | sed 's/^/    /'; fi
    (cd "$tmp/course/$les" && LESSON_SUMMARY_FILE="$tmp/rows.csv" "./$prog" --quick) >"$tmp/out" 2>&1
    if python3 "$tmp/course/common/summary.py" "$tmp/rows.csv" | grep -q "^  $les "; then
        pass "new lesson: $les's rows reach the summary of make run"
    else fail "new lesson: $les's rows reach the summary of make run"; fi
else
    if [ "$rc" = 3 ]; then pass "new lesson: $les without a GPU exits 3"
    else fail "new lesson: $les without a GPU exits 3 (got $rc)"; fi
fi
