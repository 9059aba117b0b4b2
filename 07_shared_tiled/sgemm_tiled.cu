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
 * Every kernel handles any M, N, K: elements of a tile that fall outside a matrix are loaded as
 * zeros (they add nothing), and only threads inside C write. */
#include "args.h"
#include "exitcodes.h"
#include "gemm_problem.h"
#include "gpu.h"
#include "report.h"
#include "stats.h"

#include <stdio.h>

/* ---- kernels ------------------------------------------------------------------------------ */

/* The baseline: thread (row, col) computes C[row][col] alone, with the textbook mapping
 * col = blockIdx.x * blockDim.x + threadIdx.x.  In the k loop a warp's B[k * N + col] loads are
 * consecutive (coalesced), and its A[row * K + k] loads name one address per row (a broadcast).
 * Nothing is reused on purpose: each A element is fetched by N threads and each B element by M
 * threads, and only the L1 and L2 caches stand between those fetches and DRAM.
 * Indices fit an int: every dimension is at most 16384, so every product of two is below 2^31. */
__global__ void sgemm_naive(const float *__restrict__ A, const float *__restrict__ B,
                            float *__restrict__ C, int M, int N, int K)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    float sum = 0.0f;
    int k;
    if (row >= M || col >= N) return;
    for (k = 0; k < K; k++) sum += A[row * K + k] * B[k * N + col];
    C[row * N + col] = sum;
}

/* The tiled product for a T x T block of threads (T = blockDim.x = blockDim.y).  For each step
 * along k, thread (ty, tx) loads A[row][k0 + tx] into As[ty][tx] and B[k0 + ty][col] into
 * Bs[ty][tx]: the same relative position in both tiles, and consecutive tx on consecutive
 * addresses, so both global loads are coalesced.  After the barrier every thread reads a row of
 * As and a column of Bs: each element loaded from global memory is used T times, from shared
 * memory, so global loads per multiply-add fall from 2 to 2/T.
 * Edges: a tile element outside A or B is stored as 0.0f, which adds exactly nothing, so the inner
 * loop needs no test and K need not be a multiple of T.  Threads outside C still load and reach
 * both barriers (a thread that skipped __syncthreads would hang or corrupt its block); they just
 * do not write.
 * T is a compile-time constant in each wrapper below, so the inner loop unrolls completely.
 * The shared tiles are flat arrays indexed [y * T + x] because T is a parameter here. */
static __device__ __forceinline__ void sgemm_tiled_body(const float *__restrict__ A,
                                                        const float *__restrict__ B,
                                                        float *__restrict__ C, int M, int N, int K,
                                                        float *As, float *Bs, const int T)
{
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
    float sum = 0.0f;
    int k0, k;

    for (k0 = 0; k0 < K; k0 += T) {
        As[ty * T + tx] = (row < M && k0 + tx < K) ? A[row * K + k0 + tx] : 0.0f;
        Bs[ty * T + tx] = (k0 + ty < K && col < N) ? B[(k0 + ty) * N + col] : 0.0f;
        __syncthreads();   /* the tiles are complete before anyone reads them */
#pragma unroll
        for (k = 0; k < T; k++) sum += As[ty * T + k] * Bs[k * T + tx];
        __syncthreads();   /* everyone is done reading before the next step overwrites them */
    }
    if (row < M && col < N) C[row * N + col] = sum;
}

__global__ void sgemm_tiled_8(const float *__restrict__ A, const float *__restrict__ B,
                              float *__restrict__ C, int M, int N, int K)
{
    __shared__ float As[8 * 8], Bs[8 * 8];
    sgemm_tiled_body(A, B, C, M, N, K, As, Bs, 8);
}

__global__ void sgemm_tiled_16(const float *__restrict__ A, const float *__restrict__ B,
                               float *__restrict__ C, int M, int N, int K)
{
    __shared__ float As[16 * 16], Bs[16 * 16];
    sgemm_tiled_body(A, B, C, M, N, K, As, Bs, 16);
}

__global__ void sgemm_tiled_32(const float *__restrict__ A, const float *__restrict__ B,
                               float *__restrict__ C, int M, int N, int K)
{
    __shared__ float As[32 * 32], Bs[32 * 32];
    sgemm_tiled_body(A, B, C, M, N, K, As, Bs, 32);
}

/* ---- the experiments ---------------------------------------------------------------------- */

/* What a launch needs: the product (its device matrices and sizes) and the naive kernel's block. */
typedef struct {
    const gemm_problem_t *p;
    int bx, by;
} gemm_ctx_t;

static void launch_naive(void *v)
{
    const gemm_ctx_t *c = (const gemm_ctx_t *)v;
    const gemm_problem_t *p = c->p;
    dim3 block(c->bx, c->by), grid(gemm_blocks(p->N, c->bx), gemm_blocks(p->M, c->by));
    sgemm_naive<<<grid, block>>>(p->dA, p->dB, p->dC, p->M, p->N, p->K);
}

static void launch_tiled_8(void *v)
{
    const gemm_problem_t *p = ((const gemm_ctx_t *)v)->p;
    sgemm_tiled_8<<<dim3(gemm_blocks(p->N, 8), gemm_blocks(p->M, 8)), dim3(8, 8)>>>(p->dA, p->dB, p->dC, p->M, p->N,
                                                                                    p->K);
}

static void launch_tiled_16(void *v)
{
    const gemm_problem_t *p = ((const gemm_ctx_t *)v)->p;
    sgemm_tiled_16<<<dim3(gemm_blocks(p->N, 16), gemm_blocks(p->M, 16)), dim3(16, 16)>>>(p->dA, p->dB, p->dC, p->M,
                                                                                        p->N, p->K);
}

static void launch_tiled_32(void *v)
{
    const gemm_problem_t *p = ((const gemm_ctx_t *)v)->p;
    sgemm_tiled_32<<<dim3(gemm_blocks(p->N, 32), gemm_blocks(p->M, 32)), dim3(32, 32)>>>(p->dA, p->dB, p->dC, p->M,
                                                                                        p->N, p->K);
}

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

/* A table row's label: the naive kernel with its block shape, a tiled kernel with its tile. */
static void kernel_label(int ki, int bx, int by, char *label, size_t len)
{
    if (KERNELS[ki].tile) snprintf(label, len, "%s", KERNELS[ki].label);
    else snprintf(label, len, "%s %dx%d", KERNELS[ki].label, bx, by);
}

/* --check on one shape: every kernel, the naive one with the timed block shape and a full-warp row. */
static void check_kernels(gemm_problem_t *p, const char *size, void *user, gemm_tally_t *t)
{
    int bx[2] = {16, 32}, by[2] = {16, 8}, ki, bi;
    char what[96];
    (void)user;
    for (ki = 0; ki < NKERNELS; ki++)
        for (bi = 0; bi < (KERNELS[ki].tile ? 1 : 2); bi++) {
            gemm_ctx_t c = {p, bx[bi], by[bi]};
            kernel_label(ki, bx[bi], by[bi], what, sizeof what);
            gemm_check_launch(p, what, size, KERNELS[ki].launch, &c, t);
        }
}

/* --check: every kernel on shapes that are multiples of no tile (primes, 1-wide, K < T, ...),
 * on one exact multiple, and on two large ones; fresh random inputs for every shape. */
static int run_checks(const args_t *a)
{
    static const gemm_case_t cases[] = {
        {1, 1, 1, 0, 0},       {1, 7, 3, 0, 0},        {7, 1, 3, 0, 0},         {33, 31, 17, 0, 0},
        {127, 129, 131, 0, 0}, {257, 1, 513, 0, 0},    {1, 257, 513, 0, 0},     {64, 64, 64, 0, 0},
        {260, 132, 36, 0, 0},  {1000, 777, 333, 0, 1}, {8191, 4097, 129, 0, 1},
    };
    return gemm_run_checks(cases, (int)(sizeof cases / sizeof cases[0]), a, check_kernels, NULL);
}

/* Experiment 2: naive against tiled, at M x N x K. */
static int experiment_gemm(const gpu_info_t *g, const args_t *a, int M, int N, int K, int bx, int by)
{
    gemm_problem_t p;
    double flops = 2.0 * M * N * K;
    double min_bytes = 4.0 * ((double)M * K + (double)K * N + (double)M * N);
    double macs = (double)M * N * K, gf[NKERNELS], best = 0.0;
    timing_t t[NKERNELS];
    int ok[NKERNELS], ki, best_ki = -1, failed = 0;
    int flush = gpu_flush_wanted(g, a, (size_t)min_bytes);
    char label[64], takeaway[400];
    double peak;

    gemm_problem_init(&p, M, N, K, 0, a->seed);
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

    for (ki = 0; ki < NKERNELS; ki++) {
        gemm_ctx_t c = {&p, bx, by};
        kernel_label(ki, bx, by, label, sizeof label);
        ok[ki] = gemm_verify_then_time(&p, label, label, KERNELS[ki].launch, &c, a, flush, &t[ki]);
        if (!ok[ki]) {
            failed = 1;
            continue;
        }
        gf[ki] = flops / (t[ki].median_ms * 1e6);
        if (ki > 0 && gf[ki] > best) {
            best = gf[ki];
            best_ki = ki;
        }
    }

    report_begin("sgemm",
                 "  Naive against tiled (GB/s counts only the least bytes and is not the point for a compute-bound\n"
                 "  kernel: read the GFLOP/s column):", "GFLOP/s");
    for (ki = 0; ki < NKERNELS; ki++) {
        kernel_label(ki, bx, by, label, sizeof label);
        if (ok[ki]) report_row(label, &t[ki], min_bytes, gf[ki]);
        else report_row_failed(label);
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

int main(int argc, char **argv)
{
    static const char *summary =
        "Lesson 07, part 2: shared-memory tiles for reuse. The matrix product C = A x B (FP32, row-major),\n"
        "naive (one element per thread, everything from global memory) against shared-memory tiles of\n"
        "T x T = 8x8, 16x16 and 32x32, each verified against a double-precision CPU reference.";
    gemm_size_args_t size;
    args_t a;
    gpu_info_t g;
    int M, N, K, bx, by, failed = 0;

    gemm_size_args_init(&size);
    args_parse_or_exit(argc, argv, &a, summary, GEMM_SIZE_HELP, size.opts, GEMM_SIZE_NOPTS);
    gemm_size_or_exit(argc, argv, &a, &size,
                      "the block shapes follow the tiles (T x T threads; 16x16 for the naive kernel)", &M, &N, &K);
    bx = 16;   /* the naive kernel's block, the shape of the T = 16 tile; the tiled kernels use T x T */
    by = 16;
    report_init("07_shared_tiled", a.csv);

    gpu_init(&g);
    gpu_print_header(&g, "Lesson 07, part 2 - tiled SGEMM: shared-memory tiles for reuse", &a);
    if (a.check) {
        failed = run_checks(&a);
        gpu_finish();
        return failed;
    }
    gemm_report_ceilings(&g, &a);
    failed |= experiment_gemm(&g, &a, M, N, K, bx, by);
    gpu_finish();
    if (failed) {
        fprintf(stderr, "A kernel FAILED verification: its figures were not reported.\n");
        return EXIT_VERIFY;
    }
    return EXIT_OK;
}
