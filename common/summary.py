#!/usr/bin/env python3
"""The one-page summary that ends the root `make run`: for every lesson, its slowest and its fastest
kernel as GB/s and % of the cudaMemcpy D2D copy measured in that lesson's run.
usage: summary.py ROWS.csv   (rows appended by the lessons through LESSON_SUMMARY_FILE)"""
import csv
import sys

COLS = ["lesson", "experiment", "kernel", "status", "ms_median", "ms_min", "ms_max", "bytes",
        "gbs", "pct_d2d", "pct_peak", "extra_name", "extra"]


def main(path):
    lessons = {}
    order = []
    with open(path) as f:
        for row in csv.reader(f):
            r = dict(zip(COLS, row))
            if r.get("status") != "ok" or not r.get("pct_d2d"):
                continue
            if r["lesson"] not in lessons:
                lessons[r["lesson"]] = []
                order.append(r["lesson"])
            lessons[r["lesson"]].append(r)
    if not order:
        print("no rows to summarise")
        return 1
    print()
    print("Summary: the slowest and the fastest kernel of each lesson, as % of the cudaMemcpy copy")
    print("  %-24s %-34s %8s %6s  %s" % ("lesson", "kernel", "GB/s", "%D2D", "bar: 1 # = 4% of D2D"))
    for lesson in order:
        rows = lessons[lesson]
        lo = min(rows, key=lambda r: float(r["pct_d2d"]))
        hi = max(rows, key=lambda r: float(r["pct_d2d"]))
        for tag, r in (("slowest", lo), ("fastest", hi)):
            pct = float(r["pct_d2d"])
            bar = "#" * min(30, int(pct / 4 + 0.5))
            print("  %-24s %-34s %8.1f %6.1f  %s" % (lesson if tag == "slowest" else "", (tag + ": " + r["kernel"])[:34],
                                                   float(r["gbs"]), pct, bar))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
