#!/usr/bin/env bash
# make grade: every lesson's exercise checked in one go, for an instructor grading a student's copy
# of the course.  Each lesson's checker (`./student`, built from the student's exercise.cu) runs as
# `make exercise` runs it: verification at odd sizes, compute-sanitizer, timing, the verdict.
# Prints a table (lesson, kernel, verdict, measured ratio, goal) and writes a JUnit XML file, the
# format classroom autograders and CI systems read: one test case per lesson; `wrong` and `short of
# the goal` are failures (with the checker's output), a lesson that could not run is an error, and
# without a GPU every lesson is skipped, saying so.
# usage: grade.sh [XML_OUT]   (default grade.xml at the course's root; ARGS are passed to each checker)
# Exit: 0 every goal met; 1 a kernel wrong or short of its goal; 3 no GPU (nothing graded).
set -u
COMMON=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$COMMON")
xml=${1:-$ROOT/grade.xml}
case "$xml" in /*) ;; *) xml="$PWD/$xml" ;; esac
# shellcheck source=lessons.sh
. "$COMMON/lessons.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gpu=1
nvidia-smi -L 2>/dev/null | grep -q '^GPU' || gpu=0
[ -n "${GRADE_GPU:-}" ] && gpu=$GRADE_GPU   # tests: 0 pretends there is no GPU

# xml_escape < text: the text made safe inside an XML attribute or element
xml_escape() { sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' -e 's/"/\&quot;/g' | tr -d '\000-\010\013\014\016-\037'; }

n=0; failures=0; errors=0; skipped=0; met=0
printf '%-22s %-28s %-22s %8s %8s\n' lesson kernel verdict ratio goal >"$tmp/table"
: >"$tmp/cases"
for d in $(course_lesson_dirs "$ROOT"); do
    [ -f "$d/exercise.cu" ] || continue
    name=$(basename "$d")
    n=$((n + 1))
    kernel=
    [ "$gpu" = 1 ] && echo "== $name: building and checking your exercise.cu ..." >&2
    verdict= ratio=- goal=- body=
    if [ "$gpu" = 0 ]; then
        verdict="skipped: no GPU"
        skipped=$((skipped + 1))
        echo "<testcase classname=\"exercises\" name=\"$name\"><skipped message=\"no GPU: nvidia-smi sees none; nothing was run\"/></testcase>" >>"$tmp/cases"
    elif ! make -s --no-print-directory -C "$d" student >"$tmp/out" 2>&1; then
        verdict="error: does not build"
        errors=$((errors + 1))
        body=$(tail -30 "$tmp/out" | xml_escape)
        echo "<testcase classname=\"exercises\" name=\"$name\"><error message=\"exercise.cu does not build\">$body</error></testcase>" >>"$tmp/cases"
    else
        sanitizer=$(make -s --no-print-directory -C "$d" print-SANITIZER_NEXT_TO_NVCC 2>/dev/null)
        t0=$(date +%s)
        # shellcheck disable=SC2086
        (cd "$d" && COMPUTE_SANITIZER=${COMPUTE_SANITIZER:-$sanitizer} ./student ${ARGS:-}) >"$tmp/out" 2>&1
        rc=$?
        secs=$(( $(date +%s) - t0 ))
        line=$(grep '^VERDICT:' "$tmp/out" | tail -1)
        ratio=$(echo "$line" | sed -n 's/.* runs at \([0-9.]*\)x .*/\1/p')
        goal=$(echo "$line" | sed -n 's/.*(goal: \([0-9.]*\)x.*/\1/p')
        [ -n "$ratio" ] || ratio=-
        [ -n "$goal" ] || goal=-
        kernel=$(echo "$line" | sed -n 's/^VERDICT: correct; \([^ ]*\) runs at.*/\1/p')
        body=$(tail -40 "$tmp/out" | xml_escape)
        case "$rc" in
            0) verdict="correct, goal met"; met=$((met + 1))
               echo "<testcase classname=\"exercises\" name=\"$name\" time=\"$secs\"><system-out>$body</system-out></testcase>" >>"$tmp/cases" ;;
            6) verdict="correct, short of goal"; failures=$((failures + 1))
               echo "<testcase classname=\"exercises\" name=\"$name\" time=\"$secs\"><failure type=\"short-of-goal\" message=\"$(echo "$line" | xml_escape)\">$body</failure></testcase>" >>"$tmp/cases" ;;
            1) verdict="wrong"; failures=$((failures + 1))
               echo "<testcase classname=\"exercises\" name=\"$name\" time=\"$secs\"><failure type=\"wrong\" message=\"$(grep -m1 -E 'FAILED|VERDICT: wrong' "$tmp/out" | xml_escape)\">$body</failure></testcase>" >>"$tmp/cases" ;;
            *) verdict="error: exit $rc"; errors=$((errors + 1))
               echo "<testcase classname=\"exercises\" name=\"$name\" time=\"$secs\"><error message=\"the checker ended with exit $rc\">$body</error></testcase>" >>"$tmp/cases" ;;
        esac
    fi
    printf '%-22s %-28s %-22s %8s %8s\n' "$name" "${kernel:--}" "$verdict" "$ratio" "$goal" >>"$tmp/table"
done
{
    echo '<?xml version="1.0" encoding="UTF-8"?>'
    echo "<testsuites tests=\"$n\" failures=\"$failures\" errors=\"$errors\" skipped=\"$skipped\">"
    echo "<testsuite name=\"course exercises\" tests=\"$n\" failures=\"$failures\" errors=\"$errors\" skipped=\"$skipped\" timestamp=\"$(date -u +%FT%TZ)\">"
    cat "$tmp/cases"
    echo "</testsuite>"
    echo "</testsuites>"
} >"$xml.tmp" && mv "$xml.tmp" "$xml"
echo
cat "$tmp/table"
echo
echo "$met of $n exercises correct at their goal; $failures wrong or short; $errors errors; $skipped skipped. JUnit XML: $xml"
[ "$gpu" = 0 ] && { echo "No GPU (nvidia-smi sees none): nothing was graded."; exit 3; }
[ $((failures + errors)) -eq 0 ] || exit 1
exit 0
