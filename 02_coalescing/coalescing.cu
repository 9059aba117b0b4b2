/* Lesson 02: coalescing -- what the 32 addresses of one warp look like.
 *
 * Experiment 1: SAXPY y = a*x + y, a coalesced kernel, against the copy ceiling (12 bytes per element).
 * Experiment 2: rows and columns of a row-major matrix: strip sums and a 2D copy, each once with
 *               consecutive threads along a row and once with consecutive threads a row apart.
 * Experiment 3: the naive matrix product: B is read coalesced, A is a broadcast; swapping the
 *               thread mapping turns both around.
 *
 * The kernels are in kernels.cuh; this file verifies, times and prints them. */
#include "args.h"
#include "bench.h"
#include "coalescing.h"
#include "cuda_check.h"
#include "gemm_problem.h"
#include "gpu.h"
#include "grid.cuh"
#include "kernels.cuh"
#include "report.h"
#include "rng.h"
#include "stats.h"
#include "transpose_matrix.h"
#include "verify.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- launching ---------------------------------------------------------------------------- */

/* Experiment 1: SAXPY on vectors of n floats, 1-D blocks. */
typedef struct {
    float a;
    float *x, *y;
    size_t n;
    int block;
    uint64_t seed;   /* x is rng stream seed, y stream seed + 1 (refilled before every check) */
} saxpy_ctx_t;

static void launch_saxpy(void *p, cudaStream_t s)
{
    saxpy_ctx_t *c = (saxpy_ctx_t *)p;
    saxpy<<<div_up(c->n, (unsigned)c->block), c->block, 0, s>>>(c->a, c->x, c->y, c->n);
}

/* Experiment 2: a tctx_t on the matrix (nx = cols, ny = rows).  The strip sums take 1-D blocks of
 * as many threads as the 2-D block of the copies, one grid row per strip. */
static void launch_row_strips(void *p, cudaStream_t s)
{
    tctx_t *c = (tctx_t *)p;
    dim3 block(c->block.x * c->block.y);
    sum_row_strips<<<grid_2d(c->ny, strips_of(c->nx, SUM_STRIP), block), block, 0, s>>>(c->in, c->out, c->ny, c->nx,
                                                                                       SUM_STRIP);
}

static void launch_col_strips(void *p, cudaStream_t s)
{
    tctx_t *c = (tctx_t *)p;
    dim3 block(c->block.x * c->block.y);
    sum_col_strips<<<grid_2d(c->nx, strips_of(c->ny, SUM_STRIP), block), block, 0, s>>>(c->in, c->out, c->ny, c->nx,
                                                                                       SUM_STRIP);
}

static void launch_copy_row(void *p, cudaStream_t s)
{
    tctx_t *c = (tctx_t *)p;
    copy_row<<<grid_2d(c->nx, c->ny, c->block), c->block, 0, s>>>(c->out, c->in, c->nx, c->ny);
}

static void launch_copy_col(void *p, cudaStream_t s)
{
    tctx_t *c = (tctx_t *)p;
    copy_col<<<grid_2d(c->ny, c->nx, c->block), c->block, 0, s>>>(c->out, c->in, c->nx, c->ny);
}

/* Experiment 3: the product's matrices (gemm_problem.h) and the 2-D block. */
typedef struct {
    const float *A, *B;
    float *C;
    int M, N, K;
    dim3 block;
} matmul_ctx_t;

static matmul_ctx_t matmul_ctx(const gemm_problem_t *p, dim3 block)
{
    matmul_ctx_t c = {p->dA, p->dB, p->dC, p->M, p->N, p->K, block};
    return c;
}

/* M and N are at most GEMM_DIM_MAX = 16384 (--mnk), so gridDim.y = ceil(M or N / by) stays below
 * 65535: these kernels do not loop, so their grid must not be capped. */
static void launch_matmul_row(void *p, cudaStream_t s)
{
    matmul_ctx_t *c = (matmul_ctx_t *)p;
    dim3 grid(div_up(c->N, c->block.x), div_up(c->M, c->block.y));
    matmul_x_along_row<<<grid, c->block, 0, s>>>(c->A, c->B, c->C, c->M, c->N, c->K);
}

static void launch_matmul_col(void *p, cudaStream_t s)
{
    matmul_ctx_t *c = (matmul_ctx_t *)p;
    dim3 grid(div_up(c->M, c->block.x), div_up(c->N, c->block.y));
    matmul_x_along_col<<<grid, c->block, 0, s>>>(c->A, c->B, c->C, c->M, c->N, c->K);
}

/* ---- verification ------------------------------------------------------------------------- */

/* SAXPY: y is input and output, so it cannot be poisoned.  Instead run() fills x and y afresh
 * before the one launch, and every y[i] must then equal fmaf(a, x[i], y[i]) exactly.  An element
 * the kernel skipped keeps its old y[i], which differs from a*x[i] + y[i] unless x[i] is exactly 0
 * (one element in 2^24 of rng_float's output). */
static size_t run_saxpy(const check_t *chk, launch_fn_t launch, void *ctx, mismatch_t *m, size_t *n, size_t *width)
{
    saxpy_ctx_t *c = (saxpy_ctx_t *)ctx;
    gpu_fill_random_f32(c->x, c->n, c->seed);
    gpu_fill_random_f32(c->y, c->n, c->seed + 1);
    launch(ctx, gpu_stream());
    CHECK_LAST();
    CHECK(cudaMemcpy(chk->got, chk->d_out, chk->n * sizeof(float), cudaMemcpyDeviceToHost));
    *n = chk->n;
    *width = 0;
    return verify_f32(chk->want, chk->got, chk->n, 0.0, 0.0, m);
}

/* The CPU's SAXPY on the same inputs into want (x and y are rng_float streams, recomputed here).
 * Returns how many results a separately rounded a*x + y would change (the bits an FMA changes). */
static size_t saxpy_want(const saxpy_ctx_t *c, float *want)
{
    size_t i, unfused = 0;
    for (i = 0; i < c->n; i++) {
        float x = rng_float(c->seed, i), y = rng_float(c->seed + 1, i);
        volatile float prod = c->a * x;   /* volatile: the host compiler may not fuse it */
        want[i] = saxpy_ref(c->a, x, y);
        unfused += (prod + y) != want[i];
    }
    return unfused;
}

static check_t check_saxpy(const saxpy_ctx_t *c, const float *want, float *got)
{
    check_t chk = check_f32(c->y, want, got, c->n, 0);
    chk.run = run_saxpy;
    return chk;
}

/* The CPU's strip sums of the matrix m.h_in, added in the GPU thread's order (so they compare
 * exactly): along rows (by_rows) or along columns; *n gets their count. */
static float *strips_want(const tmatrix_t *m, int by_rows, size_t *n)
{
    float *want;
    *n = by_rows ? (size_t)strips_of(m->nx, SUM_STRIP) * m->ny : (size_t)strips_of(m->ny, SUM_STRIP) * m->nx;
    want = (float *)host_alloc(*n * sizeof(float), "the CPU strip sums");
    if (by_rows) cpu_row_strip_sums(m->h_in, want, m->ny, m->nx, SUM_STRIP);
    else cpu_col_strip_sums(m->h_in, want, m->ny, m->nx, SUM_STRIP);
    return want;
}

/* ---- --check ------------------------------------------------------------------------------ */

static void check_saxpy_at(size_t n, int block, uint64_t seed, check_tally_t *t)
{
    saxpy_ctx_t c = {1.7f, NULL, NULL, n, block, seed};
    float *want = (float *)host_alloc(n * sizeof(float), "the CPU result");
    float *got = (float *)host_alloc_pinned(n * sizeof(float), "the result");
    check_t chk;
    char size[64];
    c.x = (float *)gpu_alloc(n * sizeof(float), "x");
    c.y = (float *)gpu_alloc(n * sizeof(float), "y");
    saxpy_want(&c, want);
    chk = check_saxpy(&c, want, got);
    snprintf(size, sizeof size, "n=%zu block=%d", n, block);
    check_line(&chk, "saxpy", size, launch_saxpy, &c, stdout, t);
    CHECK(cudaFree(c.x));
    CHECK(cudaFree(c.y));
    free(want);
    gpu_free_host(got);
}

/* Experiment 2's matrix (random, with its host copy) and the checks of its four kernels: the strip
 * sums against the CPU's, the copies against the input.  Every output fits the matrix's output
 * buffer: a row or a column has at most as many strips as elements. */
typedef struct {
    tmatrix_t m;
    tctx_t c;              /* the launch context of all four kernels */
    size_t nr, nc;         /* row strips, column strips */
    float *want_r, *want_c;
    check_t chk_r, chk_c, chk_copy;
} rows_cols_t;

static void rows_cols_init(rows_cols_t *x, int rows, int cols, dim3 block, uint64_t seed)
{
    tmatrix_init(&x->m, cols, rows, seed, TMATRIX_KEEP_INPUT);
    x->c = tmatrix_ctx(&x->m, block);
    x->want_r = strips_want(&x->m, 1, &x->nr);
    x->want_c = strips_want(&x->m, 0, &x->nc);
    x->chk_r = check_f32(x->m.d_out, x->want_r, x->m.got, x->nr, 0);
    x->chk_c = check_f32(x->m.d_out, x->want_c, x->m.got, x->nc, 0);
    x->chk_copy = tmatrix_check_of(&x->m, TMATRIX_COPY);
}

static void rows_cols_free(rows_cols_t *x)
{
    free(x->want_r);
    free(x->want_c);
    tmatrix_free(&x->m);
}

static void check_matrix(int rows, int cols, dim3 block, uint64_t seed, check_tally_t *t)
{
    rows_cols_t x;
    char size[80];
    rows_cols_init(&x, rows, cols, block, seed);
    snprintf(size, sizeof size, "%dx%d (cols x rows) block=%ux%u", cols, rows, block.x, block.y);
    check_line(&x.chk_r, "sum_row_strips", size, launch_row_strips, &x.c, stdout, t);
    check_line(&x.chk_c, "sum_col_strips", size, launch_col_strips, &x.c, stdout, t);
    check_line(&x.chk_copy, "copyRow", size, launch_copy_row, &x.c, stdout, t);
    check_line(&x.chk_copy, "copyCol", size, launch_copy_col, &x.c, stdout, t);
    rows_cols_free(&x);
}

static void check_matmul(int M, int N, int K, dim3 block, uint64_t seed, check_tally_t *t)
{
    gemm_problem_t p;
    matmul_ctx_t c;
    check_t chk;
    char size[80];
    gemm_problem_init(&p, M, N, K, 0, seed);
    c = matmul_ctx(&p, block);
    chk = gemm_check_of(&p);
    snprintf(size, sizeof size, "M=%d N=%d K=%d block=%ux%u%s", M, N, K, block.x, block.y,
             gemm_sample(M, N, K) ? " (sampled)" : "");
    check_line(&chk, "matmul_x_along_row", size, launch_matmul_row, &c, stdout, t);
    check_line(&chk, "matmul_x_along_col", size, launch_matmul_col, &c, stdout, t);
    gemm_problem_free(&p);
}

/* Every kernel at sizes that are multiples of nothing (1, primes, one past the strip length),
 * with three block shapes: 32x8 (one warp per row of the block), 8x32 (a warp spans four rows)
 * and 13x7 (91 threads: a partial warp in every block).  --quick leaves out the big sizes.  The
 * end of a --check run: gpu_finish, then the summary line and the exit code. */
static int run_checks(const args_t *a)
{
    static const size_t sax[] = {1, 31, 33, 1000, 4097, 100003};
    static const int shapes[][2] = {{1, 1}, {1, 1000}, {1000, 1}, {31, 33}, {255, 257}, {777, 1000}};
    static const int prods[][3] = {{1, 1, 1}, {1, 33, 7}, {31, 1, 17}, {33, 31, 29}, {100, 77, 1}, {257, 129, 65}};
    dim3 blocks[3] = {dim3(32, 8), dim3(8, 32), dim3(13, 7)};
    int nb = 3, bi;
    size_t i;
    check_tally_t t = {0, 0};

    if (a->bx) {   /* --block given: check that shape only */
        blocks[0] = dim3(a->bx, a->by);
        nb = 1;
    }
    for (bi = 0; bi < nb; bi++) {
        dim3 b = blocks[bi];
        for (i = 0; i < sizeof sax / sizeof sax[0]; i++) check_saxpy_at(sax[i], (int)(b.x * b.y), a->seed, &t);
        for (i = 0; i < sizeof shapes / sizeof shapes[0]; i++) check_matrix(shapes[i][0], shapes[i][1], b, a->seed, &t);
        for (i = 0; i < sizeof prods / sizeof prods[0]; i++)
            check_matmul(prods[i][0], prods[i][1], prods[i][2], b, a->seed, &t);
    }
    if (!a->quick) {   /* the big sizes, with the first block shape only */
        dim3 b = blocks[0];
        check_saxpy_at(((size_t)1 << 22) + 3, (int)(b.x * b.y), a->seed, &t);
        check_matrix(4097, 8191, b, a->seed, &t);
        check_matmul(1000, 777, 313, b, a->seed, &t);
        check_matmul(1031, 1029, 1024, b, a->seed, &t);   /* > 2^28 MACs: the sampled path */
    }
    gpu_finish();
    return verify_summary(stdout, t.fails, t.checks);
}

/* ---- the experiments ---------------------------------------------------------------------- */

/* The take-away of a table whose comparison a failed kernel left without figures. */
#define NO_COMPARISON "a kernel FAILED verification: no comparison."

/* How many times longer the slower of two timings took. */
static double times_apart(double ms_a, double ms_b) { return ms_a >= ms_b ? ms_a / ms_b : ms_b / ms_a; }

/* Experiment 1: SAXPY on vectors of n floats, next to the cudaMemcpy row measured on them. */
static int experiment_saxpy(const gpu_info_t *g, const args_t *a, saxpy_ctx_t *c, const timing_t *t_d2d, double d2d)
{
    float *want = (float *)host_alloc(c->n * sizeof(float), "the CPU result");
    float *got = (float *)host_alloc_pinned(c->n * sizeof(float), "the result");
    size_t unfused = saxpy_want(c, want);
    check_t chk = check_saxpy(c, want, got);
    timing_t t;
    double bytes = 12.0 * (double)c->n, gbs, gbs8;
    char take[400];
    int ok;

    report_say("\nExperiment 1: SAXPY y = a*x + y on %zu floats (x and y: %.0f MiB each)\n", c->n,
               c->n * 4.0 / 1048576.0);
    report_say("  Per element: read x (4 B), read y (4 B), write y (4 B) = 12 bytes.  (The SAXPY-to-GEMM article counted 8.)\n");
    report_begin("saxpy", "  SAXPY against the copy ceiling (GB/s = 12 bytes per element / time):", NULL);
    report_row("cudaMemcpy D2D", t_d2d, 2.0 * (double)c->n * sizeof(float), NAN);
    ok = measure_row("saxpy", launch_saxpy, c, &chk, a, gpu_flush_wanted(g, a, 2 * c->n * sizeof(float)), bytes,
                     NAN, &t);
    free(want);
    gpu_free_host(got);
    if (!ok) {
        report_end("saxpy FAILED verification: no figure.");
        return 1;
    }
    gbs = stats_gbs(bytes, t.median_ms);
    gbs8 = stats_gbs(8.0 * (double)c->n, t.median_ms);
    snprintf(take, sizeof take,
             "saxpy moves %.0f GB/s = %.1f%% of the copy, %.1f%% of peak; the SAXPY-to-GEMM article's A100: ~1300 of 1555 GB/s "
             "(83.6%%), counted with 8 B per element.", gbs, 100.0 * gbs / d2d, 100.0 * gbs / g->peak_gbs);
    report_end(take);
    report_say("  Counted with the article's 8 bytes per element, the same run would claim %.0f GB/s: "
               "one third too little.\n", gbs8);
    report_say("  Verified exactly against the CPU's fmaf: the GPU rounds a*x + y once (FMA); rounding a*x "
               "first would change %zu of %zu results (%.1f%%).\n", unfused, c->n, 100.0 * unfused / (double)c->n);
    return 0;
}

/* Experiment 2: a rows x cols matrix: strip sums along rows and columns, then two 2D copies.
 * Each kernel is verified on a poisoned output (measure_row) before it is timed. */
static int experiment_rows_cols(const gpu_info_t *g, const args_t *a, int rows, int cols, dim3 block)
{
    rows_cols_t x;
    size_t n = (size_t)rows * cols;
    double in_bytes = (double)n * sizeof(float);
    timing_t t_row = {0, 0, 0, 0, 0}, t_col = t_row, t_crow = t_row, t_ccol = t_row;
    int ok_row, ok_col, ok_crow, ok_ccol, flush;
    char take[300], title[160];

    rows_cols_init(&x, rows, cols, block, a->seed);
    report_say("\nExperiment 2: rows and columns of a row-major matrix of %d rows x %d columns (%.0f MiB)\n",
               rows, cols, in_bytes / 1048576.0);
    report_say("  Each thread adds up a strip of %d elements of one row or one column (%zu and %zu threads).\n",
               SUM_STRIP, x.nr, x.nc);
    flush = gpu_flush_wanted(g, a, n * sizeof(float));
    report_begin("strip_sums", "  2a. Strip sums (GB/s = matrix read once + sums written):", NULL);
    ok_col = measure_row("sum_col_strips", launch_col_strips, &x.c, &x.chk_c, a, flush, in_bytes + 4.0 * x.nc, NAN,
                         &t_col);
    ok_row = measure_row("sum_row_strips", launch_row_strips, &x.c, &x.chk_r, a, flush, in_bytes + 4.0 * x.nr, NAN,
                         &t_row);
    if (t_row.median_ms >= t_col.median_ms)
        snprintf(take, sizeof take,
                 "column strips (neighbour threads on neighbour columns) ran %.1fx faster than row strips "
                 "(neighbour threads a row apart): same bytes, same adds.", t_row.median_ms / t_col.median_ms);
    else
        snprintf(take, sizeof take,
                 "row strips ran %.1fx faster than column strips: the caches served the row walks (make profile).",
                 t_col.median_ms / t_row.median_ms);
    report_end(ok_row && ok_col ? take : NO_COMPARISON);

    flush = gpu_flush_wanted(g, a, 2 * n * sizeof(float));
    snprintf(title, sizeof title, "  2b. 2D copy with %ux%u blocks (GB/s = read + write):", block.x, block.y);
    report_begin("copy2d", title, NULL);
    ok_crow = measure_row("copyRow", launch_copy_row, &x.c, &x.chk_copy, a, flush, 2.0 * in_bytes, NAN,
                          &t_crow);
    ok_ccol = measure_row("copyCol", launch_copy_col, &x.c, &x.chk_copy, a, flush, 2.0 * in_bytes, NAN,
                          &t_ccol);
    snprintf(take, sizeof take, "threadIdx.x along the row: %.1fx %s than along the column; same elements, same bytes.",
             times_apart(t_ccol.median_ms, t_crow.median_ms),
             t_ccol.median_ms >= t_crow.median_ms ? "faster" : "slower");
    report_end(ok_crow && ok_ccol ? take : NO_COMPARISON);

    rows_cols_free(&x);
    return !(ok_row && ok_col && ok_crow && ok_ccol);
}

/* Experiment 3: the naive product with both thread mappings. */
static int experiment_matmul(const gpu_info_t *g, const args_t *a, int mnk, dim3 block)
{
    size_t nA = (size_t)mnk * mnk;
    double flops = 2.0 * mnk * (double)mnk * mnk, min_bytes = 4.0 * (double)(3 * nA);
    gemm_problem_t p;
    matmul_ctx_t c;
    check_t chk;
    timing_t t_row = {0, 0, 0, 0, 0}, t_col = t_row;
    int ok_row, ok_col, flush;
    char take[400];

    gemm_problem_init(&p, mnk, mnk, mnk, 0, a->seed);
    c = matmul_ctx(&p, block);
    chk = gemm_check_of(&p);
    flush = gpu_flush_wanted(g, a, (size_t)min_bytes);

    report_say("\nExperiment 3: the naive matrix product C = A B, M = N = K = %d, %ux%u blocks\n", mnk, block.x,
               block.y);
    report_say("  One thread per element of C, a loop over k; verified against a reference in double (every element\n"
               "  on the GPU; on the CPU %s).\n",
               gemm_sample(mnk, mnk, mnk) ? "a fixed sample of 4096 elements and the corners" : "every element");
    ok_row = verify_then_time("matmul_x_along_row", launch_matmul_row, &c, &chk, a, flush, &t_row);
    ok_col = verify_then_time("matmul_x_along_col", launch_matmul_col, &c, &chk, a, flush, &t_col);

    report_begin("matmul", "  Naive product (GB/s = the minimum bytes: A and B read once, C written once):", "GFLOP/s");
    report_result("matmul_x_along_row", ok_row, &t_row, min_bytes, ok_row ? flops / (t_row.median_ms * 1e6) : NAN);
    report_result("matmul_x_along_col", ok_col, &t_col, min_bytes, ok_col ? flops / (t_col.median_ms * 1e6) : NAN);
    snprintf(take, sizeof take,
             "Col from threadIdx.x: %.0f GFLOP/s; Row from threadIdx.x: %.0f GFLOP/s, %.1fx %s. Same "
             "arithmetic, same data: only which operand the warp reads in one piece changed.",
             flops / (t_row.median_ms * 1e6), flops / (t_col.median_ms * 1e6),
             times_apart(t_col.median_ms, t_row.median_ms), t_col.median_ms >= t_row.median_ms ? "slower" : "faster");
    report_end(ok_row && ok_col ? take : NO_COMPARISON);
    report_say("  A product re-reads its operands K times, so GB/s of the minimum bytes says little here; the time\n"
               "  ratio and GFLOP/s are the figures to compare (the SAXPY-to-GEMM article's naive FP16 kernel on an A100: 2.5 TFLOP/s).\n");

    gemm_problem_free(&p);
    return !(ok_row && ok_col);
}

/* ---- main ----------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    static const char *summary =
        "Lesson 02: coalescing. SAXPY against the copy ceiling; rows and columns of a matrix walked with\n"
        "threadIdx.x along a row or along a column; the naive matrix product with both thread mappings.";
    int only = 0, mnk = 0;
    lesson_opt_t opts[] = {
        {"--only", OPT_INT, &only, 1, 3, "E", "run only experiment E (1 SAXPY, 2 rows/columns, 3 product)"},
        {"--mnk", OPT_INT, &mnk, 1, GEMM_DIM_MAX, "N",
         "matrix product size M = N = K (default 2048; 512 with --quick)"},
    };
    args_t a;
    gpu_info_t g;
    saxpy_ctx_t sc;
    dim3 block;
    size_t n, need_vectors, need_product;
    timing_t t_d2d;
    double d2d;
    int failed = 0, cols, rows;

    args_parse_or_exit(argc, argv, &a, summary,
                       "matrix of experiment 2 as COLSxROWS, or N for N x N (default 8192x8192; 2048 with\n"
                       "                  --quick); SAXPY uses vectors of COLS x ROWS floats", opts, 2);
    matrix_size_or_exit(&a, a.quick ? 2048 : 8192, a.quick ? 2048 : 8192, &cols, &rows);
    block = a.bx ? dim3(a.bx, a.by) : dim3(32, 8);
    n = (size_t)rows * cols;
    if (n / (block.x * block.y) >= (size_t)INT32_MAX)   /* SAXPY's blocks must fit gridDim.x */
        args_reject("bad --block '%s': %zu floats need more than 2^31 - 1 blocks of %u threads",
                    args_raw_value(argc, argv, "--block"), n, block.x * block.y);
    if (!mnk) mnk = a.quick ? 512 : 2048;
    report_init("02_coalescing", a.csv);
    gpu_init(&g);
    gpu_print_header(&g, "Lesson 02 - coalescing: what the 32 addresses of one warp look like", &a);
    if (a.check) return run_checks(&a);
    /* One experiment at a time holds memory: two vectors (or the matrix and its output) of n floats,
     * or the product (its three matrices and its reference). */
    need_vectors = 2 * n * sizeof(float);
    need_product = only == 1 || only == 2 ? 0 : gemm_problem_bytes(mnk, mnk, mnk, 0, 0);
    gpu_require_bytes(need_vectors > need_product ? need_vectors : need_product, "this run's largest experiment");

    sc.a = 1.7f;   /* not a power of two, so a*x is not exact and the FMA's single rounding matters */
    sc.n = n;
    sc.block = (int)(block.x * block.y);
    sc.seed = a.seed;
    /* The ceiling, measured on the SAXPY vectors before they hold data. */
    sc.x = (float *)gpu_alloc(n * sizeof(float), "x");
    sc.y = (float *)gpu_alloc(n * sizeof(float), "y");
    CHECK(cudaMemset(sc.x, 0, n * sizeof(float)));
    d2d = gpu_d2d_gbs(sc.y, sc.x, n * sizeof(float), &a, gpu_flush_wanted(&g, &a, 2 * n * sizeof(float)), &t_d2d);
    report_set_ceilings(d2d, g.peak_gbs);
    report_say("\nCeilings: cudaMemcpy D2D of %.0f MiB: %.0f GB/s; theoretical peak %.0f GB/s.\n",
               n * 4.0 / 1048576.0, d2d, g.peak_gbs);
    if (!only || only == 1) failed |= experiment_saxpy(&g, &a, &sc, &t_d2d, d2d);
    CHECK(cudaFree(sc.x));
    CHECK(cudaFree(sc.y));
    if (!only || only == 2) failed |= experiment_rows_cols(&g, &a, rows, cols, block);
    if (!only || only == 3) failed |= experiment_matmul(&g, &a, mnk, block);
    return gpu_finish_status(failed);
}
