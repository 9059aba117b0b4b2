#!/usr/bin/env python3
"""The page order of every notes page (make test): a student predicts before seeing.

usage: page_order.py ROOT
Every lesson page (each lesson's README.md and its further pages, *.md beside it) must have, in this
order, the sections
    Predict -> Run -> Results -> Key result -> What it means -> Exercises -> In depth
(level-2 headings whose text starts with those words), and nothing measured before Predict: no
results block (<!-- results: -->, <!-- profile: -->), no figure drawn from results (an image other
than the computed diagrams, which illustrate the idea and answer no prediction), no "Key result",
and no measured figure in the prose (a number with GB/s, ms, x faster/slower, % of the copy or of a
kernel) and none in the title.  The Results section is folded (<details>).  A blank line follows every
line that ends a fold's <summary> or </details>: without it GitHub's Markdown keeps the next lines in
the HTML block and shows them as raw text (a heading as "## Key result").  The root README's lesson
table (between <!-- lessons:begin --> and <!-- lessons:end -->) states no result either.
One line per page: "PASS page order: <page>" or "FAIL page order: <page>: <why>"."""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lessons import lesson_names  # noqa: E402

ORDER = ["Predict", "Run", "Results", "Key result", "What it means", "Exercises", "In depth"]
# The computed diagrams (drawn from a C model, not from a run): they may illustrate the idea.
DIAGRAMS = re.compile(r"(warp-sectors|block-order|banks|swizzle-banks|tile-order|in-flight-model)\.svg")
IMAGE = re.compile(r"!\[[^\]]*\]\(([^)]+)\)|<img [^>]*src=\"([^\"]+)\"")
MEASURED = re.compile(r"\b\d+(\.\d+)?\s*(GB/s|GiB/s|ms\b|us\b|µs\b)|\b\d+(\.\d+)?\s*x\s+(faster|slower|the speed|as fast)"
                      r"|\b\d+(\.\d+)?\s*%\s+of\s+(the\s+)?(copy|cudaMemcpy|peak|copyRow|NaiveRow|NaiveCol|cublas)",
                      re.I)


def sections(text):
    """[(index in ORDER, heading line number)] of the level-2 headings that start a known section."""
    out = []
    for n, line in enumerate(text.split("\n"), 1):
        m = re.match(r"^## +(.*)", line)
        if not m:
            continue
        title = m.group(1).strip().lower()
        for i, name in enumerate(ORDER):
            if title.startswith(name.lower()):
                out.append((i, n))
                break
    return out


def check_page(path):
    text = open(path).read()
    lines = text.split("\n")
    secs = sections(text)
    found = [i for i, _ in secs]
    missing = [ORDER[i] for i in range(len(ORDER)) if i not in found]
    if missing:
        return "no section " + ", ".join("'## %s'" % m for m in missing)
    if found != sorted(found) or len(set(found)) != len(found):
        return "sections out of order: " + " -> ".join(ORDER[i] for i in found)
    for n in range(1, len(lines)):
        prev, line = lines[n - 1].rstrip(), lines[n]
        if (prev.endswith("</details>") or prev.endswith("</summary>")) and line.strip() and \
                not line.lstrip().startswith("<"):
            return "line %d renders as raw text: no blank line after line %d's %s" % (
                n + 1, n, "</details>" if prev.endswith("</details>") else "</summary>")
    predict = dict((i, n) for i, n in secs)[0]
    results = dict((i, n) for i, n in secs)[2]
    key = dict((i, n) for i, n in secs)[3]
    before = lines[:predict - 1]
    for n, line in enumerate(before, 1):
        if "<!-- results" in line or "<!-- profile" in line:
            return "a results block at line %d, before Predict" % n
        for m in IMAGE.finditer(line):
            src = m.group(1) or m.group(2)
            if not DIAGRAMS.search(src):
                return "a figure (%s) at line %d, before Predict" % (src, n)
        if re.search(r"key result", line, re.I):
            return "'Key result' at line %d, before Predict" % n
        if MEASURED.search(line):
            return "a measured figure at line %d, before Predict: %s" % (n, MEASURED.search(line).group(0))
    body = "\n".join(lines[results:key - 1])
    if "<details" not in body:
        return "the Results section is not folded (<details>)"
    return None


def lesson_table(root):
    text = open(os.path.join(root, "README.md")).read()
    m = re.search(r"<!-- lessons:begin -->(.*?)<!-- lessons:end -->", text, re.S)
    if not m:
        return "README.md: no <!-- lessons:begin --> ... <!-- lessons:end --> around the lesson table"
    hit = MEASURED.search(m.group(1)) or re.search(r"\b\d+(\.\d+)?(-\d+(\.\d+)?)?x\b", m.group(1))
    return "README.md's lesson table states a result: %s" % hit.group(0) if hit else None


def pages(root):
    out = []
    for les in lesson_names(root):
        d = os.path.join(root, les)
        if not os.path.isdir(d):
            continue
        for f in sorted(os.listdir(d)):
            if f.endswith(".md"):
                out.append(os.path.join(les, f))
    return out


def main(argv):
    if len(argv) != 1:
        print(__doc__.strip().split("\n")[2], file=sys.stderr)
        return 2
    root = os.path.abspath(argv[0])
    bad = 0
    for page in pages(root):
        why = check_page(os.path.join(root, page))
        print("%s page order: %s%s" % ("FAIL" if why else "PASS", page, ": " + why if why else ""))
        bad += why is not None
    why = lesson_table(root)
    print("%s page order: README.md's lesson table%s" % ("FAIL" if why else "PASS", ": " + why if why else ""))
    bad += why is not None
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
