#!/usr/bin/env bash
# make handout: the students' copy of the course, as a tarball: every file git tracks, less what
# answers the exercises -- the reference solutions (*/solution.cu), the checkers' corpora of wrong
# solutions (*/tests/wrong/: each is a solution with one mistake), the instructors' pages
# (TEACHING.md, teaching/) and the answer runs (results/*/answers/) -- and less the course's own CI
# (.ci/).  The copy builds as the course does; `make exercise` checks the student's exercise.cu;
# `make check` and `make test` skip the solution they do not have.
# usage: handout.sh OUT.tar.gz     (the course's files must be tracked by git: its own clone, or a
#                                   folder of a larger checkout that tracks them)
set -eu
COMMON=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$COMMON")
out=${1:?usage: handout.sh OUT.tar.gz}
case "$out" in /*) ;; *) out="$PWD/$out" ;; esac
if ! git -C "$ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    echo "make handout: needs the course's git checkout (it packs the files git tracks)." >&2
    exit 1
fi
# The course may sit in a folder of a larger checkout; git then lists its files relative to ROOT.
# If git tracks none of them (the course copied, untracked, into another checkout), there is nothing
# to pack: say so rather than pack an empty copy.
if [ -z "$(git -C "$ROOT" ls-files -- Makefile lessons.txt 2>/dev/null)" ]; then
    echo "make handout: git does not track the course's files in $ROOT (it sits untracked inside the checkout" >&2
    echo "of $(git -C "$ROOT" rev-parse --show-toplevel)). Run it from the course's own clone, or commit the course there." >&2
    exit 1
fi
name=course-handout
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir "$stage/$name"
# the tracked files as they are in the working tree (uncommitted edits included), less the answers
git -C "$ROOT" ls-files -z | grep -zvE '(^|/)solution\.cu$|(^|/)tests/wrong/|^TEACHING\.md$|^teaching/|^results/[^/]+/answers/|^\.ci/' |
    (cd "$ROOT" && while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done) |
    (cd "$ROOT" && xargs -0 -r cp --parents -t "$stage/$name")
cat >"$stage/$name/HANDOUT.md" <<'TXT'
# The students' copy

This copy of the course was made with `make handout`: the reference solutions of the exercises, the
instructors' pages (TEACHING.md, teaching/) and the answer runs (results/*/answers/) are left out;
links to them in the notes lead nowhere (In depth quotes what it needs from an answer run). Everything else is here: `make`, `make run`, `make exercise` (your exercise.cu, checked and
timed), `make check`, `make test`.
TXT
tar -czf "$out" -C "$stage" "$name"
echo "wrote $out ($(tar -tzf "$out" | grep -c -v '/$') files; no solution.cu, tests/wrong/, TEACHING.md, teaching/ or answer runs)"
