/* Lesson 07, part 2: shared-memory tiles for reuse -- the tiled matrix product (SGEMM).
 *
 * C = A x B in single precision, all row-major: A is M x K, B is K x N, C is M x N.
 *
 * Experiment 1: the two memory ceilings every lesson reports (cudaMemcpy D2D, theoretical peak).
 * A matrix product is compute-bound, so here they are context only.
 * Experiment 2: the naive product (lesson 02's matmul_x_along_row: one C element per thread; every
 * multiply-add reads one A and one B element through the caches) against the tiled product, in
 * which a block of T x T threads copies a T x T tile of A and one of B into shared memory, each
 * thread one element of each at the same relative position, and then every element of the tiles
 * is used T times. Tiles of T = 8, 16 and 32 show what the reuse factor buys.
 *
 * The kernels are in sgemm_kernels.cuh; this file verifies (gemm_problem.h: every element of C
 * against a double-precision reference), times (gemm_time) and prints them. */
#include "args.h"
#include "gemm_problem.h"
#include "gpu.h"
#include "report.h"
#include "sgemm_kernels.cuh"
#include "stats.h"

#include <stdio.h>

/* The program's --help summary. */
static const char SUMMARY[] =
    "Lesson 07, part 2: shared-memory tiles for reuse. The matrix product C = A x B (FP32, row-major),\n"
    "naive (lesson 02's matmul_x_along_row: one element per thread, everything from global memory) against\n"
    "shared-memory tiles of T x T = 8x8, 16x16 and 32x32, each verified against a double-precision reference.";

/* ---- the rows the table measures ------------------------------------------------------------- */

/* Label (table row, --check line, the NVTX range `make profile` names it by), launcher, block.  The
 * naive kernel runs with the block of the T = 16 tile, 16 x 16; --check also runs it with a
 * full-warp-wide 32 x 8 block (the last row, not in the table). */
static const gemm_row_t ROWS[] = {
    {"matmul_x_along_row 16x16", launch_matmul_x_along_row, NULL, dim3(16, 16)},
    {"sgemm_tiled T=8", launch_sgemm_tiled<8>, NULL, dim3(8, 8)},
    {"sgemm_tiled T=16", launch_sgemm_tiled<16>, NULL, dim3(16, 16)},
    {"sgemm_tiled T=32", launch_sgemm_tiled<32>, NULL, dim3(32, 32)},
    {"matmul_x_along_row 32x8", launch_matmul_x_along_row, NULL, dim3(32, 8)},
};
#define N_CHECK ((int)(sizeof ROWS / sizeof ROWS[0]))
#define N_TABLE 4
#define NAIVE 0

/* T of a tiled row: its block is the T x T tile. */
static int tile_of(int k) { return (int)ROWS[k].block.x; }

/* --check: every row on shapes that are multiples of no tile (primes, 1-wide, K < T, ...), on one
 * exact multiple, and on two large ones; fresh random inputs for every shape (gemm_check_cases). */
static const gemm_case_t CASES[] = {
    {1, 1, 1, 0, 0},       {1, 7, 3, 0, 0},        {7, 1, 3, 0, 0},         {33, 31, 17, 0, 0},
    {127, 129, 131, 0, 0}, {257, 1, 513, 0, 0},    {1, 257, 513, 0, 0},     {64, 64, 64, 0, 0},
    {260, 132, 36, 0, 0},  {1000, 777, 333, 0, 1}, {8191, 4097, 129, 0, 1},
};
#define N_CASES ((int)(sizeof CASES / sizeof CASES[0]))

/* ---- the experiment ---------------------------------------------------------------------------- */

/* Experiment 2: naive against tiled, at M x N x K.  Returns 1 if a kernel failed verification. */
static int experiment_gemm(const gpu_info_t *g, const args_t *a, int M, int N, int K)
{
    gemm_problem_t p;
    double flops = 2.0 * M * N * K;
    double min_bytes = 4.0 * ((double)M * K + (double)K * N + (double)M * N);
    double macs = (double)M * N * K, gf[N_TABLE], best = 0.0;
    timing_t t;
    int ok[N_TABLE], ki, best_ki = -1, failed = 0;
    int flush = gpu_flush_wanted(g, a, (size_t)min_bytes);
    char takeaway[400];
    double peak;

    gemm_problem_init(&p, M, N, K, 0, a->seed);
    report_say("\nExperiment 2: C = A x B with M = %d, N = %d, K = %d: %.1f GFLOP (2 x M x N x K).\n", M, N, K,
               flops / 1e9);
    peak = gemm_fp32_peak_say(g);
    report_say("  Loads the SMs request from global memory (served by L1, L2 or DRAM):\n");
    report_say("    naive:          2 per multiply-add        = %8.2f GB\n", 2.0 * macs * 4 / 1e9);
    for (ki = 1; ki < N_TABLE; ki++)
        report_say("    tiled T = %-2d:   2/%-2d per multiply-add     = %8.2f GB (each tile element used %d times)\n",
                   tile_of(ki), tile_of(ki), 2.0 * macs * 4 / tile_of(ki) / 1e9, tile_of(ki));
    report_say("  The least any product must move: A and B read once, C written once = %.3f GB.\n", min_bytes / 1e9);
    gemm_say_verification(M, N, K);

    report_begin("sgemm",
                 "  Naive against tiled (GB/s counts only the least bytes and is not the point for a compute-bound\n"
                 "  kernel: read the GFLOP/s column):", "GFLOP/s");
    for (ki = 0; ki < N_TABLE; ki++) {
        ok[ki] = gemm_time(&p, &ROWS[ki], a, flush, &t);   /* verified, then timed; a failure prints its row */
        gf[ki] = ok[ki] ? flops / (t.median_ms * 1e6) : 0.0;
        if (ok[ki]) report_row(ROWS[ki].label, &t, min_bytes, gf[ki]);
        failed |= !ok[ki];
        if (ok[ki] && ki != NAIVE && gf[ki] > best) {
            best = gf[ki];
            best_ki = ki;
        }
    }
    if (best_ki > 0 && ok[NAIVE]) {
        int worst_ki = best_ki;
        for (ki = 1; ki < N_TABLE; ki++)
            if (ok[ki] && gf[ki] < gf[worst_ki]) worst_ki = ki;
        snprintf(takeaway, sizeof takeaway,
                 "the best tile, T = %d, reaches %.0f GFLOP/s (%.1f%% of the FP32 peak), %.2fx the naive kernel; "
                 "T = %d reaches %.2fx. Fewer global loads per multiply-add pay only while shared memory keeps up.",
                 tile_of(best_ki), best, 100.0 * best / peak, best / gf[NAIVE], tile_of(worst_ki),
                 gf[worst_ki] / gf[NAIVE]);
    } else {
        snprintf(takeaway, sizeof takeaway, "a kernel failed verification: no comparison.");
    }
    report_end(takeaway);
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
    gpu_start(&g, "07_shared_tiled", "Lesson 07, part 2 - tiled SGEMM: shared-memory tiles for reuse", &a);
    if (a.check) return gemm_check_cases(CASES, N_CASES, ROWS, N_CHECK, &a);

    gpu_require_bytes(gemm_problem_bytes(M, N, K, 0, 0), "the product (A, B, C and its reference in double)");
    gemm_ceilings(&g, &a);   /* experiment 1: the memory ceilings, context only */
    failed = experiment_gemm(&g, &a, M, N, K);
    return gpu_finish_status(failed);
}
