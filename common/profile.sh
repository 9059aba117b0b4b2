#!/usr/bin/env bash
# make profile: runs a lesson once under Nsight Compute with the lesson's metrics and prints one
# compact table row per kernel, named after the lesson's own table rows (NVTX ranges "L:<row>").
# make profile-report: one launch of one table row under Nsight Compute with every section (--set
# full) and the source, written to an .ncu-rep file for Nsight Compute's GUI.
# usage: profile.sh ./program "metric1,metric2,..." [program args...]
#        profile.sh --report ./program "ROW" [REPORT] [program args...]
#   (--report without a program or a row: one line saying what to type; PROFILE_PROGS and
#   RESULTS_GPU, set by lesson.mk, name the lesson's programs and the run its example row comes from)
# NCU=path (or NCU="sudo /path/to/ncu") names ncu.  Exit codes: 0 done; 1 ncu or the program failed,
# or ncu profiled no kernel (its log's last lines are shown); 2 something to install or to type
# (nothing ran); 3 ncu may not read the GPU's counters here (ERR_NVGPUCTRPERM: the fixes are printed).
set -u
# An exercise checker (./solution, ./student) runs the student's kernel under compute-sanitizer once it
# verified; under ncu that second run must not start (one CUDA tool cannot run inside another), and
# its speed goal is not judged (ncu replays every launch): COURSE_UNDER_TOOL=1 tells it.
export COURSE_CHECKER_SANITIZE=0 COURSE_UNDER_TOOL=1
COMMON=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mode=table
# The kernel rows of a program's CSV (no field of the course's CSV holds a comma): k is the row's
# name; the ceilings and skipped or failed rows are left out.
KERNEL_ROWS='NR > 1 && $4 == "ok" { k = $3; gsub(/"/, "", k) } NR > 1 && $4 == "ok" && $2 != "ceiling" && k != "cudaMemcpy D2D" && k != "theoretical peak"'
if [ "${1:-}" = --report ]; then
    mode=report
    shift
    prog=${1:-}
    row=${2:-}
    out=${3:-}
    shift $(( $# < 3 ? $# : 3 ))
    if [ -z "$prog" ] || [ -z "$row" ]; then
        # an example from the lesson: its first program, and that program's first kernel row in the
        # committed run (results/<GPU>/<program>.csv, column 3)
        read -r -a lesson_progs <<<"${PROFILE_PROGS:-}"
        ex_prog=${prog:-${lesson_progs[0]:-program}}
        ex_prog=${ex_prog#./}
        csv="$COMMON/../results/${RESULTS_GPU:-NVIDIA_H100_80GB_HBM3}/$ex_prog.csv"
        ex_row=$(awk -F, "$KERNEL_ROWS"' { print k; exit }' "$csv" 2>/dev/null)
        echo "make profile-report needs PROG=<program> and ROW=\"<row of its table>\": e.g. make profile-report PROG=$ex_prog ROW=\"${ex_row:-<row>}\" (the rows are the kernel names make run prints${lesson_progs[0]:+; the programs of this lesson: ${lesson_progs[*]}})" >&2
        exit 2
    fi
else
    prog=$1
    metrics=$2
    shift 2
fi

# ncu: NCU (words: NCU="sudo /usr/local/cuda/bin/ncu"), else ncu on PATH, else the toolkit's home
read -r -a ncu_cmd <<<"${NCU:-ncu}"
if [ ${#ncu_cmd[@]} -eq 1 ] && ! command -v "${ncu_cmd[0]}" >/dev/null 2>&1; then
    [ -x /usr/local/cuda/bin/ncu ] && ncu_cmd=(/usr/local/cuda/bin/ncu)
fi
if [ ${#ncu_cmd[@]} -eq 0 ] || ! command -v "${ncu_cmd[0]}" >/dev/null 2>&1; then
    echo "make profile needs Nsight Compute's 'ncu', which is neither on PATH nor in /usr/local/cuda/bin." >&2
    echo "It is the CUDA Toolkit's Nsight Compute component (NVIDIA's package cuda-nsight-compute-<version>," >&2
    echo "e.g. cuda-nsight-compute-13-0); put its folder on PATH or say NCU=/path/to/ncu. Nothing was profiled." >&2
    exit 2
fi
if [ "$mode" = table ] && ! command -v python3 >/dev/null 2>&1; then
    echo "make profile needs python3 to format ncu's CSV (Debian/Ubuntu: apt-get install python3). Nothing was profiled." >&2
    exit 2
fi
if [ "$mode" = table ] && [ -z "$metrics" ]; then
    echo "this lesson sets no PROFILE_METRICS" >&2
    exit 2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# counters_denied: when ncu said ERR_NVGPUCTRPERM (in its log or on stderr), the fixes, and exit 3
counters_denied() {
    grep -qs 'ERR_NVGPUCTRPERM' "$tmp/ncu.log" "$tmp/err" || return 0
    cat >&2 <<EOF
ncu may not read this GPU's performance counters here (ERR_NVGPUCTRPERM): on Linux only administrators may, unless the driver allows everyone. Any one of these fixes it:
  - the driver option (an administrator, once): a file /etc/modprobe.d/nvidia-profiling.conf holding the line
        options nvidia NVreg_RestrictProfilingToAdminUsers=0
    then a reboot (Debian/Ubuntu: sudo update-initramfs -u first); NVIDIA's page: https://developer.nvidia.com/ERR_NVGPUCTRPERM
  - ncu as root, for this run only: make $([ "$mode" = report ] && echo profile-report || echo profile) ... NCU="sudo $(command -v "${ncu_cmd[${#ncu_cmd[@]}-1]}")"
  - in a container: start it with the capability ncu needs, docker run --gpus all --cap-add=SYS_ADMIN ... (or set the driver option above on the host)
  - WSL 2 (the Windows driver decides): NVIDIA Control Panel > Desktop > Enable Developer Settings, then Developer > Manage GPU Performance Counters > allow access to all users
Nothing was profiled.
EOF
    exit 3
}
# ncu_log: ncu's own log, the last lines (its ==PROF==/==WARNING==/==ERROR== lines, not the CSV),
# and the program's stderr
ncu_log() {
    echo "ncu's log (last lines):" >&2
    grep -v '^"' "$tmp/ncu.log" 2>/dev/null | tail -15 | sed 's/^/  /' >&2
    if [ -s "$tmp/err" ]; then
        echo "the program's stderr (last lines):" >&2
        tail -10 "$tmp/err" | sed 's/^/  /' >&2
    fi
}

if [ "$mode" = report ]; then
    # Where the report goes: REPORT=path, else <program>-<row>.ncu-rep here (the lesson folder),
    # or in the temporary folder when this folder is not ours to write (a shared build).
    if [ -z "$out" ]; then
        slug=$(printf '%s' "$row" | sed 's/[^A-Za-z0-9._-]\{1,\}/_/g; s/^_//; s/_$//')
        dir=.
        [ -w . ] || dir=${TMPDIR:-/tmp}
        out="$dir/$(basename "$prog")-$slug.ncu-rep"
    fi
    case $out in *.ncu-rep) ;; *) out=$out.ncu-rep ;; esac
    rm -f "$out"
    # The row's push/pop range "L:<row>" (a trailing / selects push/pop ranges).  A row name with
    # a character ncu's filter syntax reads as an operator (@ domain, / nesting, [ ] stack ends) is
    # matched by a regular expression instead, each such character (and every other one that is
    # not a letter, digit, space or _ : , = -) standing for itself as '.'.
    case $row in
        *[@/\\\[\]]*) filter="regex:^L:$(printf '%s' "$row" | sed 's/[^A-Za-z0-9 _:,=-]/./g')\$/" ;;
        *) filter="L:$row/" ;;
    esac
    # --reps 1 --warmup 0: the row's range holds one launch; --launch-count 1: the first range of
    # that name (a row measured at two sizes: the first); the verification launch before it is
    # outside every range.  --clock-control none: the GPU's own clocks, as make profile and the timings.
    echo "Profiling row '$row' of $prog with ncu --set full (one launch; a minute or so) ..."
    "${ncu_cmd[@]}" --set full --import-source yes --nvtx --nvtx-include "$filter" --launch-count 1 \
        --clock-control none -f -o "${out%.ncu-rep}" --log-file "$tmp/ncu.log" \
        "$prog" --reps 1 --warmup 0 --no-flush --csv "$@" >"$tmp/rows.csv" 2>"$tmp/err"
    rc=$?
    counters_denied
    if [ -s "$out" ]; then
        out=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")
        echo "wrote $out: row '$row' of $prog, one launch, every section of ncu --set full with the source"
        echo "open it in Nsight Compute's GUI (ncu-ui $out; it also opens on another machine), or read it here: ncu --import $out --page details"
        [ $rc -eq 0 ] || echo "(ncu or the program exited $rc after the launch was profiled)" >&2
        exit 0
    fi
    echo "ncu profiled no launch of row '$row' of $prog (exit $rc): no report was written." >&2
    rows=$(awk -F, "$KERNEL_ROWS"' && !seen[k]++ { printf "%s\"%s\"", (n++ ? ", " : ""), k }' "$tmp/rows.csv" 2>/dev/null)
    [ -n "$rows" ] && echo "the rows this run timed: $rows" >&2
    ncu_log
    exit 1
fi

# One timed launch per kernel, no warm-up, no flush of our own: ncu flushes the caches before
# every profiled kernel (--cache-control all, its default).  --clock-control none keeps the GPU's
# own clocks, as the timings were taken.  The program's --csv rows carry the useful bytes per row.
echo "Profiling $prog with ncu (one launch per kernel; this takes a while) ..."
"${ncu_cmd[@]}" --clock-control none --nvtx --print-nvtx-rename kernel --print-units base --csv \
    --metrics "$metrics" --log-file "$tmp/ncu.log" \
    "$prog" --reps 1 --warmup 0 --no-flush --csv "$@" >"$tmp/rows.csv" 2>"$tmp/err"
rc=$?
counters_denied
if [ $rc -ne 0 ]; then
    echo "ncu or the program failed (exit $rc):"
    tail -20 "$tmp/err"
    tail -20 "$tmp/ncu.log" 2>/dev/null
    exit 1
fi
python3 "$COMMON/ncu_table.py" "$tmp/ncu.log" "$tmp/rows.csv" || { ncu_log; exit 1; }
