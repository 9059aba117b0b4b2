#!/usr/bin/env bash
# common/page_order.py's check of one page: a page in the course's order passes; a measured figure
# before Predict fails; a heading right after </details> (no blank line: GitHub's Markdown shows it as
# raw text) fails, naming its line.
# Prints one "PASS name" / "FAIL name" line per check (common/test.sh counts them); exit 1 if any failed.
set -u
COMMON=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
command -v python3 >/dev/null || { echo "(page order: no python3, not checked)"; exit 0; }
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
failed=0
check() {  # name, what check_page must return (OK, or a piece of its reason)
    local name=$1 want=$2 got
    got=$(python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import page_order
print(page_order.check_page(sys.argv[2]) or "OK")' "$COMMON" "$tmp/README.md" 2>&1)
    if printf '%s\n' "$got" | grep -qF -- "$want"; then echo "PASS page order: $name"
    else echo "FAIL page order: $name (got: $got; wanted: $want)"; failed=1; fi
}
page() {  # the page, with $1 as the line after the results fold's </details>
    cat > "$tmp/README.md" <<MD
# Lesson 99 — What does a sector cost?
## The idea
A warp's loads touch sectors.
## Predict before you run
1. How many?
## Run it
make run
## Results on a real GPU
<details><summary>The output</summary>

12.5 GB/s
</details>
$1
## Key result
Four sectors.
## What it means
1. Sectors.
## Exercises
1. Count.
## In depth
More.
MD
}
page ""
check "a page in the course's order passes" "OK"
page "**The rows above, in short.**"
check "a line right after </details> fails, named by its line" "line 13 renders as raw text"
page ""
sed -i 's/^A warp.s loads touch sectors.$/It ran at 12.5 GB\/s./' "$tmp/README.md"
check "a measured figure before Predict fails" "a measured figure at line 3, before Predict"
exit $failed
