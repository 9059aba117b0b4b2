#!/usr/bin/env bash
# make sanitize: compute-sanitizer's four tools over each program's --check --quick run (the small
# odd sizes: the tools slow kernels down 10-100x).
# usage: sanitize.sh ./program [./program2 ...]
set -u
CS=${COMPUTE_SANITIZER:-compute-sanitizer}
if ! command -v "$CS" >/dev/null 2>&1; then
    [ -x /usr/local/cuda/bin/compute-sanitizer ] && CS=/usr/local/cuda/bin/compute-sanitizer
fi
if ! command -v "$CS" >/dev/null 2>&1; then
    echo "make sanitize needs 'compute-sanitizer', which is neither on PATH nor in /usr/local/cuda/bin." >&2
    echo "It is the CUDA Toolkit's sanitizer component (NVIDIA's package cuda-sanitizer-<version>, e.g." >&2
    echo "cuda-sanitizer-13-0); put its folder on PATH or say COMPUTE_SANITIZER=/path/to/compute-sanitizer." >&2
    echo "Nothing was checked." >&2
    exit 2
fi
# An exercise checker (./solution) runs the student's kernel under compute-sanitizer itself once it
# verified; here it already runs under one, and a sanitizer cannot run inside another; nor is its
# speed goal judged (COURSE_UNDER_TOOL=1): every access is instrumented.
export COURSE_CHECKER_SANITIZE=0 COURSE_UNDER_TOOL=1
failed=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for prog in "$@"; do
    for tool in memcheck racecheck initcheck synccheck; do
        extra=""
        [ "$tool" = memcheck ] && extra="--leak-check full"
        # shellcheck disable=SC2086
        "$CS" --tool "$tool" $extra --error-exitcode 99 "$prog" --check --quick >"$log" 2>&1
        rc=$?
        summary=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$log" | tail -1 | sed 's/^========= //')
        if [ $rc -eq 0 ]; then
            printf '%-12s %-10s ok     %s\n' "$prog" "$tool" "$summary"
        else
            printf '%-12s %-10s FAILED (exit %d) %s\n' "$prog" "$tool" "$rc" "$summary"
            grep -E '=========' "$log" | head -15
            failed=1
        fi
    done
done
exit $failed
