#!/usr/bin/env bash
# make profile and make profile-report (common/profile.sh, common/lesson.mk) with a stand-in `ncu`
# script, so that every case runs without a GPU: ERR_NVGPUCTRPERM gives the fixes and exit 3; no
# kernel profiled shows ncu's own log; profile-report asks ncu for one row's launch with every
# section and the source and says where the report went; without PROG or ROW, one line saying what
# to type and nothing run.
# Prints one "PASS name" / "FAIL name" line per check (common/test.sh counts them); exit 1 if any failed.
set -u
COMMON=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ROOT=$(dirname "$COMMON")
# (an outer `make test NVCC=...` passes its nvcc down in MAKEFLAGS: the lesson's make needs it)
unset MAKELEVEL NCU PROG ROW REPORT ARGS
failed=0
ok()  { echo "PASS profile: $*"; }
bad() { echo "FAIL profile: $*"; failed=$((failed + 1)); }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin" "$tmp/work"

# stand-in ncu: records its arguments (one per line) in FAKE_NCU_ARGS; FAKE_NCU says what happens:
#   perm         ERR_NVGPUCTRPERM in its log (--log-file), exit 1, as ncu does for every kernel
#   perm-stderr  the same message on stderr only
#   none         the program runs (two CSV rows on stdout) and no kernel is profiled
#   report       the report (-o NAME) is written: NAME.ncu-rep
cat >"$tmp/bin/ncu" <<'EOF'
#!/bin/sh
: >"${FAKE_NCU_ARGS:-/dev/null}"
for a in "$@"; do printf '%s\n' "$a" >>"${FAKE_NCU_ARGS:-/dev/null}"; done
log=/dev/stderr out=""
while [ $# -gt 0 ]; do
    case "$1" in
        --log-file) log=$2; shift ;;
        -o) out=$2; shift ;;
    esac
    shift
done
msg='==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU Performance Counters on the target device 0. For instructions on enabling permissions and to get more information see https://developer.nvidia.com/ERR_NVGPUCTRPERM'
echo '==PROF== Connected to process 4242 (/course/prog)' >"$log"
case "$FAKE_NCU" in
    perm) echo "$msg" >>"$log"; exit 1 ;;
    perm-stderr) echo "$msg" >&2; exit 1 ;;
    none)
        echo 'lesson,experiment,kernel,status,ms_median'
        echo '05_transpose_naive,ceiling,cudaMemcpy D2D,ok,0.3'
        echo '05_transpose_naive,naive,"NaiveRow",ok,1.9'
        echo '05_transpose_naive,naive,"NaiveCol",ok,0.6'
        echo '==PROF== Disconnected from process 4242' >>"$log"
        echo '==WARNING== No kernels were profiled.' >>"$log"
        exit 0 ;;
    report) echo "stand-in report" >"$out.ncu-rep"; echo "==PROF== Report: $out.ncu-rep" >>"$log"; exit 0 ;;
esac
EOF
chmod +x "$tmp/bin/ncu"
NCU_ARGS=$tmp/ncu.args

# prof MODE SCRIPT-ARGS...: profile.sh with the stand-in, in $tmp/work; stdout+stderr in $tmp/out
prof() {
    local mode=$1
    shift
    (cd "$tmp/work" && env NCU="$tmp/bin/ncu" FAKE_NCU="$mode" FAKE_NCU_ARGS="$NCU_ARGS" \
        bash "$COMMON/profile.sh" "$@") >"$tmp/out" 2>&1
    echo $?
}
has() { local s; for s in "$@"; do grep -qF -- "$s" "$tmp/out" || return 1; done; }
arg() { grep -qxF -- "$1" "$NCU_ARGS"; }            # ncu was given this exact argument
args_seq() { tr '\n' ' ' <"$NCU_ARGS" | grep -qF -- "$1"; }  # ... or this sequence

FIXES=("ERR_NVGPUCTRPERM" "NVreg_RestrictProfilingToAdminUsers=0" "https://developer.nvidia.com/ERR_NVGPUCTRPERM"
       "NCU=\"sudo $tmp/bin/ncu\"" "--cap-add=SYS_ADMIN" "Manage GPU Performance Counters" "Nothing was profiled.")

# ---- ERR_NVGPUCTRPERM -------------------------------------------------------------------------------
rc=$(prof perm ./prog "dram__bytes_read.sum")
if [ "$rc" = 3 ] && has "${FIXES[@]}" && has "make profile ..."; then
    ok "make profile: ERR_NVGPUCTRPERM prints the fixes (driver option, ncu as root, SYS_ADMIN, WSL 2) and exits 3"
else bad "make profile: ERR_NVGPUCTRPERM prints the fixes and exits 3 (exit $rc: $(head -1 "$tmp/out"))"; fi
rc=$(prof perm-stderr ./prog "dram__bytes_read.sum")
if [ "$rc" = 3 ] && has "${FIXES[@]}"; then ok "make profile: ERR_NVGPUCTRPERM on ncu's stderr is recognised too"
else bad "make profile: ERR_NVGPUCTRPERM on ncu's stderr is recognised too (exit $rc: $(head -1 "$tmp/out"))"; fi
rc=$(prof perm --report ./prog "NaiveCol")
if [ "$rc" = 3 ] && has "${FIXES[@]}" && has "make profile-report ..."; then
    ok "make profile-report: ERR_NVGPUCTRPERM prints the fixes and exits 3"
else bad "make profile-report: ERR_NVGPUCTRPERM prints the fixes and exits 3 (exit $rc: $(head -1 "$tmp/out"))"; fi

# ---- no kernel profiled: ncu's own log ------------------------------------------------------------
rc=$(prof none ./prog "dram__bytes_read.sum")
if [ "$rc" = 1 ] && has "ncu's log (last lines):" "==WARNING== No kernels were profiled." && ! has "see its log above"; then
    ok "make profile: no kernel profiled shows the last lines of ncu's own log, exit 1"
else bad "make profile: no kernel profiled shows ncu's own log (exit $rc: $(head -3 "$tmp/out" | paste -sd'|'))"; fi
rc=$(prof none --report ./prog "NaiveCl")
if [ "$rc" = 1 ] && has "ncu profiled no launch of row 'NaiveCl'" "the rows this run timed: \"NaiveRow\", \"NaiveCol\"" \
        "==WARNING== No kernels were profiled." && ! has '"cudaMemcpy D2D"'; then
    ok "make profile-report: a row that matched nothing lists the rows the run timed and ncu's log, exit 1"
else bad "make profile-report: a row that matched nothing lists the rows and ncu's log (exit $rc: $(head -2 "$tmp/out" | paste -sd'|'))"; fi

# ---- profile-report: what ncu is asked, where the report goes ----------------------------------------
rc=$(prof report --report ./transpose_naive "NaiveCol" "" --size 2048x512)
want="$tmp/work/transpose_naive-NaiveCol.ncu-rep"
if [ "$rc" = 0 ] && [ -s "$want" ] && has "wrote $want" "ncu-ui $want"; then
    ok "make profile-report writes <program>-<row>.ncu-rep in the lesson folder and says where (absolute path)"
else bad "make profile-report writes <program>-<row>.ncu-rep and says where (exit $rc: $(head -2 "$tmp/out" | paste -sd'|'))"; fi
if args_seq "--set full" && args_seq "--import-source yes" && arg "--nvtx" && args_seq "--nvtx-include L:NaiveCol/" &&
        args_seq "--launch-count 1" && args_seq "-o ./transpose_naive-NaiveCol " &&
        args_seq "./transpose_naive --reps 1 --warmup 0 --no-flush --csv --size 2048x512"; then
    ok "make profile-report: ncu --set full --import-source yes --nvtx --nvtx-include \"L:<row>/\" --launch-count 1, the program with --reps 1 --warmup 0 and ARGS"
else bad "make profile-report: ncu's arguments (got: $(tr '\n' ' ' <"$NCU_ARGS"))"; fi
rc=$(prof report --report ./shared_tiled "tile32 thr32x8 [32][33] @odd" "$tmp/mine.ncu-rep")
filter=$(grep -A1 -xF -- "--nvtx-include" "$NCU_ARGS" | tail -1)
if [ "$rc" = 0 ] && [ -s "$tmp/mine.ncu-rep" ] && [ "$filter" = 'regex:^L:tile32 thr32x8 .32..33. .odd$/' ]; then
    ok "make profile-report: REPORT=path is used; a row with [ ] @ is matched by an anchored regular expression"
else bad "make profile-report: REPORT=path and a row with [ ] @ (exit $rc, filter '$filter')"; fi
rc=$( (cd "$tmp/work" && env NCU="env $tmp/bin/ncu" FAKE_NCU=report FAKE_NCU_ARGS="$NCU_ARGS" \
       bash "$COMMON/profile.sh" --report ./prog NaiveRow "$tmp/words") >"$tmp/out" 2>&1; echo $?)
if [ "$rc" = 0 ] && [ -s "$tmp/words.ncu-rep" ]; then ok "NCU may hold words (NCU=\"sudo /path/to/ncu\")"
else bad "NCU may hold words (exit $rc: $(head -1 "$tmp/out"))"; fi

# ---- without PROG or ROW: what to type, nothing run ------------------------------------------------
example_ok() {  # the example's ROW is a row of the committed run of that program
    local prog row
    prog=$(sed -n 's/.*make profile-report PROG=\([a-z_]*\) ROW="\([^"]*\)".*/\1/p' "$tmp/out" | head -1)
    row=$(sed -n 's/.*make profile-report PROG=\([a-z_]*\) ROW="\([^"]*\)".*/\2/p' "$tmp/out" | head -1)
    [ -n "$prog" ] && [ -n "$row" ] && grep -q ",\"\?$row\"\?,ok," "$ROOT/results/NVIDIA_H100_80GB_HBM3/$prog.csv"
}
for args in "PROG=transpose_naive" "ROW=NaiveCol" ""; do
    : >"$NCU_ARGS"
    # shellcheck disable=SC2086
    rc=$(env NCU="$tmp/bin/ncu" FAKE_NCU=report FAKE_NCU_ARGS="$NCU_ARGS" \
         make -s --no-print-directory -C "$ROOT/05_transpose_naive" profile-report $args >"$tmp/out" 2>&1; echo $?)
    if [ "$rc" != 0 ] && [ "$(grep -vc '^make: \*\*\*' "$tmp/out")" = 1 ] &&
            has "make profile-report needs PROG=<program> and ROW=" && example_ok && [ ! -s "$NCU_ARGS" ]; then
        ok "make profile-report ${args:-(nothing)}: one line saying what to type, with a real row as the example; ncu not run"
    else bad "make profile-report ${args:-(nothing)}: one line saying what to type (exit $rc: $(head -2 "$tmp/out" | paste -sd'|'))"; fi
done
# from the root: in the lesson that has PROG
rc=$(make -s --no-print-directory -C "$ROOT" profile-report PROG=no_such_program ROW=x >"$tmp/out" 2>&1; echo $?)
if [ "$rc" != 0 ] && has "make profile-report needs PROG=<a program of a lesson>" "no lesson has a program no_such_program"; then
    ok "root make profile-report with a PROG no lesson has: one line saying what to type"
else bad "root make profile-report with a PROG no lesson has: one line saying what to type (exit $rc: $(head -1 "$tmp/out"))"; fi
rc=$(make --no-print-directory -C "$ROOT" -n profile-report PROG=transpose_naive ROW="NaiveCol" >"$tmp/out" 2>&1; echo $?)
if [ "$rc" = 0 ] && has "profile.sh --report" "'./transpose_naive' 'NaiveCol'"; then
    ok "root make profile-report PROG=transpose_naive ROW=NaiveCol runs in 05_transpose_naive"
else bad "root make profile-report PROG=transpose_naive runs in its lesson (exit $rc: $(grep -m1 -e '\*\*\*' -e needs "$tmp/out"))"; fi
if make -s --no-print-directory -C "$ROOT/05_transpose_naive" help 2>/dev/null | grep -q '^make profile-report PROG=name ROW='; then
    ok "a lesson's make help lists make profile-report"
else bad "a lesson's make help lists make profile-report"; fi
if make -s --no-print-directory -C "$ROOT/07_shared_tiled" help 2>/dev/null | grep -q '^make sass ' &&
        make -s --no-print-directory -C "$ROOT" help 2>/dev/null | grep -q '^make sass PROG=name'; then
    ok "make help lists make sass, in a lesson and at the root"
else bad "make help lists make sass, in a lesson and at the root"; fi
# the root's make sass without PROG says what to type and exits 2, building nothing
out=$(make -s --no-print-directory -C "$ROOT" sass 2>&1); rc=$?
if [ $rc = 2 ] && echo "$out" | grep -q 'make sass needs PROG='; then
    ok "root make sass without PROG: what to type, exit 2"
else bad "root make sass without PROG (exit $rc: $out)"; fi

# ncu_table.py's derived columns, from a two-kernel ncu CSV: sectors per request, DRAM bytes per
# useful byte, the slot share (occupancy % x long-sb % / 100) and the L2's write misses in MB (x 32 B);
# "-" where a metric is missing
cat >"$tmp/ncu.csv" <<'EOF2'
"ID","Kernel Name","Metric Name","Metric Unit","Metric Value"
"0","L:copy a/k(float*)","sm__warps_active.avg.pct_of_peak_sustained_active","%","80"
"0","L:copy a/k(float*)","smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct","%","50"
"0","L:copy a/k(float*)","l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum","sector","400"
"0","L:copy a/k(float*)","l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum","request","100"
"0","L:copy a/k(float*)","dram__bytes_read.sum","byte","3000000"
"0","L:copy a/k(float*)","lts__t_sectors_op_write_lookup_miss.sum","sector","100000"
"1","L:copy b/k(float*)","sm__warps_active.avg.pct_of_peak_sustained_active","%","60"
"1","L:copy b/k(float*)","l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum","sector","3200"
"1","L:copy b/k(float*)","l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum","request","100"
"1","L:copy b/k(float*)","dram__bytes_read.sum","byte","1000000"
EOF2
printf 'kernel,bytes\ncopy a,1000000\ncopy b,2000000\n' >"$tmp/rows.csv"
python3 "$COMMON/ncu_table.py" "$tmp/ncu.csv" "$tmp/rows.csv" >"$tmp/out" 2>&1
# a row's cells, across the panels the table is printed in (each panel repeats the kernel column)
cells_of() { grep "^$1 " "$tmp/out" | sed "s/^$1 *//" | paste -sd' ' | tr -s ' '; }
row_a="copy a $(cells_of 'copy a')"
row_b="copy b $(cells_of 'copy b')"
if grep -q 'slot load %' "$tmp/out" && [ "$row_a" = "copy a 80.0 50.0 400.0 100.0 3.0 3.2 4.00 40.0 3.00" ] &&
        [ "$row_b" = "copy b 60.0 - 3200.0 100.0 1.0 - 32.00 - 0.50" ] && grep -q 'wr miss MB' "$tmp/out"; then
    ok "ncu_table.py: sect/req, slot load % (occupancy x long-sb %), wr miss MB (sectors x 32 B) and DRAM B/useful B; - where a metric is missing"
else bad "ncu_table.py derived columns (got: $(paste -sd'|' "$tmp/out"))"; fi
# wider than 110 characters in one line (123 here), the table comes in panels: no line over 110, two
# panels each with its header and both rows, the columns in their order
if [ "$(awk 'length($0) > 110' "$tmp/out" | wc -l)" = 0 ] && [ "$(grep -c '^kernel ' "$tmp/out")" = 2 ] &&
        [ "$(grep -c '^copy a ' "$tmp/out")" = 2 ] &&
        [ "$(grep '^kernel ' "$tmp/out" | paste -sd' ' | tr -s ' ')" = "kernel occupancy % long-sb % ld sectors ld reqs DRAM rd MB kernel wr miss MB ld sect/req slot load % DRAM B/useful B" ]; then
    ok "ncu_table.py: a table wider than 110 characters is printed in panels of at most 110, each repeating the kernel column"
else bad "ncu_table.py panels (got: $(paste -sd'|' "$tmp/out"))"; fi
# a count wider than its column's name (lesson 02's 8,858,370,048 ld sectors): the column widens, every
# line of the table keeps the header's length
cat >"$tmp/ncu2.csv" <<'EOF2'
"ID","Kernel Name","Metric Name","Metric Unit","Metric Value"
"0","L:wide/k(float*)","l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum","request","8858370048"
"1","L:narrow/k(float*)","l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum","request","4"
EOF2
python3 "$COMMON/ncu_table.py" "$tmp/ncu2.csv" "$tmp/rows.csv" >"$tmp/out2" 2>&1
if [ "$(awk '{print length($0)}' "$tmp/out2" | sort -u | wc -l)" = 1 ] && grep -q '^wide  *8858370048.0$' "$tmp/out2"; then
    ok "ncu_table.py: a cell wider than its column's name widens the column (the rows stay aligned)"
else bad "ncu_table.py wide cell (got: $(paste -sd'|' "$tmp/out2"))"; fi

# inst/warp: warp instructions over warps launched; the two counts feed only that ratio (no columns)
cat >"$tmp/ncu3.csv" <<'EOF2'
"ID","Kernel Name","Metric Name","Metric Unit","Metric Value"
"0","L:tile/k(float*)","smsp__inst_executed.sum","inst","6500"
"0","L:tile/k(float*)","smsp__warps_launched.sum","warp","100"
"0","L:tile/k(float*)","gpu__time_duration.sum","ns","2000"
EOF2
python3 "$COMMON/ncu_table.py" "$tmp/ncu3.csv" "$tmp/rows.csv" >"$tmp/out3" 2>&1
if [ "$(head -1 "$tmp/out3" | tr -s ' ')" = "kernel time us inst/warp" ] && grep -q '^tile  *2.0  *65.00$' "$tmp/out3"; then
    ok "ncu_table.py: inst/warp = warp instructions / warps launched, without columns of its own two counts"
else bad "ncu_table.py inst/warp (got: $(paste -sd'|' "$tmp/out3"))"; fi

# PROFILE_KEY: the named columns first, in its order, the others under "More counters:"; a name the
# table lacks is skipped
PROFILE_KEY="DRAM B/useful B,no such column,ld sect/req" python3 "$COMMON/ncu_table.py" "$tmp/ncu.csv" "$tmp/rows.csv" >"$tmp/out4" 2>&1
if [ "$(head -1 "$tmp/out4" | tr -s ' ')" = "kernel DRAM B/useful B ld sect/req" ] &&
        [ "$(grep -n '^More counters:$' "$tmp/out4" | cut -d: -f1)" = 5 ] &&
        [ "$(sed -n 6p "$tmp/out4" | cut -c1-6)" = "kernel" ] && ! grep -q 'no such' "$tmp/out4" &&
        [ "$(grep -c '^copy a ' "$tmp/out4")" -ge 2 ]; then
    ok "ncu_table.py: PROFILE_KEY's columns come first, the others under 'More counters:'"
else bad "ncu_table.py PROFILE_KEY (got: $(paste -sd'|' "$tmp/out4"))"; fi

# PROFILE_ROWS: only the named rows in the first table (key columns), then every row with every
# column under "Every kernel and counter:"; a row label the run lacks is skipped; when every row (or
# none) is named the layout is PROFILE_KEY's alone
PROFILE_KEY="ld sect/req" PROFILE_ROWS="copy b;no such row" python3 "$COMMON/ncu_table.py" "$tmp/ncu.csv" "$tmp/rows.csv" >"$tmp/out5" 2>&1
every=$(grep -n '^Every kernel and counter:$' "$tmp/out5" | cut -d: -f1)
if [ "$(head -1 "$tmp/out5" | tr -s ' ')" = "kernel ld sect/req" ] && [ "$(sed -n 2p "$tmp/out5" | cut -c1-6)" = "copy b" ] &&
        [ "$every" = 4 ] && [ "$(sed -n "$((every + 1))p" "$tmp/out5" | tr -s ' ' | cut -d' ' -f1-3)" = "kernel ld sect/req" ] &&
        [ "$(sed -n "$((every + 1)),\$p" "$tmp/out5" | grep -c '^copy [ab] ')" -ge 2 ] &&
        grep -q 'DRAM rd MB' "$tmp/out5" && ! grep -q 'no such\|^More counters' "$tmp/out5"; then
    ok "ncu_table.py: PROFILE_ROWS' rows first, then every row and column under 'Every kernel and counter:'"
else bad "ncu_table.py PROFILE_ROWS (got: $(paste -sd'|' "$tmp/out5"))"; fi
PROFILE_KEY="ld sect/req" PROFILE_ROWS="copy a;copy b" python3 "$COMMON/ncu_table.py" "$tmp/ncu.csv" "$tmp/rows.csv" >"$tmp/out6" 2>&1
PROFILE_KEY="ld sect/req" python3 "$COMMON/ncu_table.py" "$tmp/ncu.csv" "$tmp/rows.csv" >"$tmp/out7" 2>&1
if cmp -s "$tmp/out6" "$tmp/out7" && grep -q '^More counters:$' "$tmp/out6"; then
    ok "ncu_table.py: PROFILE_ROWS naming every row changes nothing"
else bad "ncu_table.py PROFILE_ROWS with every row (got: $(paste -sd'|' "$tmp/out6"))"; fi

# sass_ops.py (make sass) with a stand-in cuobjdump: the newest architecture's code, opcodes without
# their modifiers, predicates skipped, NOPs left out; a pattern matching no kernel or several: exit 2;
# no cuobjdump: exit 3
cat >"$tmp/bin/cuobjdump" <<'EOF2'
#!/bin/sh
cat <<'EOS'
	arch = sm_80
		Function : _Z4copyPfPKf
        /*0000*/                   MOV R1, c[0x0][0x28] ;                 /* 0x00000a0000017a02 */
	arch = sm_90
		Function : _Z9transposePfPKf
        /*0000*/                   LDC R1, c[0x0][0x28] ;                 /* 0x00000a00ff017b82 */
        /*0010*/                   IMAD.MOV.U32 R5, RZ, RZ, R2 ;          /* 0x000000ffff057224 */
        /*0020*/               @!P0 IMAD R4, R3, R2, R5 ;                 /* 0x0000000203048224 */
        /*0030*/                   LDG.E R0, desc[UR4][R4.64] ;           /* 0x0000000404007981 */
        /*0040*/                   EXIT ;                                  /* 0x000000000000794d */
        /*0050*/                   NOP ;                                   /* 0x0000000000007918 */
		Function : _Z4copyPfPKf
        /*0000*/                   LDC R1, c[0x0][0x28] ;                 /* 0x00000a00ff017b82 */
        /*0010*/                   LDG.E R0, desc[UR4][R4.64] ;           /* 0x0000000404007981 */
        /*0020*/                   EXIT ;                                  /* 0x000000000000794d */
EOS
EOF2
chmod +x "$tmp/bin/cuobjdump"
CUOBJDUMP="$tmp/bin/cuobjdump" python3 "$COMMON/sass_ops.py" ./prog >"$tmp/sass1" 2>&1; rc1=$?
CUOBJDUMP="$tmp/bin/cuobjdump" python3 "$COMMON/sass_ops.py" ./prog transpose copy >"$tmp/sass2" 2>&1; rc2=$?
row() { grep "^$1 " "$tmp/sass2" | tr -s ' '; }
if [ $rc1 = 0 ] && grep -q 'sm_90' "$tmp/sass1" && [ "$(grep -c '^  ' "$tmp/sass1")" = 2 ] &&
        [ $rc2 = 0 ] && [ "$(row IMAD)" = "IMAD 2 0" ] && [ "$(row LDG)" = "LDG 1 1" ] && [ "$(row total)" = "total 5 3" ] &&
        ! grep -q '^NOP\|^MOV' "$tmp/sass2" && grep -q '^  A: .*transpose' "$tmp/sass2"; then
    ok "sass_ops.py: the newest architecture's kernels, counted by opcode side by side (modifiers and predicates dropped, NOPs left out)"
else bad "sass_ops.py table (rc $rc1/$rc2; got: $(paste -sd'|' "$tmp/sass1" "$tmp/sass2"))"; fi
CUOBJDUMP="$tmp/bin/cuobjdump" python3 "$COMMON/sass_ops.py" ./prog nosuch >"$tmp/sass3" 2>&1; rc3=$?
CUOBJDUMP="$tmp/bin/cuobjdump" python3 "$COMMON/sass_ops.py" ./prog '(float*' >"$tmp/sass4" 2>&1; rc4=$?
mkdir -p "$tmp/nopath"
env -u CUOBJDUMP PATH="$tmp/nopath" "$(python3 -c 'import sys; print(sys.executable)')" "$COMMON/sass_ops.py" ./prog >"$tmp/sass5" 2>&1; rc5=$?
if [ $rc3 = 2 ] && grep -q 'matches no kernel' "$tmp/sass3" && [ $rc4 = 2 ] && grep -q 'matches 2 kernels' "$tmp/sass4" &&
        [ $rc5 = 3 ] && grep -q 'cuobjdump' "$tmp/sass5"; then
    ok "sass_ops.py: a pattern matching no kernel or several exits 2 naming them; no cuobjdump exits 3 with the fix"
else bad "sass_ops.py errors (rc $rc3/$rc4/$rc5; got: $(paste -sd'|' "$tmp/sass3" "$tmp/sass4" "$tmp/sass5"))"; fi

[ "$failed" = 0 ]
