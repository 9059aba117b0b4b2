/* Lesson 08: register tiles -- each thread moves a small block of the matrix through registers
 * with vector loads and stores -- and 64x64 tiles with vector accesses, for any size.
 *
 * Experiment 1: register tiles as a published transpose study wrote them.  A thread loads a 4x4 block as four float4 rows,
 * transposes it in registers and stores four float4 rows of the output: (1) "direct", each output
 * float4 built from four scalar loads straight out of global memory; (2) "rowwise", the four rows
 * loaded as float4 and each output row stored as soon as it is built; (3) "load-all", everything
 * loaded, everything built, then everything stored.  Then block shapes 8x4, 8x8, 16x16, 32x32 and
 * 32x2, and 32x2 again with its stores rearranged through shared memory into whole sectors ("swap
 * halves": is the half-filled sector what slows the 32-wide warps?), and 4x16: a warp store across 4
 * output rows of 128 bytes instead of 8x8's 8 rows of 64 (do fewer rows per store help?).  The float2
 * 2x2 version is the exercise (exercise.cu, `make exercise`).  The "st sect/req" column is the number
 * of 32-byte sectors one warp's store touches, from the warp's shape.
 * Experiment 2: the fastest transpose against the copy: cudaMemcpy, lesson 04's float4 copy kernel
 * with one block per 4 KiB (the form that matched cudaMemcpy there), cublasSgeam used as a
 * transpose, and the candidates -- 64x64 shared tiles with float4 accesses, the same kernel with
 * its vectors switched off (the work of lesson 07's 64x64 tile), a 64x64 tile whose float4 stores
 * are aligned at any size, the scalar and the aligned tiles again with their blocks dealt out in
 * bands of 32 tile rows ("banded": the DRAM pages each side touches at one moment), the aligned
 * tile column by column ("col-wise": lesson 06's column-major order), a 64x64 tile with float4 on
 * every side of an XOR-swizzled shared tile in both orders (and once unswizzled), and the best
 * register tile -- at 8192 x 8192.
 * Experiment 3 (default size only): Experiment 2 again at 8191 x 4097, where no row is aligned.
 * Then the race's result, as ratios from this run.
 * Experiment 4 (In depth; only with --split): the float4 step split in two.  "tile64 float4 ld+st"
 * differs from "tile64 vec off ld+st" in its lanes (each thread a float4 chunk of 4 columns) and in
 * its access width (16 bytes); "tile64 f4 lanes 4B glob" has the float4 lanes with 4-byte global
 * accesses, so vec off -> f4 lanes is the layout and f4 lanes -> float4 the width.  With the swizzled
 * tile's own width split (swizzle 4B glob -> swizzle f4) beside it.
 * Experiment 5 (In depth; only with --twin): the register tile against its copy twin, lesson 07's
 * design: "f4 4x4 copy twin 8x8" has rowwise 8x8's blocks, threads and loads, and stores each 4x4
 * block where it found it (a copy), so the transpose's stores are the one thing it lacks.
 *
 * The kernels are in kernels.cuh; this file verifies, times and prints them. */
#include "args.h"
#include "bench.h"
#include "../07_shared_tiled/cublas_check.h"   /* launch_cublas_sgeam */
#include "cuda_check.h"
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
    "Lesson 08: register tiles. Transposes an NY x NX matrix with per-thread float4 4x4 blocks,\n"
    "then races 64x64 shared tiles (vector accesses, three block orders) against cudaMemcpy, a float4\n"
    "copy kernel and cublasSgeam, at 8192x8192 and 8191x4097. Every kernel is verified before it is timed.\n"
    "--split: only the In depth experiment splitting the float4 step into its lane layout and its width.\n"
    "--twin: only the In depth experiment racing the register tile against its copy twin.";

/* ---- the rows the tables measure ---------------------------------------------------------- */

typedef struct {
    trow_t r;        /* label (table row, CSV, the NVTX range `make profile` names it by), launcher, reference */
    int v, bx, by;   /* register tiles: v x v floats per thread, bx x by threads; v = 0 otherwise             */
    double st_sect;  /* sectors per store request where the warp's shape does not give them (0: it does)      */
} row_t;

/* The launchers are kernels.cuh's, and for two rows lesson 04's or cuBLAS's; one more row needs a word:
 *   "f4 x1 one pass": lesson 04's one-pass float4 copy (copy_f4_x1 with 256-thread blocks, a block
 *     per 4 KiB), the copy the transposes race.  Its grid is tens of thousands of short blocks that the
 *     block scheduler hands out in address order, so at any moment the bytes in flight lie in one
 *     window a few MiB wide; lesson 04 measured it at cudaMemcpy's speed on the H100 (100.0%), the
 *     grid-stride form at 93%, and 1 to 8 float4 per thread all at 99-100%: so 1 it is.
 *   "cublasSgeam (op T)": the library's answer (07_shared_tiled/cublas_check.h says how the row-major
 *     matrices map onto its column-major C = alpha op(A) + beta op(B)).
 *   "tile64 vec off ld+st" is this lesson's tile64 float4 kernel with its vectors switched off: the
 *     work of lesson 07's "tile64 thr64x4 [64][65]", but the same compiled kernel as its float4 and
 *     banded twins (kernels.cuh says why that matters).
 *   "col-wise": the same kernel with its blocks taking the tiles column by column (T64_COLUMNWISE,
 *     a band as tall as the matrix).
 *   "tile64 f4 no swizzle": "tile64 swizzle f4" with its swizzle switched off (SWIZZLE = false),
 *     the row that measures the 8-way shared-store conflict the swizzle removes (kernels.cuh).
 *   "tile64 swizzle 4B glob": "tile64 swizzle f4" with its global loads and stores one float at a
 *     time (F4_GLOBAL = false): the row that measures what the 16-byte global width alone is worth.
 *   "tile64 f4 lanes 4B glob": "tile64 float4 ld+st" with each 16-byte global access made as four
 *     4-byte ones (F4_GLOBAL = false): experiment 4 (--split) only.
 *   "f4 4x4 copy twin 8x8": rowwise 8x8's blocks and loads, each 4x4 block stored where it was (a
 *     copy; its stores 4 rows of 128 bytes, 16 whole sectors): experiment 5 (--twin) only.
 * Labels stay within 23 characters: the odd-size rows add " @odd" and the table's column is 28 wide. */
enum {
    R4_DIRECT, R4_ROW8x8, R4_LOADALL, R4_ROW8x4, R4_ROW16x16, R4_ROW32x32, R4_ROW32x2, R4_SWAP32x2, R4_ROW4x16, COPY, SGEAM,
    TILE64_VEC, TILE64_SCALAR, TILE64_ALIGNST, TILE64_SC_BAND, TILE64_AL_BAND, TILE64_AL_COL, TILE64_SWZ,
    TILE64_NOSWZ, TILE64_SWZ_4B, TILE64_SWZ_COL, TILE64_F4_4B, R4_TWIN8x8, N_ROWS
};
static const row_t ROWS[N_ROWS] = {
    {{"f4 4x4 direct 8x8", launch_transpose_reg4x4_direct<8, 8>, TMATRIX_TRANSPOSE}, 4, 8, 8, 0},
    {{"f4 4x4 rowwise 8x8", launch_transpose_reg4x4_rowwise<8, 8>, TMATRIX_TRANSPOSE}, 4, 8, 8, 0},
    {{"f4 4x4 load-all 8x8", launch_transpose_reg4x4_loadall<8, 8>, TMATRIX_TRANSPOSE}, 4, 8, 8, 0},
    {{"f4 4x4 rowwise 8x4", launch_transpose_reg4x4_rowwise<8, 4>, TMATRIX_TRANSPOSE}, 4, 8, 4, 0},
    {{"f4 4x4 rowwise 16x16", launch_transpose_reg4x4_rowwise<16, 16>, TMATRIX_TRANSPOSE}, 4, 16, 16, 0},
    {{"f4 4x4 rowwise 32x32", launch_transpose_reg4x4_rowwise<32, 32>, TMATRIX_TRANSPOSE}, 4, 32, 32, 0},
    {{"f4 4x4 rowwise 32x2", launch_transpose_reg4x4_rowwise<32, 2>, TMATRIX_TRANSPOSE}, 4, 32, 2, 0},
    /* the stores of 32x2, rearranged in shared memory: 16 whole sectors per request */
    {{"f4 4x4 32x2 swap halves", launch_transpose_reg4x4_swap_halves, TMATRIX_TRANSPOSE}, 4, 32, 2, 16.0},
    /* a 4 x 8 warp: each store instruction writes 4 output rows of 128 bytes (8x8's 8 x 4 warp: 8 rows of
     * 64 bytes), its loads 8 input rows of 64 bytes; the same 16 whole sectors per store */
    {{"f4 4x4 rowwise 4x16", launch_transpose_reg4x4_rowwise<4, 16>, TMATRIX_TRANSPOSE}, 4, 4, 16, 0},
    {{"f4 x1 one pass", launch_copy_f4_x1, TMATRIX_COPY}, 0, 0, 0, 0},
    {{"cublasSgeam (op T)", launch_cublas_sgeam, TMATRIX_TRANSPOSE}, 0, 0, 0, 0},
    {{"tile64 float4 ld+st", launch_transpose_tile64_vec<1, 0>, TMATRIX_TRANSPOSE}, 0, 0, 0, 0},
    {{"tile64 vec off ld+st", launch_transpose_tile64_vec<0, 0>, TMATRIX_TRANSPOSE}, 0, 0, 0, 0},
    {{"tile64 aligned f4 st", launch_transpose_tile64_alignst<0>, TMATRIX_TRANSPOSE}, 0, 0, 0, 0},
    {{"tile64 scalar banded", launch_transpose_tile64_vec<0, T64_BAND>, TMATRIX_TRANSPOSE}, 0, 0, 0, 0},
    {{"tile64 aligned banded", launch_transpose_tile64_alignst<T64_BAND>, TMATRIX_TRANSPOSE}, 0, 0, 0, 0},
    {{"tile64 aligned col-wise", launch_transpose_tile64_alignst<T64_COLUMNWISE>, TMATRIX_TRANSPOSE}, 0, 0, 0, 0},
    {{"tile64 swizzle f4", launch_transpose_tile64_f4_swizzle<0>, TMATRIX_TRANSPOSE}, 0, 0, 0, 0},
    {{"tile64 f4 no swizzle", launch_transpose_tile64_f4_swizzle<0, false>, TMATRIX_TRANSPOSE}, 0, 0, 0, 0},
    {{"tile64 swizzle 4B glob", launch_transpose_tile64_f4_swizzle<0, true, false>, TMATRIX_TRANSPOSE}, 0, 0, 0, 0},
    {{"tile64 swizzle col-wise", launch_transpose_tile64_f4_swizzle<T64_COLUMNWISE>, TMATRIX_TRANSPOSE}, 0, 0, 0, 0},
    {{"tile64 f4 lanes 4B glob", launch_transpose_tile64_vec<1, 0, false>, TMATRIX_TRANSPOSE}, 0, 0, 0, 0},
    {{"f4 4x4 copy twin 8x8", launch_copy_reg4x4_twin<8, 8>, TMATRIX_COPY}, 0, 8, 8, 16.0},
};

/* The block every row is launched with: the copy's 256 threads.  Every other launcher fixes its own
 * block and ignores this one. */
static const dim3 BLOCK(256);

/* The predicted sectors per store request of a register-tile kernel (sectors.h); NAN otherwise. */
static double store_sectors(const row_t *v)
{
    if (v->st_sect > 0) return v->st_sect;
    return v->v ? regtile_sectors(v->bx, v->by, v->v, 1) : NAN;
}

/* ---- --check ------------------------------------------------------------------------------- */

/* Every kernel on poisoned output at the odd shapes of transpose_matrix.h (8191x4097 only without
 * --quick), then at shapes that take the vector paths without being multiples of any tile:
 * pitches that are multiples of 4 but not of 8, 16 or 64, even but not multiples of 4, and one side
 * aligned with the other not; 196x2100 gives the banded kernels two bands of 32 tile rows, the
 * second partial, over several tile columns, and the column-wise ones 4 columns of 33 tiles.  Last, the size given with --size, if any.  Each line
 * (trow_check) also checks the guard zones around both matrices. */
static int run_checks(const args_t *a, int nx, int ny)
{
    static const int extra[][2] = {{4, 4},      {36, 20},   {34, 30},  {1004, 772},
                                   {1000, 776}, {777, 1000}, {130, 66}, {196, 2100}};
    const int nextra = (int)(sizeof extra / sizeof extra[0]), big = TMATRIX_N_CHECK_SHAPES - 1, mine[1][2] = {{nx, ny}};
    check_tally_t t = {0, 0, stdout};
    trow_t rs[N_ROWS];
    int ex = 0, ey = 0, k;
    size_t most;
    for (k = 0; k < N_ROWS; k++) rs[k] = ROWS[k].r;
    /* the memory of the largest matrix first: 8191x4097, the largest extra shape or --size */
    for (k = 0; k < nextra; k++)
        if ((size_t)extra[k][0] * extra[k][1] > (size_t)ex * ey) ex = extra[k][0], ey = extra[k][1];
    most = tmatrix_bytes(TMATRIX_CHECK_SHAPES[big][0], TMATRIX_CHECK_SHAPES[big][1]);
    if (tmatrix_bytes(ex, ey) > most) most = tmatrix_bytes(ex, ey);
    if (a->nx && tmatrix_bytes(nx, ny) > most) most = tmatrix_bytes(nx, ny);
    gpu_require_bytes(most, "the largest input and output matrices --check uses");
    tcheck_sweep(rs, N_ROWS, TMATRIX_CHECK_SHAPES, TMATRIX_N_CHECK_SHAPES, 1, &BLOCK, 1, NULL, a, &t);
    tcheck_sweep(rs, N_ROWS, extra, nextra, 0, &BLOCK, 1, NULL, a, &t);
    if (a->nx) tcheck_sweep(rs, N_ROWS, mine, 1, 0, &BLOCK, 1, NULL, a, &t);
    return check_summary(&t);
}

/* ---- the experiments ---------------------------------------------------------------------- */

static double gbs_of(const tbench_t *b, const timing_t *t) { return stats_gbs(b->bytes, t->median_ms); }

/* Experiment 1: the source's register tiles and block shapes. */
static int experiment_register_tiles(const tbench_t *b)
{
    const int rs[] = {R4_DIRECT, R4_ROW8x8, R4_LOADALL, R4_ROW8x4, R4_ROW16x16, R4_ROW32x32, R4_ROW32x2, R4_SWAP32x2,
                      R4_ROW4x16};
    enum { NV = sizeof rs / sizeof rs[0] };
    timing_t t;
    double gbs[NV];
    int k, ok, failed = 0;
    char take[500];
    report_say("\nExperiment 1: register tiles, each thread a 4 x 4 block, %d x %d. cudaMemcpy D2D here: %.0f GB/s.\n",
               b->m.nx, b->m.ny, b->d2d_gbs);
    if ((b->m.nx | b->m.ny) & 3)
        report_say("  NOTE: nx or ny is not a multiple of 4, so rows are not 16-byte aligned and every kernel of this\n"
                   "  table takes its scalar path.\n");
    report_say("  'st sect/req': 32-byte sectors one warp's store touches, from its shape (float4: 16 = all full;\n"
               "  a warp of 32 x 1 threads writes 16 of the 32 bytes of each of 32 sectors).\n");
    report_begin("register", "  Each thread moves a 4x4 block (float4 rows); threads per block after the name:",
                 "st sect/req");
    for (k = 0; k < NV; k++) {
        ok = trow_measure(b, &ROWS[rs[k]].r, BLOCK, store_sectors(&ROWS[rs[k]]), &t);
        gbs[k] = ok ? gbs_of(b, &t) : 0.0;
        failed += !ok;
    }
    if (!failed)
        snprintf(take, sizeof take,
                 "rowwise vs load-all: %.2fx; 32x32 blocks run at %.0f%% of 8x8 and 32x2 blocks (the same 32x1 warps, "
                 "64 threads) at %.0f%%; 32x2 with its stores made whole sectors in shared memory at %.0f%%; 4x16 "
                 "blocks (each warp store 4 output rows of 128 bytes, 8x8's 8 rows of 64) at %.0f%%.",
                 gbs[1] / gbs[2], 100.0 * gbs[5] / gbs[1], 100.0 * gbs[6] / gbs[1], 100.0 * gbs[7] / gbs[1],
                 100.0 * gbs[8] / gbs[1]);
    else
        snprintf(take, sizeof take, "a kernel failed verification: no comparison.");
    report_end(take);
    return failed;
}

/* KiB of loads one SM keeps in flight when it runs as many blocks of `kernel` as fit, each thread
 * having issued bytes_per_thread of loads before it waits for any. */
static double kib_in_flight(const void *kernel, int threads, int bytes_per_thread)
{
    return gpu_blocks_per_sm(kernel, threads) * (double)threads * bytes_per_thread / 1024.0;
}

/* The opening of a table against the copy kernel, once its first row, the copy kernel, has been timed
 * (t, ok: whether it verified): the title and the cudaMemcpy D2D row, both in % of the copy kernel. */
static void begin_vs_copy(const tbench_t *b, const char *experiment, int ok, const timing_t *t)
{
    char title[160];
    snprintf(title, sizeof title, "  %d x %d; last column: GB/s as %% of the copy kernel's:", b->m.nx, b->m.ny);
    report_begin(experiment, title, ok ? "% copy krn" : NULL);
    report_row("cudaMemcpy D2D", &b->t_d2d, b->bytes, ok ? 100.0 * b->d2d_gbs / gbs_of(b, t) : NAN);
}

typedef struct {
    int ok;
    const char *best;   /* the fastest candidate transpose */
    double pct_d2d;     /* its GB/s as % of cudaMemcpy D2D */
    double x_sgeam;     /* its GB/s over cublasSgeam's (0 if Sgeam failed) */
    double sgeam_d2d;   /* cublasSgeam's GB/s as % of cudaMemcpy D2D (0 if it failed) */
    double pct_copy;    /* its GB/s as % of the copy kernel's */
    char tied[240];     /* the candidates whose min-max range overlaps the fastest one's ("" if none) */
} fastest_t;

/* Experiments 2 and 3, one size each: the references and the candidates, the winner in *res. */
static int experiment_fastest(const tbench_t *b, int number, const char *suffix, fastest_t *res)
{
    /* rows 0-1: copy kernel and Sgeam; from row 2: the candidates for the fastest transpose */
    const int rs[] = {COPY,           SGEAM,         TILE64_VEC, TILE64_SCALAR,  TILE64_ALIGNST, TILE64_SC_BAND,
                      TILE64_AL_BAND, TILE64_AL_COL, TILE64_SWZ, TILE64_NOSWZ,   TILE64_SWZ_4B,  TILE64_SWZ_COL,
                      R4_ROW8x8};
    /* where the rows the take-away compares sit in rs[] */
    enum { NV = sizeof rs / sizeof rs[0], FIRST_CANDIDATE = 2, SCALAR = 3, ALIGNED = 4, SC_BAND = 5, AL_BAND = 6,
           AL_COL = 7, SWZ = 8, SWZ_4B = 10, SWZ_COL = 11 };
    char labels[NV][64], take[800];
    timing_t t[NV];
    double gbs[NV];
    int ok[NV], k, failed = 0, best = -1;

    report_say("\nExperiment %d: the fastest transpose, %d x %d, against the copy of the same bytes.\n", number,
               b->m.nx, b->m.ny);
    report_say("  Loads in flight per SM at full occupancy: copy kernel %.0f KiB, tile64 float4 %.0f KiB, tile64 aligned-st\n"
               "  %.0f KiB, tile64 swizzle %.0f KiB, f4 4x4 8x8 %.0f KiB (lesson 07's 32x32 tile with 32x8 threads: at\n"
               "  most 32 KiB).\n",
               kib_in_flight((const void *)copy_f4_x1, BLOCK.x, 16),
               kib_in_flight((const void *)transpose_tile64_vec<true>, T64_THREADS, 64),
               /* the aligned tile loads its 8 halo rows only when output rows are misaligned (ny % 8) */
               kib_in_flight((const void *)transpose_tile64_alignst, T64_THREADS, ((b->m.ny & 7) ? T64_HALO + T64 : T64) / 4 * 4),
               kib_in_flight((const void *)transpose_tile64_f4_swizzle<0>, T64_THREADS, 64),
               kib_in_flight((const void *)transpose_reg4x4_rowwise, 64, 64));
    if (number == 2)   /* experiment 3 has the same rows: the legend is printed once */
        report_say("  'banded': the same kernel with its blocks dealt out in bands of %d tile rows, column by column,\n"
               "  instead of row by row: the blocks running together cover a roughly square patch of tiles rather\n"
               "  than a few whole rows of tiles, whose stores reach every row of the output. 'col-wise': one band\n"
               "  as tall as the matrix, column by column (lesson 06's column-major order): the blocks running\n"
               "  together write neighbouring pieces of the same few output rows. 'swizzle': float4 on every side,\n"
               "  each thread's 4x4 block transposed in registers, the shared tile XOR-swizzled instead of padded;\n"
               "  'no swizzle': the same tile unswizzled (8-way shared-store conflicts by the bank model);\n"
               "  '4B glob': the same tile with its global loads and stores one float at a time (same lanes,\n"
               "  same sectors), at every size.\n",
               T64_BAND);
    else
        report_say("  The rows of experiment 2 (its legend says what each name means), at this size.\n");
    for (k = 0; k < NV; k++) {
        trow_t r = ROWS[rs[k]].r;   /* under its label with the size's suffix */
        snprintf(labels[k], sizeof labels[k], "%s%s", r.label, suffix);
        r.label = labels[k];
        ok[k] = trow_time(b, &r, BLOCK, &t[k]);   /* a failure prints its FAILED row here */
        gbs[k] = ok[k] ? gbs_of(b, &t[k]) : 0.0;
        failed += !ok[k];
        if (k >= FIRST_CANDIDATE && ok[k] && (best < 0 || gbs[k] > gbs[best])) best = k;
        if (k == 0) begin_vs_copy(b, "fastest", ok[0], &t[0]);   /* the copy kernel first: the last column's unit */
        if (ok[k]) report_row(labels[k], &t[k], b->bytes, ok[0] ? 100.0 * gbs[k] / gbs[0] : NAN);
    }
    res->ok = best >= 0;
    res->sgeam_d2d = ok[1] ? 100.0 * gbs[1] / b->d2d_gbs : 0.0;
    res->tied[0] = '\0';
    if (best >= 0) {
        const char *names[NV];
        for (k = 0; k < NV; k++) names[k] = ROWS[rs[k]].r.label;
        /* the candidates as fast as the fastest, as far as this run can tell */
        stats_tied_labels(res->tied, sizeof res->tied, t + FIRST_CANDIDATE, ok + FIRST_CANDIDATE,
                          names + FIRST_CANDIDATE, NV - FIRST_CANDIDATE, best - FIRST_CANDIDATE);
        res->best = ROWS[rs[best]].r.label;
        res->pct_d2d = 100.0 * gbs[best] / b->d2d_gbs;
        res->x_sgeam = ok[1] ? gbs[best] / gbs[1] : 0.0;
        res->pct_copy = ok[0] ? 100.0 * gbs[best] / gbs[0] : 0.0;
        snprintf(take, sizeof take,
                 "fastest transpose here: %s%s%s%s, %.1f%% of the copy kernel (%.1f%% of cudaMemcpy), %.2fx cublasSgeam "
                 "(which reaches %.1f%% of cudaMemcpy); banded order: scalar %+.1f%%, aligned %+.1f%%; column-wise: "
                 "aligned %+.1f%%, swizzle %+.1f%%; swizzle f4's 16-byte global accesses against 4 bytes: %+.1f%%.",
                 res->best, res->tied[0] ? " (min-max range overlapping: " : "", res->tied, res->tied[0] ? ")" : "",
                 res->pct_copy, res->pct_d2d, res->x_sgeam,
                 res->sgeam_d2d, ok[SCALAR] && ok[SC_BAND] ? 100.0 * (gbs[SC_BAND] / gbs[SCALAR] - 1.0) : 0.0,
                 ok[ALIGNED] && ok[AL_BAND] ? 100.0 * (gbs[AL_BAND] / gbs[ALIGNED] - 1.0) : 0.0,
                 ok[ALIGNED] && ok[AL_COL] ? 100.0 * (gbs[AL_COL] / gbs[ALIGNED] - 1.0) : 0.0,
                 ok[SWZ] && ok[SWZ_COL] ? 100.0 * (gbs[SWZ_COL] / gbs[SWZ] - 1.0) : 0.0,
                 ok[SWZ] && ok[SWZ_4B] ? 100.0 * (gbs[SWZ] / gbs[SWZ_4B] - 1.0) : 0.0);
    } else {
        snprintf(take, sizeof take, "every candidate failed verification.");
    }
    report_end(take);
    return failed;
}

/* One size of the race's result, as ratios from this run: the fastest transpose against the copy
 * kernel, cudaMemcpy D2D and cublasSgeam, and the candidates it did not beat beyond the run's spread. */
static void print_race(const char *size, const fastest_t *f)
{
    if (!f->ok) {
        report_say("  %-10s no candidate verified\n", size);
        return;
    }
    report_say("  %-10s fastest transpose (%s) = %5.1f%% of the copy kernel, %.1f%% of cudaMemcpy D2D\n", size, f->best,
               f->pct_copy, f->pct_d2d);
    if (f->tied[0])
        report_say("  %-10s as fast within the min-max ranges: %s\n", "", f->tied);
    if (f->x_sgeam > 0.0)
        report_say("  %-10s fastest transpose (%s) = %5.2fx cublasSgeam (which ran at %.1f%% of cudaMemcpy)\n", size,
                   f->best, f->x_sgeam, f->sgeam_d2d);
    else
        report_say("  %-10s cublasSgeam failed verification: no ratio\n", size);
}

/* The In depth experiments' one table: rows rs[0..n-1] timed in order, the copy kernel first (the
 * last column's unit), each row in % of it (pct; NAN where a row or the copy failed).  Returns how
 * many rows failed verification. */
static int time_vs_copy(const tbench_t *b, const char *experiment, const int *rs, int n, timing_t *t, int *ok,
                        double *pct)
{
    int k, failed = 0;
    for (k = 0; k < n; k++) {
        ok[k] = trow_time(b, &ROWS[rs[k]].r, BLOCK, &t[k]);   /* a failure prints its FAILED row here */
        pct[k] = ok[k] && ok[0] ? 100.0 * gbs_of(b, &t[k]) / gbs_of(b, &t[0]) : NAN;
        failed += !ok[k];
        if (k == 0) begin_vs_copy(b, experiment, ok[0], &t[0]);
        if (ok[k]) report_row(ROWS[rs[k]].r.label, &t[k], b->bytes, pct[k]);
    }
    return failed;
}

/* "apart" or "overlapping": whether two rows' min-max ranges tell them apart (the take-aways' word). */
static const char *ranges_word(const timing_t *x, const timing_t *y)
{
    return stats_ranges_apart(x, y) ? "apart" : "overlapping";
}

/* The end of such a table: its take-away, or where a row failed verification, that instead.
 * Returns failed. */
static int end_vs_copy(int failed, const char *take)
{
    report_end(failed ? "a kernel failed verification: no comparison." : take);
    return failed;
}

/* Experiment 4 (--split): the float4 step in two, at one size.  Each step in points of the copy
 * kernel, and whether the two rows' min-max ranges are apart. */
static int experiment_split(const tbench_t *b)
{
    const int rs[] = {COPY, TILE64_SCALAR, TILE64_F4_4B, TILE64_VEC, TILE64_SWZ_4B, TILE64_SWZ};
    enum { NV = sizeof rs / sizeof rs[0], VEC_OFF = 1, F4_LANES = 2, F4 = 3, SWZ_4B = 4, SWZ = 5 };
    char take[600] = "";
    timing_t t[NV];
    double pct[NV];
    int ok[NV], failed;

    report_say("\nExperiment 4: the float4 step split in two, %d x %d. 'tile64 float4 ld+st' changes two things\n"
               "  against 'tile64 vec off ld+st': its lanes (each thread a chunk of 4 floats, so a warp's access\n"
               "  covers 4 rows of 128 bytes where vec off's covers 1) and its access width (16 bytes, not 4).\n"
               "  'tile64 f4 lanes 4B glob' has the float4 lanes with each global access made as four 4-byte ones:\n"
               "  vec off -> f4 lanes is the layout, f4 lanes -> float4 the width. The swizzled tile's width:\n"
               "  swizzle 4B glob -> swizzle f4.\n",
               b->m.nx, b->m.ny);
    failed = time_vs_copy(b, "split", rs, NV, t, ok, pct);
    if (!failed)
        snprintf(take, sizeof take,
                 "points of the copy kernel: the lane layout (vec off -> f4 lanes 4B glob) %+.1f (ranges %s), the 16-byte "
                 "width (f4 lanes 4B glob -> float4 ld+st) %+.1f (ranges %s); in the swizzled tile the width (swizzle 4B "
                 "glob -> swizzle f4) %+.1f (ranges %s).",
                 pct[F4_LANES] - pct[VEC_OFF], ranges_word(&t[VEC_OFF], &t[F4_LANES]),
                 pct[F4] - pct[F4_LANES], ranges_word(&t[F4_LANES], &t[F4]),
                 pct[SWZ] - pct[SWZ_4B], ranges_word(&t[SWZ_4B], &t[SWZ]));
    return end_vs_copy(failed, take);
}

/* Experiment 5 (--twin): the register tile against its copy twin (lesson 07's design), at one size:
 * the copy kernel, the twin, the tile, and the shared tile the tile trails.  The gap from the copy
 * kernel to the twin is what the tile's blocks and loads cost without any transpose; from the twin
 * to the tile, what its transposed stores cost. */
static int experiment_twin(const tbench_t *b)
{
    const int rs[] = {COPY, R4_TWIN8x8, R4_ROW8x8, TILE64_SWZ};
    enum { NV = sizeof rs / sizeof rs[0], TWIN = 1, TILE = 2, SWZ = 3 };
    char take[600] = "";
    timing_t t[NV];
    double pct[NV];
    int ok[NV], failed;

    report_say("\nExperiment 5: the register tile against its copy twin, %d x %d. 'f4 4x4 copy twin 8x8' has\n"
               "  'f4 4x4 rowwise 8x8''s blocks (8 x 8 threads), its four float4 loads per thread and its bytes in\n"
               "  flight, but stores each 4x4 block where it found it: a copy, whose warp stores cover 4 rows of\n"
               "  128 bytes like its loads (the tile's: 8 output rows of 64). 'tile64 swizzle f4': the shared tile\n"
               "  the register tile trails. Sectors per warp store: 16 for all three.\n",
               b->m.nx, b->m.ny);
    failed = time_vs_copy(b, "twin", rs, NV, t, ok, pct);
    if (!failed)
        snprintf(take, sizeof take,
                 "points of the copy kernel: copy kernel -> copy twin (the tile's blocks and loads, no transpose) "
                 "%+.1f (ranges %s); copy twin -> register tile (its transposed stores) %+.1f (ranges %s); the "
                 "shared tile %.1f, %+.1f from the register tile.",
                 pct[TWIN] - 100.0, ranges_word(&t[0], &t[TWIN]),
                 pct[TILE] - pct[TWIN], ranges_word(&t[TWIN], &t[TILE]), pct[SWZ],
                 pct[SWZ] - pct[TILE]);
    return end_vs_copy(failed, take);
}

/* ---- main ----------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    args_t a;
    gpu_info_t g;
    tbench_t b;
    fastest_t big = {0, NULL, 0, 0, 0, 0, ""}, odd = {0, NULL, 0, 0, 0, 0, ""};
    int nx, ny, failed = 0, split = 0, twin = 0;
    lesson_opt_t opts[] = {
        {"--split", OPT_FLAG, &split, 0, 0, NULL,
         "run only experiment 4 (In depth): the float4 step split into its lane layout and its width"},
        {"--twin", OPT_FLAG, &twin, 0, 0, NULL,
         "run only experiment 5 (In depth): the register tile against its copy twin"},
    };

    args_configure(0, "--block", NULL);  /* every kernel of this lesson fixes its own block shape (experiment 1 compares them) */
    args_parse_or_exit(argc, argv, &a, SUMMARY,
                       "matrix NXxNY: NX columns, NY rows (default 8192x8192, then 8191x4097; 2048x2048 and\n"
                       "                  2047x1025 with --quick); N means NxN; a given size runs alone",
                       opts, 2);
    tmatrix_size_or_exit(&a, 8, &nx, &ny);   /* the 8x8 and 32x2 blocks: 8 rows or more each */
    gpu_start(&g, "08_register_tiles", "Lesson 08 - register tiles and vector accesses", &a);
    if (a.check) return run_checks(&a, nx, ny);

    /* the largest matrices of the run: experiment 3's are smaller */
    tbench_init(&b, &g, &a, nx, ny, TMATRIX_COPY | TMATRIX_TRANSPOSE);
    if (split || twin) {
        if (split) failed |= experiment_split(&b) != 0;
        if (twin) failed |= experiment_twin(&b) != 0;
        tbench_free(&b);
        return gpu_finish_status(failed);
    }
    failed |= experiment_register_tiles(&b) != 0;
    failed |= experiment_fastest(&b, 2, "", &big) != 0;
    tbench_free(&b);
    if (!a.nx) {
        const int onx = a.quick ? 2047 : 8191, ony = a.quick ? 1025 : 4097;
        char big_size[32], odd_size[32];
        tbench_init(&b, &g, &a, onx, ony, TMATRIX_COPY | TMATRIX_TRANSPOSE);
        failed |= experiment_fastest(&b, 3, " @odd", &odd) != 0;
        tbench_free(&b);
        snprintf(big_size, sizeof big_size, "%dx%d", nx, ny);
        snprintf(odd_size, sizeof odd_size, "%dx%d", onx, ony);
        report_say("\nThe race (ratios from this run):\n");
        print_race(big_size, &big);
        print_race(odd_size, &odd);
    } else {
        report_say("\n(The race's summary compares the default sizes, 8192x8192 and 8191x4097: run without --size.)\n");
    }

    return gpu_finish_status(failed);
}
