/* Lesson 05: a transpose is strided on one side -- which side should it be?
 *
 * Experiment 1: NaiveRow (read rows, write columns) against NaiveCol (read columns, write rows),
 * between the bounds of lesson 04 (copyRow, copyCol).  Both transposes touch the same number of
 * sectors per warp; only the side that is strided differs.
 * Experiment 2: block shapes.  The shape of a block decides the shape of its warps, and the shape of
 * a warp decides how many sectors each of its loads and stores touches.
 * Experiment 3: why reading columns wins.  NaiveCol with the strided loads cached in L1 and L2
 * (the default, __ldg, __ldca), in L2 only (__ldcg), or marked evict-first (__ldcs).
 *
 * The kernels and their launchers are in kernels.cuh (the transposes and their cache-hint variants)
 * and ../04_transpose_bounds/kernels.cuh (copy_row, copy_col); this file lists them as table rows,
 * verifies, times and prints them (trow_measure, trow_time). */
#include "args.h"
#include "gpu.h"
#include "kernels.cuh"
#include "report.h"
#include "sectors.h"
#include "stats.h"
#include "transpose_matrix.h"

#include <math.h>
#include <stdio.h>

/* The program's --help summary. */
static const char SUMMARY[] =
    "Lesson 05: naive transposes. Reads rows and writes columns (NaiveRow) or the other way round (NaiveCol),\n"
    "sweeps block shapes, and shows with cache hints why reading columns wins.";

/* ---- the table rows ------------------------------------------------------------------------- */

/* Experiments 1 and 2: a kernel as a table row, with the kind sectors.h counts its sectors by. */
typedef struct {
    trow_t row;
    kernel_kind_t kind;
} kernel_t;

static const kernel_t K_COPY_ROW = {{"copyRow", launch_copy_row, TMATRIX_COPY}, KIND_COPY_ROW};
static const kernel_t K_COPY_COL = {{"copyCol", launch_copy_col, TMATRIX_COPY}, KIND_COPY_COL};
static const kernel_t K_NAIVE_ROW = {{"NaiveRow", launch_transpose_naive_row, TMATRIX_TRANSPOSE}, KIND_NAIVE_ROW};
static const kernel_t K_NAIVE_COL = {{"NaiveCol", launch_transpose_naive_col, TMATRIX_TRANSPOSE}, KIND_NAIVE_COL};

/* Experiment 3, in the order printed; HINT_BASE: the row the extra column compares with. */
static const trow_t HINTS[] = {
    {"NaiveCol ld.global", launch_transpose_naive_col, TMATRIX_TRANSPOSE},
    {"NaiveCol __ldg", launch_transpose_naive_col_hint<LOAD_LDG>, TMATRIX_TRANSPOSE},
    {"NaiveCol __ldca", launch_transpose_naive_col_hint<LOAD_LDCA>, TMATRIX_TRANSPOSE},
    {"NaiveCol __ldcg", launch_transpose_naive_col_hint<LOAD_LDCG>, TMATRIX_TRANSPOSE},
    {"NaiveCol __ldcs", launch_transpose_naive_col_hint<LOAD_LDCS>, TMATRIX_TRANSPOSE},
    {"NaiveRow ld.global", launch_transpose_naive_row, TMATRIX_TRANSPOSE},
    {"NaiveRow __ldcg", launch_transpose_naive_row_hint<LOAD_LDCG>, TMATRIX_TRANSPOSE},
};
#define NHINTS ((int)(sizeof HINTS / sizeof HINTS[0]))
enum { H_DEFAULT = 0, H_LDCA = 2, H_LDCG = 3, H_LDCS = 4, H_ROW = 5, H_ROW_LDCG = 6 };
static const int HINT_BASE[NHINTS] = {H_DEFAULT, H_DEFAULT, H_DEFAULT, H_DEFAULT, H_DEFAULT, H_ROW, H_ROW};

/* Experiment 2: the issue's shapes, the sources' (64x8 in D, 32x16 best in E), and two 8-wide ones. */
static const dim3 SHAPES[] = {dim3(8, 8),   dim3(8, 32),  dim3(16, 8),  dim3(16, 16), dim3(32, 8),
                              dim3(32, 16), dim3(32, 32), dim3(64, 8),  dim3(64, 16), dim3(128, 8)};
#define NSHAPES ((int)(sizeof SHAPES / sizeof SHAPES[0]))

/* ---- --check ------------------------------------------------------------------------------- */

/* Every kernel at shapes that are multiples of nothing: the naive transposes with every block
 * shape of the sweep (or --block), the copies and the hint variants with two block shapes;
 * 1x600001 and 600001x1 make gridDim.y hit its cap of 65535, so the slow-index loop runs more
 * than once. */
static int run_checks(const args_t *a)
{
    static const int shapes[][2] = {{1, 1}, {2, 1}, {1, 3}, {7, 3}, {33, 31}, {31, 33}, {1000, 777}, {1, 40009},
                                    {40009, 1}, {4097, 13}, {1, 600001}, {600001, 1}, {2048, 512}, {8191, 4097}};
    const int nshapes = (int)(sizeof shapes / sizeof shapes[0]);
    const dim3 hint_blocks[] = {dim3(32, 8), dim3(7, 5)};
    const trow_t naive[] = {K_NAIVE_ROW.row, K_NAIVE_COL.row};
    trow_t others[2 + NHINTS] = {K_COPY_ROW.row, K_COPY_COL.row};
    int h, nothers = 2;
    check_tally_t tally = {0, 0, stdout};

    for (h = 0; h < NHINTS; h++)   /* the hint variants; the plain kernels are checked above */
        if (HINTS[h].launch != launch_transpose_naive_col && HINTS[h].launch != launch_transpose_naive_row)
            others[nothers++] = HINTS[h];
    tcheck_sweep(naive, 2, shapes, nshapes, 2, SHAPES, NSHAPES, NULL, a, &tally);
    tcheck_sweep(others, nothers, shapes, nshapes, 2, hint_blocks, 2, NULL, a, &tally);
    return check_summary(&tally);
}

/* ---- the experiments ---------------------------------------------------------------------- */

typedef struct {
    const gpu_info_t *g;
    tbench_t b;     /* the matrix with both references: its input (for copies) and its CPU transpose */
} run_t;

/* Sectors per warp of a kernel of this kind with blocks b, load + store (sectors.h): the extra
 * column of experiment 2. */
static double sectors_per_warp(const run_t *r, kernel_kind_t kind, dim3 b)
{
    warp_sectors_t w = warp_sectors(kind, (int)b.x, (int)b.y, r->b.m.nx, r->b.m.ny);
    return w.ld + w.st;
}

static double gbs(const run_t *r, const timing_t *t) { return stats_gbs(r->b.bytes, t->median_ms); }

/* Experiment 1: which side should be strided? */
static int experiment_sides(run_t *r, dim3 b)
{
    const kernel_t *ks[4] = {&K_COPY_ROW, &K_COPY_COL, &K_NAIVE_ROW, &K_NAIVE_COL};
    timing_t t[4];
    int ok[4], i;
    char take[400];
    warp_sectors_t w[4];
    double mib = r->b.m.n * 4.0 / 1048576.0, l2 = r->g->l2_bytes / 1048576.0;

    report_say("\nExperiment 1: which side should be strided? Blocks %ux%u. Sectors per warp instruction "
               "(32-byte pieces\n  a warp's load or store touches, from the addresses; `make profile` measures them):\n",
               b.x, b.y);
    for (i = 0; i < 4; i++) {
        w[i] = warp_sectors(ks[i]->kind, (int)b.x, (int)b.y, r->b.m.nx, r->b.m.ny);
        report_say("    %-9s load %4.1f  store %4.1f\n", ks[i]->row.label, w[i].ld, w[i].st);
    }
    report_say("  NaiveRow's stores: a warp writes 32 x 4 = 128 useful bytes into %.0f sectors of 32 bytes:\n"
               "  %.1f%% of the bytes moved are useful.\n",
               w[2].st, 100.0 * 128.0 / (32.0 * w[2].st));
    report_say("  Each matrix is %.0f MiB, the L2 %.0f MiB: the output %s the L2.\n", mib, l2,
               mib <= l2 ? "fits in" : "does not fit in");
    report_begin("sides", "Copies and naive transposes of the same matrix:", NULL);
    report_row("cudaMemcpy D2D", &r->b.t_d2d, r->b.bytes, NAN);
    for (i = 0; i < 4; i++) ok[i] = trow_measure(&r->b, &ks[i]->row, b, NAN, &t[i]);
    if (ok[2] && ok[3]) {
        const int col_wins = t[3].median_ms < t[2].median_ms;
        const double sectors = w[2].ld + w[2].st;   /* per warp, load + store: the same for both */
        char tail[80];
        int used;
        snprintf(tail, sizeof tail, "they sit at %.0f%% and %.0f%% of copyRow.",
                 ok[0] ? 100.0 * gbs(r, &t[2]) / gbs(r, &t[0]) : 0.0, ok[0] ? 100.0 * gbs(r, &t[3]) / gbs(r, &t[0]) : 0.0);
        if (fabs(t[3].median_ms / t[2].median_ms - 1.0) < 0.05)   /* a tie: no side wins */
            used = snprintf(take, sizeof take,
                            "NaiveCol and NaiveRow ran within 5%% of each other (%.2fx), both touching %.0f sectors "
                            "per warp (load + store): with these blocks something else sets the speed; ",
                            t[2].median_ms / t[3].median_ms, sectors);
        else
            used = snprintf(take, sizeof take, "%s is %.2fx faster than %s, though both touch %.0f sectors per warp "
                            "(load + store): %s; ",
                            col_wins ? "reading columns (NaiveCol)" : "writing columns (NaiveRow)",
                            col_wins ? t[2].median_ms / t[3].median_ms : t[3].median_ms / t[2].median_ms,
                            col_wins ? "writing them (NaiveRow)" : "reading them (NaiveCol)", sectors,
                            col_wins ? "strided stores cost more than strided loads (make profile: L2 write requests, L1 pipe %)"
                                     : "on this GPU the strided stores cost less than the strided loads");
        if (used > 0 && (size_t)used < sizeof take) snprintf(take + used, sizeof take - (size_t)used, "%s", tail);
        report_end(take);
    } else {
        report_end("a kernel failed verification.");
    }
    return !(ok[0] && ok[1] && ok[2] && ok[3]);
}

/* Experiment 2: the block-shape sweep. */
static int experiment_shapes(run_t *r)
{
    const kernel_t *ks[2] = {&K_NAIVE_ROW, &K_NAIVE_COL};
    timing_t t;
    int i, s, best[2] = {-1, -1}, failed = 0;
    double best_gbs[2] = {0, 0};
    char label[64], take[400];

    report_say("\nExperiment 2: block shapes (the same %d reps per shape). A block of bx x by threads forms warps of\n"
               "  min(bx, 32) x 32/min(bx, 32) threads: 32 x 1 when bx >= 32, 8 x 4 when bx = 8. ld+st sect = sectors per warp, load + store.\n",
               r->b.a->reps);
    report_begin("shapes", "NaiveRow and NaiveCol for each block shape:", "ld+st sect");
    for (i = 0; i < 2; i++) {
        for (s = 0; s < NSHAPES; s++) {
            const trow_t row = {label, ks[i]->row.launch, ks[i]->row.reference};   /* "NaiveRow 8x32" */
            snprintf(label, sizeof label, "%s %ux%u", ks[i]->row.label, SHAPES[s].x, SHAPES[s].y);
            if (!trow_measure(&r->b, &row, SHAPES[s], sectors_per_warp(r, ks[i]->kind, SHAPES[s]), &t)) {
                failed = 1;
                continue;
            }
            if (gbs(r, &t) > best_gbs[i]) {
                best_gbs[i] = gbs(r, &t);
                best[i] = s;
            }
        }
    }
    if (best[0] >= 0 && best[1] >= 0) {
        dim3 b0 = SHAPES[best[0]], b1 = SHAPES[best[1]];
        snprintf(take, sizeof take,
                 "fastest NaiveRow: %ux%u (%.0f GB/s, %.0f sectors/warp); fastest NaiveCol: %ux%u (%.0f GB/s, "
                 "%.0f sectors/warp).",
                 b0.x, b0.y, best_gbs[0], sectors_per_warp(r, KIND_NAIVE_ROW, b0), b1.x, b1.y, best_gbs[1],
                 sectors_per_warp(r, KIND_NAIVE_COL, b1));
        report_end(take);
    } else {
        report_end("a kernel failed verification.");
    }
    return failed;
}

/* Experiment 3: where the strided loads are served from. */
static int experiment_hints(run_t *r, dim3 b)
{
    timing_t t[NHINTS];
    int ok[NHINTS], k, failed = 0;
    char take[500];

    report_say("\nExperiment 3: cache hints on the loads, blocks %ux%u. NaiveCol's load sectors are shared by the\n"
               "  warps of a block that read the neighbouring columns: if the L1 keeps them, one DRAM sector feeds\n"
               "  8 floats. __ldcg sends every load past the L1 to the L2.\n",
               b.x, b.y);
    report_begin("hints", "NaiveCol (strided loads) and NaiveRow (coalesced loads) with each load instruction:", "% of ld");
    /* each row verified, then timed (trow_time); its extra column: the speed of its plain-load row
     * (HINT_BASE, printed earlier) as a percentage of its own */
    for (k = 0; k < NHINTS; k++) {
        ok[k] = trow_time(&r->b, &HINTS[k], b, &t[k]);
        if (!ok[k]) {   /* trow_time has printed its row, without figures */
            failed = 1;
            continue;
        }
        report_row(HINTS[k].label, &t[k], r->b.bytes,
                   ok[HINT_BASE[k]] ? 100.0 * t[HINT_BASE[k]].median_ms / t[k].median_ms : NAN);
    }
    if (!failed) {
        snprintf(take, sizeof take,
                 "strided loads past the L1 (__ldcg) run at %.0f%% of the default; evict-first (__ldcs) at %.0f%%; "
                 "the default is %.0f%% of __ldca, i.e. %s. For coalesced loads (NaiveRow) __ldcg gives %.0f%%.",
                 100.0 * t[H_DEFAULT].median_ms / t[H_LDCG].median_ms, 100.0 * t[H_DEFAULT].median_ms / t[H_LDCS].median_ms,
                 100.0 * t[H_LDCA].median_ms / t[H_DEFAULT].median_ms,
                 /* within 5% or overlapping min-max ranges: the same, as far as this run can tell */
                 (fabs(t[H_LDCA].median_ms / t[H_DEFAULT].median_ms - 1.0) < 0.05 ||
                  !stats_ranges_apart(&t[H_LDCA], &t[H_DEFAULT]))
                     ? "plain loads already cache in L1 here (what -Xptxas -dlcm=ca once had to ask for)"
                     : "plain loads and .ca loads differ here",
                 100.0 * t[H_ROW].median_ms / t[H_ROW_LDCG].median_ms);
        report_end(take);
        return 0;
    }
    report_end("a kernel failed verification.");
    return 1;
}

/* ---- main ----------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    args_t a;
    gpu_info_t g;
    run_t r;
    int nx, ny, failed = 0;
    size_t bytes;
    dim3 b;

    args_parse_or_exit(argc, argv, &a, SUMMARY,
                       TMATRIX_SIZE_HELP "\n                  (lesson 05's In depth also runs --size 2048x512)",
                       NULL, 0);
    tmatrix_size_or_exit(&a, 0, &nx, &ny);
    gpu_start(&g, "05_transpose_naive", "Lesson 05 - naive transposes: which side should be strided?", &a);
    if (a.check) return run_checks(&a);

    bytes = (size_t)nx * ny * sizeof(float);
    report_say("\nMatrix %d x %d floats (%d rows of %d) -> its transpose, %d rows of %d; %.0f MiB each way.\n"
               "GB/s counts every element read once and written once.\n",
               nx, ny, ny, nx, nx, ny, bytes / 1048576.0);
    tbench_init(&r.b, &g, &a, nx, ny, TMATRIX_COPY | TMATRIX_TRANSPOSE);
    r.g = &g;
    b = a.bx ? dim3(a.bx, a.by) : dim3(32, 8);

    failed |= experiment_sides(&r, b);
    failed |= experiment_shapes(&r);
    failed |= experiment_hints(&r, b);

    tbench_free(&r.b);
    return gpu_finish_status(failed);
}
