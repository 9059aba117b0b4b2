/* Lesson 08, part 3 (stretch): Tensor Cores -- the matrix product with WMMA, half inputs and float
 * accumulation, against cublasGemmEx.
 *
 * C = A x B, all row-major: A is M x K, B is K x N, C is M x N, C in float.  A and B are rounded to
 * half (by gemm_time, before the first row that reads half).  The products of two halves are exact in float and the sums
 * are taken in float, so what the student loses is the rounding of the inputs; experiment 3
 * measures it.
 *
 * Experiment 1: the memory ceilings (context only: the product is compute-bound).
 * Experiment 2: the WMMA kernels against cublasGemmEx (FP16 in, FP32 out, Tensor Cores) and
 *   cublasSgemm (FP32, part 2's reference) at M = N = K = 4096: GFLOP/s and % of cublasGemmEx.
 * Experiment 3: accuracy: each result against the exact product of the ORIGINAL float inputs.
 *
 * The kernels (wmma_naive, wmma_tiled) are in wmma_kernels.cuh; this file verifies, times and
 * prints them. */
#include "args.h"
#include "bench.h"
#include "cpu_gemm.h"
#include "cublas_sgemm.h"
#include "gemm_problem.h"
#include "gemm_rates.h"
#include "gpu.h"
#include "report.h"
#include "stats.h"
#include "wmma_kernels.cuh"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* The program's --help summary. */
static const char SUMMARY[] =
    "Lesson 08, part 3: Tensor Cores. The matrix product C = A x B (row-major, C in float) with A and B\n"
    "rounded to half and multiplied by WMMA (one warp per 16x16 tile of C, then 128x128 block tiles in\n"
    "shared memory), against cublasGemmEx (FP16 in, FP32 sums, Tensor Cores) and cublasSgemm (FP32).\n"
    "Reports GFLOP/s, % of cublasGemmEx, and the error each result makes against the exact product of\n"
    "the original float inputs; every kernel verified against a double-precision reference.";

/* Verification.  Every kernel is checked with the course's bound, |C - exact| <= min(K, 4 sqrt K) x
 * 2^-23 x sum_k |a_ik b_kj| (cpu_gemm.h), against the exact product of the inputs it multiplied:
 * the half-rounded A and B.  The products of two halves (11-bit significands) are exact in float;
 * the question is the sums.  A Tensor Core does not round like an FFMA: it adds a block of n
 * products (n = 4 to 16 by generation) and the accumulator in one operation, aligning them to the
 * largest and truncating the bits that fall off, then truncates the sum (Fasi, Higham, Mikaitis,
 * Pranesh, "Numerical behavior of NVIDIA tensor cores", PeerJ Comput. Sci. 7:e330, 2021, for V100,
 * T4, A100; Khattak, Mikaitis, "Accurate models of NVIDIA tensor cores", arXiv:2512.07004, 2025,
 * adds H100 and B200).  Each truncation loses less than one unit in the last place of the largest
 * term, at most 2^-23 x its magnitude.  For K <= n (one block) K - 1 terms and the sum are
 * truncated: an error below K x 2^-23 x sum|ab|, which is the bound up to K = 16.  Longer sums
 * could exceed K x 2^-23 by a factor up to 1 + 1/n, but only if every truncation lost almost a
 * whole unit, which random inputs do not do: a simulation of that model (n = 4, 8, 16, no extra
 * alignment bits, half-rounded inputs in [-1, 1)) stayed below 0.51 of K x 2^-23 at K = 2 to 7,
 * below 0.11 from K = 16 on and near 0.001 at K = 1024, and common/tests/test_cpu_gemm.c keeps a
 * model of it below 0.05 of the bound used now, 4 sqrt(K) x 2^-23, from K = 17 to 4096.  So the
 * bound is kept as it is: if a Tensor Core kernel ever fails it, that is a finding to look at, not a
 * tolerance to widen. */

/* ---- the rows the tables measure ------------------------------------------------------------ */

/* cuBLAS is column-major.  Row-major C = A x B is, read column-major, C^T = B^T x A^T: the same
 * memory, so cuBLAS is asked for an N x M product of B (leading dimension N) and A (K).
 * cublasGemmEx: A and B in half (CUDA_R_16F), C in float, sums in float (CUBLAS_COMPUTE_32F); with
 * CUBLAS_GEMM_DEFAULT cuBLAS picks its own algorithm, Tensor Cores included.  A launcher like the
 * kernels' (gemm_row_t.launch_half; the block is cuBLAS's business), on the handle of 07_shared_tiled/cublas_check.h. */
static void launch_cublas_gemmex(float *C, const __half *A, const __half *B, int M, int N, int K, dim3 block,
                                 cudaStream_t s)
{
    const float one = 1.0f, zero = 0.0f;
    (void)block;
    CUBLAS_CHECK(cublasSetStream(cublas_rows(), s));
    CUBLAS_CHECK(cublasGemmEx(cublas_rows(), CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, B, CUDA_R_16F, N, A, CUDA_R_16F,
                              K, &zero, C, CUDA_R_32F, N, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
}

/* Each row: its label (the table, the CSV, the --check line and the NVTX range `make profile` names
 * it by) and its launcher: launch for the float inputs, launch_half for the half ones (the Tensor
 * Core rows read p->dA16, p->dB16).  Every launcher fixes its own block.  cublasSgemm first: in
 * experiment 2 it runs on the original floats, before they are rounded.  It is part 2's reference,
 * launch_cublas_sgemm (cublas_sgemm.h): FP32 in and out, CUBLAS_DEFAULT_MATH (no TF32). */
enum { K_SGEMM, K_GEMMEX, K_NAIVE, K_TILED, NKERNELS };
static const gemm_row_t KERNELS[NKERNELS] = {
    {"cublasSgemm (FP32)", launch_cublas_sgemm, NULL, dim3(1)},
    {"cublasGemmEx (FP16 in)", NULL, launch_cublas_gemmex, dim3(1)},
    {"wmma_naive 16x16 per warp", NULL, launch_wmma_naive, dim3(1)},
    {"wmma_tiled 128x128 smem", NULL, launch_wmma_tiled, dim3(1)},
};

/* ---- --check ----------------------------------------------------------------------------------- */

/* --check (gemm_check_cases, which rounds the inputs to half first, as rows here read half): every
 * kernel, cuBLAS's two included, on shapes that are multiples of no tile (single rows and columns,
 * K below one k-step, partial last k-tiles), exact multiples of 16 and of the 128 x 128 tile, N and K
 * not multiples of 8 (no direct or 16-byte load), every pointer one element off its allocation (no
 * aligned load or store anywhere), and two large ones (left out with --quick); fresh random inputs
 * for every shape. */
static const gemm_case_t CASES[] = {
    {1, 1, 1, 0, 0},       {1, 7, 3, 0, 0},      {7, 1, 3, 0, 0},        {33, 31, 17, 0, 0},
    {127, 129, 131, 0, 0}, {257, 1, 513, 0, 0},  {1, 257, 513, 0, 0},    {16, 16, 16, 0, 0},
    {256, 256, 256, 0, 0}, {260, 132, 36, 0, 0}, {260, 132, 36, 1, 0},   {384, 256, 1024, 0, 0},
    {1000, 777, 333, 0, 1}, {2048, 2048, 2048, 0, 1},
};
#define NCASES ((int)(sizeof CASES / sizeof CASES[0]))

/* ---- the experiments ---------------------------------------------------------------------- */

/* Experiment 3's sample size: as many elements as the CPU check of a large product samples
 * (gemm_problem.h). */
#define ACCURACY_SAMPLE 4096

/* Experiment 3's sample: up to ACCURACY_SAMPLE elements of C (all of them if C is that small, else the
 * random picks verify_gemm_f32 makes after the corners), with their exact value and sum_k |a_ik b_kj| from the ORIGINAL
 * float inputs, computed once before the rounding. */
typedef struct {
    int n;
    int *row, *col;
    double *exact, *abs_sum;
} accuracy_t;

static void accuracy_init(accuracy_t *s, const gemm_problem_t *p)
{
    size_t all = (size_t)p->M * p->N;
    int i;
    s->n = all <= ACCURACY_SAMPLE ? (int)all : ACCURACY_SAMPLE;
    s->row = (int *)host_alloc(s->n * sizeof(int), "the accuracy sample");
    s->col = (int *)host_alloc(s->n * sizeof(int), "the accuracy sample");
    s->exact = (double *)host_alloc(s->n * sizeof(double), "the accuracy sample");
    s->abs_sum = (double *)host_alloc(s->n * sizeof(double), "the accuracy sample");
    for (i = 0; i < s->n; i++) {
        if (all <= ACCURACY_SAMPLE) {
            s->row[i] = i / p->N;
            s->col[i] = i % p->N;
        } else {
            cpu_gemm_sample_at(p->M, p->N, p->seed, (size_t)i + 4, &s->row[i], &s->col[i]);   /* past the corners */
        }
        cpu_gemm_element(p->hA, p->hB, p->N, p->K, s->row[i], s->col[i], &s->exact[i], &s->abs_sum[i]);
    }
}

static void accuracy_free(accuracy_t *s)
{
    free(s->row);
    free(s->col);
    free(s->exact);
    free(s->abs_sum);
}

/* max over the sample of |C - exact| / sum_k |a_ik b_kj|.  C == NULL: the error of the exact
 * (double) product of A and B, here the rounded inputs: what the rounding alone costs. */
static double accuracy_max(const accuracy_t *s, const float *C, const float *A, const float *B, int N, int K)
{
    double worst = 0.0, v, a;
    int i;
    for (i = 0; i < s->n; i++) {
        if (s->abs_sum[i] <= 0.0) continue;
        if (C) v = C[(size_t)s->row[i] * N + s->col[i]];
        else cpu_gemm_element(A, B, N, K, s->row[i], s->col[i], &v, &a);
        if (isnan(v)) return NAN;
        v = fabs(v - s->exact[i]) / s->abs_sum[i];
        if (v > worst) worst = v;
    }
    return worst;
}

static void say_accuracy(const char *label, double e, double e_fp32)
{
    report_say("  %-30s %10.2e %8.1f", label, e, e > 0 ? log2(e) : -INFINITY);
    if (e_fp32 > 0) report_say(" %10.1f\n", e / e_fp32);
    else report_say(" %10s\n", "-");
}

/* Experiments 2 and 3 on one product: each kernel verified (no figure for one that fails), timed,
 * and its error measured on the accuracy sample.  Returns 1 if a kernel failed verification. */
static int experiment_tensor(const gpu_info_t *g, const args_t *a, int M, int N, int K)
{
    gemm_problem_t p;
    accuracy_t s;
    timing_t t[NKERNELS];
    double flops = 2.0 * M * N * K, gf[NKERNELS], err[NKERNELS], err_round = NAN, bytes[NKERNELS];
    int ok[NKERNELS], ki, failed = 0, flush;
    char takeaway[400];

    report_say("\nExperiment 2: C = A x B with M = %d, N = %d, K = %d, %.1f GFLOP (2 x M x N x K).\n", M, N, K,
               flops / 1e9);
    report_say("  cublasSgemm runs first, on the original float inputs (FP32, TF32 off: part 2's reference).\n"
               "  Then A and B are rounded to the nearest half, kept as floats for the reference and as halves\n"
               "  for the rest: cublasGemmEx (FP16 A and B, FP32 C and sums, CUBLAS_GEMM_DEFAULT: Tensor Cores),\n"
               "  wmma_naive (one warp per 16x16 tile of C, fragments straight from global memory) and\n"
               "  wmma_tiled (128x128 block tiles, 8 warps of 64x32 = 4x2 accumulators, BK = %d, padded shared\n"
               "  tiles). Each is verified against the exact product of the inputs it multiplied.\n", TC_BK);
    gemm_say_verification(M, N, K);

    gemm_problem_init(&p, M, N, K, 0, a->seed);
    accuracy_init(&s, &p);
    report_begin("sgemm_wmma", "  Tensor Cores against cuBLAS (GB/s counts only the least bytes; read GFLOP/s):",
                 "GFLOP/s");
    for (ki = 0; ki < NKERNELS; ki++) {
        const int half = KERNELS[ki].launch_half != NULL;
        /* the least bytes: A and B read once (2 or 4 bytes an element), C written once */
        bytes[ki] = (half ? 2.0 : 4.0) * ((double)M * K + (double)K * N) + 4.0 * M * N;
        flush = gpu_flush_wanted(g, a, (size_t)bytes[ki]);
        gf[ki] = err[ki] = 0.0;
        ok[ki] = gemm_time(&p, &KERNELS[ki], a, flush, &t[ki]);   /* verified, then timed: or no figure */
        /* the first row that reads half had A and B rounded to half before it ran (gemm_time): what the
         * rounding alone costs, on the host copies it refreshed */
        if (half && isnan(err_round)) err_round = accuracy_max(&s, NULL, p.hA, p.hB, N, K);
        if (ok[ki]) {
            gf[ki] = flops / (t[ki].median_ms * 1e6);
            err[ki] = accuracy_max(&s, p.hC, NULL, NULL, N, K);   /* p.hC: the result just verified */
        }
        if (ok[ki]) report_row(KERNELS[ki].label, &t[ki], bytes[ki], gf[ki]);   /* a failure printed its row */
        failed |= !ok[ki];
    }
    if (ok[K_SGEMM] && ok[K_GEMMEX] && ok[K_NAIVE] && ok[K_TILED])
        snprintf(takeaway, sizeof takeaway,
                 "wmma_tiled reaches %.1f%% of cublasGemmEx and %.2fx cublasSgemm (FP32); shared tiles made it "
                 "%.2fx wmma_naive; cublasGemmEx runs %.2fx cublasSgemm.",
                 100.0 * gf[K_TILED] / gf[K_GEMMEX], gf[K_TILED] / gf[K_SGEMM], gf[K_TILED] / gf[K_NAIVE],
                 gf[K_GEMMEX] / gf[K_SGEMM]);
    else
        snprintf(takeaway, sizeof takeaway, "a kernel failed verification: no comparison.");
    report_end(takeaway);

    {
        const gemm_rate_col_t cols[2] = {{"% cublasGemmEx", 16, 1, ok[K_GEMMEX] ? gf[K_GEMMEX] : 0.0, 100.0},
                                         {"x cublasSgemm", 14, 2, ok[K_SGEMM] ? gf[K_SGEMM] : 0.0, 1.0}};
        const char *labels[NKERNELS];
        for (ki = 0; ki < NKERNELS; ki++) labels[ki] = KERNELS[ki].label;
        gemm_say_rates(labels, ok, gf, NKERNELS, cols);
    }

    report_say("\nExperiment 3: what half inputs cost in accuracy, on %d elements of C (%s).\n"
               "  error = |C - exact| / sum_k |a_ik b_kj|, where exact is the double-precision product of the\n"
               "  ORIGINAL float inputs, before rounding. Unit roundoff: float 2^-24 = 6.0e-08,\n"
               "  half 2^-11 = 4.9e-04.\n\n",
               s.n, (size_t)s.n == (size_t)M * N ? "all of them" : "a random sample");
    report_say("  %-30s %10s %8s %10s\n", "result", "max error", "log2", "x FP32");
    for (ki = 0; ki < NKERNELS; ki++) {
        if (ki == K_GEMMEX && !isnan(err_round))
            say_accuracy("exact sum of the half inputs", err_round, ok[K_SGEMM] ? err[K_SGEMM] : 0.0);
        if (ok[ki]) say_accuracy(KERNELS[ki].label, err[ki], ok[K_SGEMM] ? err[K_SGEMM] : 0.0);
        else report_say("  %-30s FAILED verification\n", KERNELS[ki].label);
    }
    if (ok[K_SGEMM] && ok[K_TILED] && err[K_SGEMM] > 0 && err_round > 0)
        report_say("  -> half inputs cost %.0fx the error of FP32 (wmma_tiled %.2e against %.2e); the exact sum of\n"
                   "     the same half inputs is off by %.2e: wmma_tiled's float sums change that by %+.1f%%.\n",
                   err[K_TILED] / err[K_SGEMM], err[K_TILED], err[K_SGEMM], err_round,
                   100.0 * (err[K_TILED] - err_round) / err_round);

    accuracy_free(&s);
    gemm_problem_free(&p);
    return failed;
}

/* ---- main ----------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    args_t a;
    gpu_info_t g;
    int M, N, K, failed;

    gemm_args_or_exit(argc, argv, &a, SUMMARY, &M, &N, &K);   /* --mnk, --m, --n, --k; no --block: each kernel fixes its own */
    gpu_start(&g, "08_register_tiles",
              "Lesson 08, part 3 - Tensor Cores: WMMA (half in, float sums) against cuBLAS", &a);
    if (a.check) return gemm_check_cases(CASES, NCASES, KERNELS, NKERNELS, &a);

    gpu_require_bytes(gemm_problem_bytes(M, N, K, 0, 1), "the product (A, B, C, their half copies, its reference)");
    gemm_ceilings(&g, &a);                                   /* experiment 1 */
    failed = experiment_tensor(&g, &a, M, N, K);             /* experiments 2 and 3 */
    return gpu_finish_status(failed);
}
