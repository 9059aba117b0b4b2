/* Lesson 06: more loads in flight per thread, and the order in which blocks run.
 *
 * Experiment 1: unrolling.  NaiveRow and NaiveCol where each thread moves 2, 4 or 8 elements that
 * lie blockDim.x apart, issuing all its loads before its first store.  Measured in the same run as
 * copyRow (the "upper bound" of lesson 04) and copyRow unrolled the same way.
 * Experiment 2: block order.  The same naive transposes (and "the orders kernel", the README's
 * name for transpose_col_unroll_order<4>: experiment 1's work per thread without its loop over
 * columns, so 26 registers instead of 40; the rows print it as "NaiveCol x4 ... order"), each block taking one
 * tile of a 1-D grid, with the tiles handed out in four orders: row-major (the hardware's order of a
 * 2-D grid), column-major, along diagonals -- the old cure for "partition camping", with a mapping
 * that is right for rectangular grids -- and in squares of 8 x 8 tiles (block_order.h;
 * tests/test_diagonal.c proves each a bijection and shows that the source's diagonal mapping is not).
 * Then NaiveRow's four orders again, each block stamping the GPU clock as it starts
 * (transpose_row_order_timed): how far out of number order did the blocks start (block_starts.h)?
 * Experiment 3 (the README's Part 3): half-written sectors.  A copy of the matrix whose 32-byte
 * sectors are each written in two 16-byte halves (by two threads, or at 0 KiB by one), with 0 KiB to
 * 64 MiB of output written in between: how long does the L2 keep a half-written sector?  The control writes whole sectors the same distances apart (its
 * 64-byte pieces, and their lines, half written; no sector).  `make profile` shows the DRAM bytes.
 *
 * The kernels and their launchers are in kernels.cuh (with lessons 04 and 05's plain copies and
 * transposes); this file lists them as table rows, verifies, times and prints them (trow_time). */
#include "args.h"
#include "block_order.h"
#include "block_starts.h"
#include "cuda_check.h"
#include "gpu.h"
#include "kernels.cuh"
#include "report.h"
#include "stats.h"
#include "transpose_matrix.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* The program's --help summary. */
static const char SUMMARY[] =
    "Lesson 06: unrolled naive transposes (2, 4, 8 loads in flight per thread) against copyRow, then\n"
    "the order in which blocks take their tiles: row-major, column-major, diagonal, grouped, and when each\n"
    "of NaiveRow's blocks starts (a GPU-clock stamp); then a copy whose sectors stay half written for 0 KiB\n"
    "to 64 MiB of output, against one whose lines do (whole sectors).";

/* ---- the table rows ------------------------------------------------------------------------- */

/* Experiment 1, in the order printed, then experiment 2's kernels, each in the four orders (row-major
 * first: the others are compared with it). */
static const trow_t KERNELS[] = {
    {"copyRow", launch_copy_row, TMATRIX_COPY},
    {"copyRow x4", launch_copy_row_unroll<4>, TMATRIX_COPY},
    {"NaiveRow", launch_transpose_naive_row, TMATRIX_TRANSPOSE},
    {"NaiveRow x2", launch_transpose_row_unroll<2>, TMATRIX_TRANSPOSE},
    {"NaiveRow x4", launch_transpose_row_unroll<4>, TMATRIX_TRANSPOSE},
    {"NaiveRow x8", launch_transpose_row_unroll<8>, TMATRIX_TRANSPOSE},
    {"NaiveCol", launch_transpose_naive_col, TMATRIX_TRANSPOSE},
    {"NaiveCol x2", launch_transpose_col_unroll<2>, TMATRIX_TRANSPOSE},
    {"NaiveCol x4", launch_transpose_col_unroll<4>, TMATRIX_TRANSPOSE},
    {"NaiveCol x8", launch_transpose_col_unroll<8>, TMATRIX_TRANSPOSE},
    {"NaiveRow row-major order", launch_transpose_row_order<ORDER_ROW_MAJOR>, TMATRIX_TRANSPOSE},
    {"NaiveRow col-major order", launch_transpose_row_order<ORDER_COLUMN_MAJOR>, TMATRIX_TRANSPOSE},
    {"NaiveRow diagonal order", launch_transpose_row_order<ORDER_DIAGONAL>, TMATRIX_TRANSPOSE},
    {"NaiveRow grouped order", launch_transpose_row_order<ORDER_GROUPED>, TMATRIX_TRANSPOSE},
    {"NaiveCol row-major order", launch_transpose_col_order<ORDER_ROW_MAJOR>, TMATRIX_TRANSPOSE},
    {"NaiveCol col-major order", launch_transpose_col_order<ORDER_COLUMN_MAJOR>, TMATRIX_TRANSPOSE},
    {"NaiveCol diagonal order", launch_transpose_col_order<ORDER_DIAGONAL>, TMATRIX_TRANSPOSE},
    {"NaiveCol grouped order", launch_transpose_col_order<ORDER_GROUPED>, TMATRIX_TRANSPOSE},
    {"NaiveCol x4 row-major order", launch_transpose_col_unroll_order<4, ORDER_ROW_MAJOR>, TMATRIX_TRANSPOSE},
    {"NaiveCol x4 col-major order", launch_transpose_col_unroll_order<4, ORDER_COLUMN_MAJOR>, TMATRIX_TRANSPOSE},
    {"NaiveCol x4 diagonal order", launch_transpose_col_unroll_order<4, ORDER_DIAGONAL>, TMATRIX_TRANSPOSE},
    {"NaiveCol x4 grouped order", launch_transpose_col_unroll_order<4, ORDER_GROUPED>, TMATRIX_TRANSPOSE},
    {"copy halves 0 KiB apart", launch_copy_halves_apart<1, 0>, TMATRIX_COPY},
    {"copy halves 256 KiB apart", launch_copy_halves_apart<1, 256>, TMATRIX_COPY},
    {"copy halves 1 MiB apart", launch_copy_halves_apart<1, 1024>, TMATRIX_COPY},
    {"copy halves 4 MiB apart", launch_copy_halves_apart<1, 4096>, TMATRIX_COPY},
    {"copy halves 16 MiB apart", launch_copy_halves_apart<1, 16384>, TMATRIX_COPY},
    {"copy halves 64 MiB apart", launch_copy_halves_apart<1, 65536>, TMATRIX_COPY},
    {"copy sectors 0 KiB apart", launch_copy_halves_apart<2, 0>, TMATRIX_COPY},
    {"copy sectors 256 KiB apart", launch_copy_halves_apart<2, 256>, TMATRIX_COPY},
    {"copy sectors 1 MiB apart", launch_copy_halves_apart<2, 1024>, TMATRIX_COPY},
    {"copy sectors 64 MiB apart", launch_copy_halves_apart<2, 65536>, TMATRIX_COPY},
};
#define NKERNELS ((int)(sizeof KERNELS / sizeof KERNELS[0]))
#define NUNROLLED 10   /* experiment 1: the first ten rows */
#define UNROLLED KERNELS
#define ORDERS (KERNELS + NUNROLLED)
#define NORDERS 12   /* experiment 2: the next twelve */
#define HALVES (ORDERS + NORDERS)
#define NHALVES (NKERNELS - NUNROLLED - NORDERS)   /* experiment 3: the rest */
#define NORDER_KINDS 4     /* orders per kernel: row-major, column-major, diagonal, grouped */
#define NORDERED (NORDERS / NORDER_KINDS)   /* kernels measured in every order: NaiveRow, NaiveCol, NaiveCol x4 */
enum { U_COPY = 0, U_COPY_X4 = 1, U_FIRST_TRANSPOSE = 2 };

/* Experiment 2's timed NaiveRow: each launch stamps when each of its blocks started into `started`,
 * one stamp per block of the largest grid launched so far (grown before a larger grid's first launch:
 * cudaFree and cudaMalloc wait for the GPU). */
static unsigned long long *started;
static size_t started_n;

template <int ORDER>
static void launch_row_order_stamped(float *out, const float *in, int nx, int ny, dim3 block, cudaStream_t s)
{
    unsigned gx, gy;
    size_t n;
    tile_grid(nx, ny, block.x, block.y, &gx, &gy);   /* the timed launcher's grid */
    n = (size_t)gx * gy;
    if (n > started_n) {
        if (started) CHECK(cudaFree(started));
        CHECK(cudaMalloc(&started, n * sizeof *started));
        started_n = n;
    }
    launch_transpose_row_order_timed<ORDER>(out, in, nx, ny, block, started, s);
}

static const trow_t STAMPED[] = {
    {"NaiveRow row-major, stamped", launch_row_order_stamped<ORDER_ROW_MAJOR>, TMATRIX_TRANSPOSE},
    {"NaiveRow col-major, stamped", launch_row_order_stamped<ORDER_COLUMN_MAJOR>, TMATRIX_TRANSPOSE},
    {"NaiveRow diagonal, stamped", launch_row_order_stamped<ORDER_DIAGONAL>, TMATRIX_TRANSPOSE},
    {"NaiveRow grouped, stamped", launch_row_order_stamped<ORDER_GROUPED>, TMATRIX_TRANSPOSE},
};
#define NSTAMPED ((int)(sizeof STAMPED / sizeof STAMPED[0]))

static void stamps_free(void)
{
    if (started) CHECK(cudaFree(started));
    started = NULL;
    started_n = 0;
}

/* ---- --check ------------------------------------------------------------------------------- */

/* Every kernel at shapes on both sides of the unrolled tiles' edges (u * blockDim.x = 64 ... 1024
 * columns or rows), with four block shapes; 1x600001 and 600001x1 make gridDim.y hit its cap.  The
 * block orders' tile grids: 545x137 and 137x545 are 18 x 18 tiles of 32x8 threads for NaiveRow (two
 * whole 8 x 8 groups and a partial one in each direction), 1000x777 with 7x5 blocks 143 x 156 tiles
 * (partial groups at both edges), 129x65 5 x 9 (a group narrower than 8 tiles, a band of 1 tile row),
 * and the one-row and one-column shapes grids of one tile row or column. */
static int run_checks(const args_t *a)
{
    static const int shapes[][2] = {{1, 1}, {2, 3}, {3, 2}, {33, 31}, {31, 33}, {127, 9}, {129, 65}, {65, 129},
                                    {257, 31}, {31, 257}, {1025, 3}, {3, 1025}, {545, 137}, {137, 545},
                                    {1000, 777}, {1, 4099}, {4099, 1}, {1, 40009}, {40009, 1}, {1, 600001},
                                    {600001, 1}, {8191, 4097}};
    const dim3 blocks[] = {dim3(32, 8), dim3(16, 16), dim3(7, 5), dim3(128, 2)};
    check_tally_t tally = {0, 0, stdout};

    tcheck_sweep(KERNELS, NKERNELS, shapes, (int)(sizeof shapes / sizeof shapes[0]), 1, blocks, 4, NULL, a, &tally);
    tcheck_sweep(STAMPED, NSTAMPED, shapes, (int)(sizeof shapes / sizeof shapes[0]), 1, blocks, 4, NULL, a, &tally);
    stamps_free();
    return check_summary(&tally);
}

/* ---- the experiments ---------------------------------------------------------------------- */

typedef struct {
    tbench_t b;     /* the matrix with both references: its input (for copies) and its CPU transpose */
    dim3 block;     /* --block (default 32x8)                                                         */
    int copy_ok;    /* experiment 1's copyRow verified; copy its timing, experiment 3's 100%          */
    timing_t copy;
    int sms;        /* the GPU's SMs: a wave of blocks is this many times the blocks one SM holds       */
} run_t;

/* Rows rs[0..n), each verified, then timed (trow_time) and printed with, in the extra column, the
 * speed of a reference as a percentage of its own: the earlier row base[k] <= k, or, when base is
 * NULL, the timing *ref of another experiment's row (NULL: that row failed).  ok[k]: whether rs[k]
 * verified, t[k] its timing.  Returns 1 when any row failed verification. */
static int rows_vs(const run_t *r, const trow_t *rs, const int *base, const timing_t *ref, int n, int *ok,
                   timing_t *t)
{
    int k, failed = 0;
    for (k = 0; k < n; k++) {
        const timing_t *vs;
        ok[k] = trow_time(&r->b, &rs[k], r->block, &t[k]);
        if (!ok[k]) {   /* trow_time has printed its row, without figures */
            failed = 1;
            continue;
        }
        vs = base ? (ok[base[k]] ? &t[base[k]] : NULL) : ref;
        report_row(rs[k].label, &t[k], r->b.bytes, vs ? 100.0 * vs->median_ms / t[k].median_ms : NAN);
    }
    return failed;
}

/* Experiment 1: unrolled transposes against the copies. */
static int experiment_unroll(run_t *r)
{
    static const int vs_copy_row[NUNROLLED] = {U_COPY};   /* every row against copyRow */
    timing_t t[NUNROLLED];
    int ok[NUNROLLED], k, best = -1, failed;
    char take[500];

    report_say("\nExperiment 1: unrolling, blocks %ux%u. xU = U elements per thread, blockDim.x apart, all U loads issued\n"
               "  before the first store. %% copyRow: speed relative to copyRow, lesson 04's one-float-per-thread copy.\n",
               r->block.x, r->block.y);
    report_begin("unroll", "Copies and transposes of the same matrix:", "% copyRow");
    failed = rows_vs(r, UNROLLED, vs_copy_row, NULL, NUNROLLED, ok, t);
    r->copy_ok = ok[U_COPY];
    r->copy = t[U_COPY];
    for (k = U_FIRST_TRANSPOSE; k < NUNROLLED; k++)
        if (ok[k] && (best < 0 || t[k].median_ms < t[best].median_ms)) best = k;
    if (best >= 0 && ok[U_COPY] && ok[U_COPY_X4]) {
        double vs_copy = 100.0 * t[U_COPY].median_ms / t[best].median_ms;
        snprintf(take, sizeof take,
                 "fastest transpose: %s at %.0f%% of copyRow; copyRow x4, unrolled the same way, reaches %.0f%% of "
                 "copyRow: set a transpose beside the copy with the same loads in flight, which is %s.",
                 UNROLLED[best].label, vs_copy,
                 100.0 * t[U_COPY].median_ms / t[U_COPY_X4].median_ms,
                 t[U_COPY_X4].median_ms <= t[best].median_ms ? "still ahead of every transpose" : "behind this transpose");
        report_end(take);
    } else {
        report_end("a kernel failed verification.");
    }
    return failed;
}

/* "col-major (+12.3%)": order o of a kernel whose four timings are kt[], its speed against row-major
 * (kt[0]), marked when the two min-max ranges overlap; "row-major" alone for row-major itself. */
static void order_vs_row_major(char *buf, size_t len, const char *name, const timing_t *kt, int o)
{
    if (o == 0)
        snprintf(buf, len, "%s", name);
    else
        snprintf(buf, len, "%s (%+.1f%%%s)", name, 100.0 * (kt[0].median_ms / kt[o].median_ms - 1.0),
                 stats_ranges_apart(&kt[0], &kt[o]) ? "" : ", inside the min-max ranges: noise");
}

/* Experiment 2, then: NaiveRow's orders with each block stamping its start.  After each row's timed
 * runs, the stamps of its last launch: how many places block b's start was from b-th (block_starts.h),
 * against one wave, the blocks of the grid that fit on the GPU at once. */
static int experiment_starts(run_t *r)
{
    block_start_order_t o[NSTAMPED];
    timing_t t;
    unsigned long long *host;
    unsigned gx, gy, n;
    int per_sm, wave, k, lo = 0, hi = 0, failed = 0;
    unsigned med_lo = UINT_MAX, med_hi = 0, most = 0;
    char take[600];

    tile_grid(r->b.m.nx, r->b.m.ny, r->block.x, r->block.y, &gx, &gy);
    n = gx * gy;
    per_sm = gpu_blocks_per_sm((const void *)transpose_row_order_timed<ORDER_ROW_MAJOR>,
                               (int)(r->block.x * r->block.y));
    wave = per_sm * r->sms;
    host = (unsigned long long *)malloc((size_t)n * sizeof *host);
    if (!host) {
        fprintf(stderr, "out of host memory for %u block stamps\n", n);
        exit(5);
    }
    report_say("\n  The same NaiveRow, each block's first thread first writing the GPU's clock (%%globaltimer, ns) as\n"
               "  the block starts (transpose_row_order_timed). Ranked by those times, block b started r-th: |r - b|\n"
               "  places out of number order (ties in order). A wave, the blocks that fit on the GPU at once: %d\n"
               "  (%d per SM x %d SMs). 99%% within: the 99th percentile of |r - b| in the last timed launch.\n",
               wave, per_sm, r->sms);
    report_begin("starts", "NaiveRow, each block stamping its start:", "99% within");
    for (k = 0; k < NSTAMPED; k++) {
        if (!trow_time(&r->b, &STAMPED[k], r->block, &t)) {
            failed = 1;
            continue;
        }
        CHECK(cudaMemcpy(host, started, (size_t)n * sizeof *host, cudaMemcpyDeviceToHost));
        if (block_start_order(host, n, &o[k])) {
            fprintf(stderr, "out of host memory ranking %u block stamps\n", n);
            exit(5);
        }
        report_row(STAMPED[k].label, &t, r->b.bytes, (double)o[k].p99);
    }
    free(host);
    if (failed) {
        report_end("a kernel failed verification.");
        return 1;
    }
    /* every row verified and ranked: the take-away's extremes */
    for (k = 0; k < NSTAMPED; k++) {
        if (o[k].p99 < o[lo].p99) lo = k;
        if (o[k].p99 > o[hi].p99) hi = k;
        if (o[k].p50 < med_lo) med_lo = o[k].p50;
        if (o[k].p50 > med_hi) med_hi = o[k].p50;
        if (o[k].max > most) most = o[k].max;
    }
    snprintf(take, sizeof take,
             "99%% of the blocks started within %u (%s) to %u (%s) places of their number, against a wave of %d "
             "blocks; the median %u-%u places, the most %u.",
             o[lo].p99, STAMPED[lo].label, o[hi].p99, STAMPED[hi].label, wave, med_lo, med_hi, most);
    report_end(take);
    return 0;
}

/* Experiment 2: the four block orders. */
static int experiment_order(run_t *r)
{
    static const char *order_name[NORDER_KINDS] = {"row-major", "col-major", "diagonal", "grouped"};
    static const char *kernel_name[NORDERED] = {"NaiveRow", "NaiveCol", "NaiveCol x4"};
    static const int vs_row_major[NORDERS] = {0, 0, 0, 0, 4, 4, 4, 4, 8, 8, 8, 8};   /* each kernel's row-major row */
    timing_t t[NORDERS];
    int ok[NORDERS], k, o;
    unsigned gx, gy;
    char take[900];
    size_t len = 0;

    tile_grid(r->b.m.nx, r->b.m.ny, r->block.x, r->block.y, &gx, &gy);   /* NaiveRow's */
    report_say("\nExperiment 2: block order, blocks %ux%u. Each block transposes one tile (NaiveCol x4: one 4 times as\n"
               "  long), a 1-D grid; the tiles are handed out in row-major order (the hardware's order of a 2-D grid),\n"
               "  column-major order (down the columns of tiles), diagonal order, or in squares of %u x %u tiles\n"
               "  (grouped). A tile's x runs along threadIdx.x: across the input's columns for NaiveRow, down its\n"
               "  rows for NaiveCol. So NaiveRow in column-major order and NaiveCol in row-major order both deal out\n"
               "  tiles down the input's columns: the blocks running together write neighbouring pieces of the same\n"
               "  output rows. NaiveRow's grid is %u x %u tiles%s.\n",
               r->block.x, r->block.y, BLOCK_ORDER_GROUP, BLOCK_ORDER_GROUP, gx, gy, gx == gy ? " (square)" : " (rectangular)");
    /* how many tiles the textbook (square-only) mapping reaches here, and why, is exercise 4's question */
    report_say("  Diagonal order uses block_order_diagonal, a bijection for every grid (make test checks it).\n");
    report_begin("order", "Naive transposes, 1-D grid, tiles taken in four orders:", "% row-maj");
    if (rows_vs(r, ORDERS, vs_row_major, NULL, NORDERS, ok, t)) {
        report_end("a kernel failed verification.");
        return 1;
    }
    /* per kernel: the fastest and the slowest order, each against row-major */
    for (k = 0; k < NORDERED; k++) {
        const timing_t *kt = &t[k * NORDER_KINDS];
        int best = 0, worst = 0;
        char fast[100], slow[100];
        for (o = 1; o < NORDER_KINDS; o++) {
            if (kt[o].median_ms < kt[best].median_ms) best = o;
            if (kt[o].median_ms > kt[worst].median_ms) worst = o;
        }
        order_vs_row_major(fast, sizeof fast, order_name[best], kt, best);
        order_vs_row_major(slow, sizeof slow, order_name[worst], kt, worst);
        len += snprintf(take + len, sizeof take - len, "%s%s fastest in %s, slowest in %s", k ? "; " : "", kernel_name[k],
                        fast, slow);
        if (len >= sizeof take) len = sizeof take - 1;
    }
    snprintf(take + len, sizeof take - len, ".");
    report_end(take);
    return experiment_starts(r);
}

/* Experiment 3: each sector (the control: each 64-byte piece) written in two halves, 0 KiB to 64 MiB of
 * output apart. */
static int experiment_halves(run_t *r)
{
    timing_t t[NHALVES];
    int ok[NHALVES];
    char take[600];

    report_say("\nExperiment 3 (README, In depth's Part 3): half-written sectors, blocks of %u threads. A copy of the matrix in\n"
               "  32-byte pieces (copy halves): a thread copies the first 16-byte half of one piece and the second\n"
               "  half of the piece 0 KiB to 64 MiB of output earlier, so each sector stays half written that long\n"
               "  (at 0 KiB one thread writes both halves, one store after the other). A warp's 32 lanes store 32\n"
               "  bytes apart: each request writes half of 32 sectors. Control (copy sectors): 64-byte pieces whose\n"
               "  halves are whole sectors, written by two lanes in one request, the same distances apart: lines\n"
               "  stay half written, sectors never. The input is read the same way. %% copyRow: against experiment\n"
               "  1's copyRow. make profile shows the DRAM bytes each row moves.\n",
               r->block.x * r->block.y);
    report_begin("halves", "Copies, each piece written in two halves:", "% copyRow");
    if (rows_vs(r, HALVES, NULL, r->copy_ok ? &r->copy : NULL, NHALVES, ok, t)) {
        report_end("a kernel failed verification.");
        return 1;
    }
    /* the rows: halves 0 KiB, 256 KiB, 1, 4, 16, 64 MiB apart; sectors 0 KiB, 256 KiB, 1, 64 MiB apart */
    snprintf(take, sizeof take,
             "against 0 KiB apart, half sectors took %.2fx the time 256 KiB apart, %.2fx 1 MiB, %.2fx 4 MiB, %.2fx 16 MiB "
             "and %.2fx 64 MiB apart; whole sectors %.2fx, %.2fx and %.2fx at 256 KiB, 1 MiB and 64 MiB.",
             t[1].median_ms / t[0].median_ms, t[2].median_ms / t[0].median_ms, t[3].median_ms / t[0].median_ms,
             t[4].median_ms / t[0].median_ms, t[5].median_ms / t[0].median_ms, t[7].median_ms / t[6].median_ms,
             t[8].median_ms / t[6].median_ms, t[9].median_ms / t[6].median_ms);
    report_end(take);
    return 0;
}

/* The order kernels' 1-D grid, tiles of `block` over fast x slow elements, exceeds gridDim.x's limit. */
static int order_grid_too_large(int fast, int slow, dim3 block)
{
    return (size_t)div_up(fast, block.x) * div_up(slow, block.y) > (size_t)INT_MAX;
}

/* ---- main ----------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    args_t a;
    gpu_info_t g;
    run_t r;
    int nx, ny, failed = 0, l2_fetch = 0;
    size_t bytes;
    dim3 block;
    lesson_opt_t opts[] = {
        {"--l2-fetch", OPT_INT, &l2_fetch, 1, 1024, "B",
         "set cudaLimitMaxL2FetchGranularity to 32, 64 or 128 bytes first (a hint: the most the L2\n"
         "                  may fetch from DRAM on a miss; lesson 01)"},
    };

    args_parse_or_exit(argc, argv, &a, SUMMARY, TMATRIX_SIZE_HELP, opts, 1);
    args_check_l2_fetch(l2_fetch);
    tmatrix_size_or_exit(&a, 0, &nx, &ny);
    block = a.bx ? dim3(a.bx, a.by) : dim3(32, 8);
    if (order_grid_too_large(nx, ny, block) || order_grid_too_large(ny, nx, block)) {
        const char *opt = a.bx ? "--block" : "--size";
        args_reject("bad %s '%s': the 1-D grid of the block-order kernels would need more than 2^31 - 1 blocks of %ux%u",
                    opt, args_raw_value(argc, argv, opt), block.x, block.y);
    }
    gpu_start(&g, "06_unroll_diagonal", "Lesson 06 - loads in flight and block order", &a);
    if (a.check) return run_checks(&a);
    if (l2_fetch)   /* before the copy's ceiling is measured: every row of the run uses it */
        report_say("L2 fetch granularity: %zu B (--l2-fetch; cudaLimitMaxL2FetchGranularity, a hint)\n",
                   gpu_l2_fetch(l2_fetch));

    tbench_init(&r.b, &g, &a, nx, ny, TMATRIX_COPY | TMATRIX_TRANSPOSE);
    r.block = block;
    r.copy_ok = 0;
    r.sms = g.sms;

    bytes = r.b.m.n * sizeof(float);
    report_say("\nMatrix %d x %d floats (%d rows of %d), %.0f MiB each way; GB/s counts every element read once and\n"
               "written once. cudaMemcpy D2D of the matrix: %.0f GB/s (%.1f%% of the peak), the 100%% of %%D2D.\n",
               nx, ny, ny, nx, bytes / 1048576.0, r.b.d2d_gbs, 100.0 * r.b.d2d_gbs / g.peak_gbs);

    failed |= experiment_unroll(&r);
    failed |= experiment_order(&r);
    failed |= experiment_halves(&r);

    stamps_free();
    tbench_free(&r.b);
    return gpu_finish_status(failed);
}
