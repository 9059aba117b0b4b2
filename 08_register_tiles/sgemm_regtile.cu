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
#include "args.h"
#include "bench.h"
#include "cublas_sgemm.h"
#include "gemm_problem.h"
#include "gemm_rates.h"
#include "gpu.h"
#include "report.h"
#include "sgemm_kernels.cuh"
#include "stats.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The program's --help summary. */
static const char SUMMARY[] =
    "Lesson 08, part 2: register tiles. The matrix product C = A x B (FP32, row-major) with each thread\n"
    "computing a block of C from register fragments: 64x64 tiles with 4x4 per thread, 128x128 tiles with\n"
    "float4 loads, and the same double-buffered, against cublasSgemm (TF32 off). Reports GFLOP/s, % of the\n"
    "FP32 peak and % of cuBLAS; every kernel verified against a double-precision reference.";

/* ---- the rows the tables measure ------------------------------------------------------------ */

/* The label of a 128 x 128 kernel names its thread tile, SGEMM_TM x 8 (the exercise rebuilds with
 * another SGEMM_TM). */
#define STR_(x) #x
#define STR(x) STR_(x)

/* Each row: its label (the table, the CSV, the --check line and the NVTX range `make profile` names
 * it by) and its launcher, sgemm_kernels.cuh's (or cuBLAS's, launch_cublas_sgemm in
 * cublas_sgemm.h: cuBLAS is column-major, so it is asked for C^T = B^T x A^T over the same
 * memory).  Every launcher fixes its own block.  cuBLAS first: the ratios are taken against it. */
enum { K_CUBLAS, NKERNELS = 4 };
static const gemm_row_t KERNELS[NKERNELS] = {
    {"cublasSgemm (FP32)", launch_cublas_sgemm, NULL, dim3(1)},
    {"sgemm_rt64 4x4 scalar", launch_sgemm_rt64, NULL, dim3(1)},
    {"sgemm_rt128 " STR(SGEMM_TM) "x8 float4", launch_sgemm_rt128, NULL, dim3(1)},
    {"sgemm_rt128db " STR(SGEMM_TM) "x8 2-buf", launch_sgemm_rt128db, NULL, dim3(1)},
};

/* ---- --check ----------------------------------------------------------------------------------- */

/* --check (gemm_check_cases): every kernel and cuBLAS on shapes that are multiples of no tile, on
 * exact multiples (the float4 fast path everywhere), on shapes that mix full and partial tiles with
 * a partial last k-tile, on unaligned rows (every pointer 4 bytes past a 16-byte boundary), and on
 * large ones (left out with --quick); fresh random inputs for every shape. */
static const gemm_case_t CASES[] = {
    {1, 1, 1, 0, 0},       {1, 7, 3, 0, 0},       {7, 1, 3, 0, 0},       {33, 31, 17, 0, 0},
    {127, 129, 131, 0, 0}, {257, 1, 513, 0, 0},   {1, 257, 513, 0, 0},   {128, 128, 8, 0, 0},
    {256, 256, 256, 0, 0}, {260, 132, 36, 0, 0},  {260, 132, 36, 1, 0},  {384, 256, 1024, 0, 0},
    {1000, 777, 333, 0, 1}, {8191, 4097, 129, 0, 1}, {2048, 2048, 2048, 0, 1},
};
#define NCASES ((int)(sizeof CASES / sizeof CASES[0]))

/* ---- the experiments ---------------------------------------------------------------------- */

/* Verifies and times every kernel on one product, printing its table (report_end is the caller's);
 * ok[], gf[] get the results.  Returns 1 if a kernel failed verification. */
static int measure_all(const gpu_info_t *g, const args_t *a, int M, int N, int K, const char *experiment,
                       const char *title, int ok[], double gf[])
{
    gemm_problem_t p;
    double flops = 2.0 * M * N * K;
    double min_bytes = 4.0 * ((double)M * K + (double)K * N + (double)M * N);
    timing_t t[NKERNELS];
    int ki, failed = 0, flush = gpu_flush_wanted(g, a, (size_t)min_bytes);

    gemm_problem_init(&p, M, N, K, 0, a->seed);
    report_begin(experiment, title, "GFLOP/s");
    for (ki = 0; ki < NKERNELS; ki++) {
        ok[ki] = gemm_time(&p, &KERNELS[ki], a, flush, &t[ki]);   /* verified, then timed: or no figure */
        gf[ki] = ok[ki] ? flops / (t[ki].median_ms * 1e6) : 0.0;
        if (ok[ki]) report_row(KERNELS[ki].label, &t[ki], min_bytes, gf[ki]);   /* a failure printed its row */
        failed |= !ok[ki];
    }
    gemm_problem_free(&p);
    return failed;
}

/* Experiment 2: the register-tiled kernels against cuBLAS, with the FP32 peak. */
static int experiment_gemm(const gpu_info_t *g, const args_t *a, int M, int N, int K, int ok[], double gf[])
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
    failed = measure_all(g, a, M, N, K, "sgemm", title, ok, gf);
    for (ki = 1; ki < NKERNELS; ki++)
        if (ok[ki] && (best < 0 || gf[ki] > gf[best])) best = ki;
    if (best > 0 && ok[K_CUBLAS]) {
        ratio = 100.0 * gf[best] / gf[K_CUBLAS];
        snprintf(takeaway, sizeof takeaway,
                 "the best register-tiled kernel, %s, reaches %.1f%% of cuBLAS SGEMM and %.1f%% of the FP32 peak "
                 "(cuBLAS: %.1f%%).", KERNELS[best].label, ratio, 100.0 * gf[best] / peak,
                 100.0 * gf[K_CUBLAS] / peak);
    } else {
        ratio = NAN;
        snprintf(takeaway, sizeof takeaway, "a kernel failed verification: no comparison.");
    }
    report_end(takeaway);

    {
        const gemm_rate_col_t cols[2] = {{"% FP32 peak", 12, 1, peak, 100.0},
                                         {"% cuBLAS", 10, 1, ok[K_CUBLAS] ? gf[K_CUBLAS] : 0.0, 100.0}};
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
static int experiment_edges(const gpu_info_t *g, const args_t *a, int M, int N, int K, const double gf_aligned[],
                            const int ok_aligned[])
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
    failed = measure_all(g, a, M, N, K, "sgemm_unaligned", title, ok, gf);
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

/* ---- main ----------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    args_t a;
    gpu_info_t g;
    int M, N, K, ok[NKERNELS], failed;
    double gf[NKERNELS];

    gemm_args_or_exit(argc, argv, &a, SUMMARY, &M, &N, &K);   /* --mnk, --m, --n, --k; no --block: each kernel fixes its own */
    gpu_start(&g, "08_register_tiles", "Lesson 08, part 2 - register-tiled SGEMM against cuBLAS", &a);
    if (a.check) return gemm_check_cases(CASES, NCASES, KERNELS, NKERNELS, &a);

    gpu_require_bytes(gemm_problem_bytes(M, N, K, 0, 0), "the product (A, B, C and its reference in double)");
    gemm_ceilings(&g, &a);                                   /* experiment 1 */
    failed = experiment_gemm(&g, &a, M, N, K, ok, gf);
    failed |= experiment_edges(&g, &a, M, N, K, gf, ok);
    return gpu_finish_status(failed);
}
