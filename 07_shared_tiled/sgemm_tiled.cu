/* Lesson 07, part 2: shared-memory tiles for reuse -- the tiled matrix product (SGEMM).
 *
 * C = A x B in single precision, all row-major: A is M x K, B is K x N, C is M x N.
 *
 * Experiment 1: the two memory ceilings every lesson reports (cudaMemcpy D2D, theoretical peak).
 * A matrix product is compute-bound, so here they are context only.
 * Experiment 2: the naive product (one C element per thread; every multiply-add reads one A and
 * one B element through the caches) against the tiled product, in which a block of T x T threads
 * copies a T x T tile of A and one of B into shared memory, each thread one element of each at
 * the same relative position, and then every element of the tiles is used T times. Tiles of
 * T = 8, 16 and 32 show what the reuse factor buys.
 *
 * The kernels are in sgemm_kernels.cuh; this file verifies, times and prints them. */
#include "gemm_problem.h"
#include "gpu.h"
#include "grid.cuh"
#include "report.h"
#include "sgemm_kernels.cuh"
#include "stats.h"

#include <stdio.h>

/* ---- launches: each enqueues the kernel of one table row on stream s (context: gemm_ctx_t) ---- */

static void launch_naive(void *v, cudaStream_t s)
{
    const gemm_ctx_t *c = (const gemm_ctx_t *)v;
    const gemm_problem_t *p = c->p;
    dim3 block(c->bx, c->by), grid(div_up(p->N, c->bx), div_up(p->M, c->by));
    sgemm_naive<<<grid, block, 0, s>>>(p->dA, p->dB, p->dC, p->M, p->N, p->K);
}

/* sgemm_tiled_T on T x T threads, one block per T x T tile of C. */
#define TILED_LAUNCHER(name, kernel, T)                                                                          \
    static void name(void *v, cudaStream_t s)                                                                    \
    {                                                                                                            \
        const gemm_problem_t *p = ((const gemm_ctx_t *)v)->p;                                                    \
        kernel<<<dim3(div_up(p->N, T), div_up(p->M, T)), dim3(T, T), 0, s>>>(p->dA, p->dB, p->dC, p->M, p->N,    \
                                                                             p->K);                              \
    }
TILED_LAUNCHER(launch_tiled_8, sgemm_tiled_8, 8)
TILED_LAUNCHER(launch_tiled_16, sgemm_tiled_16, 16)
TILED_LAUNCHER(launch_tiled_32, sgemm_tiled_32, 32)

/* ---- the rows the table measures ------------------------------------------------------------- */

typedef struct {
    const char *label;   /* the table row and the NVTX range `make profile` names it by */
    launch_fn_t launch;
    int tile;            /* 0 for the naive kernel */
} kernel_t;

static const kernel_t KERNELS[] = {
    {"sgemm_naive", launch_naive, 0},
    {"sgemm_tiled T=8", launch_tiled_8, 8},
    {"sgemm_tiled T=16", launch_tiled_16, 16},
    {"sgemm_tiled T=32", launch_tiled_32, 32},
};
#define NKERNELS ((int)(sizeof KERNELS / sizeof KERNELS[0]))

/* The naive kernel's block in the table: the shape of the T = 16 tile. */
#define NAIVE_BX 16
#define NAIVE_BY 16

/* A table row's label: the naive kernel with its block shape, a tiled kernel with its tile. */
static void kernel_label(int ki, int bx, int by, char *label, size_t len)
{
    if (KERNELS[ki].tile) snprintf(label, len, "%s", KERNELS[ki].label);
    else snprintf(label, len, "%s %dx%d", KERNELS[ki].label, bx, by);
}

/* ---- --check ----------------------------------------------------------------------------------- */

/* --check on one shape: every kernel, the naive one with the timed block shape and a full-warp row. */
static void check_kernels(gemm_problem_t *p, const char *size, void *user, check_tally_t *t)
{
    int bx[2] = {NAIVE_BX, 32}, by[2] = {NAIVE_BY, 8}, ki, bi;
    check_t chk = gemm_check_of(p);
    char what[96];
    (void)user;
    for (ki = 0; ki < NKERNELS; ki++)
        for (bi = 0; bi < (KERNELS[ki].tile ? 1 : 2); bi++) {
            gemm_ctx_t c = {p, bx[bi], by[bi], NULL};
            kernel_label(ki, bx[bi], by[bi], what, sizeof what);
            check_line(&chk, what, size, KERNELS[ki].launch, &c, stdout, t);
        }
}

/* --check: every kernel on shapes that are multiples of no tile (primes, 1-wide, K < T, ...),
 * on one exact multiple, and on two large ones; fresh random inputs for every shape. */
static const gemm_case_t CASES[] = {
    {1, 1, 1, 0, 0},       {1, 7, 3, 0, 0},        {7, 1, 3, 0, 0},         {33, 31, 17, 0, 0},
    {127, 129, 131, 0, 0}, {257, 1, 513, 0, 0},    {1, 257, 513, 0, 0},     {64, 64, 64, 0, 0},
    {260, 132, 36, 0, 0},  {1000, 777, 333, 0, 1}, {8191, 4097, 129, 0, 1},
};

/* ---- the experiment ---------------------------------------------------------------------------- */

/* Experiment 2: naive against tiled, at M x N x K. */
static int experiment_gemm(const gpu_info_t *g, const args_t *a, int M, int N, int K, void *user)
{
    gemm_problem_t p;
    check_t chk;
    double flops = 2.0 * M * N * K;
    double min_bytes = 4.0 * ((double)M * K + (double)K * N + (double)M * N);
    double macs = (double)M * N * K, gf[NKERNELS], best = 0.0;
    timing_t t[NKERNELS];
    int ok[NKERNELS], ki, best_ki = -1, failed = 0;
    int flush = gpu_flush_wanted(g, a, (size_t)min_bytes);
    char label[64], takeaway[400];
    double peak;

    (void)user;
    gemm_problem_init(&p, M, N, K, 0, a->seed);
    chk = gemm_check_of(&p);
    report_say("\nExperiment 2: C = A x B with M = %d, N = %d, K = %d: %.1f GFLOP (2 x M x N x K).\n", M, N, K,
               flops / 1e9);
    peak = gemm_fp32_peak_say(g);
    report_say("  Loads the SMs request from global memory (served by L1, L2 or DRAM):\n");
    report_say("    naive:          2 per multiply-add        = %8.2f GB\n", 2.0 * macs * 4 / 1e9);
    for (ki = 1; ki < NKERNELS; ki++)
        report_say("    tiled T = %-2d:   2/%-2d per multiply-add     = %8.2f GB (each tile element used %d times)\n",
                   KERNELS[ki].tile, KERNELS[ki].tile, 2.0 * macs * 4 / KERNELS[ki].tile / 1e9, KERNELS[ki].tile);
    report_say("  The least any product must move: A and B read once, C written once = %.3f GB.\n", min_bytes / 1e9);
    gemm_say_verification(M, N, K);

    report_begin("sgemm",
                 "  Naive against tiled (GB/s counts only the least bytes and is not the point for a compute-bound\n"
                 "  kernel: read the GFLOP/s column):", "GFLOP/s");
    for (ki = 0; ki < NKERNELS; ki++) {
        gemm_ctx_t c = {&p, NAIVE_BX, NAIVE_BY, NULL};
        kernel_label(ki, NAIVE_BX, NAIVE_BY, label, sizeof label);
        ok[ki] = verify_then_time(label, KERNELS[ki].launch, &c, &chk, a, flush, &t[ki]);
        gf[ki] = ok[ki] ? flops / (t[ki].median_ms * 1e6) : 0.0;
        report_result(label, ok[ki], &t[ki], min_bytes, gf[ki]);
        failed |= !ok[ki];
        if (ok[ki] && ki > 0 && gf[ki] > best) {
            best = gf[ki];
            best_ki = ki;
        }
    }
    if (best_ki > 0 && ok[0]) {
        int worst_ki = best_ki;
        for (ki = 1; ki < NKERNELS; ki++)
            if (ok[ki] && gf[ki] < gf[worst_ki]) worst_ki = ki;
        snprintf(takeaway, sizeof takeaway,
                 "the best tile, T = %d, reaches %.0f GFLOP/s (%.1f%% of the FP32 peak), %.2fx the naive kernel; "
                 "T = %d reaches %.2fx. Fewer global loads per multiply-add pay only while shared memory keeps up.",
                 KERNELS[best_ki].tile, best, 100.0 * best / peak, best / gf[0], KERNELS[worst_ki].tile,
                 gf[worst_ki] / gf[0]);
    } else {
        snprintf(takeaway, sizeof takeaway, "a kernel failed verification: no comparison.");
    }
    report_end(takeaway);
    gemm_problem_free(&p);
    return failed;
}

/* ---- main ----------------------------------------------------------------------------------- */

/* What this program is (gemm_problem.h); gemm_program_main runs it. */
static const gemm_program_t PROGRAM = {
    "07_shared_tiled", "Lesson 07, part 2 - tiled SGEMM: shared-memory tiles for reuse",
    "Lesson 07, part 2: shared-memory tiles for reuse. The matrix product C = A x B (FP32, row-major),\n"
    "naive (one element per thread, everything from global memory) against shared-memory tiles of\n"
    "T x T = 8x8, 16x16 and 32x32, each verified against a double-precision reference.",
    CASES, (int)(sizeof CASES / sizeof CASES[0]), check_kernels, experiment_gemm, 0, NULL, NULL, NULL, NULL,
};

int main(int argc, char **argv) { return gemm_program_main(&PROGRAM, argc, argv); }
