/* Lesson 02: coalescing -- what the 32 addresses of one warp look like.
 *
 * The 32 threads of a warp execute a load together.  When their 32 addresses are consecutive
 * (an index of the form A[(terms without threadIdx.x) + threadIdx.x]), the warp's 32 floats are
 * 128 bytes: four whole 32-byte sectors, one request.  When consecutive threads are a row apart,
 * the same instruction touches 32 different sectors and uses 4 bytes of each.
 *
 * Experiment 1: SAXPY y = a*x + y, a coalesced kernel, against the copy ceiling (12 bytes per element).
 * Experiment 2: rows and columns of a row-major matrix: strip sums and a 2D copy, each once with
 *               consecutive threads along a row and once with consecutive threads a row apart.
 * Experiment 3: the naive matrix product: B is read coalesced, A is a broadcast; swapping the
 *               thread mapping turns both around. */
#include "args.h"
#include "checked_bench.h"
#include "coalescing.h"
#include "cuda_check.h"
#include "exitcodes.h"
#include "gemm_problem.h"
#include "gpu.h"
#include "matrix_args.h"
#include "report.h"
#include "rng.h"
#include "stats.h"
#include "verify.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- kernels ------------------------------------------------------------------------------ */

/* y = a*x + y.  Thread i touches x[i] and y[i]: the index is blockIdx.x * blockDim.x +
 * threadIdx.x, the coalesced form, so every warp reads 2 x 128 bytes and writes 128 bytes.
 * Written as `a * x[i] + y[i]`, nvcc would contract it into this same fused multiply-add (FFMA,
 * one rounding) by default (--fmad=true); fmaf says so whatever the flags, and the CPU's fmaf
 * then reproduces every bit. */
__global__ void saxpy(float a, const float *x, float *y, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n) y[i] = fmaf(a, x[i], y[i]);
}

/* Row strips: thread r adds up SUM_STRIP consecutive elements of row r.  Consecutive threads
 * take consecutive ROWS, so at each step the warp's 32 addresses are `cols` floats apart
 * (threadIdx.x is multiplied by cols): 32 sectors per load, 4 useful bytes in each. */
__global__ void sum_row_strips(const float *m, float *out, int rows, int cols, int strip)
{
    size_t r = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    int ns = cols / strip + (cols % strip != 0), s, k;
    if (r >= (size_t)rows) return;
    for (s = blockIdx.y; s < ns; s += gridDim.y) {   /* gridDim.y is capped at 65535 */
        const float *p = m + r * cols + (size_t)s * strip;
        int len = min(strip, cols - s * strip);
        float acc = 0.0f;
        for (k = 0; k < len; k++) acc += p[k];
        out[(size_t)s * rows + r] = acc;
    }
}

/* Column strips: thread c adds up SUM_STRIP consecutive elements of column c.  Consecutive
 * threads take consecutive COLUMNS: m[(row) * cols + blockIdx.x * blockDim.x + threadIdx.x],
 * the coalesced form, so each step of the walk reads 128 consecutive bytes per warp. */
__global__ void sum_col_strips(const float *m, float *out, int rows, int cols, int strip)
{
    size_t c = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    int ns = rows / strip + (rows % strip != 0), s, k;
    if (c >= (size_t)cols) return;
    for (s = blockIdx.y; s < ns; s += gridDim.y) {
        const float *p = m + (size_t)s * strip * cols + c;
        int len = min(strip, rows - s * strip);
        float acc = 0.0f;
        for (k = 0; k < len; k++) acc += p[(size_t)k * cols];
        out[(size_t)s * cols + c] = acc;
    }
}

/* 2D copy, threadIdx.x along a row: neighbours in a warp are neighbours in memory. */
__global__ void copy_x_along_row(float *dst, const float *src, int rows, int cols)
{
    size_t c = blockIdx.x * (size_t)blockDim.x + threadIdx.x, r;
    if (c >= (size_t)cols) return;
    for (r = blockIdx.y * blockDim.y + threadIdx.y; r < (size_t)rows; r += gridDim.y * blockDim.y)
        dst[r * cols + c] = src[r * cols + c];
}

/* 2D copy, threadIdx.x along a column: the same elements, the same bytes, but neighbours in a
 * warp are a whole row (cols x 4 bytes) apart for the load and for the store. */
__global__ void copy_x_along_col(float *dst, const float *src, int rows, int cols)
{
    size_t r = blockIdx.x * (size_t)blockDim.x + threadIdx.x, c;
    if (r >= (size_t)rows) return;
    for (c = blockIdx.y * blockDim.y + threadIdx.y; c < (size_t)cols; c += gridDim.y * blockDim.y)
        dst[r * cols + c] = src[r * cols + c];
}

/* The naive product C = A B (A: M x K, B: K x N, row-major), one thread per element of C, with
 * the textbook mapping Col = blockIdx.x * blockDim.x + threadIdx.x.  In the k loop:
 *   B[k * N + Col]: (k * N + blockIdx.x * blockDim.x) + threadIdx.x -> coalesced, 128 bytes/warp;
 *   A[Row * K + k]: no threadIdx.x at all -> every lane of a warp with one Row reads the same
 *                   address: a broadcast, one sector per request. */
__global__ void matmul_x_along_row(const float *A, const float *B, float *C, int M, int N, int K)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y, k;
    float acc = 0.0f;
    if (row >= M || col >= N) return;
    for (k = 0; k < K; k++) acc += A[(size_t)row * K + k] * B[(size_t)k * N + col];
    C[(size_t)row * N + col] = acc;
}

/* The same product with the mapping swapped: Row = blockIdx.x * blockDim.x + threadIdx.x.
 * Now A[Row * K + k] has threadIdx.x multiplied by K (32 sectors per request), B[k * N + Col]
 * is the broadcast, and the store to C is a row apart too. */
__global__ void matmul_x_along_col(const float *A, const float *B, float *C, int M, int N, int K)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    int col = blockIdx.y * blockDim.y + threadIdx.y, k;
    float acc = 0.0f;
    if (row >= M || col >= N) return;
    for (k = 0; k < K; k++) acc += A[(size_t)row * K + k] * B[(size_t)k * N + col];
    C[(size_t)row * N + col] = acc;
}

/* ---- launching ---------------------------------------------------------------------------- */

typedef struct {
    const float *in, *A, *B;
    float *out, *C, *y;
    size_t n;                 /* SAXPY length */
    int rows, cols;           /* experiment 2's matrix */
    int M, N, K;              /* experiment 3's product */
    float a;
    int bx, by;               /* 2D block (copies, products) */
    int block;                /* 1D block (SAXPY, strip sums) = bx * by */
} ctx_t;

static unsigned cdiv(size_t a, size_t b) { return (unsigned)((a + b - 1) / b); }
/* gridDim.y and z are limited to 65535; the kernels loop over what a capped grid leaves. */
static unsigned cap_y(size_t g) { return g > 65535 ? 65535u : (unsigned)g; }

static void launch_saxpy(void *p)
{
    ctx_t *c = (ctx_t *)p;
    saxpy<<<cdiv(c->n, c->block), c->block>>>(c->a, c->in, c->y, c->n);
}

static void launch_row_strips(void *p)
{
    ctx_t *c = (ctx_t *)p;
    dim3 grid(cdiv(c->rows, c->block), cap_y(strips_of(c->cols, SUM_STRIP)));
    sum_row_strips<<<grid, c->block>>>(c->in, c->out, c->rows, c->cols, SUM_STRIP);
}

static void launch_col_strips(void *p)
{
    ctx_t *c = (ctx_t *)p;
    dim3 grid(cdiv(c->cols, c->block), cap_y(strips_of(c->rows, SUM_STRIP)));
    sum_col_strips<<<grid, c->block>>>(c->in, c->out, c->rows, c->cols, SUM_STRIP);
}

static void launch_copy_row(void *p)
{
    ctx_t *c = (ctx_t *)p;
    dim3 block(c->bx, c->by), grid(cdiv(c->cols, c->bx), cap_y(cdiv(c->rows, c->by)));
    copy_x_along_row<<<grid, block>>>(c->out, c->in, c->rows, c->cols);
}

static void launch_copy_col(void *p)
{
    ctx_t *c = (ctx_t *)p;
    dim3 block(c->bx, c->by), grid(cdiv(c->rows, c->bx), cap_y(cdiv(c->cols, c->by)));
    copy_x_along_col<<<grid, block>>>(c->out, c->in, c->rows, c->cols);
}

/* M and N are at most GEMM_DIM_MAX = 16384 (--mnk), so gridDim.y = ceil(M or N / by) stays below 65535. */
static void launch_matmul_row(void *p)
{
    ctx_t *c = (ctx_t *)p;
    dim3 block(c->bx, c->by), grid(cdiv(c->N, c->bx), cdiv(c->M, c->by));
    matmul_x_along_row<<<grid, block>>>(c->A, c->B, c->C, c->M, c->N, c->K);
}

static void launch_matmul_col(void *p)
{
    ctx_t *c = (ctx_t *)p;
    dim3 block(c->bx, c->by), grid(cdiv(c->M, c->bx), cdiv(c->N, c->by));
    matmul_x_along_col<<<grid, block>>>(c->A, c->B, c->C, c->M, c->N, c->K);
}

/* ---- verification ------------------------------------------------------------------------- */

static float *download(const float *d, size_t n, const char *what)
{
    float *h = (float *)host_alloc(n * sizeof(float), what);
    CHECK(cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost));
    return h;
}

static void say_failure(const char *what, const mismatch_t *m, size_t n, size_t width)
{
    char d[200];
    verify_describe(m, n, width, d, sizeof d);
    fprintf(stderr, "%s: FAILED verification: %s\n", what, d);
}

/* SAXPY: y is input and output, so it cannot be poisoned.  Instead x and y are filled afresh,
 * copied to the host, and after one launch every y[i] must equal fmaf(a, x[i], y[i]) exactly.
 * An element the kernel skipped keeps its old y[i], which differs from a*x[i] + y[i] unless
 * x[i] is exactly 0 (one element in 2^24 of rng_float's output).  *unfused counts the elements
 * where a separately rounded a*x + y would have differed (the bits an FMA changes). */
static size_t verify_saxpy(ctx_t *c, float *d_x, uint64_t seed, mismatch_t *m, size_t *unfused)
{
    size_t i, bad, diff = 0;
    float *x, *y0, *got, *want;
    gpu_fill_random_f32(d_x, c->n, seed);
    gpu_fill_random_f32(c->y, c->n, seed + 1);
    x = download(d_x, c->n, "x");
    y0 = download(c->y, c->n, "y");
    launch_saxpy(c);
    CHECK_LAST();
    got = download(c->y, c->n, "the result");
    want = (float *)host_alloc(c->n * sizeof(float), "the CPU result");
    for (i = 0; i < c->n; i++) {
        volatile float prod = c->a * x[i];   /* volatile: the host compiler may not fuse it */
        want[i] = saxpy_ref(c->a, x[i], y0[i]);
        diff += (prod + y0[i]) != want[i];
    }
    bad = verify_f32(want, got, c->n, 0.0, 0.0, m);
    if (unfused) *unfused = diff;
    free(x);
    free(y0);
    free(got);
    free(want);
    return bad;
}

/* The CPU's strip sums, added in the GPU thread's order (so they compare exactly). */
static float *cpu_strips(const ctx_t *c, int by_rows, const float *h_m, size_t *n)
{
    float *want;
    *n = by_rows ? (size_t)strips_of(c->cols, SUM_STRIP) * c->rows : (size_t)strips_of(c->rows, SUM_STRIP) * c->cols;
    want = (float *)host_alloc(*n * sizeof(float), "the CPU strip sums");
    if (by_rows) cpu_row_strip_sums(h_m, want, c->rows, c->cols, SUM_STRIP);
    else cpu_col_strip_sums(h_m, want, c->rows, c->cols, SUM_STRIP);
    return want;
}

/* Experiment 3's product on the GPU and on the host (gemm_problem.h), seen by the kernels through
 * ctx.  Checked within cpu_gemm_tolerance: every element up to 2^28 multiply-adds, beyond that a
 * fixed sample of 4096 elements plus the four corners (gemm_sample). */
static void matmul_setup(ctx_t *c, gemm_problem_t *p, int M, int N, int K, uint64_t seed)
{
    gemm_problem_init(p, M, N, K, 0, seed);
    c->A = p->dA;
    c->B = p->dB;
    c->C = p->dC;
    c->M = M;
    c->N = N;
    c->K = K;
}

/* The output buffer of experiment 2 holds a copy or either set of strip sums. */
static size_t matrix_out_elems(int rows, int cols)
{
    size_t n = (size_t)rows * cols, r = (size_t)strips_of(cols, SUM_STRIP) * rows,
           c = (size_t)strips_of(rows, SUM_STRIP) * cols;
    if (r > n) n = r;
    return c > n ? c : n;
}

/* ---- --check ------------------------------------------------------------------------------ */

typedef struct { int fails, checks; } tally_t;

static void tally(tally_t *t, const char *what, const char *size, const mismatch_t *m, size_t n, size_t width)
{
    t->fails += verify_print(stdout, what, size, m, n, width);
    t->checks++;
}

static void check_saxpy(size_t n, int block, uint64_t seed, tally_t *t)
{
    ctx_t c;
    float *d_x = (float *)gpu_alloc(n * sizeof(float), "x");
    char size[64];
    mismatch_t m;
    memset(&c, 0, sizeof c);
    c.y = (float *)gpu_alloc(n * sizeof(float), "y");
    c.in = d_x;
    c.n = n;
    c.a = 1.7f;
    c.block = block;
    snprintf(size, sizeof size, "n=%zu block=%d", n, block);
    verify_saxpy(&c, d_x, seed, &m, NULL);
    tally(t, "saxpy", size, &m, n, 0);
    CHECK(cudaFree(d_x));
    CHECK(cudaFree(c.y));
}

static void check_matrix(int rows, int cols, int bx, int by, uint64_t seed, tally_t *t)
{
    size_t n = (size_t)rows * cols, nr, nc;
    ctx_t c;
    float *d_in = (float *)gpu_alloc(n * sizeof(float), "the matrix"), *h_m, *want_r, *want_c, *got;
    char size[80];
    mismatch_t m;
    memset(&c, 0, sizeof c);
    c.out = (float *)gpu_alloc(matrix_out_elems(rows, cols) * sizeof(float), "the output");
    c.in = d_in;
    c.rows = rows;
    c.cols = cols;
    c.bx = bx;
    c.by = by;
    c.block = bx * by;
    gpu_fill_random_f32(d_in, n, seed);
    h_m = download(d_in, n, "the matrix");
    want_r = cpu_strips(&c, 1, h_m, &nr);
    want_c = cpu_strips(&c, 0, h_m, &nc);
    got = (float *)host_alloc(matrix_out_elems(rows, cols) * sizeof(float), "the GPU result");
    snprintf(size, sizeof size, "%dx%d (cols x rows) block=%dx%d", cols, rows, bx, by);
    verify_launch_f32(launch_row_strips, &c, c.out, want_r, got, nr, &m);
    tally(t, "sum_row_strips", size, &m, nr, 0);
    verify_launch_f32(launch_col_strips, &c, c.out, want_c, got, nc, &m);
    tally(t, "sum_col_strips", size, &m, nc, 0);
    verify_launch_f32(launch_copy_row, &c, c.out, h_m, got, n, &m);
    tally(t, "copy_x_along_row", size, &m, n, (size_t)cols);
    verify_launch_f32(launch_copy_col, &c, c.out, h_m, got, n, &m);
    tally(t, "copy_x_along_col", size, &m, n, (size_t)cols);
    free(h_m);
    free(want_r);
    free(want_c);
    free(got);
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(c.out));
}

static void check_matmul(int M, int N, int K, int bx, int by, uint64_t seed, tally_t *t)
{
    ctx_t c;
    gemm_problem_t p;
    char size[80];
    mismatch_t m;
    memset(&c, 0, sizeof c);
    c.bx = bx;
    c.by = by;
    matmul_setup(&c, &p, M, N, K, seed);
    snprintf(size, sizeof size, "M=%d N=%d K=%d block=%dx%d%s", M, N, K, bx, by,
             gemm_sample(M, N, K) ? " (sampled)" : "");
    gemm_problem_verify(&p, launch_matmul_row, &c, &m);
    tally(t, "matmul_x_along_row", size, &m, gemm_checked_elems(M, N, K), (size_t)N);
    gemm_problem_verify(&p, launch_matmul_col, &c, &m);
    tally(t, "matmul_x_along_col", size, &m, gemm_checked_elems(M, N, K), (size_t)N);
    gemm_problem_free(&p);
}

/* Every kernel at sizes that are multiples of nothing (1, primes, one past the strip length),
 * with three block shapes: 32x8 (one warp per row of the block), 8x32 (a warp spans four rows)
 * and 13x7 (91 threads: a partial warp in every block).  --quick leaves out the big sizes. */
static int run_checks(const args_t *a)
{
    static const size_t sax[] = {1, 31, 33, 1000, 4097, 100003};
    static const int shapes[][2] = {{1, 1}, {1, 1000}, {1000, 1}, {31, 33}, {255, 257}, {777, 1000}};
    static const int prods[][3] = {{1, 1, 1}, {1, 33, 7}, {31, 1, 17}, {33, 31, 29}, {100, 77, 1}, {257, 129, 65}};
    int blocks[3][2] = {{32, 8}, {8, 32}, {13, 7}}, nb = 3, bi;
    size_t i;
    tally_t t = {0, 0};

    if (a->bx) {   /* --block given: check that shape only */
        blocks[0][0] = a->bx;
        blocks[0][1] = a->by;
        nb = 1;
    }
    for (bi = 0; bi < nb; bi++) {
        int bx = blocks[bi][0], by = blocks[bi][1];
        for (i = 0; i < sizeof sax / sizeof sax[0]; i++) check_saxpy(sax[i], bx * by, a->seed, &t);
        for (i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
            check_matrix(shapes[i][0], shapes[i][1], bx, by, a->seed, &t);
        for (i = 0; i < sizeof prods / sizeof prods[0]; i++)
            check_matmul(prods[i][0], prods[i][1], prods[i][2], bx, by, a->seed, &t);
    }
    if (!a->quick) {   /* the big sizes, with the first block shape only */
        int bx = blocks[0][0], by = blocks[0][1];
        check_saxpy(((size_t)1 << 22) + 3, bx * by, a->seed, &t);
        check_matrix(4097, 8191, bx, by, a->seed, &t);
        check_matmul(1000, 777, 313, bx, by, a->seed, &t);
        check_matmul(1031, 1029, 1024, bx, by, a->seed, &t);   /* > 2^28 MACs: the sampled path */
    }
    return verify_summary(stdout, t.fails, t.checks);
}

/* ---- the experiments ---------------------------------------------------------------------- */

/* Experiment 1: SAXPY on vectors of n floats, next to the cudaMemcpy row measured on them. */
static int experiment_saxpy(const gpu_info_t *g, const args_t *a, ctx_t *c, float *d_x, const timing_t *t_d2d,
                            double d2d)
{
    size_t unfused = 0;
    mismatch_t m;
    timing_t t;
    double bytes = 12.0 * (double)c->n, gbs, gbs8;
    char take[400];
    int failed;

    report_say("\nExperiment 1: SAXPY y = a*x + y on %zu floats (x and y: %.0f MiB each)\n", c->n,
               c->n * 4.0 / 1048576.0);
    report_say("  Per element: read x (4 B), read y (4 B), write y (4 B) = 12 bytes.  (The source counted 8.)\n");
    failed = verify_saxpy(c, d_x, a->seed, &m, &unfused) != 0;
    report_begin("saxpy", "  SAXPY against the copy ceiling (GB/s = 12 bytes per element / time):", NULL);
    report_row("cudaMemcpy D2D", t_d2d, 2.0 * (double)c->n * sizeof(float), NAN);
    if (failed) {
        say_failure("saxpy", &m, c->n, 0);
        report_row_failed("saxpy");
        report_end("saxpy FAILED verification: no figure.");
        return 1;
    }
    t = bench_median_ms("saxpy", launch_saxpy, c, a, gpu_flush_wanted(g, a, 2 * c->n * sizeof(float)));
    report_row("saxpy", &t, bytes, NAN);
    gbs = stats_gbs(bytes, t.median_ms);
    gbs8 = stats_gbs(8.0 * (double)c->n, t.median_ms);
    snprintf(take, sizeof take,
             "saxpy moves %.0f GB/s = %.1f%% of the copy, %.1f%% of peak; the source's A100: ~1300 of 1555 GB/s "
             "(83.6%%), counted with 8 B per element.", gbs, 100.0 * gbs / d2d, 100.0 * gbs / g->peak_gbs);
    report_end(take);
    report_say("  Counted with the source's 8 bytes per element, the same run would claim %.0f GB/s: "
               "one third too little.\n", gbs8);
    report_say("  Verified exactly against the CPU's fmaf: the GPU rounds a*x + y once (FMA); rounding a*x "
               "first would change %zu of %zu results (%.1f%%).\n", unfused, c->n, 100.0 * unfused / (double)c->n);
    return 0;
}

/* Experiment 2: a rows x cols matrix: strip sums along rows and columns, then two 2D copies.
 * Each kernel is verified on a poisoned output (verify_then_time) before it is timed. */
static int experiment_rows_cols(const gpu_info_t *g, const args_t *a, ctx_t *c)
{
    size_t n = (size_t)c->rows * c->cols, nr, nc;
    double in_bytes = (double)n * sizeof(float);
    float *d_in, *h_m, *want_r, *want_c, *got;
    timing_t t_row = {0, 0, 0, 0}, t_col = t_row, t_crow = t_row, t_ccol = t_row;
    int ok_row, ok_col, ok_crow, ok_ccol, flush;
    char take[300], title[160];

    d_in = (float *)gpu_alloc(n * sizeof(float), "the matrix");
    c->out = (float *)gpu_alloc(matrix_out_elems(c->rows, c->cols) * sizeof(float), "the output");
    c->in = d_in;
    gpu_fill_random_f32(d_in, n, a->seed);
    h_m = download(d_in, n, "the matrix");
    want_r = cpu_strips(c, 1, h_m, &nr);
    want_c = cpu_strips(c, 0, h_m, &nc);
    got = (float *)host_alloc(matrix_out_elems(c->rows, c->cols) * sizeof(float), "the GPU result");

    report_say("\nExperiment 2: rows and columns of a row-major matrix of %d rows x %d columns (%.0f MiB)\n",
               c->rows, c->cols, in_bytes / 1048576.0);
    report_say("  Each thread adds up a strip of %d elements of one row or one column (%zu and %zu threads).\n",
               SUM_STRIP, nr, nc);
    flush = gpu_flush_wanted(g, a, n * sizeof(float));
    ok_col = verify_then_time("sum_col_strips", launch_col_strips, c, c->out, want_c, got, nc, 0, a, flush, &t_col);
    ok_row = verify_then_time("sum_row_strips", launch_row_strips, c, c->out, want_r, got, nr, 0, a, flush, &t_row);
    report_begin("strip_sums", "  2a. Strip sums (GB/s = matrix read once + sums written):", NULL);
    if (ok_col) report_row("sum_col_strips", &t_col, in_bytes + 4.0 * nc, NAN);
    else report_row_failed("sum_col_strips");
    if (ok_row) report_row("sum_row_strips", &t_row, in_bytes + 4.0 * nr, NAN);
    else report_row_failed("sum_row_strips");
    if (ok_row && ok_col && t_row.median_ms >= t_col.median_ms)
        snprintf(take, sizeof take,
                 "column strips (neighbour threads on neighbour columns) ran %.1fx faster than row strips "
                 "(neighbour threads a row apart): same bytes, same adds.", t_row.median_ms / t_col.median_ms);
    else if (ok_row && ok_col)
        snprintf(take, sizeof take,
                 "row strips ran %.1fx faster than column strips: the caches served the row walks (make profile).",
                 t_col.median_ms / t_row.median_ms);
    else
        snprintf(take, sizeof take, "a kernel FAILED verification: no comparison.");
    report_end(take);

    flush = gpu_flush_wanted(g, a, 2 * n * sizeof(float));
    ok_crow = verify_then_time("copy_x_along_row", launch_copy_row, c, c->out, h_m, got, n, (size_t)c->cols, a,
                               flush, &t_crow);
    ok_ccol = verify_then_time("copy_x_along_col", launch_copy_col, c, c->out, h_m, got, n, (size_t)c->cols, a,
                               flush, &t_ccol);
    snprintf(title, sizeof title, "  2b. 2D copy with %dx%d blocks (GB/s = read + write):", c->bx, c->by);
    report_begin("copy2d", title, NULL);
    if (ok_crow) report_row("copy_x_along_row", &t_crow, 2.0 * in_bytes, NAN);
    else report_row_failed("copy_x_along_row");
    if (ok_ccol) report_row("copy_x_along_col", &t_ccol, 2.0 * in_bytes, NAN);
    else report_row_failed("copy_x_along_col");
    if (ok_crow && ok_ccol)
        snprintf(take, sizeof take,
                 "threadIdx.x along the row: %.1fx %s than along the column; same elements, same bytes.",
                 t_ccol.median_ms >= t_crow.median_ms ? t_ccol.median_ms / t_crow.median_ms
                                                      : t_crow.median_ms / t_ccol.median_ms,
                 t_ccol.median_ms >= t_crow.median_ms ? "faster" : "slower");
    else
        snprintf(take, sizeof take, "a kernel FAILED verification: no comparison.");
    report_end(take);

    free(h_m);
    free(want_r);
    free(want_c);
    free(got);
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(c->out));
    c->in = NULL;
    c->out = NULL;
    return !(ok_row && ok_col && ok_crow && ok_ccol);
}

/* Experiment 3: the naive product with both thread mappings. */
static int experiment_matmul(const gpu_info_t *g, const args_t *a, ctx_t *c)
{
    size_t nA = (size_t)c->M * c->K, nB = (size_t)c->K * c->N, nC = (size_t)c->M * c->N;
    double flops = 2.0 * c->M * (double)c->N * c->K, min_bytes = 4.0 * (double)(nA + nB + nC);
    gemm_problem_t p;
    timing_t t_row = {0, 0, 0, 0}, t_col = t_row;
    int ok_row, ok_col, flush;
    char take[400], size[120];

    matmul_setup(c, &p, c->M, c->N, c->K, a->seed);
    flush = gpu_flush_wanted(g, a, (size_t)min_bytes);

    report_say("\nExperiment 3: the naive matrix product C = A B, M = N = K = %d, %dx%d blocks\n", c->M, c->bx, c->by);
    report_say("  One thread per element of C, a loop over k; verified against a CPU reference in double (%s).\n",
               gemm_sample(c->M, c->N, c->K) ? "a fixed sample of 4096 elements and the corners" : "every element");
    snprintf(size, sizeof size, "matmul_x_along_row M=N=K=%d", c->M);
    ok_row = gemm_problem_verified(&p, size, launch_matmul_row, c);
    snprintf(size, sizeof size, "matmul_x_along_col M=N=K=%d", c->M);
    ok_col = gemm_problem_verified(&p, size, launch_matmul_col, c);
    if (ok_row) t_row = bench_median_ms("matmul_x_along_row", launch_matmul_row, c, a, flush);
    if (ok_col) t_col = bench_median_ms("matmul_x_along_col", launch_matmul_col, c, a, flush);

    report_begin("matmul", "  Naive product (GB/s = the minimum bytes: A and B read once, C written once):", "GFLOP/s");
    if (ok_row) report_row("matmul_x_along_row", &t_row, min_bytes, flops / (t_row.median_ms * 1e6));
    else report_row_failed("matmul_x_along_row");
    if (ok_col) report_row("matmul_x_along_col", &t_col, min_bytes, flops / (t_col.median_ms * 1e6));
    else report_row_failed("matmul_x_along_col");
    if (ok_row && ok_col)
        snprintf(take, sizeof take,
                 "Col from threadIdx.x: %.0f GFLOP/s; Row from threadIdx.x: %.0f GFLOP/s, %.1fx %s. Same "
                 "arithmetic, same data: only which operand the warp reads in one piece changed.",
                 flops / (t_row.median_ms * 1e6), flops / (t_col.median_ms * 1e6),
                 t_col.median_ms >= t_row.median_ms ? t_col.median_ms / t_row.median_ms
                                                    : t_row.median_ms / t_col.median_ms,
                 t_col.median_ms >= t_row.median_ms ? "slower" : "faster");
    else
        snprintf(take, sizeof take, "a kernel FAILED verification: no comparison.");
    report_end(take);
    report_say("  A product re-reads its operands K times, so GB/s of the minimum bytes says little here; the time\n"
               "  ratio and GFLOP/s are the figures to compare (the source's naive FP16 kernel on an A100: 2.5 TFLOP/s).\n");

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
    ctx_t c;
    size_t n;
    float *d_x;
    timing_t t_d2d;
    double d2d;
    int failed = 0, cols, rows;

    args_parse_or_exit(argc, argv, &a, summary,
                       "matrix of experiment 2 as COLSxROWS, or N for N x N (default 8192x8192; 2048 with\n"
                       "                  --quick); SAXPY uses vectors of COLS x ROWS floats", opts, 2);
    matrix_size_or_exit(&a, a.quick ? 2048 : 8192, a.quick ? 2048 : 8192, &cols, &rows);
    report_init("02_coalescing", a.csv);
    gpu_init(&g);
    gpu_print_header(&g, "Lesson 02 - coalescing: what the 32 addresses of one warp look like", &a);
    if (a.check) {
        failed = run_checks(&a);
        gpu_finish();
        return failed;
    }

    memset(&c, 0, sizeof c);
    c.cols = cols;
    c.rows = rows;
    c.bx = a.bx ? a.bx : 32;
    c.by = a.bx ? a.by : 8;
    c.block = c.bx * c.by;
    c.a = 1.7f;   /* not a power of two, so a*x is not exact and the FMA's single rounding matters */
    c.M = c.N = c.K = mnk ? mnk : (a.quick ? 512 : 2048);
    n = (size_t)c.rows * c.cols;
    c.n = n;

    /* The ceiling, measured on the SAXPY vectors before they hold data. */
    d_x = (float *)gpu_alloc(n * sizeof(float), "x");
    c.y = (float *)gpu_alloc(n * sizeof(float), "y");
    c.in = d_x;
    CHECK(cudaMemset(d_x, 0, n * sizeof(float)));
    d2d = gpu_d2d_gbs(c.y, d_x, n * sizeof(float), &a, gpu_flush_wanted(&g, &a, 2 * n * sizeof(float)), &t_d2d);
    report_set_ceilings(d2d, g.peak_gbs);
    report_say("\nCeilings: cudaMemcpy D2D of %.0f MiB: %.0f GB/s; theoretical peak %.0f GB/s.\n",
               n * 4.0 / 1048576.0, d2d, g.peak_gbs);
    if (!only || only == 1) failed |= experiment_saxpy(&g, &a, &c, d_x, &t_d2d, d2d);
    CHECK(cudaFree(d_x));
    CHECK(cudaFree(c.y));
    c.in = NULL;
    c.y = NULL;
    if (!only || only == 2) failed |= experiment_rows_cols(&g, &a, &c);
    if (!only || only == 3) failed |= experiment_matmul(&g, &a, &c);
    gpu_finish();
    if (failed) {
        fprintf(stderr, "A kernel FAILED verification: its figures were not reported.\n");
        return EXIT_VERIFY;
    }
    return EXIT_OK;
}
