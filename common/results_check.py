#!/usr/bin/env python3
"""Checks that the measured output committed in the notes (README.md and the pages of RESULTS_PAGES) agrees with the CSV committed beside it
(results/<GPU>/<program>.csv), as `make results` leaves them: the run without arguments of each
program writes both, so every CSV row of a kernel must appear, in the same order, as a table row of
that program's block with the same label, GB/s and %D2D; and the root README's summary must be what
common/summary.py makes of the CSV.  A hand edit of a table or a CSV from another run shows up here.
usage: results_check.py ROOT [LESSON_DIR ... | --summary]
       (no lesson: every lesson and the root summary; --summary: the root summary only)
Prints one PASS/FAIL line per check, like the unit tests; exits 1 if any failed."""
import csv
import os
import re
import subprocess
import sys

import results_rows  # common/, the script's folder
from readme_block import block_text  # common/ too: the one reader of a block's markers

HEADER = re.compile(r"^Measured on an? (.+?) with CUDA")
PROGRAM = re.compile(r"^`\./([A-Za-z0-9_]+)`:$")  # a run without arguments
COLS = ["lesson", "experiment", "kernel", "status", "ms_median", "ms_min", "ms_max", "bytes",
        "gbs", "pct_d2d", "pct_peak", "extra_name", "extra"]


def block(text, name):
    """The lines of text's NAME block (readme_block.block_text), or None if it has none."""
    body = block_text(text, name)
    return None if body is None else body.strip("\n").split("\n")


def slug_of(gpu):
    return re.sub(r"[^A-Za-z0-9]+", "_", gpu).rstrip("_")


def program_outputs(lines):
    """{program: [output lines]} for the runs without arguments in a results block."""
    out, prog, inside = {}, None, False
    for line in lines:
        m = PROGRAM.match(line)
        if m and not inside:
            prog = m.group(1)
            continue
        if line.startswith("```"):
            inside = not inside and line.startswith("```text")
            if inside and prog:
                out[prog] = []
            elif not inside:
                prog = None
            continue
        if inside and prog:
            out[prog].append(line)
    return out


def table_row_matches(line, r):
    """Whether one line of a terminal table is the CSV row r (report.c prints both)."""
    if not line.startswith("  " + r["kernel"] + " "):
        return False
    rest = line[len(r["kernel"]) + 2:].split()
    if r["status"] == "FAILED":
        return rest[:2] == ["FAILED", "verification:"]
    return len(rest) >= 6 and rest[4] == r["gbs"] and rest[5] == r["pct_d2d"]


def check_lesson(root, d):
    """Returns [(ok, message)] for one lesson folder: every notes page of it with a results block
    (README.md, and the pages RESULTS_PAGES sends a program's output to, e.g. SGEMM.md)."""
    results = []
    pages = ["README.md"] + sorted(f for f in os.listdir(d) if f.endswith(".md") and f != "README.md")
    for page in pages:
        path = os.path.join(d, page)
        text = open(path).read() if os.path.exists(path) else ""
        lines = block(text, "results")
        if lines is not None:
            results += check_page(root, d, page, lines)
        if page == "README.md":
            results += check_rows(root, d, path, text)
    return results


def check_rows(root, d, path, text):
    """The README's results-rows block (the rows its core reads) is what results_rows.py makes of
    its results block and the Makefile's RESULTS_ROWS: copied from the run, never stale."""
    name = os.path.basename(os.path.normpath(d))
    rows = subprocess.run(["make", "-s", "--no-print-directory", "-C", d, "print-RESULTS_ROWS"],
                          capture_output=True, text=True).stdout.strip()
    has_block = block(text, "results-rows") is not None
    if not rows and not has_block:
        return []
    label = "%s: the results-rows block is the RESULTS_ROWS rows of its results block" % name
    if not rows or not has_block:
        return [(False, label + (" (RESULTS_ROWS is empty)" if not rows else " (README.md has no results-rows block)"))]
    error = results_rows.check(path, text, rows)
    return [(error is None, label + ("" if error is None else " (%s)" % error))]


def check_page(root, d, page, lines):
    """Returns [(ok, message)] for the results block (lines) of one notes page."""
    name = os.path.basename(os.path.normpath(d))
    if page != "README.md":
        name += "/" + page
    m = HEADER.match(lines[0]) if lines else None
    if not m:
        return [(False, "%s: the results block starts with 'Measured on an <GPU> with CUDA ...'" % name)]
    gpu = m.group(1)
    outputs = program_outputs(lines)
    if not outputs:
        return [(False, "%s: the results block holds the output of each program run without arguments" % name)]
    results = []
    for prog, out in sorted(outputs.items()):
        path = os.path.join(root, "results", slug_of(gpu), prog + ".csv")
        label = "%s: %s's tables agree with results/%s/%s.csv" % (name, prog, slug_of(gpu), prog)
        if not os.path.exists(path):
            results.append((False, label + " (no such file)"))
            continue
        with open(path) as f:
            rows = [dict(zip(COLS, row)) for row in csv.reader(f)]
        rows = [r for r in rows if r.get("status") in ("ok", "FAILED") and r["experiment"] != "ceiling"]
        i, missing = 0, None
        for r in rows:
            while i < len(out) and not table_row_matches(out[i], r):
                i += 1
            if i == len(out):
                missing = r
                break
            i += 1
        if missing:
            results.append((False, "%s: no row '%s' with %s GB/s, %s%% of D2D after the rows before it" %
                            (label, missing["kernel"], missing["gbs"], missing["pct_d2d"])))
        elif not rows:
            results.append((False, label + " (the CSV has no kernel rows)"))
        else:
            results.append((True, "%s (%d rows)" % (label, len(rows))))
    return results


def check_summary(root):
    text = open(os.path.join(root, "README.md")).read()
    lines = block(text, "summary")
    if lines is None:
        return []
    m = HEADER.match(lines[0]) if lines else None
    if not m:
        return [(False, "README: the summary block starts with 'Measured on an <GPU> with CUDA ...'")]
    folder = os.path.join(root, "results", slug_of(m.group(1)))
    csvs = sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(".csv")) \
        if os.path.isdir(folder) else []
    label = "README: the summary is what summary.py makes of results/%s/*.csv" % slug_of(m.group(1))
    if not csvs:
        return [(False, label + " (no CSV there)")]
    made = subprocess.run([sys.executable, os.path.join(root, "common", "summary.py")] + csvs,
                          capture_output=True, text=True).stdout
    made = [l for l in made.split("\n") if l.strip()]
    shown = [l for l in lines if l.startswith("Summary:") or l.startswith("  ")]
    return [(made == shown, label)]


def main(argv):
    root = argv[1] if len(argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    lessons = argv[2:]
    checks = []
    if lessons == ["--summary"]:
        lessons = []
        checks += check_summary(root)
    elif not lessons:
        lessons = sorted(os.path.join(root, d) for d in os.listdir(root) if re.match(r"^\d\d_", d))
        checks += check_summary(root)
    for d in lessons:
        checks += check_lesson(root, d)
    for ok, message in checks:
        print("%s %s" % ("PASS" if ok else "FAIL", message))
    return 0 if all(ok for ok, _ in checks) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
