#!/usr/bin/env python3
"""Two memory systems: the headline rows of every lesson on each GPU stored under results/, side by
side, as % of the cudaMemcpy copy measured in the same run (and the copy itself in GB/s).

usage: compare_gpus.py ROOT [--map] [--svg OUT.svg]
Prints the Markdown table of the root README's "Two memory systems" section; with --svg also draws
the chart (gnuplot, through common/plot-style.gp like every figure of the course).  With --map: the
course map instead (the root README's folded map table and course.svg): the transpose's journey from
the naive kernel to the fastest and the copy's from one float per thread to float4, one row per
step.  Only GPUs whose folder holds run.txt (written by make results) and every CSV named below
take part."""
import csv
import os
import subprocess
import sys
import tempfile

# (program's CSV, experiment, kernel label, what the row shows): the rows the lessons' conclusions
# rest on, at each lesson's default size.
ROWS = [
    ("dram_burst", "peak", "copy_one_per_thread", "01 one-float copy kernel"),
    ("dram_burst", "segments", "S=4 B per line", "01 4 bytes of every 128-byte line"),
    ("coalescing", "saxpy", "saxpy", "02 SAXPY"),
    ("coalescing", "strip_sums", "sum_strips_lanes_rows_apart", "02 strip sums, lanes a row apart"),
    ("offset_stride", "stride_float", "float s=2", "03 stride 2 (float)"),
    ("offset_stride", "stride_float", "float s=8", "03 stride 8 (float)"),
    ("transpose_bounds", "bounds", "copyCol", "04 copyCol"),
    ("transpose_bounds", "in_flight", "f4 x1 one pass", "04 float4 copy kernel"),
    ("transpose_naive", "sides", "NaiveRow", "05 NaiveRow 32x8"),
    ("transpose_naive", "sides", "NaiveCol", "05 NaiveCol 32x8"),
    ("unroll_diagonal", "unroll", "NaiveCol x8", "06 NaiveCol unrolled x8"),
    ("unroll_diagonal", "order", "NaiveRow row-major order", "06 NaiveRow, row-major order"),
    ("unroll_diagonal", "order", "NaiveRow col-major order", "06 NaiveRow, column-major order"),
    ("shared_tiled", "shapes", "tile32 thr32x8 [32][33]", "07 tile32 [32][33]"),
    ("shared_tiled", "shapes", "tile32 thr32x8 col-wise", "07 tile32 [32][33], column-wise"),
    ("shared_tiled", "shapes", "tile64 thr64x4 [64][65]", "07 tile64 [64][65]"),
    ("async_copy", "async", "cp.async tile64 4-stage", "07 cp.async tile64"),
    ("async_copy", "async", "TMA tile32x64 4-stage", "07 TMA tile32x64"),
    ("register_tiles", "fastest", "cublasSgeam (op T)", "08 cublasSgeam"),
    ("register_tiles", "fastest", "tile64 swizzle f4", "08 tile64 swizzle f4"),
    ("register_tiles", "fastest", "tile64 swizzle col-wise", "08 tile64 swizzle f4, column-wise"),
    ("register_tiles", "fastest", "tile64 aligned f4 st @odd", "08 tile64 aligned @ 8191x4097"),
    ("register_tiles", "fastest", "tile64 aligned col-wise @odd", "08 tile64 aligned, column-wise @ 8191x4097"),
]
# The course map (--map): each step of the two journeys, the lesson that takes it and its row, at each
# lesson's default size (8192 x 8192 floats for the transposes).
MAP = [
    ("dram_burst", "peak", "copy_one_per_thread", "copy: one float per thread (01)"),
    ("coalescing", "copy2d", "copyRow", "copy: 2-D, threadIdx.x along a row (02)"),
    ("offset_stride", "offset_float", "float o=1", "copy, a detour: start one float late (03)"),
    ("offset_stride", "stride_float", "float s=2", "copy, a detour: every 2nd float (03)"),
    ("transpose_bounds", "in_flight", "f1 x3 one pass", "copy: three floats in flight per thread (04)"),
    ("transpose_bounds", "in_flight", "f4 x1 one pass", "copy: one float4 per thread (04)"),
    ("transpose_bounds", "in_flight", "f4 x4 one pass", "copy: four float4 in flight (04)"),
    ("transpose_naive", "sides", "NaiveRow", "transpose: read rows, write columns (05)"),
    ("transpose_naive", "sides", "NaiveCol", "transpose: read columns, write rows (05)"),
    ("transpose_naive", "shapes", "NaiveCol 8x32", "transpose: 8 x 4 warps (05)"),
    ("unroll_diagonal", "unroll", "NaiveCol x4", "transpose: 4 loads in flight, 32 x 8 blocks again (06)"),
    ("unroll_diagonal", "order", "NaiveCol x4 col-major order", "transpose: blocks taken column-major (06)"),
    ("shared_tiled", "shapes", "tile32 thr32x8 [32][33]", "transpose: a 32x32 shared tile (07)"),
    ("shared_tiled", "shapes", "tile64 thr64x4 [64][65]", "transpose: a 64x64 tile (07)"),
    ("register_tiles", "fastest", "tile64 swizzle f4", "transpose: float4 and a swizzled tile (08)"),
    ("register_tiles", "fastest", "tile64 swizzle col-wise", "transpose: ... taken down the columns (08)"),
]
# The best NaiveCol block shape: a conclusion that moves between GPUs (lesson 05).
SHAPES = ("transpose_naive", "shapes", "NaiveCol ")
COLS = ["lesson", "experiment", "kernel", "status", "ms_median", "ms_min", "ms_max", "bytes",
        "gbs", "pct_d2d", "pct_peak", "extra_name", "extra"]


def read_keys(path):
    """The key=value lines of a run record (run.txt, <lesson>.run.txt: results.sh writes them)."""
    with open(path) as f:
        return dict(line.strip().partition("=")[::2] for line in f)


def read_run(folder):
    """run.txt's keys (the GPU's latest make results); its date becomes the range of the lessons' own
    runs (<lesson>.run.txt) where they were made on different days."""
    run = read_keys(os.path.join(folder, "run.txt"))
    days = {read_keys(os.path.join(folder, name)).get("date") for name in os.listdir(folder)
            if name.endswith(".run.txt")} - {None}
    if len(days) > 1:
        run["date"] = "%s to %s" % (min(days), max(days))
    return run


def read_rows(folder, prog):
    with open(os.path.join(folder, prog + ".csv")) as f:
        return [dict(zip(COLS, r)) for r in csv.reader(f)][1:]


def gpus(root, rows=ROWS):
    out = []
    base = os.path.join(root, "results")
    for name in sorted(os.listdir(base)):
        folder = os.path.join(base, name)
        progs = {p for p, _, _, _ in rows} | {"transpose_bounds", SHAPES[0]}
        if os.path.isfile(os.path.join(folder, "run.txt")) and all(
                os.path.isfile(os.path.join(folder, p + ".csv")) for p in progs):
            out.append((name, folder, read_run(folder)))
    return out


def measure(folder, rows=ROWS):
    """{label: (% of D2D, GB/s)}, the copy's GB/s, the peak, the best NaiveCol shape."""
    cache, got = {}, {}
    for prog, exp, kernel, label in rows:
        if prog not in cache:   # each CSV read once (setdefault would read it for every row)
            cache[prog] = read_rows(folder, prog)
        for r in cache[prog]:
            if r["experiment"] == exp and r["kernel"] == kernel and r["status"] == "ok":
                got[label] = (float(r["pct_d2d"]), float(r["gbs"]))
    tb = cache.get("transpose_bounds") or read_rows(folder, "transpose_bounds")
    d2d = next(float(r["gbs"]) for r in tb if r["experiment"] == "ceiling" and r["kernel"] == "cudaMemcpy D2D")
    peak = next(float(r["gbs"]) for r in tb if r["experiment"] == "ceiling" and r["kernel"] == "theoretical peak")
    prog, exp, prefix = SHAPES
    shapes = [r for r in read_rows(folder, prog) if r["experiment"] == exp and r["kernel"].startswith(prefix)
              and r["status"] == "ok"]
    best = max(shapes, key=lambda r: float(r["gbs"]))
    return got, d2d, peak, (best["kernel"][len(prefix):], float(best["pct_d2d"]))


def map_table(found):
    names = [run["gpu"] for _, _, run in found]
    ms = [measure(folder, MAP) for _, folder, _ in found]
    lines = ["| step (lesson) | kernel (table label) | " + " | ".join("%s, %% of `cudaMemcpy`" % n for n in names) + " |",
             "|---|---|" + "---:|" * len(names)]
    for _, _, kernel, label in MAP:
        cells = ["%.1f" % m[0][label][0] if label in m[0] else "-" for m in ms]
        lines.append("| %s | `%s` | %s |" % (label, kernel, " | ".join(cells)))
    runs = "; ".join("%s: CUDA %s, driver %s, %s" % (r["gpu"], r["cuda"], r["driver"], r["date"]) for _, _, r in found)
    return "\n".join(lines) + "\n\n(" + runs + "; each row at its lesson's default size, from `results/<GPU>/*.csv`; drawn in course.svg by `make plot`.)"


def table(found):
    names = [run["gpu"] for _, _, run in found]
    ms = [measure(folder) for _, folder, _ in found]
    lines = ["| row (% of `cudaMemcpy` D2D of the same run) | " + " | ".join(names) + " |",
             "|---|" + "---:|" * len(names),
             "| `cudaMemcpy` D2D, GB/s (theoretical peak) | " +
             " | ".join("%.0f (%.0f)" % (m[1], m[2]) for m in ms) + " |"]
    for _, _, _, label in ROWS:
        cells = ["%.1f" % m[0][label][0] if label in m[0] else "-" for m in ms]
        lines.append("| %s | %s |" % (label, " | ".join(cells)))
    lines.append("| 05 fastest NaiveCol block shape | " +
                 " | ".join("%s (%.1f)" % m[3] for m in ms) + " |")
    runs = "; ".join("%s: CUDA %s, driver %s, %s" % (r["gpu"], r["cuda"], r["driver"], r["date"]) for _, _, r in found)
    return "\n".join(lines) + "\n\n(" + runs + "; every figure from `results/<GPU>/*.csv`, drawn by `make plot`.)"


def draw(found, out, root, rows=ROWS, title="Two memory systems: the same kernels, % of the cudaMemcpy copy of each GPU's run",
         lmargin=30):
    ms = [measure(folder, rows) for _, folder, _ in found]
    tmp = tempfile.mkdtemp()
    data = os.path.join(tmp, "gpus.tsv")
    with open(data, "w") as f:
        for i, (_, _, _, label) in enumerate(rows):
            f.write("%d\t%s\t%s\n" % (i, label, "\t".join("%.1f" % m[0].get(label, (0.0, 0.0))[0] for m in ms)))
    n = len(rows)
    k = len(found)
    names = [run["gpu"] for _, _, run in found]
    foot = ", ".join("%s %s" % (r["gpu"], r["date"]) for _, _, r in found)
    colors = ["#3182bd", "#e6550d", "#31a354", "#756bb1"]
    script = os.path.join(tmp, "gpus.gp")
    with open(script, "w") as f:
        f.write("gpu = ''; cuda = ''; driver = ''; date = ''; out = '%s'\n" % os.path.join(tmp, "out.svg"))
        f.write("load '%s'\n" % os.path.join(root, "common", "plot-style.gp"))
        f.write("eval svg(900, 620)\n")
        f.write("set title \"%s\" font ',13'\n" % title)
        f.write("set xlabel '% of cudaMemcpy D2D (same bytes, same run)'\n")
        f.write("set xrange [0:115]\nset xtics 0, 10, 110\nset grid x noy\nset lmargin %d\n" % lmargin)
        f.write("set yrange [%f:%f]\nset ytics nomirror scale 0 font ',10'\n" % (-n + 0.3, 1.6))
        f.write("set key top right horizontal\n")
        f.write("set label 1 \"%s\" at screen 0.99, screen 0.02 right font ',9' textcolor rgb '#555555'\n" % foot)
        f.write("set style fill solid 0.9 noborder\n")
        h = 0.8 / k
        parts = []
        for j in range(k):
            off = 0.4 - h * (j + 0.5)
            parts.append("'%s' using ($%d/2):(-$1 + %f):($%d/2):(%f)%s with boxxyerror lc rgb '%s' title '%s'" % (
                data, 3 + j, off, 3 + j, h / 2, ":ytic(2)" if j == 0 else "", colors[j % len(colors)], names[j]))
            parts.append("'%s' using ($%d + 1):(-$1 + %f):(sprintf('%%.0f', $%d)) with labels left font ',8' notitle" % (
                data, 3 + j, off, 3 + j))
        f.write("plot " + ", \\\n     ".join(parts) + "\n")
    env = dict(os.environ, LC_ALL="C")
    r = subprocess.run(["gnuplot", script], capture_output=True, text=True, env=env)
    if r.returncode != 0 or r.stderr.strip() or not os.path.getsize(os.path.join(tmp, "out.svg")):
        sys.stderr.write("compare_gpus: gnuplot failed, nothing was drawn:\n" + r.stderr)
        return 1
    os.replace(os.path.join(tmp, "out.svg"), out)
    return 0


def main(argv):
    if not argv:
        sys.stderr.write(__doc__)
        return 2
    root = argv[0]
    rest = argv[1:]
    course_map = "--map" in rest
    rest = [a for a in rest if a != "--map"]
    found = gpus(root, MAP if course_map else ROWS)
    if len(found) < 2:
        sys.stderr.write("compare_gpus: fewer than two complete GPU runs under %s/results\n" % root)
        return 1
    print(map_table(found) if course_map else table(found))
    if len(rest) >= 2 and rest[0] == "--svg":
        if course_map:
            return draw(found, rest[1], root, MAP, "The course map: each step's kernel, % of the cudaMemcpy copy of each GPU's run",
                        lmargin=44)
        return draw(found, rest[1], root)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
