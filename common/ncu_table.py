#!/usr/bin/env python3
"""Turns ncu's --csv output (one row per metric per kernel) into one compact table row per kernel.

Kernels are named by the NVTX range "L:<row label>" the lessons' bench wraps around each timed
launch (ncu --print-nvtx-rename kernel); other kernels (fills, flushes) are left out.  The
program's own --csv rows give the useful bytes of each row, so DRAM bytes per useful byte can be
shown next to the counters."""
import csv
import os
import sys

SHORT = {
    "dram__bytes_read.sum": "DRAM rd MB",
    "dram__bytes_write.sum": "DRAM wr MB",
    "lts__t_sectors_srcunit_tex_op_read.sum": "L2 rd sect",
    "lts__t_sectors_srcunit_tex_op_write.sum": "L2 wr sect",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum": "ld sectors",
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum": "ld reqs",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum": "st sectors",
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum": "st reqs",
    "l1tex__t_output_wavefronts_pipe_lsu_mem_global_op_ld.sum": "ld wavefronts",
    "l1tex__t_output_wavefronts_pipe_lsu_mem_global_op_st.sum": "st wavefronts",
    "lts__t_sectors.avg.pct_of_peak_sustained_elapsed": "L2 busy %",
    "lts__t_sectors.sum": "L2 sectors",
    "lts__t_requests_srcunit_tex_op_read.sum": "L2 rd reqs",
    "lts__t_requests_srcunit_tex_op_write.sum": "L2 wr reqs",
    "lts__xbar2lts_cycles_active.avg.pct_of_peak_sustained_elapsed": "L2 intake %",
    "l1tex__data_pipe_lsu_wavefronts.avg.pct_of_peak_sustained_elapsed": "L1 pipe %",
    "l1tex__data_pipe_lsu_wavefronts.sum": "L1 pipe wf",
    "sm__cycles_elapsed.avg.per_second": "SM MHz",
    "l1tex__t_sector_hit_rate.pct": "L1 hit %",
    "lts__t_sector_hit_rate.pct": "L2 hit %",
    # the global loads' own L1 hit rate: of the sectors they asked the L1 for, the share it held
    # (stores left out)
    "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct": "ld L1 hit %",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum": "smem ld confl",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum": "smem st confl",
    "dram__throughput.avg.pct_of_peak_sustained_elapsed": "DRAM busy %",
    "gpu__time_duration.sum": "time us",
    "smsp__average_warp_latency_issue_stalled_long_scoreboard": "long-sb stall",
    "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio": "long-sb/issue",
    "smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct": "long-sb %",
    "smsp__warp_issue_stalled_barrier_per_warp_active.pct": "barrier %",
    "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active": "FMA pipe %",
    "sm__warps_active.avg.pct_of_peak_sustained_active": "occupancy %",
    "launch__registers_per_thread": "regs/thread",
    "smsp__warp_issue_stalled_drain_per_warp_active.pct": "drain %",
    "smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct": "LSU queue %",
    "lts__t_sectors_op_write_lookup_miss.sum": "wr miss MB",
    "smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct": "short-sb %",
    "smsp__warp_issue_stalled_selected_per_warp_active.pct": "issued %",
    "smsp__warp_issue_stalled_not_selected_per_warp_active.pct": "not picked %",
}
RATIOS = [  # (name, numerator, denominator)
    ("ld sect/req", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"),
    ("st sect/req", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"),
    ("ld wf/req", "l1tex__t_output_wavefronts_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"),
    ("st wf/req", "l1tex__t_output_wavefronts_pipe_lsu_mem_global_op_st.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"),
    # warp instructions each warp issued, on average: what a kernel's own code costs, apart from memory
    ("inst/warp", "smsp__inst_executed.sum", "smsp__warps_launched.sum"),
]
# metrics asked for only to feed a ratio above: their own column is left out (a count of every warp
# instruction in a kernel says little beside its per-warp ratio)
RATIO_ONLY = {"smsp__inst_executed.sum", "smsp__warps_launched.sum"}
PRODUCTS = [  # (name, a, b): a x b / 100, both percentages
    # the share of the SM's warp slots holding a warp that waits on a global load: the share of slots
    # holding a warp at all, times the share of a warp's time it waits on a load's data
    ("slot load %", "sm__warps_active.avg.pct_of_peak_sustained_active",
     "smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct"),
]


def scale(metric, value):
    if metric.startswith("dram__bytes"):
        return value / 1e6
    if metric == "lts__t_sectors_op_write_lookup_miss.sum":
        return value * 32 / 1e6  # sectors -> MB, to set beside DRAM rd MB
    if metric == "sm__cycles_elapsed.avg.per_second":
        return value / 1e6  # Hz -> MHz
    if metric == "gpu__time_duration.sum":
        return value / 1e3  # ns -> us
    return value


# A table wider than this many characters is printed in panels, one under another, each repeating the
# kernel column: a terminal or a notes page shows about 110 characters without scrolling, and a
# lesson's profile has up to 24 columns (some 290 characters).
PANEL_CHARS = 110


def panels(ws, width):
    """The column indices (1..len(ws)) of each panel, given the columns' widths ws: the fewest panels
    of at most PANEL_CHARS (at least one column each), their columns shared out about evenly."""
    ws = [2 + w for w in ws]

    def fill(limit):
        out, cur, used = [], [], 0
        for i, w in enumerate(ws, 1):
            if cur and (used + w > limit or width + used + w > PANEL_CHARS):
                out.append(cur)
                cur, used = [], 0
            cur.append(i)
            used += w
        return out + [cur] if cur else out

    n = len(fill(PANEL_CHARS))
    even = fill(-(-sum(ws) // n) + max(ws) // 2)   # about 1/n of the columns' width each
    return even if len(even) == n else fill(PANEL_CHARS)


EVERY = "Every kernel and counter:"


def print_table(head, rows, key=(), key_rows=()):
    """head: the column names, "kernel" first; rows: (label, [cell strings]).  Each column is right-
    aligned to the widest of its name, its cells and 10 characters; the labels left-aligned; panels
    separated by a blank line.  key: column names a lesson's notes read (its PROFILE_KEY): those
    present come first, in key's order, in panels of their own; the other columns follow under a
    line "More counters:".  key_rows: the rows the notes read (its PROFILE_ROWS): when some but not
    all rows are among them, the first panels show only those, and under a line EVERY every row
    follows with every column (key columns first), so that nothing measured is left out."""
    width = max(len(k) for k in [r[0] for r in rows] + [head[0]])
    ws = [max([len(h), 10] + [len(r[1][i]) for r in rows]) for i, h in enumerate(head[1:])]
    first = [head.index(k) for k in key if k in head[1:]]
    rest = [i for i in range(1, len(head)) if i not in first]
    picked = [r for r in rows if r[0] in key_rows]
    if picked and len(picked) < len(rows):
        groups = [(first or rest, picked, None), (first + rest, rows, EVERY)]
    else:
        groups = [(first, rows, None), (rest, rows, "More counters:")]
    printed = False
    for group, grows, title in groups:
        if not group:
            continue
        if printed:
            print()
            print(title)
        printed = True
        for p, cols in enumerate(panels([ws[i - 1] for i in group], width)):
            cols = [group[c - 1] for c in cols]
            if p:
                print()
            print("  ".join([head[0].ljust(width)] + [head[i].rjust(ws[i - 1]) for i in cols]))
            for label, cells in grows:
                print("  ".join([label.ljust(width)] + [cells[i - 1].rjust(ws[i - 1]) for i in cols]))


def main(ncu_csv, rows_csv):
    useful = {}
    with open(rows_csv) as f:
        for r in csv.DictReader(f):
            if r.get("bytes"):
                useful.setdefault(r["kernel"], []).append(float(r["bytes"]))
    kernels, values, metrics = [], {}, []
    label_of_id, uses = {}, {}
    with open(ncu_csv) as f:
        lines = [l for l in f if l.startswith('"')]  # skip ncu's ==PROF== lines
    for r in csv.DictReader(lines):
        name = r.get("Kernel Name", "")
        if not name.startswith("L:"):
            continue
        # ncu names it "L:<range>/<kernel signature>": keep the range, our table's row label
        name = name[2:].rsplit("/", 1)[0] if "/" in name else name[2:]
        # the same label launched again (another table, another size) gets its own row
        kid = r.get("ID", name)
        if kid not in label_of_id:
            uses[name] = uses.get(name, 0) + 1
            label_of_id[kid] = name if uses[name] == 1 else "%s (#%d)" % (name, uses[name])
        name = label_of_id[kid]
        m = r["Metric Name"]
        try:
            v = float(r["Metric Value"].replace(",", ""))
        except ValueError:
            continue
        if name not in values:
            kernels.append(name)
            values[name] = {}
        values[name][m] = v
        if m not in metrics:
            metrics.append(m)
    if not kernels:
        print("ncu reported no kernels inside the lessons' NVTX ranges (profile.sh shows its log).")
        return 1
    cols = [(SHORT.get(m, m), m) for m in metrics if m not in RATIO_ONLY]
    ratios = [r for r in RATIOS if r[1] in metrics and r[2] in metrics]
    products = [p for p in PRODUCTS if p[1] in metrics and p[2] in metrics]
    dram = [m for m in metrics if m.startswith("dram__bytes")]
    head = ["kernel"] + [c[0] for c in cols] + [r[0] for r in ratios] + [p[0] for p in products]
    if dram and useful:
        head.append("DRAM B/useful B")
    rows = []
    for k in kernels:
        v = values[k]
        cells = []
        for short, m in cols:
            x = v.get(m)
            cells.append("%.1f" % scale(m, x) if x is not None else "-")
        for name, a, b in ratios:
            ok = v.get(a) is not None and v.get(b)
            cells.append("%.2f" % (v[a] / v[b]) if ok else "-")
        for name, a, b in products:
            ok = v.get(a) is not None and v.get(b) is not None
            cells.append("%.1f" % (v[a] * v[b] / 100) if ok else "-")
        if dram and useful:
            moved = sum(v.get(m, 0.0) for m in dram)
            base, _, nth = k.partition(" (#")
            seen = useful.get(base, [])
            i = int(nth.rstrip(")")) - 1 if nth else 0
            u = seen[i] if i < len(seen) else None
            cells.append("%.2f" % (moved / u) if u else "-")
        rows.append((k, cells))
    # PROFILE_KEY (lesson.mk passes a lesson's): the columns its notes read, printed first
    key = [k.strip() for k in os.environ.get("PROFILE_KEY", "").split(",") if k.strip()]
    # PROFILE_ROWS: the rows its notes read (';'-separated labels), shown first on their own
    key_rows = [k.strip() for k in os.environ.get("PROFILE_ROWS", "").split(";") if k.strip()]
    print_table(head, rows, key, key_rows)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
