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
#include "checked_bench.h"
#include "cpu_gemm.h"
#include "cuda_check.h"
#include "exitcodes.h"
#include "gpu.h"
#include "report.h"
#include "stats.h"
#include "verify.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

#define DIM_MAX 16384   /* per dimension: products of two stay below 2^31, gridDim.y below 65535 */

static int opt_mnk = 0, opt_m = 0, opt_n = 0, opt_k = 0;

typedef struct {
    const float *A, *B;
    float *C;
    int M, N, K;
    int bx, by;   /* the naive kernel's block */
} gemm_ctx_t;

static unsigned ceil_div(int n, int d) { return (unsigned)((n + d - 1) / d); }

static void launch_naive(void *p)
{
    gemm_ctx_t *c = (gemm_ctx_t *)p;
    dim3 block(c->bx, c->by), grid(ceil_div(c->N, c->bx), ceil_div(c->M, c->by));
    sgemm_naive<<<grid, block>>>(c->A, c->B, c->C, c->M, c->N, c->K);
}

static void launch_tiled_8(void *p)
{
    gemm_ctx_t *c = (gemm_ctx_t *)p;
    sgemm_tiled_8<<<dim3(ceil_div(c->N, 8), ceil_div(c->M, 8)), dim3(8, 8)>>>(c->A, c->B, c->C, c->M, c->N, c->K);
}

static void launch_tiled_16(void *p)
{
    gemm_ctx_t *c = (gemm_ctx_t *)p;
    sgemm_tiled_16<<<dim3(ceil_div(c->N, 16), ceil_div(c->M, 16)), dim3(16, 16)>>>(c->A, c->B, c->C, c->M, c->N,
                                                                                  c->K);
}

static void launch_tiled_32(void *p)
{
    gemm_ctx_t *c = (gemm_ctx_t *)p;
    sgemm_tiled_32<<<dim3(ceil_div(c->N, 32), ceil_div(c->M, 32)), dim3(32, 32)>>>(c->A, c->B, c->C, c->M, c->N,
                                                                                  c->K);
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

/* Products up to 2^28 multiply-adds are checked element by element; larger ones on a sample of
 * GEMM_SAMPLE elements plus the four corners (the double-precision reference would take seconds).
 * The bound, from cpu_gemm_tolerance: |got - exact| <= K x 2^-23 x sum_k |a_ik b_kj|. */
#define GEMM_FULL_CHECK_MACS ((double)(1 << 28))
#define GEMM_SAMPLE 4096

static size_t gemm_sample(int M, int N, int K)
{
    return (double)M * N * K <= GEMM_FULL_CHECK_MACS ? 0 : GEMM_SAMPLE;
}

/* One product's matrices: on the GPU, and A and B also on the host for the reference. */
typedef struct {
    int M, N, K;
    float *dA, *dB, *dC;
    float *hA, *hB, *hC;
} gemm_bufs_t;

/* Fresh random A (stream seed) and B (stream seed + 1), filled on the GPU and copied back once. */
static void gemm_setup(gemm_bufs_t *b, int M, int N, int K, uint64_t seed)
{
    size_t na = (size_t)M * K, nb = (size_t)K * N, nc = (size_t)M * N;
    b->M = M;
    b->N = N;
    b->K = K;
    b->dA = (float *)gpu_alloc(na * sizeof(float), "A");
    b->dB = (float *)gpu_alloc(nb * sizeof(float), "B");
    b->dC = (float *)gpu_alloc(nc * sizeof(float), "C");
    b->hA = (float *)host_alloc(na * sizeof(float), "the host copy of A");
    b->hB = (float *)host_alloc(nb * sizeof(float), "the host copy of B");
    b->hC = (float *)host_alloc(nc * sizeof(float), "the host copy of C");
    gpu_fill_random_f32(b->dA, na, seed);
    gpu_fill_random_f32(b->dB, nb, seed + 1);
    CHECK(cudaMemcpy(b->hA, b->dA, na * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(b->hB, b->dB, nb * sizeof(float), cudaMemcpyDeviceToHost));
}

static void gemm_free(gemm_bufs_t *b)
{
    CHECK(cudaFree(b->dA));
    CHECK(cudaFree(b->dB));
    CHECK(cudaFree(b->dC));
    free(b->hA);
    free(b->hB);
    free(b->hC);
}

static gemm_ctx_t gemm_ctx(const gemm_bufs_t *b, int bx, int by)
{
    gemm_ctx_t c;
    c.A = b->dA;
    c.B = b->dB;
    c.C = b->dC;
    c.M = b->M;
    c.N = b->N;
    c.K = b->K;
    c.bx = bx;
    c.by = by;
    return c;
}

/* Runs the kernel once on a poisoned C and checks it against the double-precision reference. */
static size_t verify_kernel(gemm_bufs_t *b, launch_fn_t launch, gemm_ctx_t *c, uint64_t seed, mismatch_t *m)
{
    size_t nc = (size_t)b->M * b->N;
    gpu_poison(b->dC, nc * sizeof(float));
    launch(c);
    CHECK_LAST();
    CHECK(cudaMemcpy(b->hC, b->dC, nc * sizeof(float), cudaMemcpyDeviceToHost));
    return verify_gemm_f32(b->hA, b->hB, b->hC, b->M, b->N, b->K, gemm_sample(b->M, b->N, b->K), seed, m);
}

/* How many elements a check compares (for the "k of n differ" line). */
static size_t checked_elems(int M, int N, int K)
{
    size_t s = gemm_sample(M, N, K);
    return s ? s + 4 : (size_t)M * N;
}

/* --check: every kernel on shapes that are multiples of no tile (primes, 1-wide, K < T, ...),
 * on one exact multiple, and on two large ones; fresh random inputs for every shape. */
static int run_checks(const args_t *a)
{
    static const struct { int M, N, K, big; } cases[] = {
        {1, 1, 1, 0},     {1, 7, 3, 0},       {7, 1, 3, 0},       {33, 31, 17, 0},   {127, 129, 131, 0},
        {257, 1, 513, 0}, {1, 257, 513, 0},   {64, 64, 64, 0},    {260, 132, 36, 0}, {1000, 777, 333, 1},
        {8191, 4097, 129, 1},
    };
    int ncases = (int)(sizeof cases / sizeof cases[0]);
    int fails = 0, checks = 0, ci, ki, nb = 2;
    int bx[2] = {16, 32}, by[2] = {16, 8};   /* the naive kernel: the timed shape and a full-warp row */
    char what[96], size[96];
    mismatch_t m;

    for (ci = 0; ci < ncases; ci++) {
        gemm_bufs_t b;
        uint64_t seed = a->seed + 2 * (uint64_t)ci;
        int M = cases[ci].M, N = cases[ci].N, K = cases[ci].K;
        if (cases[ci].big && a->quick) continue;
        gemm_setup(&b, M, N, K, seed);
        snprintf(size, sizeof size, "M=%d N=%d K=%d%s", M, N, K, gemm_sample(M, N, K) ? ", sampled" : "");
        for (ki = 0; ki < NKERNELS; ki++) {
            int bi, reps = KERNELS[ki].tile ? 1 : nb;
            for (bi = 0; bi < reps; bi++) {
                gemm_ctx_t c = gemm_ctx(&b, bx[bi], by[bi]);
                if (KERNELS[ki].tile) snprintf(what, sizeof what, "%s", KERNELS[ki].label);
                else snprintf(what, sizeof what, "%s %dx%d", KERNELS[ki].label, bx[bi], by[bi]);
                verify_kernel(&b, KERNELS[ki].launch, &c, seed, &m);
                fails += verify_print(stdout, what, size, &m, checked_elems(M, N, K), (size_t)N);
                checks++;
            }
        }
        gemm_free(&b);
    }
    printf("%s: %d of %d checks passed\n", fails ? "FAILED" : "OK", checks - fails, checks);
    return fails ? EXIT_VERIFY : EXIT_OK;
}

/* Experiment 1: the ceilings, measured on buffers too large for the L2.  Context only. */
static void experiment_ceilings(const gpu_info_t *g, const args_t *a)
{
    size_t ws = a->quick ? ((size_t)64 << 20) : stats_default_ws(g->l2_bytes, (size_t)256 << 20);
    void *src = gpu_alloc(ws, "the copy source"), *dst = gpu_alloc(ws, "the copy destination");
    timing_t t;
    double d2d;

    CHECK(cudaMemset(src, 0, ws));
    d2d = gpu_d2d_gbs(dst, src, ws, a, gpu_flush_wanted(g, a, 2 * ws), &t);
    report_set_ceilings(d2d, g->peak_gbs);
    report_say("\nExperiment 1: the memory ceilings (context only: a matrix product of this size is limited by\n"
               "  arithmetic and on-chip traffic, not by DRAM).\n");
    report_begin("sgemm_ceiling", "  cudaMemcpy device-to-device (GB/s = bytes read + bytes written / time):", NULL);
    report_row("cudaMemcpy D2D", &t, 2.0 * ws, NAN);
    report_end("every other row's GB/s is compared with this copy and with the theoretical peak.");
    CHECK(cudaFree(src));
    CHECK(cudaFree(dst));
}

/* Experiment 2: naive against tiled, at M x N x K. */
static int experiment_gemm(const gpu_info_t *g, const args_t *a, int M, int N, int K, int bx, int by)
{
    gemm_bufs_t b;
    double flops = 2.0 * M * N * K;
    double min_bytes = 4.0 * ((double)M * K + (double)K * N + (double)M * N);
    double macs = (double)M * N * K, gf[NKERNELS], best = 0.0;
    timing_t t[NKERNELS];
    int ok[NKERNELS], ki, best_ki = -1, failed = 0;
    int flush = gpu_flush_wanted(g, a, (size_t)min_bytes);
    char label[64], takeaway[320];
    mismatch_t m;

    gemm_setup(&b, M, N, K, a->seed);
    report_say("\nExperiment 2: C = A x B with M = %d, N = %d, K = %d: %.1f GFLOP (2 x M x N x K).\n", M, N, K,
               flops / 1e9);
    report_say("  Loads the SMs request from global memory (served by L1, L2 or DRAM):\n");
    report_say("    naive:          2 per multiply-add        = %8.2f GB\n", 2.0 * macs * 4 / 1e9);
    for (ki = 1; ki < NKERNELS; ki++)
        report_say("    tiled T = %-2d:   2/%-2d per multiply-add     = %8.2f GB (each tile element used %d times)\n",
                   KERNELS[ki].tile, KERNELS[ki].tile, 2.0 * macs * 4 / KERNELS[ki].tile / 1e9, KERNELS[ki].tile);
    report_say("  The least any product must move: A and B read once, C written once = %.3f GB.\n", min_bytes / 1e9);
    report_say("  Verified first against a double-precision CPU reference (%s), bound |error| <= K x 2^-23 x\n"
               "  sum |a_ik b_kj|.\n",
               gemm_sample(M, N, K) ? "a sample of 4096 elements and the corners" : "every element");

    for (ki = 0; ki < NKERNELS; ki++) {
        gemm_ctx_t c = gemm_ctx(&b, bx, by);
        if (KERNELS[ki].tile) snprintf(label, sizeof label, "%s", KERNELS[ki].label);
        else snprintf(label, sizeof label, "%s %dx%d", KERNELS[ki].label, bx, by);
        ok[ki] = verify_kernel(&b, KERNELS[ki].launch, &c, a->seed, &m) == 0;
        if (!ok[ki]) {
            char d[200];
            verify_describe(&m, checked_elems(M, N, K), (size_t)N, d, sizeof d);
            fprintf(stderr, "%s: FAILED verification: %s\n", label, d);
            failed = 1;
            continue;
        }
        t[ki] = bench_median_ms(label, KERNELS[ki].launch, &c, a, flush);
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
        if (KERNELS[ki].tile) snprintf(label, sizeof label, "%s", KERNELS[ki].label);
        else snprintf(label, sizeof label, "%s %dx%d", KERNELS[ki].label, bx, by);
        if (ok[ki]) report_row(label, &t[ki], min_bytes, gf[ki]);
        else report_row_failed(label);
    }
    if (best_ki > 0 && ok[0]) {
        int worst_ki = best_ki;
        for (ki = 1; ki < NKERNELS; ki++)
            if (ok[ki] && gf[ki] < gf[worst_ki]) worst_ki = ki;
        snprintf(takeaway, sizeof takeaway,
                 "the best tile, T = %d, reaches %.0f GFLOP/s, %.2fx the naive kernel; T = %d reaches %.2fx. "
                 "Fewer global loads per multiply-add pay only while shared memory keeps up.",
                 KERNELS[best_ki].tile, best, best / gf[0], KERNELS[worst_ki].tile, gf[worst_ki] / gf[0]);
    } else {
        snprintf(takeaway, sizeof takeaway, "a kernel failed verification: no comparison.");
    }
    report_end(takeaway);
    gemm_free(&b);
    return failed;
}

/* The text the user typed after `opt` (the last occurrence), so an error can quote it as given. */
static const char *raw_arg(int argc, char **argv, const char *opt)
{
    const char *v = "?";
    int i;
    for (i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], opt)) v = argv[i + 1];
    return v;
}

/* ---- main ----------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    static const char *summary =
        "Lesson 07, part 2: shared-memory tiles for reuse. The matrix product C = A x B (FP32, row-major),\n"
        "naive (one element per thread, everything from global memory) against shared-memory tiles of\n"
        "T x T = 8x8, 16x16 and 32x32, each verified against a double-precision CPU reference.";
    lesson_opt_t opts[] = {
        {"--mnk", OPT_INT, &opt_mnk, 1, DIM_MAX, "N", "M = N = K = N (default 4096; 1024 with --quick)"},
        {"--m", OPT_INT, &opt_m, 1, DIM_MAX, "M", "rows of A and C (overrides --mnk)"},
        {"--n", OPT_INT, &opt_n, 1, DIM_MAX, "N", "columns of B and C (overrides --mnk)"},
        {"--k", OPT_INT, &opt_k, 1, DIM_MAX, "K", "columns of A, rows of B (overrides --mnk)"},
    };
    args_t a;
    gpu_info_t g;
    int M, N, K, def, bx, by, failed = 0;

    args_parse_or_exit(argc, argv, &a, summary,
                       "not used: give the product's size with --mnk or --m/--n/--k", opts, 4);
    if (a.nx)
        args_reject("bad --size '%s': this program sizes its product with --mnk N or --m/--n/--k",
                    raw_arg(argc, argv, "--size"));
    if (a.bx)
        args_reject("bad --block '%s': the block shapes follow the tiles (T x T threads; 16x16 for the naive "
                    "kernel)", raw_arg(argc, argv, "--block"));
    def = opt_mnk ? opt_mnk : (a.quick ? 1024 : 4096);
    M = opt_m ? opt_m : def;
    N = opt_n ? opt_n : def;
    K = opt_k ? opt_k : def;
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
    experiment_ceilings(&g, &a);
    failed |= experiment_gemm(&g, &a, M, N, K, bx, by);
    gpu_finish();
    if (failed) {
        fprintf(stderr, "A kernel FAILED verification: its figures were not reported.\n");
        return EXIT_VERIFY;
    }
    return EXIT_OK;
}
