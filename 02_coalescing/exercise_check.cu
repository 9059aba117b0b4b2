/* Checker for the lesson 02 exercise: verifies row_sums_warp_per_row (exercise.cu, or solution.cu
 * for the reference) at odd sizes against a CPU reference in double, then times it against the
 * one-thread-per-row version below. */
#include "args.h"
#include "bench.h"
#include "cpu_gemm.h"
#include "cuda_check.h"
#include "exercise.h"
#include "gpu.h"
#include "grid.cuh"
#include "report.h"
#include "stream_run.h"
#include "verify.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The given kernel: thread r walks row r.  Neighbouring threads are a row apart at every step. */
__global__ void row_sums_thread_per_row(const float *m, float *sums, int rows, int cols)
{
    size_t r = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    const float *row;
    float acc = 0.0f;
    int c;
    if (r >= (size_t)rows) return;
    row = m + r * cols;
    for (c = 0; c < cols; c++) acc += row[c];
    sums[r] = acc;
}

typedef struct {
    const float *m;
    float *sums;
    int rows, cols, block;
} ctx_t;

static void launch_given(void *p, cudaStream_t s)
{
    ctx_t *c = (ctx_t *)p;
    row_sums_thread_per_row<<<div_up((size_t)c->rows, (unsigned)c->block), c->block, 0, s>>>(c->m, c->sums, c->rows,
                                                                                           c->cols);
}

static void launch_yours(void *p, cudaStream_t s)
{
    ctx_t *c = (ctx_t *)p;
    row_sums_warp_per_row<<<div_up((size_t)c->rows * 32, (unsigned)c->block), c->block, 0, s>>>(c->m, c->sums,
                                                                                               c->rows, c->cols);
}

/* Host copies of the matrix and of a column of ones: the row sums are the product m x ones, so the
 * course's CPU product reference (cpu_gemm.h: double precision, error bound from sum |m_rc|)
 * checks any summation order a correct kernel may choose. */
typedef struct {
    float *m, *ones, *got;
} host_t;

/* The check of a row-sum kernel (bench.h's check_t, user: the host_t): poisoned sums (a row the
 * kernel forgets stays NaN and fails), one launch, the sums compared with verify_gemm_f32. */
static size_t run_row_sums(const check_t *chk, launch_fn_t launch, void *ctx, mismatch_t *m, size_t *n, size_t *width)
{
    ctx_t *c = (ctx_t *)ctx;
    host_t *h = (host_t *)chk->user;
    gpu_poison(c->sums, (size_t)c->rows * sizeof(float));
    launch(ctx, gpu_stream());
    CHECK_LAST();
    CHECK(cudaMemcpy(h->got, c->sums, (size_t)c->rows * sizeof(float), cudaMemcpyDeviceToHost));
    *n = (size_t)c->rows;
    *width = 0;
    return verify_gemm_f32(h->m, h->ones, h->got, c->rows, 1, c->cols, 0, 0, m);
}

static check_t check_row_sums(host_t *h)
{
    check_t chk;
    memset(&chk, 0, sizeof chk);
    chk.run = run_row_sums;
    chk.user = h;
    return chk;
}

static void setup(ctx_t *c, host_t *h, int rows, int cols, uint64_t seed)
{
    size_t n = (size_t)rows * cols;
    int i;
    c->rows = rows;
    c->cols = cols;
    c->m = (const float *)gpu_alloc(n * sizeof(float), "the matrix");
    c->sums = (float *)gpu_alloc((size_t)rows * sizeof(float), "the row sums");
    gpu_fill_random_f32((float *)c->m, n, seed);
    h->m = (float *)host_alloc(n * sizeof(float), "the matrix");
    h->ones = (float *)host_alloc((size_t)cols * sizeof(float), "a column of ones");
    h->got = (float *)host_alloc((size_t)rows * sizeof(float), "the row sums");
    CHECK(cudaMemcpy(h->m, c->m, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (i = 0; i < cols; i++) h->ones[i] = 1.0f;
}

static void teardown(ctx_t *c, host_t *h)
{
    CHECK(cudaFree((void *)c->m));
    CHECK(cudaFree(c->sums));
    free(h->m);
    free(h->ones);
    free(h->got);
}

int main(int argc, char **argv)
{
    static const exercise_t ex = {
        "02_coalescing_exercise", "Lesson 02 exercise - row sums, one warp per row",
        "Lesson 02 exercise: verifies your row_sums_warp_per_row (exercise.cu) and times it\n"
        "against one thread per row.",
        "matrix as COLSxROWS (default 1024x65536 = 256 MiB; 1024x8192 with --quick)", ARGS_SIZE_NXNY, 1,
        "one-dimensional blocks of a multiple of 32 threads only (a warp owns a row)"};
    static const int shapes[][2] = {{1, 1}, {1000, 1}, {1, 1000}, {31, 33}, {777, 1000}, {4097, 31}, {3, 4099}};
    static const int blocks[] = {32, 256, 1024};
    args_t a;
    gpu_info_t g;
    ctx_t c;
    host_t h;
    check_t chk = check_row_sums(&h);
    check_tally_t tally = {0, 0};
    char size[80];
    int bi, rows, cols, nshapes = (int)(sizeof shapes / sizeof shapes[0]), si, rc, ok;
    timing_t t_given, t_yours;
    double bytes;

    exercise_start(&ex, argc, argv, &a, &g);
    cols = a.nx ? (int)a.nx : 1024;
    rows = a.nx ? (int)a.ny : (a.quick ? 8192 : 65536);
    if (!a.check)   /* the matrix and its sums (the copy ceiling, before them, takes the matrix's bytes) */
        gpu_require_bytes(((size_t)rows * cols + (size_t)rows) * sizeof(float), "the matrix");

    /* Correct first: both kernels at odd shapes (and 8191 x 4097 unless --quick), three block sizes. */
    report_say("\nVerification (against the CPU in double, error bound of a float sum):\n");
    for (si = 0; si < nshapes + (a.quick ? 0 : 1); si++) {
        int srows = si < nshapes ? shapes[si][1] : 4097, scols = si < nshapes ? shapes[si][0] : 8191;
        setup(&c, &h, srows, scols, a.seed);
        for (bi = 0; bi < 3; bi++) {
            c.block = a.bx ? a.bx : blocks[bi];
            snprintf(size, sizeof size, "%dx%d (cols x rows) block=%d", scols, srows, c.block);
            check_line(&chk, "thread per row (given)", size, launch_given, &c, a.csv ? NULL : stdout, &tally);
            check_line(&chk, "warp per row (yours)", size, launch_yours, &c, a.csv ? NULL : stdout, &tally);
            if (a.bx) break;
        }
        teardown(&c, &h);
    }
    if ((rc = exercise_verdict(&tally, "row_sums_warp_per_row", a.check)) >= 0) return rc;

    /* the copy ceiling: the matrix's bytes copied half onto half, before the matrix exists */
    exercise_ceiling(&g, &a, (size_t)rows * cols * sizeof(float) / 2);   /* a multiple of 2: 4 bytes per float */
    setup(&c, &h, rows, cols, a.seed);
    c.block = a.bx ? a.bx : 256;
    {
        int flush = gpu_flush_wanted(&g, &a, (size_t)rows * cols * sizeof(float));
        ok = verify_then_time("thread per row (given)", launch_given, &c, &chk, &a, flush, &t_given) &&
             verify_then_time("warp per row (yours)", launch_yours, &c, &chk, &a, flush, &t_yours);
    }
    if (ok) {
        char take[320];
        const double x = t_given.median_ms / t_yours.median_ms;
        bytes = ((double)rows * cols + rows) * sizeof(float);
        report_begin("exercise", "Row sums of the matrix (GB/s = matrix read once + sums written):", NULL);
        report_row("thread per row (given)", &t_given, bytes, NAN);
        report_row("warp per row (yours)", &t_yours, bytes, NAN);
        /* the verdict follows the measured ratio: 1 sector per 4 lanes against 1 per lane */
        if (x >= 1.5)
            snprintf(take, sizeof take, "one warp per row runs at %.2fx the speed of one thread per row: a warp load of "
                     "32 consecutive floats touches 4 sectors, where 32 floats a row apart touch 32.", x);
        else if (x >= 0.9)
            snprintf(take, sizeof take, "one warp per row runs at %.2fx the speed of one thread per row: about the same. "
                     "Do the 32 lanes of a load read 32 consecutive floats of the row (index k + lane)?", x);
        else
            snprintf(take, sizeof take, "one warp per row runs at %.2fx the speed of one thread per row: slower. Which "
                     "addresses does one load instruction of a warp touch, and how many sectors is that?", x);
        report_end(take);
    }
    teardown(&c, &h);
    return gpu_finish_status(!ok);
}
