/* Lesson 08, part 2: register tiles -- the register-blocked matrix product (SGEMM) against cuBLAS.
 *
 * C = A x B in single precision, all row-major: A is M x K, B is K x N, C is M x N.
 *
 * Experiment 1: the memory ceilings (context only: the product is compute-bound).
 * Experiment 2: the FP32 peak of this GPU from its SM count and clock, and the kernels against
 *   cublasSgemm (FP32, TF32 off) at M = N = K = 4096: GFLOP/s, % of FP32 peak, % of cuBLAS.
 * Experiment 3: the same product at 4095^3, where K and N are not multiples of 4 (most rows are not
 *   16-byte aligned) and every block has partial edges: the price of the guarded scalar path.
 *
 * The kernels (sgemm_rt64, sgemm_rt128, sgemm_rt128db) are in sgemm_kernels.cuh, with the thread
 * tile of the exercise (SGEMM_TM); this file verifies, times and prints them. */
#include "cublas_check.h"
#include "gemm_problem.h"
#include "gpu.h"
#include "grid.cuh"
#include "report.h"
#include "sgemm_kernels.cuh"
#include "stats.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- launches: each enqueues the kernel (or library call) of one table row on stream s ----------
 * (context: gemm_ctx_t) */

/* A kernel of sgemm_kernels.cuh: one block of THREADS threads per BM x BN tile of C. */
#define RT_LAUNCHER(name, kernel, BM, BN, THREADS)                                                            \
    static void name(void *v, cudaStream_t s)                                                                 \
    {                                                                                                         \
        const gemm_problem_t *p = ((const gemm_ctx_t *)v)->p;                                                 \
        dim3 grid(div_up(p->N, BN), div_up(p->M, BM));                                                        \
        kernel<<<grid, THREADS, 0, s>>>(p->dA, p->dB, p->dC, p->M, p->N, p->K);                               \
    }
RT_LAUNCHER(launch_rt64, sgemm_rt64, R64_BM, R64_BN, R64_THREADS)
RT_LAUNCHER(launch_rt128, sgemm_rt128, RT_BM, RT_BN, RT_THREADS)
RT_LAUNCHER(launch_rt128db, sgemm_rt128db, RT_BM, RT_BN, RT_THREADS)

/* cuBLAS's row is launch_cublas_sgemm (common/cublas_check.h): cuBLAS is column-major, so it is
 * asked for C^T = B^T x A^T over the same memory. */

/* ---- the rows the tables measure ------------------------------------------------------------ */

typedef struct {
    const char *label;   /* the table row and the NVTX range `make profile` names it by */
    launch_fn_t launch;
    int ours;            /* 0 for cuBLAS */
} kernel_t;

static char label_rt128[40], label_rt128db[40];
static kernel_t KERNELS[] = {
    {"cublasSgemm (FP32)", launch_cublas_sgemm, 0},
    {"sgemm_rt64 4x4 scalar", launch_rt64, 1},
    {label_rt128, launch_rt128, 1},
    {label_rt128db, launch_rt128db, 1},
};
#define NKERNELS ((int)(sizeof KERNELS / sizeof KERNELS[0]))

static void make_labels(void)
{
    snprintf(label_rt128, sizeof label_rt128, "sgemm_rt128 %dx%d float4", RT_TM, RT_TN);
    snprintf(label_rt128db, sizeof label_rt128db, "sgemm_rt128db %dx%d 2-buf", RT_TM, RT_TN);
}

/* ---- --check ----------------------------------------------------------------------------------- */

/* --check on one shape: every kernel and cuBLAS. */
static void check_kernels(gemm_problem_t *p, const char *size, void *user, check_tally_t *t)
{
    gemm_ctx_t c = {p, 0, 0, (cublasHandle_t)user};
    check_t chk = gemm_check_of(p);
    int ki;
    for (ki = 0; ki < NKERNELS; ki++) check_line(&chk, KERNELS[ki].label, size, KERNELS[ki].launch, &c, stdout, t);
}

/* --check: every kernel (and cuBLAS) on shapes that are multiples of no tile, on exact
 * multiples (the float4 fast path everywhere), on shapes that mix full and partial tiles with a
 * partial last k-tile, on unaligned rows (every pointer 4 bytes past a 16-byte boundary), and on
 * two large ones; fresh random inputs for every shape.  Then the planted faults on sgemm_rt128's
 * output (gemm_program_main): the check must catch a missing tile and a dropped k-term. */
static const gemm_case_t CASES[] = {
    {1, 1, 1, 0, 0},       {1, 7, 3, 0, 0},       {7, 1, 3, 0, 0},       {33, 31, 17, 0, 0},
    {127, 129, 131, 0, 0}, {257, 1, 513, 0, 0},   {1, 257, 513, 0, 0},   {128, 128, 8, 0, 0},
    {256, 256, 256, 0, 0}, {260, 132, 36, 0, 0},  {260, 132, 36, 1, 0},  {384, 256, 1024, 0, 0},
    {1000, 777, 333, 0, 1}, {8191, 4097, 129, 0, 1}, {2048, 2048, 2048, 0, 1},
};

/* ---- the experiments ---------------------------------------------------------------------- */

/* Verifies and times every kernel on one product, printing its table (report_end is the caller's);
 * ok[], gf[] get the results.  Returns 1 if a kernel failed verification. */
static int measure_all(const gpu_info_t *g, const args_t *a, cublasHandle_t h, int M, int N, int K,
                       const char *experiment, const char *title, int ok[], double gf[])
{
    gemm_problem_t p;
    check_t chk;
    double flops = 2.0 * M * N * K;
    double min_bytes = 4.0 * ((double)M * K + (double)K * N + (double)M * N);
    timing_t t[NKERNELS];
    int ki, failed = 0, flush = gpu_flush_wanted(g, a, (size_t)min_bytes);

    gemm_problem_init(&p, M, N, K, 0, a->seed);
    chk = gemm_check_of(&p);
    report_begin(experiment, title, "GFLOP/s");
    for (ki = 0; ki < NKERNELS; ki++) {
        gemm_ctx_t c = {&p, 0, 0, h};
        ok[ki] = verify_then_time(KERNELS[ki].label, KERNELS[ki].launch, &c, &chk, a, flush, &t[ki]);
        gf[ki] = ok[ki] ? flops / (t[ki].median_ms * 1e6) : 0.0;
        report_result(KERNELS[ki].label, ok[ki], &t[ki], min_bytes, gf[ki]);
        failed |= !ok[ki];
    }
    gemm_problem_free(&p);
    return failed;
}

/* Experiment 2: the register-tiled kernels against cuBLAS, with the FP32 peak. */
static int experiment_gemm(const gpu_info_t *g, const args_t *a, cublasHandle_t h, int M, int N, int K, int ok[],
                           double gf[])
{
    int ki, best = -1, failed;
    double peak, ratio;
    char title[400], takeaway[400];

    report_say("\nExperiment 2: C = A x B with M = %d, N = %d, K = %d, %.1f GFLOP (2 x M x N x K).\n", M, N, K,
               2.0 * M * N * K / 1e9);
    peak = gemm_fp32_peak_say(g);
    report_say("  cuBLAS: cublasSgemm, FP32 inputs and accumulation; math mode CUBLAS_DEFAULT_MATH, so TF32\n"
               "  Tensor Cores are off.  Block tiles: rt64 64x64 (4x4 per thread, 256 threads), rt128\n"
               "  128x128 (%dx%d per thread, %d threads), BK = 8.\n", RT_TM, RT_TN, RT_THREADS);
    gemm_say_verification(M, N, K);
    snprintf(title, sizeof title,
             "  Register tiles against cuBLAS (GB/s counts only the least bytes, A and B read once and C\n"
             "  written once; for a compute-bound kernel it is not the point: read GFLOP/s):");
    failed = measure_all(g, a, h, M, N, K, "sgemm", title, ok, gf);
    for (ki = 1; ki < NKERNELS; ki++)
        if (ok[ki] && (best < 0 || gf[ki] > gf[best])) best = ki;
    if (best > 0 && ok[0]) {
        ratio = 100.0 * gf[best] / gf[0];
        snprintf(takeaway, sizeof takeaway,
                 "the best register-tiled kernel, %s, reaches %.1f%% of cuBLAS SGEMM and %.1f%% of the FP32 peak "
                 "(cuBLAS: %.1f%%).", KERNELS[best].label, ratio, 100.0 * gf[best] / peak, 100.0 * gf[0] / peak);
    } else {
        ratio = NAN;
        snprintf(takeaway, sizeof takeaway, "a kernel failed verification: no comparison.");
    }
    report_end(takeaway);

    {
        const gemm_rate_col_t cols[2] = {{"% FP32 peak", 12, 1, peak, 100.0},
                                         {"% cuBLAS", 10, 1, ok[0] ? gf[0] : 0.0, 100.0}};
        const char *labels[NKERNELS];
        for (ki = 0; ki < NKERNELS; ki++) labels[ki] = KERNELS[ki].label;
        gemm_say_rates(labels, ok, gf, NKERNELS, cols);
    }
    if (!isnan(ratio))
        report_say("\n  The best register-tiled kernel reaches %.1f%% of cuBLAS SGEMM at %d x %d x %d.\n", ratio, M, N,
                   K);
    return failed;
}

/* Experiment 3: one less than the size in every dimension: no row is 16-byte aligned, so every
 * load takes the guarded scalar path, and every edge block is partial. */
static int experiment_edges(const gpu_info_t *g, const args_t *a, cublasHandle_t h, int M, int N, int K,
                            const double gf_aligned[], const int ok_aligned[])
{
    int ok[NKERNELS], ki, failed, any = 0;
    double gf[NKERNELS];
    char title[300], takeaway[400], part[120];

    if (M < 2 || N < 2 || K < 2) return 0;
    M--;
    N--;
    K--;
    report_say("\nExperiment 3: the same product at M = %d, N = %d, K = %d: K and N are not multiples of 4, so most\n"
               "  rows of A and B are not 16-byte aligned and every load takes the guarded scalar path.\n", M, N, K);
    snprintf(title, sizeof title, "  Unaligned, partial tiles everywhere (M = %d, N = %d, K = %d):", M, N, K);
    failed = measure_all(g, a, h, M, N, K, "sgemm_unaligned", title, ok, gf);
    snprintf(takeaway, sizeof takeaway, "GFLOP/s against the aligned size:");
    for (ki = 0; ki < NKERNELS; ki++) {
        if (!ok[ki] || !ok_aligned[ki] || gf_aligned[ki] <= 0) continue;
        snprintf(part, sizeof part, "%s %s %.0f%%", any ? ";" : "", KERNELS[ki].label, 100.0 * gf[ki] / gf_aligned[ki]);
        if (strlen(takeaway) + strlen(part) < sizeof takeaway) strcat(takeaway, part);
        any = 1;
    }
    report_end(any ? takeaway : "a kernel failed verification: no comparison.");
    return failed;
}

/* The run without --check: experiments 2 and 3 (user: the cuBLAS handle). */
static int experiments(const gpu_info_t *g, const args_t *a, int M, int N, int K, void *user)
{
    cublasHandle_t h = (cublasHandle_t)user;
    int ok[NKERNELS], failed;
    double gf[NKERNELS];
    failed = experiment_gemm(g, a, h, M, N, K, ok, gf);
    failed |= experiment_edges(g, a, h, M, N, K, gf, ok);
    return failed;
}

/* ---- main ----------------------------------------------------------------------------------- */

/* What this program is (gemm_problem.h); gemm_program_main runs it. */
static const gemm_program_t PROGRAM = {
    "08_register_tiles", "Lesson 08, part 2 - register-tiled SGEMM against cuBLAS",
    "Lesson 08, part 2: register tiles. The matrix product C = A x B (FP32, row-major) with each thread\n"
    "computing a block of C from register fragments: 64x64 tiles with 4x4 per thread, 128x128 tiles with\n"
    "float4 loads, and the same double-buffered, against cublasSgemm (TF32 off). Reports GFLOP/s, % of the\n"
    "FP32 peak and % of cuBLAS; every kernel verified against a double-precision reference.",
    CASES, (int)(sizeof CASES / sizeof CASES[0]), check_kernels, experiments, 0, label_rt128, launch_rt128,
    cublas_gemm_open, cublas_gemm_close,
};

int main(int argc, char **argv)
{
    make_labels();
    return gemm_program_main(&PROGRAM, argc, argv);
}
