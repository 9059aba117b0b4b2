/* Lesson 04: know the bounds before you optimize a transpose.
 *
 * Experiment 1: copyRow (read rows, write rows) and copyCol (read columns, write columns) move the
 * same bytes as a transpose with both sides coalesced or both sides strided: the measured upper
 * and lower bounds the source gives for any transpose.
 * Experiment 2: the "upper bound" is not one.  The same copy with more bytes in flight per thread
 * (float4, 1 to 8 of them issued before the first store; one pass or grid-stride; streaming hints)
 * runs faster than copyRow and close to cudaMemcpy; the theoretical peak is the only true ceiling.
 *
 * The kernels and their launches are in kernels.cuh (lessons 05 and 06 measure copyRow and copyCol
 * too); this file verifies, times and prints them. */
#include "args.h"
#include "cuda_check.h"
#include "gpu.h"
#include "kernels.cuh"
#include "report.h"
#include "stats.h"
#include "transpose_matrix.h"
#include "verify.h"

#include <math.h>
#include <stdio.h>

/* The program's --help summary. */
static const char SUMMARY[] =
    "Lesson 04: bounds of a transpose. Times copyRow and copyCol, the source's upper and lower bounds,\n"
    "then float4 copies with more bytes in flight per thread against cudaMemcpy and the theoretical peak.";

static const tkernel_t K_COPY_ROW = {"copyRow", launch_copy_row, TMATRIX_COPY};
static const tkernel_t K_COPY_COL = {"copyCol", launch_copy_col, TMATRIX_COPY};

/* The float4 variants of experiment 2.  grid_stride = 0: one block per tile (one pass);
 * 1: as many blocks as fit on the GPU at once (SMs x resident blocks per SM), each looping. */
typedef struct {
    tkernel_t k;
    const void *kernel;
    int u, grid_stride;
} f4_variant_t;

static const f4_variant_t F4_VARIANTS[] = {
    {{"f4 x1 grid-stride", launch_f4_x1, TMATRIX_COPY}, (const void *)copy_f4_x1, 1, 1},
    {{"f4 x2 grid-stride", launch_f4_x2, TMATRIX_COPY}, (const void *)copy_f4_x2, 2, 1},
    {{"f4 x4 grid-stride", launch_f4_x4, TMATRIX_COPY}, (const void *)copy_f4_x4, 4, 1},
    {{"f4 x4 grid-stride cs", launch_f4_x4_cs, TMATRIX_COPY}, (const void *)copy_f4_x4_cs, 4, 1},
    {{"f4 x1 one pass", launch_f4_x1, TMATRIX_COPY}, (const void *)copy_f4_x1, 1, 0},
    {{"f4 x2 one pass", launch_f4_x2, TMATRIX_COPY}, (const void *)copy_f4_x2, 2, 0},
    {{"f4 x4 one pass", launch_f4_x4, TMATRIX_COPY}, (const void *)copy_f4_x4, 4, 0},
    {{"f4 x8 one pass", launch_f4_x8, TMATRIX_COPY}, (const void *)copy_f4_x8, 8, 0},
    {{"f4 x4 one pass cs", launch_f4_x4_cs, TMATRIX_COPY}, (const void *)copy_f4_x4_cs, 4, 0},
};
#define NF4 ((int)(sizeof F4_VARIANTS / sizeof F4_VARIANTS[0]))

static int resident_blocks(const void *kernel, int threads)
{
    int nb = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, kernel, threads, 0));
    return nb > 0 ? nb : 1;
}

/* Blocks for a float4 variant: one per tile, or at most what is resident at once (max_blocks > 0
 * overrides that, to make --check loop many times over a small matrix). */
static unsigned f4_grid(const f4_variant_t *v, size_t n, int threads, int sms, int max_blocks)
{
    size_t tiles = div_up(n / 4, (unsigned)(v->u * threads)), cap;
    if (tiles == 0) tiles = 1;  /* fewer than 4 floats: block 0 copies the tail */
    if (!v->grid_stride) return (unsigned)tiles;
    cap = max_blocks > 0 ? (size_t)max_blocks : (size_t)sms * resident_blocks(v->kernel, threads);
    return (unsigned)(tiles < cap ? tiles : cap);
}

/* --threads: block size of the float4 copies */
static int threads_opt = 256;
static const lesson_opt_t OPTS[] = {
    {"--threads", OPT_INT, &threads_opt, 32, 1024, "T",
     "threads per block of the float4 copies, a multiple of 32 (default 256)"},
};

/* ---- --check ------------------------------------------------------------------------------- */

/* Every kernel at shapes that are multiples of nothing (a copy is checked against its input):
 * copyRow and copyCol with several block shapes; the float4 copies with warp-sized, --threads and
 * 1024-thread blocks, and also on a 3-block grid, so that the grid-stride loop runs many times. */
static int run_checks(const args_t *a, const gpu_info_t *g)
{
    static const int shapes[][2] = {{1, 1}, {2, 1}, {3, 1}, {1, 5}, {7, 3}, {33, 31}, {31, 33}, {1000, 777},
                                    {1, 40009}, {40009, 1}, {4097, 13}, {1, 600001}, {600001, 1}, {8191, 4097}};
    static const tkernel_t copies[] = {K_COPY_ROW, K_COPY_COL};
    const dim3 blocks2d[] = {dim3(32, 8), dim3(16, 16), dim3(7, 5)};
    const int threads1d[] = {threads_opt, 32, 1024};
    int nshapes = (int)(sizeof shapes / sizeof shapes[0]), s, b, v, maxb;
    check_tally_t tally = {0, 0};
    char size[96];

    tcheck_sweep(copies, 2, shapes, nshapes, 1, blocks2d, 3, a, &tally);
    for (s = 0; s < nshapes - (a->quick ? 1 : 0); s++) {
        tmatrix_t m;
        check_t chk;
        tmatrix_init(&m, shapes[s][0], shapes[s][1], a->seed, TMATRIX_KEEP_INPUT);
        chk = tmatrix_check_of(&m, TMATRIX_COPY);
        for (b = 0; b < 3; b++) {
            tctx_t c = tmatrix_ctx(&m, dim3(threads1d[b]));
            for (v = 0; v < NF4; v++) {
                for (maxb = 0; maxb <= 3; maxb += 3) {
                    if (maxb && !F4_VARIANTS[v].grid_stride) continue;
                    c.grid = dim3(f4_grid(&F4_VARIANTS[v], m.n, threads1d[b], g->sms, maxb));
                    snprintf(size, sizeof size, "%dx%d %d threads x %u blocks", m.nx, m.ny, threads1d[b], c.grid.x);
                    check_line(&chk, F4_VARIANTS[v].k.label, size, F4_VARIANTS[v].k.launch, &c, stdout, &tally);
                }
            }
        }
        tmatrix_free(&m);
    }
    gpu_finish();
    return verify_summary(stdout, tally.fails, tally.checks);
}

/* ---- the experiments ---------------------------------------------------------------------- */

typedef struct {
    const gpu_info_t *g;
    tbench_t b;          /* the matrix with its input kept: a copy must reproduce it */
    tctx_t c;            /* copyRow / copyCol: blocks of --block (default 32x8)        */
} run_t;

/* Bytes one SM has asked for and not yet used, at most: resident threads x bytes each thread loads
 * before its first store. */
static double kib_in_flight_per_sm(const void *kernel, int threads, int bytes_per_thread)
{
    return resident_blocks(kernel, threads) * (double)threads * bytes_per_thread / 1024.0;
}

/* Experiment 1: the two bounds of the source.  Returns 1 if a kernel failed verification. */
static int experiment_bounds(run_t *r, timing_t *t_row, int *row_ok)
{
    timing_t t_col;
    int col_ok;
    char take[300];

    report_begin("bounds", "Experiment 1: the bounds of a transpose (the bytes of a transpose, nothing transposed)", NULL);
    report_row("cudaMemcpy D2D", &r->b.t_d2d, r->b.bytes, NAN);
    *row_ok = tbench_row(&r->b, &K_COPY_ROW, NULL, &r->c, NAN, t_row);
    col_ok = tbench_row(&r->b, &K_COPY_COL, NULL, &r->c, NAN, &t_col);
    if (*row_ok && col_ok) {
        snprintf(take, sizeof take,
                 "copyCol runs at %.0f%% of copyRow: Tan Sheng's bandwidth chapter would expect any transpose of this matrix "
                 "between %.0f and %.0f GB/s.",
                 100.0 * t_row->median_ms / t_col.median_ms, stats_gbs(r->b.bytes, t_col.median_ms),
                 stats_gbs(r->b.bytes, t_row->median_ms));
        report_end(take);
    } else {
        report_end("a kernel failed verification: no bounds can be drawn.");
    }
    return !(*row_ok && col_ok);
}

/* Experiment 2: the same copy with more bytes in flight per thread. */
static int experiment_ceiling(run_t *r, const timing_t *t_row, int row_ok)
{
    timing_t t[NF4];
    int v, best = -1, failed = 0;
    double d2d = r->b.d2d_gbs, best_gbs;
    tctx_t c = tmatrix_ctx(&r->b.m, dim3(threads_opt));
    char take[400];

    report_say("\nExperiment 2: copyRow is not the ceiling. float4 copies, %d threads per block;\n"
               "  xU = U float4 loads (16 B each) issued per thread before its first store; one pass = a block per\n"
               "  tile of U x %d float4s; grid-stride = %d SMs x the blocks resident per SM, looping; cs = __ldcs/__stcs.\n"
               "  KiB/SM: the most one SM can have in flight = resident threads x bytes each loads before its first store.\n",
               threads_opt, threads_opt, r->g->sms);
    report_begin("in_flight", "Copies of the same matrix (%D2D: against the cudaMemcpy row of experiment 1):", "KiB/SM");
    report_result(K_COPY_ROW.label, row_ok, t_row, r->b.bytes,
                  kib_in_flight_per_sm((const void *)copy_row, (int)(r->c.block.x * r->c.block.y), 4));
    for (v = 0; v < NF4; v++) {
        const f4_variant_t *fv = &F4_VARIANTS[v];
        c.grid = dim3(f4_grid(fv, r->b.m.n, threads_opt, r->g->sms, 0));
        if (!tbench_row(&r->b, &fv->k, NULL, &c, kib_in_flight_per_sm(fv->kernel, threads_opt, 16 * fv->u), &t[v])) {
            failed = 1;
            continue;
        }
        if (best < 0 || t[v].median_ms < t[best].median_ms) best = v;
    }
    if (best >= 0) {
        best_gbs = stats_gbs(r->b.bytes, t[best].median_ms);
        snprintf(take, sizeof take,
                 "best copy kernel: %s, %.1f%% of cudaMemcpy and %.1f%% of the theoretical peak; "
                 "copyRow was %.1f%% of cudaMemcpy: it bounded one-float-per-thread code, not a copy.",
                 F4_VARIANTS[best].k.label, 100.0 * best_gbs / d2d, 100.0 * best_gbs / r->g->peak_gbs,
                 row_ok ? 100.0 * stats_gbs(r->b.bytes, t_row->median_ms) / d2d : 0.0);
        report_end(take);
    } else {
        report_end("every float4 copy failed verification.");
    }
    return failed;
}

/* ---- main ----------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    args_t a;
    gpu_info_t g;
    run_t r;
    timing_t t_row;
    int nx, ny, row_ok, failed = 0;
    size_t bytes;
    dim3 block;

    args_parse_or_exit(argc, argv, &a, SUMMARY, TMATRIX_SIZE_HELP, OPTS, 1);
    if (threads_opt % 32)
        args_reject("bad --threads '%s': expected a multiple of 32 (whole warps)", args_raw_value(argc, argv, "--threads"));
    tmatrix_size_or_exit(&a, &nx, &ny);
    report_init("04_transpose_bounds", a.csv);
    gpu_init(&g);
    gpu_print_header(&g, "Lesson 04 - the bounds of a transpose, and the one that is real", &a);
    if (a.check) return run_checks(&a, &g);

    bytes = (size_t)nx * ny * sizeof(float);
    block = a.bx ? dim3(a.bx, a.by) : dim3(32, 8);
    report_say("\nMatrix %d x %d floats (%d rows of %d), %.0f MiB each way; copyRow/copyCol blocks %ux%u.\n"
               "GB/s counts every element read once and written once: 2 x %.0f MiB per kernel.\n",
               nx, ny, ny, nx, bytes / 1048576.0, block.x, block.y, bytes / 1048576.0);
    tbench_init(&r.b, &g, &a, nx, ny, TMATRIX_KEEP_INPUT);
    r.g = &g;
    r.c = tmatrix_ctx(&r.b.m, block);

    failed |= experiment_bounds(&r, &t_row, &row_ok);
    failed |= experiment_ceiling(&r, &t_row, row_ok);

    tbench_free(&r.b);
    return gpu_finish_status(failed);
}
