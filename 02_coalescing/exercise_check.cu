/* Checker for the lesson 02 exercise: verifies row_sums_warp_per_row (exercise.cu, or solution.cu
 * for the reference) at odd sizes against a CPU reference in double, then times it against the
 * one-thread-per-row version below. */
#include "args.h"
#include "checked_bench.h"
#include "cpu_gemm.h"
#include "cuda_check.h"
#include "exercise.h"
#include "exitcodes.h"
#include "gpu.h"
#include "report.h"
#include "verify.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

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

static void launch_given(void *p)
{
    ctx_t *c = (ctx_t *)p;
    row_sums_thread_per_row<<<(unsigned)(((size_t)c->rows + c->block - 1) / c->block), c->block>>>(c->m, c->sums,
                                                                                                   c->rows, c->cols);
}

static void launch_yours(void *p)
{
    ctx_t *c = (ctx_t *)p;
    size_t threads = (size_t)c->rows * 32;
    row_sums_warp_per_row<<<(unsigned)((threads + c->block - 1) / c->block), c->block>>>(c->m, c->sums, c->rows,
                                                                                        c->cols);
}

/* Host copies of the matrix and of a column of ones: the row sums are the product m x ones, so the
 * course's CPU product reference (cpu_gemm.h: double precision, error bound from sum |m_rc|)
 * checks any summation order a correct kernel may choose. */
typedef struct {
    float *m, *ones, *got;
} host_t;

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

/* One launch on poisoned sums (a row the kernel forgets stays NaN and fails). */
static size_t verify(void (*launch)(void *), ctx_t *c, host_t *h, mismatch_t *m)
{
    gpu_poison(c->sums, (size_t)c->rows * sizeof(float));
    launch(c);
    CHECK_LAST();
    CHECK(cudaMemcpy(h->got, c->sums, (size_t)c->rows * sizeof(float), cudaMemcpyDeviceToHost));
    return verify_gemm_f32(h->m, h->ones, h->got, c->rows, 1, c->cols, 0, 0, m);
}

int main(int argc, char **argv)
{
    static const int shapes[][2] = {{1, 1}, {1000, 1}, {1, 1000}, {31, 33}, {777, 1000}, {4097, 31}, {3, 4099}};
    static const int blocks[] = {32, 256, 1024};
    args_t a;
    gpu_info_t g;
    ctx_t c;
    host_t h;
    mismatch_t m;
    char size[80];
    int fails = 0, checks = 0, bi, rows, cols, nshapes = (int)(sizeof shapes / sizeof shapes[0]), si;
    timing_t t_given, t_yours;
    double d2d, bytes;

    args_parse_or_exit(argc, argv, &a,
                       "Lesson 02 exercise: verifies your row_sums_warp_per_row (exercise.cu) and times it\n"
                       "against one thread per row.",
                       "matrix as COLSxROWS (default 1024x65536 = 256 MiB; 1024x8192 with --quick)", NULL, 0);
    if (a.by > 1 || (a.bx && a.bx % 32))
        args_reject("bad --block '%dx%d': one-dimensional blocks of a multiple of 32 threads only (a warp owns a row)",
                    a.bx, a.by);
    if (a.nx && !a.ny) args_reject("bad --size '%ld': give COLSxROWS, e.g. 1024x65536", a.nx);
    report_init("02_coalescing_exercise", a.csv);
    gpu_init(&g);
    gpu_print_header(&g, "Lesson 02 exercise - row sums, one warp per row", &a);

    /* Correct first: both kernels at odd shapes (and 8191 x 4097 unless --quick), three block sizes. */
    report_say("\nVerification (against the CPU in double, error bound of a float sum):\n");
    for (si = 0; si < nshapes + (a.quick ? 0 : 1); si++) {
        rows = si < nshapes ? shapes[si][1] : 4097;
        cols = si < nshapes ? shapes[si][0] : 8191;
        setup(&c, &h, rows, cols, a.seed);
        for (bi = 0; bi < 3; bi++) {
            c.block = a.bx ? a.bx : blocks[bi];
            snprintf(size, sizeof size, "%dx%d (cols x rows) block=%d", cols, rows, c.block);
            verify(launch_given, &c, &h, &m);
            if (!a.csv) fails += verify_print(stdout, "thread per row (given)", size, &m, (size_t)rows, 0);
            else fails += m.count != 0;
            verify(launch_yours, &c, &h, &m);
            if (!a.csv) fails += verify_print(stdout, "warp per row (yours)", size, &m, (size_t)rows, 0);
            else fails += m.count != 0;
            checks += 2;
            if (a.bx) break;
        }
        teardown(&c, &h);
    }
    if (fails) {
        fprintf(stderr, "FAILED: %d of %d checks failed; fix row_sums_warp_per_row in exercise.cu (no timing until "
                        "it passes).\n", fails, checks);
        gpu_finish();
        return EXIT_VERIFY;
    }
    report_say("OK: %d of %d checks passed\n", checks, checks);
    if (a.check) {
        gpu_finish();
        return EXIT_OK;
    }

    cols = a.nx ? (int)a.nx : 1024;
    rows = a.nx ? (int)a.ny : (a.quick ? 8192 : 65536);
    c.block = a.bx ? a.bx : 256;
    {
        /* the copy ceiling on the matrix buffer's two halves, before it is filled for real */
        size_t half = (size_t)rows * cols * sizeof(float) / 2;   /* a multiple of 2: 4 bytes per float */
        float *buf = (float *)gpu_alloc(2 * half, "the copy ceiling's buffer");
        CHECK(cudaMemset(buf, 0, 2 * half));
        d2d = gpu_d2d_gbs((char *)buf + half, buf, half, &a, gpu_flush_wanted(&g, &a, 2 * half), NULL);
        CHECK(cudaFree(buf));
    }
    setup(&c, &h, rows, cols, a.seed);
    if (verify(launch_yours, &c, &h, &m) || verify(launch_given, &c, &h, &m)) {
        fprintf(stderr, "FAILED verification at %dx%d: no timing reported.\n", cols, rows);
        teardown(&c, &h);
        gpu_finish();
        return EXIT_VERIFY;
    }
    report_set_ceilings(d2d, g.peak_gbs);
    {
        int flush = gpu_flush_wanted(&g, &a, (size_t)rows * cols * sizeof(float));
        t_given = bench_median_ms("thread per row (given)", launch_given, &c, &a, flush);
        t_yours = bench_median_ms("warp per row (yours)", launch_yours, &c, &a, flush);
    }
    bytes = ((double)rows * cols + rows) * sizeof(float);
    report_begin("exercise", "Row sums of the matrix (GB/s = matrix read once + sums written):", NULL);
    report_row("thread per row (given)", &t_given, bytes, NAN);
    report_row("warp per row (yours)", &t_yours, bytes, NAN);
    {
        char take[240];
        snprintf(take, sizeof take, "one warp per row runs at %.2fx the speed of one thread per row: each of its "
                 "loads is 128 consecutive bytes instead of 32 floats a row apart.", t_given.median_ms / t_yours.median_ms);
        report_end(take);
    }
    teardown(&c, &h);
    gpu_finish();
    return EXIT_OK;
}
