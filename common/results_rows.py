#!/usr/bin/env python3
"""The rows a page's core reads, as a short table above its folded results (RESULTS_ROWS).

A lesson's run prints every experiment; its notes read a few rows.  This script takes those rows,
as the committed results block prints them, into the page's <!-- results-rows:begin/end --> block,
so a student sees first what the predictions and points read and opens the fold for the rest.  The
rows are copied from the block, never typed: `make results` rewrites them after each run, and
results_check.py fails when they no longer match the block below them.

ROWS is the lesson's RESULTS_ROWS: row labels separated by ';', each as the table prints it; a
label prefixed with 'N:' is taken from experiment N only (e.g. '2:cudaMemcpy D2D').  The rows come
in the run's order, under their experiment's first line and their table's header (without its bar
column).  A label that matches no row is an error: the list went stale.

usage: results_rows.py PAGE ROWS            print the block's text
       results_rows.py --write PAGE ROWS    rewrite the page's results-rows block
       results_rows.py --check PAGE ROWS    exit 1 (naming the difference) if the page's block differs
Exit 0 on success, 1 when a label matches no row or the check fails, 2 on bad usage."""
import re
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from readme_block import block_text, replace_block  # noqa: E402

EXPERIMENT = re.compile(r"^Experiment (\d+)\b")
TABLE_HEAD = re.compile(r"^\s+kernel\s+median ms")
MEASURED = re.compile(r"^Measured on an? (.+?) with CUDA (\S+) \(driver [^)]*\), (\S+), by")


def first_sentence(line):
    """An experiment's first line up to its first sentence's end (its title), at most 100 characters."""
    m = re.match(r"^(.*?[.?])(\s|$)", line)
    title = m.group(1) if m else line
    return title if len(title) <= 100 else title[:97].rstrip() + "..."


def parse_rows(spec):
    """[(experiment or None, label)] from 'a;2:b;c'."""
    out = []
    for item in spec.split(";"):
        item = item.strip()
        if not item:
            continue
        m = re.match(r"^(\d+):(.+)$", item)
        out.append((int(m.group(1)), m.group(2).strip()) if m else (None, item))
    return out


def digest(results_text, spec):
    """(text, unmatched labels): the rows of the results block that spec names."""
    wanted = parse_rows(spec)
    used = set()
    lines = results_text.split("\n")
    measured = None
    for line in lines:
        m = MEASURED.match(line)
        if m:
            measured = m
            break
    out = []
    exp, exp_line, exp_shown = None, None, False
    head, head_shown, cut, label_end = None, False, None, None
    in_text = False
    for line in lines:
        if line.startswith("```"):
            in_text = not in_text
            exp, head = None, None
            continue
        if not in_text:
            continue
        m = EXPERIMENT.match(line)
        if m:
            exp, exp_line, exp_shown = int(m.group(1)), line.rstrip(), False
            head = None
            continue
        if TABLE_HEAD.match(line):
            head, head_shown = line, False
            cut = line.find("bar:")
            label_end = line.find("median ms")
            continue
        if head is None:
            continue
        if not line.startswith("  ") or line.lstrip().startswith("->") or not line.strip():
            head = None
            continue
        label = line[:label_end].strip()
        hit = [w for w in wanted if w[1] == label and (w[0] is None or w[0] == exp)]
        if not hit:
            continue
        used.update(hit)
        if exp_line and not exp_shown:
            if out:
                out.append("")
            out.append(first_sentence(exp_line))
            exp_shown = True
        if not head_shown:
            out.append((head[:cut] if cut > 0 else head).rstrip())
            head_shown = True
        out.append((line[:cut] if cut > 0 else line).rstrip())
    missing = [("%d:" % e if e else "") + lab for e, lab in wanted if (e, lab) not in used]
    intro = "The rows the notes below use"
    if measured:
        intro += ", from the %s run of %s" % (measured.group(1), measured.group(3))
    intro += "; every row, and what each experiment measures, is in the fold below:"
    return intro + "\n\n```text\n" + "\n".join(out) + "\n```", missing


def rows_block(page, text, spec):
    """(body, error): the results-rows block RESULTS_ROWS spec makes of the page's results block, or
    None and what is wrong."""
    results = block_text(text, "results")
    if results is None:
        return None, "%s has no results block" % page
    body, missing = digest(results, spec)
    if missing:
        return None, "%s: RESULTS_ROWS names rows its results block does not have: %s" % (page, "; ".join(missing))
    return body, None


def check(page, text, spec):
    """None if the page's results-rows block is what spec makes of its results block, else why not."""
    body, error = rows_block(page, text, spec)
    if error:
        return error
    current = block_text(text, "results-rows")
    if current is None:
        return "%s has no <!-- results-rows:begin/end --> block" % page
    if current.strip("\n") != body:
        return ("%s: the results-rows block is not the rows RESULTS_ROWS names in its results block "
                "(run: python3 common/results_rows.py --write %s '<RESULTS_ROWS>')" % (page, page))
    return None


def main(argv):
    mode = "print"
    if argv and argv[0] in ("--write", "--check"):
        mode = argv[0][2:]
        argv = argv[1:]
    if len(argv) != 2:
        print("usage:" + __doc__.split("usage:")[1].split("Exit")[0].rstrip(), file=sys.stderr)
        return 2
    page, spec = argv
    try:
        text = open(page).read()
    except OSError as e:
        print("results_rows.py: cannot read %s: %s" % (page, e.strerror), file=sys.stderr)
        return 2
    if mode == "check":
        body, error = None, check(page, text, spec)
    else:
        body, error = rows_block(page, text, spec)
    if error:
        print("results_rows.py: " + error, file=sys.stderr)
        return 1
    if mode == "print":
        print(body)
        return 0
    if mode == "write":
        new = replace_block(text, "results-rows", body)
        if new is None:
            print("results_rows.py: %s has no <!-- results-rows:begin/end --> block" % page, file=sys.stderr)
            return 1
        open(page, "w").write(new)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
