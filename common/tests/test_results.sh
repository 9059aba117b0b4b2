#!/usr/bin/env bash
# make results changes a lesson only when all its runs succeeded (common/results.sh), tested without
# a GPU: stand-in nvidia-smi and nvcc scripts name a GPU, and two toy lessons stand in for real ones
# (Makefiles that build nothing; programs that are shell scripts): one whose program prints a table
# and its CSV rows, one whose second run fails.  One "PASS name" / "FAIL name" line per check.
set -u
COMMON=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass() { echo "PASS $*"; }
fail() { echo "FAIL $*"; }

# a course of two toy lessons: common/ as it is, a root README with the summary markers
mkdir -p "$tmp/course" "$tmp/bin"
cp -r "$COMMON" "$tmp/course/common"
rm -rf "$tmp/course/common/build"
printf '01_works\n02_fails\n' >"$tmp/course/lessons.txt"
printf '# toy\n<!-- summary:begin -->\nOLD\n<!-- summary:end -->\n' >"$tmp/course/README.md"
toy() {   # toy NAME RESULTS_ARGS PROGRAM-BODY
    local d="$tmp/course/$1"
    mkdir -p "$d"
    printf 'PROGS := prog\nRESULTS_ARGS := %s\nall plot:\n\t@true\nprint-%%:\n\t@echo '"'"'$($*)'"'"'\n' "$2" >"$d/Makefile"
    printf '#!/usr/bin/env bash\n%s\n' "$3" >"$d/prog"
    chmod +x "$d/prog"
    printf '# %s\n<!-- results:begin -->\nOLD BLOCK\n<!-- results:end -->\n' "$1" >"$d/README.md"
}
row='echo "lesson,experiment,kernel,status,ms_median,ms_min,ms_max,bytes,gbs,pct_d2d,pct_peak,extra_name,extra" >>"$LESSON_SUMMARY_FILE"; echo "01_works,t,\"k\",ok,1,1,1,2,2.0,50.0,40.0,," >>"$LESSON_SUMMARY_FILE"'
toy 01_works "" "[ \"\${LESSON_SUMMARY_FILE:-}\" != /dev/null ] && { $row; }; echo 'a table of the toy kernel'"
toy 02_fails ";--second" '[ "${1:-}" = --second ] && { echo "the second run broke: out of cheese" >&2; exit 4; }; [ "${LESSON_SUMMARY_FILE:-}" != /dev/null ] && echo "lesson,x" >>"$LESSON_SUMMARY_FILE"; echo fine'
cp "$tmp/course/02_fails/README.md" "$tmp/before.md"

# stand-ins for a machine with a GPU
cat >"$tmp/bin/nvidia-smi" <<'SH'
#!/bin/sh
case "$*" in
    -L) echo "GPU 0: Toy GPU (UUID: GPU-0)" ;;
    *name*) echo "Toy GPU" ;;
    *driver_version*) echo "999.1" ;;
esac
SH
printf '#!/bin/sh\necho "Cuda compilation tools, release 12.9, V12.9.0"\n' >"$tmp/bin/nvcc"
chmod +x "$tmp/bin/nvidia-smi" "$tmp/bin/nvcc"

out=$(cd "$tmp/course" && PATH="$tmp/bin:$PATH" bash common/results.sh 01_works 02_fails 2>&1)
rc=$?
csvs="$tmp/course/results/Toy_GPU"
[ "$rc" = 1 ] && pass "make results: a failed run makes the exit code 1" || fail "make results: a failed run makes the exit code 1 (got $rc)"
if cmp -s "$tmp/before.md" "$tmp/course/02_fails/README.md" && ! grep -qs '^lesson,x' "$csvs"/*.csv; then
    pass "make results: the lesson whose run failed keeps its notes and CSV"
else fail "make results: the lesson whose run failed keeps its notes and CSV"; fi
if echo "$out" | grep -q 'running ./prog --second (2 of 2)' && echo "$out" | grep -q 'FAILED (exit 4)' &&
        echo "$out" | grep -q 'out of cheese' && echo "$out" | grep -q 'NOT changed.*02_fails'; then
    pass "make results: announces each run, shows the failing command and its output"
else fail "make results: announces each run, shows the failing command and its output"; echo "$out" | sed 's/^/    /'; fi
if grep -q 'a table of the toy kernel' "$tmp/course/01_works/README.md" && ! grep -q 'OLD BLOCK' "$tmp/course/01_works/README.md" &&
        grep -q '^01_works,t,"k",ok' "$csvs/prog.csv" 2>/dev/null && grep -q 'gpu=Toy GPU' "$csvs/run.txt" 2>/dev/null; then
    pass "make results: a lesson whose runs all succeeded gets its block, CSV and run.txt"
else fail "make results: a lesson whose runs all succeeded gets its block, CSV and run.txt"; fi
# the lesson's own record of its run (its figures name it, whatever lesson runs later); none for the
# lesson whose run failed
if grep -q 'gpu=Toy GPU' "$csvs/01_works.run.txt" 2>/dev/null && grep -q "^date=$(date -u +%F)" "$csvs/01_works.run.txt" &&
        [ ! -e "$csvs/02_fails.run.txt" ]; then
    pass "make results: the lesson that ran gets results/<GPU>/<lesson>.run.txt, the failed one none"
else fail "make results: the lesson that ran gets results/<GPU>/<lesson>.run.txt, the failed one none"; fi

# RESULTS_PROFILE_ONLY=1: no program runs; the results block and CSV stay, the profile block is
# refreshed from `make profile` (a stand-in ncu on PATH, a toy profile target)
cp "$csvs/prog.csv" "$tmp/works_before.csv"
printf '\n<!-- profile:begin -->\nOLD PROFILE\n<!-- profile:end -->\n' >>"$tmp/course/01_works/README.md"
printf 'profile:\n\t@printf "kernel counters of the toy\\n\\nMore counters:\\nkernel more of the toy\\n"\n' >>"$tmp/course/01_works/Makefile"
printf '#!/bin/sh\nexit 0\n' >"$tmp/bin/ncu"; chmod +x "$tmp/bin/ncu"
printf '#!/usr/bin/env bash\necho "the toy program ran" >&2; exit 7\n' >"$tmp/course/01_works/prog"
out=$(cd "$tmp/course" && PATH="$tmp/bin:$PATH" RESULTS_PROFILE_ONLY=1 bash common/results.sh 01_works 2>&1)
rc=$?
after="$tmp/course/01_works/README.md"
if [ "$rc" = 0 ] && grep -q 'kernel counters of the toy' "$after" && ! grep -q 'OLD PROFILE' "$after" &&
        grep -q 'a later run than the results above' "$after" && grep -q 'a table of the toy kernel' "$after" &&
        cmp -s "$tmp/works_before.csv" "$csvs/prog.csv" && ! echo "$out" | grep -q 'running ./prog'; then
    pass "make results RESULTS_PROFILE_ONLY=1: refreshes the profile block only, runs no program"
else fail "make results RESULTS_PROFILE_ONLY=1: refreshes the profile block only, runs no program (exit $rc)"; echo "$out" | sed 's/^/    /'; fi
# the key columns in the block's first text fence, what followed "More counters:" in a fold of its own
block=$(sed -n '/<!-- profile:begin -->/,/<!-- profile:end -->/p' "$after")
first=$(echo "$block" | awk '/^```text$/ { n++; in_ = 1; next } /^```$/ { in_ = 0; next } in_ && n == 1')
folded=$(echo "$block" | sed -n '/<summary>More counters/,/<\/details>/p')
if [ "$first" = "kernel counters of the toy" ] && echo "$folded" | grep -q '^kernel more of the toy$' &&
        ! echo "$block" | grep -q '^More counters:$' && [ "$(echo "$block" | grep -c '^```')" = 4 ]; then
    pass "make results: a profile's 'More counters:' go to a fold of their own inside the profile block"
else fail "make results: a profile's 'More counters:' in a fold of their own (got: $(echo "$block" | paste -sd'|'))"; fi
# with PROFILE_ROWS the profile ends "Every kernel and counter:": the fold takes that title
sed -i 's/More counters:/Every kernel and counter:/' "$tmp/course/01_works/Makefile"
out=$(cd "$tmp/course" && PATH="$tmp/bin:$PATH" RESULTS_PROFILE_ONLY=1 bash common/results.sh 01_works 2>&1)
block=$(sed -n '/<!-- profile:begin -->/,/<!-- profile:end -->/p' "$after")
folded=$(echo "$block" | sed -n '/<summary>Every kernel and counter<\/summary>/,/<\/details>/p')
if echo "$folded" | grep -q '^kernel more of the toy$' && ! echo "$block" | grep -q 'More counters\|^Every kernel and counter:$'; then
    pass "make results: after PROFILE_ROWS' rows, 'Every kernel and counter:' goes to a fold of that title"
else fail "make results: 'Every kernel and counter:' in a fold of that title (got: $(echo "$block" | paste -sd'|'))"; fi
sed -i 's/Every kernel and counter:/More counters:/' "$tmp/course/01_works/Makefile"
rm -f "$tmp/bin/ncu"
if PATH="/usr/bin:/bin" command -v ncu >/dev/null 2>&1; then
    pass "make results RESULTS_PROFILE_ONLY=1 without ncu: not tested here (ncu is in /usr/bin)"
else
out=$(cd "$tmp/course" && PATH="$tmp/bin:/usr/bin:/bin" RESULTS_PROFILE_ONLY=1 bash common/results.sh 01_works 2>&1)
rc=$?
if [ "$rc" = 2 ] && echo "$out" | grep -q 'ncu' && grep -q 'kernel counters of the toy' "$after"; then
    pass "make results RESULTS_PROFILE_ONLY=1 without ncu: exit 2, nothing changed"
else fail "make results RESULTS_PROFILE_ONLY=1 without ncu: exit 2, nothing changed (exit $rc)"; echo "$out" | sed 's/^/    /'; fi
fi

# RESULTS_ROWS: the rows the core reads, copied from the new run into the README's results-rows
# block above the fold; a run that lacks one of them changes nothing; a hand edit fails the check
d="$tmp/course/03_rows"; mkdir -p "$d"
printf 'PROGS := prog\nRESULTS_ROWS := fast;2:copy\nall plot:\n\t@true\nprint-%%:\n\t@echo '"'"'$($*)'"'"'\n' >"$d/Makefile"
cat >"$d/prog" <<'SH'
#!/usr/bin/env bash
[ "${LESSON_SUMMARY_FILE:-}" != /dev/null ] && echo "03_rows,t,\"fast\",ok,1,1,1,2,2.0,50.0,40.0,," >>"$LESSON_SUMMARY_FILE"
S=${TOY_SLOW:-slow}
cat <<OUT
Experiment 1: toy rows. What they measure, at length.
  kernel                       median ms  (min - max)             GB/s   %D2D  %peak  bar: 1 # = 4% of D2D
  copy                            0.1000  (0.1000 - 0.1000)     2000.0  100.0   90.0  #########################
  fast                            0.1000  (0.1000 - 0.1000)     2000.0  100.0   90.0  #########################
  $S                            0.2000  (0.2000 - 0.2000)     1000.0   50.0   45.0  ############
  -> fast is twice slow
Experiment 2: the copy again.
  kernel                       median ms  (min - max)             GB/s   %D2D  %peak  bar: 1 # = 4% of D2D
  copy                            0.1000  (0.1000 - 0.1000)     2000.0  100.0   90.0  #########################
OUT
SH
chmod +x "$d/prog"
printf '# rows\n<!-- results-rows:begin -->\nOLD ROWS\n<!-- results-rows:end -->\n<details>\n<!-- results:begin -->\nOLD BLOCK\n<!-- results:end -->\n</details>\n' >"$d/README.md"
out=$(cd "$tmp/course" && PATH="$tmp/bin:$PATH" bash common/results.sh 03_rows 2>&1)
rc=$?
rows=$(sed -n '/<!-- results-rows:begin -->/,/<!-- results-rows:end -->/p' "$d/README.md")
if echo "$out" | grep -q 'Refreshed.*03_rows' && echo "$rows" | grep -q '^Experiment 1: toy rows\.$' && echo "$rows" | grep -q '^  fast  .*2000.0  100.0   90.0$' &&
        ! echo "$rows" | grep -q 'slow\|####\|OLD ROWS' && [ "$(echo "$rows" | grep -c '^  copy ')" = 1 ] &&
        echo "$rows" | grep -q '^Experiment 2: the copy again\.$' &&
        python3 "$tmp/course/common/results_rows.py" --check "$d/README.md" 'fast;2:copy'; then
    pass "make results: RESULTS_ROWS' rows, copied from the run above the fold (experiment titles, no bar column)"
else fail "make results: RESULTS_ROWS' rows above the fold (exit $rc; got: $(echo "$rows" | paste -sd'|'))"; echo "$out" | sed 's/^/    /'; fi
cp "$d/README.md" "$tmp/rows_before.md"
sed -i 's/^RESULTS_ROWS := .*/RESULTS_ROWS := fast;gone/' "$d/Makefile"
out=$(cd "$tmp/course" && PATH="$tmp/bin:$PATH" TOY_SLOW=slower bash common/results.sh 03_rows 2>&1)
rc=$?
if [ "$rc" = 1 ] && cmp -s "$tmp/rows_before.md" "$d/README.md" && echo "$out" | grep -q "RESULTS_ROWS names rows .*: gone"; then
    pass "make results: a run without a RESULTS_ROWS row changes nothing, exit 1, names the row"
else fail "make results: a run without a RESULTS_ROWS row changes nothing, exit 1, names the row (exit $rc)"; echo "$out" | sed 's/^/    /'; fi
sed -i '/results-rows:begin/,/results-rows:end/ s/  fast  \(.*\)2000.0/  fast  \12001.0/' "$d/README.md"
if ! python3 "$tmp/course/common/results_rows.py" --check "$d/README.md" 'fast;2:copy' 2>/dev/null; then
    pass "results_rows.py --check: a hand-edited row fails"
else fail "results_rows.py --check: a hand-edited row fails"; fi
