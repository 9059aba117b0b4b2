#!/usr/bin/env bash
# common/doc_links.py: a broken file link, a missing anchor and a heading renamed under a link each
# fail the page; GitHub's anchor rule (code spans, punctuation, repeated headings, <a id>) passes.
# Prints one "PASS name" / "FAIL name" line per check (common/test.sh counts them); exit 1 if any failed.
set -u
COMMON=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
command -v python3 >/dev/null || { echo "(doc links: no python3, not checked)"; exit 0; }
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
failed=0
check() {  # name, expected exit code, the line doc_links.py must print
    local name=$1 want_rc=$2 want_line=$3 out rc
    out=$(python3 "$COMMON/doc_links.py" "$tmp" 2>&1); rc=$?
    if [ "$rc" = "$want_rc" ] && printf '%s\n' "$out" | grep -qF -- "$want_line"; then
        echo "PASS doc links: $name"
    else
        echo "FAIL doc links: $name (exit $rc, wanted $want_rc and a line with: $want_line)"; failed=1
    fi
}
mkdir -p "$tmp/01_a"
cat > "$tmp/01_a/README.md" <<'MD'
# Lesson `a`: sectors, bursts & fetches
## In depth
### The fetch model (in full)
### Open questions
### Open questions
<a id="by-hand"></a>
```text
# not a heading
```
MD
cat > "$tmp/README.md" <<'MD'
See [the model](01_a/README.md#the-fetch-model-in-full), [the second](01_a/README.md#open-questions-1),
[by hand](01_a/README.md#by-hand), [the title](01_a/README.md#lesson-a-sectors-bursts--fetches),
[web](https://example.com/x#y) and [this page](#see).
# See
MD
check "headings, repeats, <a id> and web links resolve" 0 "PASS links: README.md"
echo 'A [lost file](01_a/NOTES.md).' >> "$tmp/README.md"
check "a link to a missing file fails" 1 "01_a/NOTES.md (no such file)"
sed -i '$d' "$tmp/README.md"
sed -i 's/^### The fetch model (in full)$/### The fetch model/' "$tmp/01_a/README.md"
check "a renamed heading fails the link into it" 1 "no heading or anchor 'the-fetch-model-in-full' in README.md"
echo 'A heading in a code block: [x](01_a/README.md#not-a-heading).' >> "$tmp/README.md"
check "a heading inside a code fence is no anchor" 1 "'not-a-heading'"
python3 "$COMMON/doc_links.py" 2>/dev/null; rc=$?
if [ "$rc" = 2 ]; then echo "PASS doc links: no root is a usage error (exit 2)"; else echo "FAIL doc links: no root gave exit $rc, wanted 2"; failed=1; fi
exit $failed
