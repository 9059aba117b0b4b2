/* Lesson 07, part 1: shared memory as a corner-turn buffer -- the tiled transpose.
 *
 * A transpose reads the input along rows and writes the output along columns (or the other way
 * round): one of the two sides is always strided, and a strided warp pays a 32-byte sector for
 * every 4 useful bytes (lessons 02 and 05).  A block can fix both sides at once: it reads a square
 * tile with coalesced rows into shared memory, waits for the whole tile (__syncthreads), and
 * writes the tile back with coalesced rows of the output, each thread now fetching the element
 * another thread loaded.  Shared memory does not care about the order, as long as the 32 lanes of
 * a warp hit 32 different banks.  The kernels are in kernels.cuh; this file verifies, times and
 * prints them.
 *
 * Experiment 1: the source's mistake.  Staging every element through shared memory and reading
 * back the thread's own slot re-arranges nothing: the global accesses stay exactly those of the
 * naive transpose.  Against it, the real tile transpose with the same 32x32 threads.
 * Experiment 2: bank conflicts.  A [32][32] tile read along a column puts all 32 lanes in one
 * bank; one column of padding ([32][33]) spreads them over all 32.
 * Experiment 3: tile and block shape: 32x32 tiles moved by 32x8 threads (4 elements each) or 32x32
 * threads (1 each), 16x16 tiles, 64x64 tiles; and the 32x32 (32x8 threads) and 64x64 tiles again
 * with their tiles dealt out down the columns of tiles (lesson 06's column-major order, "col-wise").
 * Experiment 4: each tile's copy twin (copy_tile): the same blocks and global accesses without the
 * corner turn, with and without the barrier, to split a tile's gap to the copy between the two.
 * Experiment 5 (default size only): the same padded tile at 8191 x 4097, where rows are not
 * multiples of anything -- the question lesson 08 takes up -- in both orders.
 *
 * Part 2 of the lesson (sgemm_tiled.cu) uses tiles for reuse instead. */
#include "args.h"
#include "banks.h"
#include "gpu.h"
#include "kernels.cuh"
#include "report.h"
#include "stats.h"
#include "transpose_matrix.h"

#include <math.h>
#include <stdio.h>

/* The program's --help summary. */
static const char SUMMARY[] =
    "Lesson 07, part 1: shared memory as a corner-turn buffer. Transposes an NY x NX matrix (NY rows of\n"
    "NX floats) with a same-slot kernel, tiles with and without padding, and several tile and\n"
    "block shapes; every kernel is verified against the CPU before it is timed.";

/* ---- the rows the tables measure ---------------------------------------------------------- */

/* Every kernel grids over ceil(nx / tile) x ceil(ny / tile) blocks (the naive kernel: grid_2d);
 * gridDim.y <= 65535 and the smallest tile is 8, hence main's row limit (tmatrix_size_or_exit
 * with 8 rows a block; its column limit keeps c0 + tx and the like inside an int).  Each row's
 * launcher is its kernel's (kernels.cuh; the naive one is lesson 05's NaiveRow with 32 x 32 threads,
 * as in lesson 05's tables), launched with the row's bx x by threads: the naive and the same-slot
 * kernels take any block, the tiles fix their own (T x R, the same bx x by).  The "col-wise" rows are
 * the same tiles on a 1-D grid whose blocks take the tiles down the columns of tiles
 * (transpose_tile_col_order); their labels leave out the [T][P] to fit the table with " @odd". */
typedef struct {
    trow_t r;        /* label (table, --check, the NVTX range `make profile` names it by), launcher, reference */
    int tile;        /* elements per block side                                                   */
    int bx, by;      /* threads per block                                                         */
    int pitch;       /* row pitch of the shared tile in floats, 0 = none                          */
    int same_slot;   /* both phases use tile[ty][tx]                                              */
} row_t;

enum { NAIVE, SAME32, SAME8, T32x8_NP, T32x8_P, T32x32_NP, T32x32_P, T16x16_P, T16x4_P, T64x4_P, T32x8_P_COL, T64x4_P_COL,
       C32x8, C32x8_SYNC, C32x32, C32x32_SYNC, C64x4, C64x4_SYNC, N_ROWS };
static const row_t ROWS[N_ROWS] = {
    {{"NaiveRow 32x32", launch_transpose_naive_row, TMATRIX_TRANSPOSE}, 32, 32, 32, 0, 0},
    {{"smem same slot 32x32", launch_transpose_smem_same_slot, TMATRIX_TRANSPOSE}, 32, 32, 32, 32, 1},
    {{"smem same slot 8x8", launch_transpose_smem_same_slot, TMATRIX_TRANSPOSE}, 8, 8, 8, 32, 1},
    {{"tile32 thr32x8 [32][32]", launch_transpose_tile<32, 8, 32>, TMATRIX_TRANSPOSE}, 32, 32, 8, 32, 0},
    {{"tile32 thr32x8 [32][33]", launch_transpose_tile<32, 8, 33>, TMATRIX_TRANSPOSE}, 32, 32, 8, 33, 0},
    {{"tile32 thr32x32 [32][32]", launch_transpose_tile<32, 32, 32>, TMATRIX_TRANSPOSE}, 32, 32, 32, 32, 0},
    {{"tile32 thr32x32 [32][33]", launch_transpose_tile<32, 32, 33>, TMATRIX_TRANSPOSE}, 32, 32, 32, 33, 0},
    {{"tile16 thr16x16 [16][17]", launch_transpose_tile<16, 16, 17>, TMATRIX_TRANSPOSE}, 16, 16, 16, 17, 0},
    {{"tile16 thr16x4 [16][17]", launch_transpose_tile<16, 4, 17>, TMATRIX_TRANSPOSE}, 16, 16, 4, 17, 0},
    {{"tile64 thr64x4 [64][65]", launch_transpose_tile<64, 4, 65>, TMATRIX_TRANSPOSE}, 64, 64, 4, 65, 0},
    {{"tile32 thr32x8 col-wise", launch_transpose_tile_col_order<32, 8, 33>, TMATRIX_TRANSPOSE}, 32, 32, 8, 33, 0},
    {{"tile64 thr64x4 col-wise", launch_transpose_tile_col_order<64, 4, 65>, TMATRIX_TRANSPOSE}, 64, 64, 4, 65, 0},
    {{"copy tile32 thr32x8", launch_copy_tile<32, 8, 0, 8>, TMATRIX_COPY}, 32, 32, 8, 0, 0},
    {{"copy tile32 thr32x8 +sync", launch_copy_tile<32, 8, 1, 8>, TMATRIX_COPY}, 32, 32, 8, 0, 0},
    {{"copy tile32 thr32x32", launch_copy_tile<32, 32, 0, 2>, TMATRIX_COPY}, 32, 32, 32, 0, 0},
    {{"copy tile32 thr32x32 +sync", launch_copy_tile<32, 32, 1, 2>, TMATRIX_COPY}, 32, 32, 32, 0, 0},
    {{"copy tile64 thr64x4", launch_copy_tile<64, 4, 0, 6>, TMATRIX_COPY}, 64, 64, 4, 0, 0},
    {{"copy tile64 thr64x4 +sync", launch_copy_tile<64, 4, 1, 6>, TMATRIX_COPY}, 64, 64, 4, 0, 0},
};

static dim3 block_of(const row_t *v) { return dim3(v->bx, v->by); }

/* Worst passes per warp instruction over the kernel's shared-memory accesses (banks.h). */
static double smem_ways(const row_t *v)
{
    int st, ld;
    if (!v->pitch) return 0.0;
    st = tile_smem_wavefronts(v->bx, v->by, v->pitch, PHASE_STORE_ROW);
    ld = v->same_slot ? st : tile_smem_wavefronts(v->bx, v->by, v->pitch, PHASE_LOAD_COLUMN);
    return st > ld ? st : ld;
}

static double elems_per_thread(const row_t *v) { return (double)(v->tile * v->tile) / (v->bx * v->by); }

/* ---- --check ------------------------------------------------------------------------------- */

/* Every row, with its own block, on poisoned output at the odd shapes of transpose_matrix.h
 * (8191x4097 only without --quick), then at the size given with --size, if any: one fresh random
 * matrix per shape, one PASS/FAIL line per row (trow_check). */
static int run_checks(const args_t *a, int nx, int ny)
{
    const int nodd = TMATRIX_N_CHECK_SHAPES - (a->quick ? 1 : 0);   /* the last, 8191x4097, is big */
    const int *big = TMATRIX_CHECK_SHAPES[TMATRIX_N_CHECK_SHAPES - 1];
    check_tally_t tally = {0, 0, stdout};
    size_t most = tmatrix_bytes(big[0], big[1]);
    char size[64];
    int s, k;
    if (a->nx && tmatrix_bytes(nx, ny) > most) most = tmatrix_bytes(nx, ny);
    gpu_require_bytes(most, "the largest input and output matrices --check uses");
    for (s = 0; s < nodd + (a->nx ? 1 : 0); s++) {
        tmatrix_t m;
        tmatrix_init(&m, s < nodd ? TMATRIX_CHECK_SHAPES[s][0] : nx, s < nodd ? TMATRIX_CHECK_SHAPES[s][1] : ny,
                     a->seed, TMATRIX_COPY | TMATRIX_TRANSPOSE);   /* experiment 4's twins are copies */
        snprintf(size, sizeof size, "%dx%d", m.nx, m.ny);
        for (k = 0; k < N_ROWS; k++) trow_check(&m, &ROWS[k].r, block_of(&ROWS[k]), size, &tally);
        tmatrix_free(&m);
    }
    return check_summary(&tally);
}

/* ---- the experiments ---------------------------------------------------------------------- */

/* One table: the copy's row when with_d2d, then the rows rs[], each verified on poisoned output,
 * then timed (trow_measure; a kernel that failed gets no figures).  gbs[k] is the GB/s of rs[k], 0
 * when it failed.  suffix is appended to every label (the table row, the CSV row and the NVTX range
 * `make profile` names the kernel by), so that a kernel measured at a second size gets rows of its
 * own.  The caller ends the table with its takeaway (report_end).  Returns the number of failures. */
static int run_table(const tbench_t *b, const char *experiment, const char *title, const char *extra_name,
                     double (*extra)(const row_t *), int with_d2d, const int *rs, int nr, const char *suffix,
                     double *gbs, timing_t *times)
{
    timing_t t;
    char label[64];
    int k, failed = 0;
    report_begin(experiment, title, extra_name);
    if (with_d2d) report_row("cudaMemcpy D2D", &b->t_d2d, b->bytes, extra_name ? 0.0 : NAN);
    for (k = 0; k < nr; k++) {
        const row_t *v = &ROWS[rs[k]];
        trow_t r = v->r;
        snprintf(label, sizeof label, "%s%s", v->r.label, suffix);
        r.label = label;
        if (trow_measure(b, &r, block_of(v), extra ? extra(v) : NAN, &t)) {
            gbs[k] = stats_gbs(b->bytes, t.median_ms);
            if (times) times[k] = t;
        } else {
            gbs[k] = 0.0;
            failed++;
        }
    }
    return failed;
}

static double pct_of(double gbs, double ref) { return ref > 0 ? 100.0 * gbs / ref : 0.0; }

/* Experiment 1: the same-slot mistake next to the naive kernel and the real tile transpose. */
static int experiment_mistake(const tbench_t *b)
{
    const int rs[] = {NAIVE, SAME32, SAME8, T32x32_P};
    double gbs[4];
    char take[320];
    int failed;
    report_say("\nExperiment 1: a shared-memory transpose that reads back its own slot.\n"
               "  Every row of this table reads the input along rows. The naive kernel and the same-slot kernel\n"
               "  store each element to its transposed address directly (a column: 32 sectors per warp store);\n"
               "  the tile kernel stores rows of the output, each thread writing an element another loaded.\n");
    failed = run_table(b, "mistake", "  One element per thread; GB/s = (bytes read + bytes written) / time:", "smem ways",
                       smem_ways, 1, rs, 4, "", gbs, NULL);
    if (gbs[0] > 0 && gbs[1] > 0 && gbs[3] > 0)
        snprintf(take, sizeof take,
                 "the same-slot kernel runs at %.0f%% of the naive kernel: its global accesses are the naive kernel's. "
                 "Reading another thread's element (the tile) makes the stores coalesced: %.1fx the naive kernel.",
                 pct_of(gbs[1], gbs[0]), gbs[3] / gbs[0]);
    else
        snprintf(take, sizeof take, "a kernel failed verification: no comparison.");
    report_end(take);
    return failed;
}

/* Experiment 2: the same tile kernels with and without one column of padding. */
static int experiment_banks(const tbench_t *b)
{
    const int rs[] = {T32x8_NP, T32x8_P, T32x32_NP, T32x32_P};
    double gbs[4];
    char take[320];
    int failed;
    report_say("\nExperiment 2: bank conflicts. The write phase reads a column of the tile: lane tx reads word\n"
               "  tx * P + j. With P = 32 that is bank j for all 32 lanes (%d passes), with P = 33 bank tx + j (%d pass).\n"
               "  'smem ways' is the worst number of passes of a warp's shared-memory access, from the bank arithmetic;\n"
               "  `make profile` measures the conflicts (smem ld/st confl).\n",
               tile_smem_wavefronts(32, 8, 32, PHASE_LOAD_COLUMN), tile_smem_wavefronts(32, 8, 33, PHASE_LOAD_COLUMN));
    failed = run_table(b, "banks", "  32x32 tiles, unpadded [32][32] and padded [32][33]:", "smem ways", smem_ways, 0, rs,
                       4, "", gbs, NULL);
    if (gbs[0] > 0 && gbs[1] > 0 && gbs[2] > 0 && gbs[3] > 0)
        snprintf(take, sizeof take,
                 "one column of padding: %.2fx faster with 32x8 threads, %.2fx with 32x32 threads, for %d bytes more "
                 "shared memory per block.", gbs[1] / gbs[0], gbs[3] / gbs[2], 32 * 4);
    else
        snprintf(take, sizeof take, "a kernel failed verification: no comparison.");
    report_end(take);
    return failed;
}

/* Experiment 3: tile size and threads per tile, then the 32x32 and 64x64 tiles in column-wise order.
 * Returns failures; *pct_classic gets the padded 32x32 tile with 32x8 threads as % of the copy (for
 * the goal and experiment 5); tile_gbs the GB/s of the three tiles experiment 4 twins. */
static int experiment_shapes(const tbench_t *b, double *pct_classic, double tile_gbs[3])
{
    const int rs[] = {T32x8_P, T32x32_P, T16x16_P, T16x4_P, T64x4_P, T32x8_P_COL, T64x4_P_COL};
    enum { NR = sizeof rs / sizeof rs[0], R32 = 0, R32x32 = 1, R64 = 4, C32 = 5, C64 = 6 };
    double gbs[NR];
    timing_t times[NR];
    char take[800], cols[320], tied[200], who[240] = "";
    const char *labels[NR];
    int ok[NR];
    int failed, k, best = 0;
    report_say("\nExperiment 3: tile and block shape (all padded). More elements per thread means more loads in\n"
               "  flight per thread before the barrier; a bigger tile means longer coalesced runs and fewer\n"
               "  barriers per byte, but fewer blocks fit on an SM. The 'col-wise' rows are the same 32x32 (32x8\n"
               "  threads) and 64x64 tiles with the blocks taking the tiles down the columns of tiles instead of\n"
               "  along the rows (a 1-D grid, lesson 06's column-major order): the blocks in flight then write\n"
               "  neighbouring pieces of the same output rows, and read scattered input rows.\n");
    failed = run_table(b, "shapes", "  Padded tiles; 'elem/thread' = elements each thread moves:", "elem/thread",
                       elems_per_thread, 0, rs, NR, "", gbs, times);
    for (k = 1; k < NR; k++)
        if (gbs[k] > gbs[best]) best = k;
    /* the rows whose min-max range overlaps the fastest one's: as fast, as far as this run can tell */
    for (k = 0; k < NR; k++) {
        labels[k] = ROWS[rs[k]].r.label;
        ok[k] = gbs[k] > 0;
    }
    if (gbs[best] > 0 && stats_tied_labels(tied, sizeof tied, times, ok, labels, NR, best))
        snprintf(who, sizeof who, " (tied, min-max ranges overlapping: %s)", tied);
    cols[0] = '\0';
    if (gbs[R32] > 0 && gbs[C32] > 0 && gbs[R64] > 0 && gbs[C64] > 0) {
        /* a pair tests the order only if both kernels fit as many blocks on an SM (their registers may
         * differ and still round to the same allocation) */
        int r32 = gpu_blocks_per_sm((const void *)transpose_tile<32, 8, 33>, 32 * 8),
            c32 = gpu_blocks_per_sm((const void *)transpose_tile_col_order<32, 8, 33>, 32 * 8),
            r64 = gpu_blocks_per_sm((const void *)transpose_tile<64, 4, 65>, 64 * 4),
            c64 = gpu_blocks_per_sm((const void *)transpose_tile_col_order<64, 4, 65>, 64 * 4);
        size_t used = (size_t)snprintf(cols, sizeof cols, " Column-wise order: 32x32 tiles %.1f%% -> %.1f%%",
                                       pct_of(gbs[R32], b->d2d_gbs), pct_of(gbs[C32], b->d2d_gbs));
        if (r32 != c32 && used < sizeof cols)
            used += (size_t)snprintf(cols + used, sizeof cols - used,
                                     " (%d against %d blocks per SM: not an order test)", r32, c32);
        if (used < sizeof cols)
            used += (size_t)snprintf(cols + used, sizeof cols - used, ", 64x64 tiles %.1f%% -> %.1f%%",
                                     pct_of(gbs[R64], b->d2d_gbs), pct_of(gbs[C64], b->d2d_gbs));
        if (r64 != c64 && used < sizeof cols)
            used += (size_t)snprintf(cols + used, sizeof cols - used,
                                     " (%d against %d blocks per SM: not an order test)", r64, c64);
        if (used < sizeof cols) snprintf(cols + used, sizeof cols - used, " of the copy.");
    }
    if (gbs[best] > 0)
        snprintf(take, sizeof take,
                 "fastest here: %s at %.0f%% of the copy%s; 32x32 tiles with 4 elements per thread reach %.0f%%, "
                 "with 1 element per thread %.0f%%.%s", ROWS[rs[best]].r.label, pct_of(gbs[best], b->d2d_gbs), who,
                 pct_of(gbs[0], b->d2d_gbs), pct_of(gbs[1], b->d2d_gbs), cols);
    else
        snprintf(take, sizeof take, "every kernel failed verification.");
    report_end(take);
    *pct_classic = pct_of(gbs[0], b->d2d_gbs);
    tile_gbs[0] = gbs[R32];
    tile_gbs[1] = gbs[R32x32];
    tile_gbs[2] = gbs[R64];
    return failed;
}

/* Experiment 4: each of three tiles against its copy twin (copy_tile), without and with the barrier:
 * copy -> +sync is what waiting for the whole block costs, +sync -> the tile (experiment 3's row)
 * the corner turn.  tile_gbs: experiment 3's GB/s of the three tiles, in the order of the pairs. */
static int experiment_twins(const tbench_t *b, const double tile_gbs[3])
{
    const int rs[] = {C32x8, C32x8_SYNC, C32x32, C32x32_SYNC, C64x4, C64x4_SYNC};
    static const char *const names[3] = {"32x32 tile, 32x8 threads", "32x32 tile, 32x32 threads", "64x64 tile, 64x4 threads"};
    enum { NR = sizeof rs / sizeof rs[0] };
    double gbs[NR];
    char take[600];
    int failed, k, n = 0;
    report_say("\nExperiment 4: each tile's copy twin. The same blocks, the same loads issued before any store and\n"
               "  the same coalesced stores, but no corner turn: each thread stores what it loaded, where it was\n"
               "  (a copy). '+sync' passes the values through shared memory and a __syncthreads(), as the tile\n"
               "  does, so no store of a block starts before all its loads have arrived. %% of the copy: of cudaMemcpy.\n");
    failed = run_table(b, "twins", "  Copies shaped like the tiles; 'elem/thread' = elements each thread moves:", "elem/thread",
                       elems_per_thread, 0, rs, NR, "", gbs, NULL);
    n = snprintf(take, sizeof take, "%% of the copy, copy -> +sync -> the tile (experiment 3):");
    for (k = 0; k < 3 && n < (int)sizeof take; k++) {
        if (gbs[2 * k] > 0 && gbs[2 * k + 1] > 0 && tile_gbs[k] > 0)
            n += snprintf(take + n, sizeof take - n, "%s %s %.1f -> %.1f -> %.1f", k ? ";" : "", names[k],
                          pct_of(gbs[2 * k], b->d2d_gbs), pct_of(gbs[2 * k + 1], b->d2d_gbs),
                          pct_of(tile_gbs[k], b->d2d_gbs));
        else
            n += snprintf(take + n, sizeof take - n, "%s %s: a kernel failed", k ? ";" : "", names[k]);
    }
    report_end(take);
    return failed;
}

/* Experiment 5: the padded 32x32 tile at an odd size, in both orders, with the copy at that size. */
static int experiment_odd(const gpu_info_t *g, const args_t *a, int nx, int ny, double pct_default, int dnx, int dny)
{
    tbench_t b;
    const int rs[] = {T32x8_P, T32x8_P_COL};
    double gbs[2];
    char take[500], title[160], col[120];
    int failed;
    report_say("\nExperiment 5: the same padded tile kernel at %d x %d: no dimension is a multiple of the tile, and\n"
               "  most rows of %d floats start at addresses that are not multiples of 16 or 32 bytes; in row-major and\n"
               "  in column-wise order.\n", nx, ny, nx);
    tbench_init(&b, g, a, nx, ny, TMATRIX_TRANSPOSE);
    snprintf(title, sizeof title, "  %d x %d, against the copy of the same bytes:", nx, ny);
    /* " @odd": the 8192 x 8192 rows already carry the kernels' plain labels */
    failed = run_table(&b, "odd", title, NULL, NULL, 1, rs, 2, " @odd", gbs, NULL);
    if (gbs[1] > 0)
        snprintf(col, sizeof col, "; in column-wise order %.0f%%", pct_of(gbs[1], b.d2d_gbs));
    else
        col[0] = '\0';
    if (gbs[0] > 0)
        snprintf(take, sizeof take,
                 "at %dx%d the padded tile reaches %.0f%% of the copy (%.0f%% at %dx%d)%s; the runs --size %dx%d "
                 "(only the output rows misaligned) and --size %dx%d (only the input rows) split the cost; "
                 "lesson 08 asks which side to fix.", nx, ny, pct_of(gbs[0], b.d2d_gbs), pct_default,
                 dnx, dny, col, nx + 1, ny, nx, ny - 1);
    else
        snprintf(take, sizeof take, "the kernel failed verification.");
    report_end(take);
    tbench_free(&b);
    return failed;
}

/* ---- main ----------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    args_t a;
    gpu_info_t g;
    tbench_t b;
    int nx, ny, failed = 0;
    double pct_classic = 0.0, tile_gbs[3] = {0.0, 0.0, 0.0};

    args_configure(0, "--block", NULL);  /* every kernel of this lesson fixes its own block shape (experiment 3 compares them) */
    args_parse_or_exit(argc, argv, &a, SUMMARY,
                       "matrix NXxNY: NX columns, NY rows (default 8192x8192, 2048x2048 with --quick); N means NxN",
                       NULL, 0);
    tmatrix_size_or_exit(&a, 8, &nx, &ny);   /* 32 x 8 threads: a block per 8 rows */
    gpu_start(&g, "07_shared_tiled",
              "Lesson 07, part 1 - the tiled transpose: shared memory as a corner-turn buffer", &a);
    if (a.check) return run_checks(&a, nx, ny);

    report_say("\nMatrix %d x %d floats (%.0f MiB in, %.0f MiB out).\n", nx, ny, (double)nx * ny * 4 / 1048576.0,
               (double)nx * ny * 4 / 1048576.0);
    /* the largest matrices of the run: experiment 5's are smaller */
    tbench_init(&b, &g, &a, nx, ny, TMATRIX_COPY | TMATRIX_TRANSPOSE);
    failed |= experiment_mistake(&b) != 0;
    failed |= experiment_banks(&b) != 0;
    failed |= experiment_shapes(&b, &pct_classic, tile_gbs) != 0;
    failed |= experiment_twins(&b, tile_gbs) != 0;
    report_say("\nThe padded 32x32 tile with 32x8 threads: %.1f%% of cudaMemcpy D2D (the classic tile; the root README's\n"
               "  \"Two memory systems\" compares it on two GPUs).\n", pct_classic);
    tbench_free(&b);

    if (!a.nx) {
        int onx = a.quick ? 2047 : 8191, ony = a.quick ? 1025 : 4097;
        failed |= experiment_odd(&g, &a, onx, ony, pct_classic, nx, ny) != 0;
    }
    return gpu_finish_status(failed);
}
