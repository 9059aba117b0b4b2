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

/* The program's --help summary. */
static const char SUMMARY[] =
    "Lesson 02: coalescing. SAXPY against the copy ceiling; rows and columns of a matrix walked with\n"
    "threadIdx.x along a row or along a column; the naive matrix product with both thread mappings.";

/* ---- the rows ----------------------------------------------------------------------------- */

/* Experiment 2: the strip sums (1-D blocks of as many threads as the copies' 2-D block, one grid
 * row per strip) and the two 2D copies (common/transpose_matrix.h's rows, checked against the
 * input). */
typedef void (*strips_launch_t)(float *out, const float *m, int rows, int cols, int strip, dim3 block,
                                cudaStream_t s);
typedef struct {
    const char *label;
    strips_launch_t launch;
    int by_rows;   /* 1: a strip of a row per thread (lanes a row apart); 0: of a column (lanes adjacent) */
} strips_row_t;

static const strips_row_t STRIPS_LANES_ADJACENT = {"sum_strips_lanes_adjacent", launch_sum_strips_lanes_adjacent, 0};
static const strips_row_t STRIPS_LANES_ROWS_APART = {"sum_strips_lanes_rows_apart", launch_sum_strips_lanes_rows_apart, 1};
static const trow_t COPY_ROW = {"copyRow", launch_copy_row, TMATRIX_COPY};
static const trow_t COPY_COL = {"copyCol", launch_copy_col, TMATRIX_COPY};

/* Experiment 3: the naive product with both thread mappings (common/gemm_problem.h), 2-D blocks. */
static gemm_row_t matmul_row(int by_row, dim3 block)
{
    gemm_row_t r = {by_row ? "matmul_x_along_row" : "matmul_x_along_col",
                    by_row ? launch_matmul_x_along_row : launch_matmul_x_along_col, NULL, block};
    return r;
}

/* ---- SAXPY: vectors, verified then timed --------------------------------------------------- */

/* Experiment 1's vectors: x is rng stream seed, y stream seed + 1, refilled before every check. */
typedef struct {
    float a;
    float *x, *y;
    size_t n;
    dim3 block;      /* 1-D */
    uint64_t seed;
    float *want;
} saxpy_t;

/* The CPU's SAXPY on the same inputs into v->want (x and y are rng_float streams, recomputed here).
 * Returns how many results a separately rounded a*x + y would change (the bits an FMA changes). */
static size_t saxpy_want(saxpy_t *v)
{
    size_t i, unfused = 0;
    for (i = 0; i < v->n; i++) {
        float x = rng_float(v->seed, i), y = rng_float(v->seed + 1, i);
        volatile float prod = v->a * x;   /* volatile: the host compiler may not fuse it */
        v->want[i] = saxpy_ref(v->a, x, y);
        unfused += (prod + y) != v->want[i];
    }
    return unfused;
}

/* y is input and output, so it cannot be poisoned.  Instead x and y are filled afresh before the
 * one launch, and every y[i] must then equal fmaf(a, x[i], y[i]) exactly.  An element the kernel
 * skipped keeps its old y[i], which differs from a*x[i] + y[i] unless x[i] is exactly 0 (one
 * element in 2^24 of rng_float's output). */
static size_t saxpy_verify(const saxpy_t *v, mismatch_t *m)
{
    gpu_fill_random_f32(v->x, v->n, v->seed);
    gpu_fill_random_f32(v->y, v->n, v->seed + 1);
    launch_saxpy(v->y, v->a, v->x, v->n, v->block, gpu_stream());
    CHECK_LAST();
    return gpu_compare_f32(v->y, v->want, v->n, m);
}

/* SAXPY's row: verified, then timed (the timed launches keep changing y, which no longer matters)
 * and printed with 12 bytes per element.  Returns 1 and *t, or 0 with report_failed's line and row. */
static int saxpy_measure(const saxpy_t *v, const args_t *a, int flush, timing_t *t)
{
    mismatch_t m;
    bench_t bt;
    if (saxpy_verify(v, &m)) {
        report_failed("saxpy", &m, v->n, 0);
        return 0;
    }
    for (bench_start(&bt, "saxpy", a, flush); bench_next(&bt);)
        launch_saxpy(v->y, v->a, v->x, v->n, v->block, gpu_stream());
    *t = bt.t;
    report_row("saxpy", t, 12.0 * (double)v->n, NAN);
    return 1;
}

/* ---- the matrix of experiment 2 ------------------------------------------------------------ */

/* The matrix (random, guarded, with its host copy) as transpose_matrix.h's copies measure it, and
 * the CPU's strip sums of it, added in the GPU thread's order (so they compare exactly).  Every
 * strip output fits the matrix's output buffer: a row or a column has at most as many strips as
 * elements. */
typedef struct {
    tbench_t tb;           /* tb.m: cols = nx, rows = ny */
    size_t nr, nc;         /* row strips, column strips */
    float *want_r, *want_c;
} rows_cols_t;

/* The ceilings are main's (measured once on the SAXPY vectors of the same n floats): tb is set up
 * by hand, without tbench_init's second cudaMemcpy. */
static void rows_cols_init(rows_cols_t *x, const gpu_info_t *g, const args_t *a, int rows, int cols)
{
    tmatrix_t *m = &x->tb.m;
    tmatrix_init(m, cols, rows, a->seed, TMATRIX_COPY);
    x->tb.a = a;
    x->tb.bytes = 2.0 * (double)m->n * sizeof(float);
    x->tb.flush = g ? gpu_flush_wanted(g, a, 2 * m->n * sizeof(float)) : 0;
    x->nr = (size_t)strips_of(cols, SUM_STRIP) * rows;
    x->nc = (size_t)strips_of(rows, SUM_STRIP) * cols;
    x->want_r = (float *)host_alloc(x->nr * sizeof(float), "the CPU row strip sums");
    x->want_c = (float *)host_alloc(x->nc * sizeof(float), "the CPU column strip sums");
    cpu_row_strip_sums(m->h_in, x->want_r, rows, cols, SUM_STRIP);
    cpu_col_strip_sums(m->h_in, x->want_c, rows, cols, SUM_STRIP);
}

static void rows_cols_free(rows_cols_t *x)
{
    free(x->want_r);
    free(x->want_c);
    tmatrix_free(&x->tb.m);
}

/* Poisoned sums, one launch of r with the 1-D block, every sum compared with the CPU's; *n: how many. */
static size_t strips_verify(const rows_cols_t *x, const strips_row_t *r, dim3 block, mismatch_t *mm, size_t *n)
{
    const tmatrix_t *m = &x->tb.m;
    *n = r->by_rows ? x->nr : x->nc;
    gpu_poison(m->d_out, *n * sizeof(float));
    r->launch(m->d_out, m->d_in, m->ny, m->nx, SUM_STRIP, block, gpu_stream());
    CHECK_LAST();
    return gpu_compare_f32(m->d_out, r->by_rows ? x->want_r : x->want_c, *n, mm);
}

/* A strip-sum row: verified, then timed and printed (GB/s = the matrix read once + the sums
 * written).  Returns 1 and *t, or 0 with report_failed's line and row. */
static int strips_measure(const rows_cols_t *x, const strips_row_t *r, dim3 block, int flush, timing_t *t)
{
    const tmatrix_t *m = &x->tb.m;
    mismatch_t mm;
    size_t n;
    bench_t bt;
    if (strips_verify(x, r, block, &mm, &n)) {
        report_failed(r->label, &mm, n, 0);
        return 0;
    }
    for (bench_start(&bt, r->label, x->tb.a, flush); bench_next(&bt);)
        r->launch(m->d_out, m->d_in, m->ny, m->nx, SUM_STRIP, block, gpu_stream());
    *t = bt.t;
    report_row(r->label, t, (double)m->n * sizeof(float) + 4.0 * (double)n, NAN);
    return 1;
}

/* ---- --check ------------------------------------------------------------------------------ */

static void check_saxpy_at(size_t n, dim3 block, uint64_t seed, check_tally_t *t)
{
    guarded_t bufs[2];
    saxpy_t v;
    mismatch_t m;
    char size[64];
    v.a = 1.7f;
    v.n = n;
    v.block = block;
    v.seed = seed;
    v.x = (float *)guarded_alloc(&bufs[0], n * sizeof(float), "x");
    v.y = (float *)guarded_alloc(&bufs[1], n * sizeof(float), "y");
    v.want = (float *)host_alloc(n * sizeof(float), "the CPU result");
    saxpy_want(&v);
    saxpy_verify(&v, &m);
    snprintf(size, sizeof size, "n=%zu block=%u", n, block.x);
    check_report(t, "saxpy", size, &m, n, 0, bufs, 2);
    guarded_free(&bufs[0]);
    guarded_free(&bufs[1]);
    free(v.want);
}

/* Experiment 2's four kernels on one matrix: the strip sums against the CPU's, the copies against
 * the input (trow_check); the guards of the input and the output checked after every launch. */
static void check_matrix(int rows, int cols, dim3 block, const args_t *a, check_tally_t *t)
{
    static const strips_row_t *const strips[2] = {&STRIPS_LANES_ROWS_APART, &STRIPS_LANES_ADJACENT};
    rows_cols_t x;
    char size[80];
    int k;
    rows_cols_init(&x, NULL, a, rows, cols);
    snprintf(size, sizeof size, "%dx%d (cols x rows) block=%ux%u", cols, rows, block.x, block.y);
    for (k = 0; k < 2; k++) {
        const guarded_t bufs[2] = {x.tb.m.g_in, x.tb.m.g_out};
        mismatch_t mm;
        size_t n;
        strips_verify(&x, strips[k], dim3(block.x * block.y), &mm, &n);
        check_report(t, strips[k]->label, size, &mm, n, 0, bufs, 2);
    }
    trow_check(&x.tb.m, &COPY_ROW, block, size, t);
    trow_check(&x.tb.m, &COPY_COL, block, size, t);
    rows_cols_free(&x);
}

static void check_matmul(int M, int N, int K, dim3 block, uint64_t seed, check_tally_t *t)
{
    gemm_problem_t p;
    gemm_row_t along_row = matmul_row(1, block), along_col = matmul_row(0, block);
    char size[80];
    gemm_problem_init(&p, M, N, K, 0, seed);
    snprintf(size, sizeof size, "M=%d N=%d K=%d block=%ux%u%s", M, N, K, block.x, block.y,
             p.sample ? " (sampled)" : "");
    gemm_check(&p, &along_row, size, t);
    gemm_check(&p, &along_col, size, t);
    gemm_problem_free(&p);
}

/* Every kernel at sizes that are multiples of nothing (1, primes, one past the strip length),
 * with three block shapes: 32x8 (one warp per row of the block), 8x32 (a warp spans four rows)
 * and 13x7 (91 threads: a partial warp in every block).  --quick leaves out the big sizes.  The
 * end of a --check run: check_summary (the GPU finished, the summary line, the exit code). */
static int run_checks(const args_t *a)
{
    static const size_t sax[] = {1, 31, 33, 1000, 4097, 100003};
    static const int shapes[][2] = {{1, 1}, {1, 1000}, {1000, 1}, {31, 33}, {255, 257}, {777, 1000}};
    static const int prods[][3] = {{1, 1, 1}, {1, 33, 7}, {31, 1, 17}, {33, 31, 29}, {100, 77, 1}, {257, 129, 65}};
    dim3 blocks[3] = {dim3(32, 8), dim3(8, 32), dim3(13, 7)};
    int nb = 3, bi;
    size_t i;
    check_tally_t t = {0, 0, stdout};

    if (a->bx) {   /* --block given: check that shape only */
        blocks[0] = dim3(a->bx, a->by);
        nb = 1;
    }
    for (bi = 0; bi < nb; bi++) {
        dim3 b = blocks[bi];
        for (i = 0; i < sizeof sax / sizeof sax[0]; i++) check_saxpy_at(sax[i], dim3(b.x * b.y), a->seed, &t);
        for (i = 0; i < sizeof shapes / sizeof shapes[0]; i++) check_matrix(shapes[i][0], shapes[i][1], b, a, &t);
        for (i = 0; i < sizeof prods / sizeof prods[0]; i++)
            check_matmul(prods[i][0], prods[i][1], prods[i][2], b, a->seed, &t);
    }
    if (!a->quick) {   /* the big sizes, with the first block shape only */
        dim3 b = blocks[0];
        check_saxpy_at(((size_t)1 << 22) + 3, dim3(b.x * b.y), a->seed, &t);
        check_matrix(4097, 8191, b, a, &t);
        check_matmul(1000, 777, 313, b, a->seed, &t);
        check_matmul(1031, 1029, 1024, b, a->seed, &t);   /* > 2^28 MACs: the sampled path */
    }
    return check_summary(&t);
}

/* ---- the experiments ---------------------------------------------------------------------- */

/* The take-away of a table whose comparison a failed kernel left without figures. */
#define NO_COMPARISON "a kernel FAILED verification: no comparison."

/* How many times longer the slower of two timings took. */
static double times_apart(double ms_a, double ms_b) { return ms_a >= ms_b ? ms_a / ms_b : ms_b / ms_a; }

/* Experiment 1: SAXPY on vectors of n floats, next to the cudaMemcpy row measured on them. */
static int experiment_saxpy(const gpu_info_t *g, const args_t *a, saxpy_t *v, const timing_t *t_d2d, double d2d)
{
    size_t unfused;
    timing_t t;
    double bytes = 12.0 * (double)v->n, gbs, gbs8;
    char take[400];
    int ok;

    v->want = (float *)host_alloc(v->n * sizeof(float), "the CPU result");
    unfused = saxpy_want(v);
    report_say("\nExperiment 1: SAXPY y = a*x + y on %zu floats (x and y: %.0f MiB each)\n", v->n,
               v->n * 4.0 / 1048576.0);
    report_say("  Per element: read x (4 B), read y (4 B), write y (4 B) = 12 bytes.\n");
    report_begin("saxpy", "  SAXPY against the copy ceiling (GB/s = 12 bytes per element / time):", NULL);
    report_row("cudaMemcpy D2D", t_d2d, 2.0 * (double)v->n * sizeof(float), NAN);
    ok = saxpy_measure(v, a, gpu_flush_wanted(g, a, 2 * v->n * sizeof(float)), &t);
    free(v->want);
    if (!ok) {
        report_end("saxpy FAILED verification: no figure.");
        return 1;
    }
    gbs = stats_gbs(bytes, t.median_ms);
    gbs8 = stats_gbs(8.0 * (double)v->n, t.median_ms);
    snprintf(take, sizeof take,
             "saxpy moves %.0f GB/s = %.1f%% of the copy, %.1f%% of peak.", gbs, 100.0 * gbs / d2d,
             100.0 * gbs / g->peak_gbs);
    report_end(take);
    report_say("  Counted with 8 bytes per element (the write of y left out), the same run would claim %.0f GB/s: "
               "one third too little.\n", gbs8);
    report_say("  Verified exactly against the CPU's fmaf: the GPU rounds a*x + y once (FMA); rounding a*x "
               "first would change %zu of %zu results (%.1f%%).\n", unfused, v->n, 100.0 * unfused / (double)v->n);
    return 0;
}

/* Experiment 2: a rows x cols matrix: strip sums along rows and columns, then two 2D copies.
 * Each kernel is verified on a poisoned output before it is timed. */
static int experiment_rows_cols(const gpu_info_t *g, const args_t *a, int rows, int cols, dim3 block)
{
    rows_cols_t x;
    size_t n = (size_t)rows * cols;
    double in_bytes = (double)n * sizeof(float);
    timing_t t_row = {0, 0, 0, 0, 0}, t_col = t_row, t_crow = t_row, t_ccol = t_row;
    int ok_row, ok_col, ok_crow, ok_ccol, flush;
    dim3 block1(block.x * block.y);   /* the strip sums' 1-D block: as many threads as the copies' */
    char take[300], title[160];

    rows_cols_init(&x, g, a, rows, cols);
    report_say("\nExperiment 2: rows and columns of a row-major matrix of %d rows x %d columns (%.0f MiB)\n",
               rows, cols, in_bytes / 1048576.0);
    report_say("  Each thread adds up a strip of %d elements of one row or one column (%zu and %zu threads).\n",
               SUM_STRIP, x.nr, x.nc);
    flush = gpu_flush_wanted(g, a, n * sizeof(float));
    report_begin("strip_sums", "  2a. Strip sums (GB/s = matrix read once + sums written):", NULL);
    ok_col = strips_measure(&x, &STRIPS_LANES_ADJACENT, block1, flush, &t_col);
    ok_row = strips_measure(&x, &STRIPS_LANES_ROWS_APART, block1, flush, &t_row);
    if (t_row.median_ms >= t_col.median_ms)
        snprintf(take, sizeof take,
                 "the coalesced twin (lanes adjacent) ran %.1fx faster than the strided twin (lanes a row apart): "
                 "same useful bytes, same adds.",
                 t_row.median_ms / t_col.median_ms);
    else
        snprintf(take, sizeof take,
                 "the strided twin (lanes a row apart) ran %.1fx faster than the coalesced twin (lanes adjacent): "
                 "the caches served its row walks (make profile).",
                 t_col.median_ms / t_row.median_ms);
    report_end(ok_row && ok_col ? take : NO_COMPARISON);

    snprintf(title, sizeof title, "  2b. 2D copy with %ux%u blocks (GB/s = read + write):", block.x, block.y);
    report_begin("copy2d", title, NULL);
    ok_crow = trow_measure(&x.tb, &COPY_ROW, block, NAN, &t_crow);
    ok_ccol = trow_measure(&x.tb, &COPY_COL, block, NAN, &t_ccol);
    snprintf(take, sizeof take,
             "copyRow, the coalesced twin: %.1fx %s than copyCol, the strided twin; same elements, same bytes.",
             times_apart(t_ccol.median_ms, t_crow.median_ms),
             t_ccol.median_ms >= t_crow.median_ms ? "faster" : "slower");
    report_end(ok_crow && ok_ccol ? take : NO_COMPARISON);

    rows_cols_free(&x);
    return !(ok_row && ok_col && ok_crow && ok_ccol);
}

/* Experiment 3: the naive product with both thread mappings, each verified (gemm_time) then timed. */
static int experiment_matmul(const gpu_info_t *g, const args_t *a, int mnk, dim3 block)
{
    size_t nA = (size_t)mnk * mnk;
    double flops = 2.0 * mnk * (double)mnk * mnk, min_bytes = 4.0 * (double)(3 * nA);
    gemm_problem_t p;
    gemm_row_t along_row = matmul_row(1, block), along_col = matmul_row(0, block);
    timing_t t_row = {0, 0, 0, 0, 0}, t_col = t_row;
    int ok_row, ok_col, flush;
    char take[400];

    gemm_problem_init(&p, mnk, mnk, mnk, 0, a->seed);
    flush = gpu_flush_wanted(g, a, (size_t)min_bytes);

    report_say("\nExperiment 3: the naive matrix product C = A B, M = N = K = %d, %ux%u blocks\n", mnk, block.x,
               block.y);
    report_say("  One thread per element of C, a loop over k; verified against a reference in double (every element\n"
               "  on the GPU; on the CPU %s).\n",
               p.sample ? "a fixed sample of 4096 elements and the corners" : "every element");
    report_begin("matmul", "  Naive product (GB/s = the minimum bytes: A and B read once, C written once):", "GFLOP/s");
    ok_row = gemm_time(&p, &along_row, a, flush, &t_row);
    if (ok_row) report_row(along_row.label, &t_row, min_bytes, flops / (t_row.median_ms * 1e6));
    ok_col = gemm_time(&p, &along_col, a, flush, &t_col);
    if (ok_col) report_row(along_col.label, &t_col, min_bytes, flops / (t_col.median_ms * 1e6));
    snprintf(take, sizeof take,
             "the coalesced twin (along_row): %.0f GFLOP/s; the strided twin (along_col): %.0f GFLOP/s, %.1fx %s. Same "
             "arithmetic, same data: only which operand the warp reads in one piece changed.",
             flops / (t_row.median_ms * 1e6), flops / (t_col.median_ms * 1e6),
             times_apart(t_col.median_ms, t_row.median_ms), t_col.median_ms >= t_row.median_ms ? "slower" : "faster");
    report_end(ok_row && ok_col ? take : NO_COMPARISON);
    report_say("  A product re-reads its operands K times, so GB/s of the minimum bytes says little here; the time\n"
               "  ratio and GFLOP/s are the figures to compare.\n");

    gemm_problem_free(&p);
    return !(ok_row && ok_col);
}

/* ---- main ----------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    int only = 0, mnk = 0;
    lesson_opt_t opts[] = {
        {"--only", OPT_INT, &only, 1, 3, "E", "run only experiment E (1 SAXPY, 2 rows/columns, 3 product)"},
        {"--mnk", OPT_INT, &mnk, 1, GEMM_DIM_MAX, "N",
         "matrix product size M = N = K (default 2048; 512 with --quick)"},
    };
    args_t a;
    gpu_info_t g;
    saxpy_t sc;
    dim3 block;
    size_t n, need, need_matrix, need_product;
    timing_t t_d2d;
    double d2d;
    int failed = 0, cols, rows;

    args_parse_or_exit(argc, argv, &a, SUMMARY,
                       "matrix of experiment 2 as COLSxROWS, or N for N x N (default 8192x8192; 2048 with\n"
                       "                  --quick); SAXPY uses vectors of COLS x ROWS floats", opts, 2);
    matrix_size_or_exit(&a, a.quick ? 2048 : 8192, a.quick ? 2048 : 8192, &cols, &rows);
    block = a.bx ? dim3(a.bx, a.by) : dim3(32, 8);
    n = (size_t)rows * cols;
    /* SAXPY's blocks must fit gridDim.x.  The message names what was typed: the --size, and the
     * --block when one was given (otherwise the default block, which --block can change). */
    if (n / (block.x * block.y) >= (size_t)INT32_MAX) {
        if (a.bx)
            args_reject("bad --size '%s' with --block '%s': %zu floats need more than 2^31 - 1 blocks of %u threads",
                        args_raw_value(argc, argv, "--size"), args_raw_value(argc, argv, "--block"), n,
                        block.x * block.y);
        args_reject("bad --size '%s': %zu floats need more than 2^31 - 1 blocks of %u threads (the default "
                    "--block 32x8; a larger --block needs fewer)", args_raw_value(argc, argv, "--size"), n,
                    block.x * block.y);
    }
    if (!mnk) mnk = a.quick ? 512 : 2048;
    gpu_start(&g, "02_coalescing", "Lesson 02 - coalescing: what the 32 addresses of one warp look like", &a);
    if (a.check) return run_checks(&a);
    /* One experiment at a time holds memory: two vectors of n floats, the matrix and its output
     * (with their guard zones), or the product (its three matrices and its reference). */
    need = 2 * n * sizeof(float);
    need_matrix = only == 1 || only == 3 ? 0 : tmatrix_bytes(cols, rows);
    need_product = only == 1 || only == 2 ? 0 : gemm_problem_bytes(mnk, mnk, mnk, 0, 0);
    if (need_matrix > need) need = need_matrix;
    if (need_product > need) need = need_product;
    gpu_require_bytes(need, "this run's largest experiment");

    sc.a = 1.7f;   /* not a power of two, so a*x is not exact and the FMA's single rounding matters */
    sc.n = n;
    sc.block = dim3(block.x * block.y);   /* 1-D, as many threads as the 2-D block */
    sc.seed = a.seed;
    /* The ceiling, measured on the SAXPY vectors before they hold data. */
    sc.x = (float *)gpu_alloc(n * sizeof(float), "x");
    sc.y = (float *)gpu_alloc(n * sizeof(float), "y");
    CHECK(cudaMemset(sc.x, 0, n * sizeof(float)));
    d2d = gpu_d2d_gbs(sc.y, sc.x, n * sizeof(float), &a, gpu_flush_wanted(&g, &a, 2 * n * sizeof(float)), &t_d2d);
    report_say("\nCeilings: cudaMemcpy D2D of %.0f MiB: %.0f GB/s; theoretical peak %.0f GB/s.\n",
               n * 4.0 / 1048576.0, d2d, g.peak_gbs);
    if (!only || only == 1) failed |= experiment_saxpy(&g, &a, &sc, &t_d2d, d2d);
    CHECK(cudaFree(sc.x));
    CHECK(cudaFree(sc.y));
    if (!only || only == 2) failed |= experiment_rows_cols(&g, &a, rows, cols, block);
    if (!only || only == 3) failed |= experiment_matmul(&g, &a, mnk, block);
    return gpu_finish_status(failed);
}
