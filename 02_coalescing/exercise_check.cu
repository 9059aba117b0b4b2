/* Checker for the lesson 02 exercise (the pattern of common/checker.h): verifies
 * row_sums_warp_per_row (exercise.cu, or solution.cu for the reference) at odd sizes against a CPU
 * reference in double, on buffers with guard zones; runs it once more under compute-sanitizer
 * (memcheck, and synccheck: the kernel shuffles across its warp); then times it against the
 * one-thread-per-row version below and gives the verdict. */
#include "args.h"
#include "bench.h"
#include "checker.h"
#include "cpu_gemm.h"
#include "cuda_check.h"
#include "exercise.h"
#include "gpu.h"
#include "grid.cuh"
#include "report.h"
#include "stats.h"
#include "verify.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* The goal comes from the reference solution's run on the H100 (results/NVIDIA_H100_80GB_HBM3/
 * answers/02_coalescing.txt): one thread per row 0.2701 ms, one warp per row 0.0893 ms, 3.02x.
 * Two thirds of that, 2x, leaves the reference a margin of 1.5x, while a kernel that still reads a
 * row with one lane (32 sectors per request, or one float per request) stays near 1x. */
static int whole_warps(int bx, int by) { return by == 1 && bx % 32 == 0; }

static const checker_t CK = {
    "02_coalescing_exercise", "Lesson 02 exercise - row sums, one warp per row",
    "Lesson 02 exercise: verifies your row_sums_warp_per_row (exercise.cu), then times it against\n"
    "one thread per row and gives the verdict (goal: twice its speed).",
    "matrix as COLSxROWS (default 1024x65536 = 256 MiB; 1024x8192 with --quick)", "NXxNY",
    "one-dimensional blocks of a multiple of 32 threads only (a warp owns a row)", whole_warps,
    "row_sums_warp_per_row", "one thread per row (the given kernel)", 2.0, "memcheck synccheck", 0};

/* The given kernel: thread r walks row r.  Neighbouring threads are a row apart at every step. */
__global__ void row_sums_thread_per_row(float *sums, const float *m, int rows, int cols)
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

enum { GIVEN, YOURS };
static const char *const LABEL[2] = {"thread per row (given)", "warp per row (yours)"};

/* The matrix and its sums on the GPU, both guarded (bench.h), and on the host copies of the matrix
 * and of a column of ones: the row sums are the product m x ones, so the course's CPU product
 * reference (cpu_gemm.h: double precision, error bound from sum |m_rc|) checks any summation order
 * a correct kernel may choose. */
typedef struct {
    int rows, cols;
    guarded_t g_m, g_sums;
    float *m, *sums;                 /* device */
    float *h_m, *ones, *got;         /* host   */
} bufs_t;

static void bufs_init(bufs_t *b, int rows, int cols, uint64_t seed)
{
    size_t n = (size_t)rows * cols;
    int i;
    b->rows = rows;
    b->cols = cols;
    b->m = (float *)guarded_alloc(&b->g_m, n * sizeof(float), "m");
    b->sums = (float *)guarded_alloc(&b->g_sums, (size_t)rows * sizeof(float), "sums");
    gpu_fill_random_f32(b->m, n, seed);
    b->h_m = (float *)host_alloc(n * sizeof(float), "the matrix");
    b->ones = (float *)host_alloc((size_t)cols * sizeof(float), "a column of ones");
    b->got = (float *)host_alloc((size_t)rows * sizeof(float), "the row sums");
    CHECK(cudaMemcpy(b->h_m, b->m, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (i = 0; i < cols; i++) b->ones[i] = 1.0f;
}

static void bufs_free(bufs_t *b)
{
    guarded_free(&b->g_m);
    guarded_free(&b->g_sums);
    free(b->h_m);
    free(b->ones);
    free(b->got);
}

/* GPU memory bufs_init takes, guards included (a guard is at most a quarter of its buffer plus
 * 2 MiB, and at most 64 MiB: bench.h). */
static size_t guarded_need(size_t bytes)
{
    size_t guard = bytes / 4 < ((size_t)64 << 20) ? bytes / 4 + ((size_t)2 << 20) : ((size_t)64 << 20);
    return bytes + 2 * guard;
}

/* The given kernel: one thread per row; yours: 32 threads (a warp) per row. */
static void launch(const bufs_t *b, int which, dim3 block, cudaStream_t s)
{
    if (which == GIVEN)
        row_sums_thread_per_row<<<div_up((size_t)b->rows, block.x), block, 0, s>>>(b->sums, b->m, b->rows, b->cols);
    else
        row_sums_warp_per_row<<<div_up((size_t)b->rows * 32, block.x), block, 0, s>>>(b->sums, b->m, b->rows,
                                                                                      b->cols);
}

/* Poisoned sums (a row the kernel forgets stays NaN and fails), one launch, every sum compared with
 * verify_gemm_f32. */
static size_t verify(const bufs_t *b, int which, dim3 block, mismatch_t *mm)
{
    gpu_poison(b->sums, (size_t)b->rows * sizeof(float));
    launch(b, which, block, gpu_stream());
    CHECK_LAST();
    CHECK(cudaMemcpy(b->got, b->sums, (size_t)b->rows * sizeof(float), cudaMemcpyDeviceToHost));
    return verify_gemm_f32(b->h_m, b->ones, b->got, b->rows, 1, b->cols, 0, 0, mm);
}

/* A row of the timing table: verified (the sums, then the guards of the matrix and the sums), then
 * timed and printed.  Returns 1 and *t; 0, with report_failed's line and row, when it fails. */
static int sums_measure(const bufs_t *b, int which, dim3 block, const args_t *a, int flush, double bytes,
                        timing_t *t)
{
    mismatch_t mm;
    bench_t bt;
    verify(b, which, block, &mm);
    {
        const guarded_t bufs[2] = {b->g_m, b->g_sums};
        if (row_failed(LABEL[which], &mm, (size_t)b->rows, 0, bufs, 2)) return 0;
    }
    for (bench_start(&bt, LABEL[which], a, flush); bench_next(&bt);) launch(b, which, block, gpu_stream());
    *t = bt.t;
    report_row(LABEL[which], t, bytes, NAN);
    return 1;
}

int main(int argc, char **argv)
{
    static const int shapes[][2] = {{1, 1}, {1000, 1}, {1, 1000}, {31, 33}, {777, 1000}, {4097, 31}, {3, 4099}};
    static const int blocks[] = {32, 256, 1024};
    args_t a;
    gpu_info_t g;
    bufs_t b;
    check_tally_t t = {0, 0, stdout};
    char size[80], take[320];
    int bi, k, rows, cols, nshapes = (int)(sizeof shapes / sizeof shapes[0]), si, rc, ok;
    timing_t t_given, t_yours;
    double bytes, x = NAN;

    checker_start(&CK, argc, argv, &a, &g);
    t.out = a.csv ? NULL : stdout;
    cols = a.nx ? (int)a.nx : 1024;
    rows = a.nx ? (int)a.ny : (a.quick ? 8192 : 65536);
    if (!a.check)   /* the matrix and its sums (the copy ceiling, before them, takes the matrix's bytes) */
        gpu_require_bytes(guarded_need((size_t)rows * cols * sizeof(float)) + guarded_need((size_t)rows * sizeof(float)),
                          "the matrix and its sums");

    /* Correct first: both kernels at odd shapes (and 8191 x 4097 unless --quick), three block sizes,
     * the matrix and the sums guarded. */
    report_say("\nVerification (against the CPU in double, error bound of a float sum; guard zones around the\n"
               "matrix and the sums):\n");
    for (si = 0; si < nshapes + (a.quick ? 0 : 1); si++) {
        int srows = si < nshapes ? shapes[si][1] : 4097, scols = si < nshapes ? shapes[si][0] : 8191;
        bufs_init(&b, srows, scols, a.seed);
        for (bi = 0; bi < 3; bi++) {
            dim3 block(a.bx ? a.bx : blocks[bi]);
            snprintf(size, sizeof size, "%dx%d (cols x rows) block=%u", scols, srows, block.x);
            for (k = GIVEN; k <= YOURS; k++) {
                const guarded_t bufs[2] = {b.g_m, b.g_sums};
                mismatch_t mm;
                verify(&b, k, block, &mm);
                check_report(&t, LABEL[k], size, &mm, (size_t)srows, 0, bufs, 2);
            }
            if (a.bx) break;
        }
        bufs_free(&b);
    }
    if ((rc = checker_verified(&CK, &t, &a)) >= 0) return rc;

    /* The timing: the copy ceiling (the matrix's bytes copied half onto half, before the matrix
     * exists), then both kernels at the timed size, each verified first. */
    checker_ceiling(&g, &a, (size_t)rows * cols * sizeof(float) / 2);   /* a multiple of 2: 4 bytes per float */
    bufs_init(&b, rows, cols, a.seed);
    bytes = ((double)rows * cols + rows) * sizeof(float);
    {
        dim3 block(a.bx ? a.bx : 256);
        int flush = gpu_flush_wanted(&g, &a, (size_t)rows * cols * sizeof(float));
        report_begin("exercise", "Row sums of the matrix (GB/s = matrix read once + sums written):", NULL);
        ok = sums_measure(&b, GIVEN, block, &a, flush, bytes, &t_given);
        ok &= sums_measure(&b, YOURS, block, &a, flush, bytes, &t_yours);
    }
    if (ok) {
        x = t_given.median_ms / t_yours.median_ms;   /* the speed of yours over the given's */
        /* the take-away follows the measured ratio: 1 sector per 4 lanes against 1 per lane */
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
    bufs_free(&b);
    return checker_verdict(&CK, x);
}
