#!/usr/bin/env python3
"""The one-page summary that ends the root `make run`: for every lesson, its slowest and its fastest
kernel as GB/s and % of the cudaMemcpy D2D copy measured in that lesson's run.
usage: summary.py ROWS.csv [MORE.csv ...]
(rows appended by the lessons through LESSON_SUMMARY_FILE, or the --csv files of `make results`)
Rows measured in GFLOP/s (matrix products) and the cudaMemcpy ceiling rows are left out: the
summary follows the memory-bound journey.  So are rows measured at another size than the lesson's
main one (labels ending in "@odd": 8191 x 4097 in lessons 07 and 08), so that every line compares
kernels moving the same matrix."""
import csv
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lessons import lesson_names, tagged  # noqa: E402  (common/lessons.py: the course's lessons.txt)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Reference rows (copies, cuBLAS) that the transpose lessons measure next to their own kernels are
# left out of their lines; in the lessons tagged `copies` in lessons.txt the copies are the subject,
# so they stay.
BASELINE = re.compile(r"^(copy|cublas|f4 x)", re.I)
COPIES_ARE_THE_SUBJECT = tagged(ROOT, "copies")

COLS = ["lesson", "experiment", "kernel", "status", "ms_median", "ms_min", "ms_max", "bytes",
        "gbs", "pct_d2d", "pct_peak", "extra_name", "extra"]


def main(paths):
    lessons = {}
    for path in paths:
        try:
            f = open(path)
        except FileNotFoundError:   # no lesson measured anything (e.g. make run ARGS=--dry-run)
            continue
        with f:
            for row in csv.reader(f):
                r = dict(zip(COLS, row))
                if r.get("status") != "ok" or not r.get("pct_d2d") or r["experiment"] == "ceiling":
                    continue
                if r.get("extra_name") == "GFLOP/s" or r["kernel"].startswith("cudaMemcpy"):
                    continue
                if " @" in r["kernel"]:   # another size (e.g. "@odd"): not the lesson's main matrix
                    continue
                lessons.setdefault(r["lesson"], []).append(r)
    course = lesson_names(ROOT)
    order = sorted(lessons, key=lambda name: (course.index(name) if name in course else len(course), name))
    if not order:
        print("(no measured rows to summarise)")
        return 0
    print()
    print("Summary: the slowest and the fastest kernel of each lesson at its main size, as % of the cudaMemcpy copy")
    print("  %-24s %-34s %8s %6s  %s" % ("lesson", "kernel", "GB/s", "%D2D", "bar: 1 # = 4% of D2D"))
    for lesson in order:
        rows = lessons[lesson]
        if lesson not in COPIES_ARE_THE_SUBJECT:
            rows = [r for r in rows if not BASELINE.match(r["kernel"])] or rows
        lo = min(rows, key=lambda r: float(r["pct_d2d"]))
        hi = max(rows, key=lambda r: float(r["pct_d2d"]))
        for tag, r in (("slowest", lo), ("fastest", hi)):
            pct = float(r["pct_d2d"])
            bar = "#" * min(30, int(pct / 4 + 0.5))
            print("  %-24s %-34s %8.1f %6.1f  %s" % (lesson if tag == "slowest" else "", (tag + ": " + r["kernel"])[:34],
                                                   float(r["gbs"]), pct, bar))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
