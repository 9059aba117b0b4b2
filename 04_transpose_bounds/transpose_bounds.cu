/* Lesson 04: know the bounds before you optimize a transpose.
 *
 * Experiment 1: copyRow (read rows, write rows) and copyCol (read columns, write columns) move the
 * same bytes as a transpose with both sides coalesced or both sides strided: the measured upper
 * and lower bounds the source gives for any transpose.
 * Experiment 2: the "upper bound" is not one.  The same copy with more bytes in flight per thread
 * (float4, 1 to 8 of them issued before the first store; one pass or grid-stride; streaming hints)
 * runs faster than copyRow and close to cudaMemcpy; the theoretical peak is the only true ceiling.
 *
 * copy_row and copy_col live in common/transpose_kernels.cuh (lessons 05 and 06 measure them too). */
#include "args.h"
#include "cuda_check.h"
#include "exitcodes.h"
#include "gpu.h"
#include "matrix_args.h"
#include "report.h"
#include "stats.h"
#include "transpose_kernels.cuh"
#include "transpose_matrix.h"
#include "verify.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- kernels ------------------------------------------------------------------------------ */

/* streaming = 1: ld.global.cs / st.global.cs, "evict first" in L1 and L2 (see copy_f4_x4_cs). */
static __device__ __forceinline__ float4 load_f4(const float4 *p, int streaming)
{
    return streaming ? __ldcs(p) : *p;
}

static __device__ __forceinline__ void store_f4(float4 *p, float4 v, int streaming)
{
    if (streaming) __stcs(p, v);
    else *p = v;
}

/* A copy of n floats as float4s.  The float4s are cut into tiles of u * blockDim.x; block b takes
 * tiles b, b + gridDim.x, ... (one pass when the grid has a block per tile, grid-stride when it is
 * smaller).  In a tile, thread t moves float4s t, t + blockDim.x, ..., t + (u-1) * blockDim.x, so
 * every warp instruction still covers 512 contiguous bytes, and all u loads are issued before the
 * first store: u independent 16-byte loads in flight per thread instead of one.
 *
 * Why that matters: a load from DRAM takes hundreds of nanoseconds to come back.  To keep the
 * memory busy, bandwidth x latency bytes must be on their way at every moment (Little's law), and
 * a thread can only have in flight the loads it issued before it needed a result.
 *
 * u is a literal in every caller, so after inlining the loops unroll fully and v[] lives in
 * registers.  The pointers must be 16-byte aligned (cudaMalloc gives 256); the n % 4 floats
 * that make no whole float4 are copied one by one by the first threads of block 0. */
static __device__ __forceinline__ void copy_f4_tiles(float *dst, const float *src, size_t n, int u, int streaming)
{
    const float4 *s4 = (const float4 *)src;
    float4 *d4 = (float4 *)dst;
    size_t n4 = n / 4, tile = (size_t)u * blockDim.x, t;
    unsigned tail = (unsigned)(n % 4);
    for (t = blockIdx.x; t * tile < n4; t += gridDim.x) {
        size_t i0 = t * tile + threadIdx.x;
        float4 v[8];
        int k;
        if (i0 + (size_t)(u - 1) * blockDim.x < n4) {
            /* the whole tile is inside: u loads back to back, no test between them */
#pragma unroll
            for (k = 0; k < u; k++) v[k] = load_f4(&s4[i0 + (size_t)k * blockDim.x], streaming);
#pragma unroll
            for (k = 0; k < u; k++) store_f4(&d4[i0 + (size_t)k * blockDim.x], v[k], streaming);
        } else {
            /* the last, partial tile */
#pragma unroll
            for (k = 0; k < u; k++)
                if (i0 + (size_t)k * blockDim.x < n4) v[k] = load_f4(&s4[i0 + (size_t)k * blockDim.x], streaming);
#pragma unroll
            for (k = 0; k < u; k++)
                if (i0 + (size_t)k * blockDim.x < n4) store_f4(&d4[i0 + (size_t)k * blockDim.x], v[k], streaming);
        }
    }
    if (blockIdx.x == 0 && threadIdx.x < tail) dst[4 * n4 + threadIdx.x] = src[4 * n4 + threadIdx.x];
}

__global__ void copy_f4_x1(float *dst, const float *src, size_t n) { copy_f4_tiles(dst, src, n, 1, 0); }
__global__ void copy_f4_x2(float *dst, const float *src, size_t n) { copy_f4_tiles(dst, src, n, 2, 0); }
__global__ void copy_f4_x4(float *dst, const float *src, size_t n) { copy_f4_tiles(dst, src, n, 4, 0); }
__global__ void copy_f4_x8(float *dst, const float *src, size_t n) { copy_f4_tiles(dst, src, n, 8, 0); }

/* The same with streaming hints: ld.global.cs / st.global.cs mark every line evict-first, so a copy
 * that touches each byte once does not push other data out of the caches and the L2 can drop or
 * write back its lines early. */
__global__ void copy_f4_x4_cs(float *dst, const float *src, size_t n) { copy_f4_tiles(dst, src, n, 4, 1); }

/* ---- launches (each launches exactly one kernel; bench_median_ms times it) ------------------ */

typedef struct {
    float *out;
    const float *in;
    int nx, ny;
    dim3 block;        /* copyRow / copyCol                  */
    unsigned grid;     /* float4 copies: blocks of `threads` */
    int threads;
} ctx_t;

static void launch_copy_row(void *p)
{
    ctx_t *c = (ctx_t *)p;
    copy_row<<<grid_2d(c->nx, c->ny, c->block), c->block>>>(c->out, c->in, c->nx, c->ny);
}

static void launch_copy_col(void *p)
{
    ctx_t *c = (ctx_t *)p;
    copy_col<<<grid_2d(c->ny, c->nx, c->block), c->block>>>(c->out, c->in, c->nx, c->ny);
}

#define F4_LAUNCHER(name, kernel)                                                       \
    static void name(void *p)                                                           \
    {                                                                                   \
        ctx_t *c = (ctx_t *)p;                                                          \
        kernel<<<c->grid, c->threads>>>(c->out, c->in, (size_t)c->nx * (size_t)c->ny);  \
    }
F4_LAUNCHER(launch_f4_x1, copy_f4_x1)
F4_LAUNCHER(launch_f4_x2, copy_f4_x2)
F4_LAUNCHER(launch_f4_x4, copy_f4_x4)
F4_LAUNCHER(launch_f4_x8, copy_f4_x8)
F4_LAUNCHER(launch_f4_x4_cs, copy_f4_x4_cs)

/* The float4 variants of experiment 2.  grid_stride = 0: one block per tile (one pass);
 * 1: as many blocks as fit on the GPU at once (SMs x resident blocks per SM), each looping. */
typedef struct {
    const char *label;
    launch_fn_t launch;
    const void *kernel;
    int u, grid_stride;
} f4_variant_t;

static const f4_variant_t F4_VARIANTS[] = {
    {"f4 x1 grid-stride", launch_f4_x1, (const void *)copy_f4_x1, 1, 1},
    {"f4 x2 grid-stride", launch_f4_x2, (const void *)copy_f4_x2, 2, 1},
    {"f4 x4 grid-stride", launch_f4_x4, (const void *)copy_f4_x4, 4, 1},
    {"f4 x4 grid-stride cs", launch_f4_x4_cs, (const void *)copy_f4_x4_cs, 4, 1},
    {"f4 x1 one pass", launch_f4_x1, (const void *)copy_f4_x1, 1, 0},
    {"f4 x2 one pass", launch_f4_x2, (const void *)copy_f4_x2, 2, 0},
    {"f4 x4 one pass", launch_f4_x4, (const void *)copy_f4_x4, 4, 0},
    {"f4 x8 one pass", launch_f4_x8, (const void *)copy_f4_x8, 8, 0},
    {"f4 x4 one pass cs", launch_f4_x4_cs, (const void *)copy_f4_x4_cs, 4, 0},
};
#define NF4 ((int)(sizeof F4_VARIANTS / sizeof F4_VARIANTS[0]))

static int resident_blocks(const void *kernel, int threads)
{
    int nb = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, kernel, threads, 0));
    return nb > 0 ? nb : 1;
}

/* Blocks for a float4 variant: one per tile, or at most what is resident at once (max_blocks > 0
 * overrides that, to make --check loop many times over a small matrix). */
static unsigned f4_grid(const f4_variant_t *v, size_t n, int threads, int sms, int max_blocks)
{
    size_t tile = (size_t)v->u * threads, tiles = (n / 4 + tile - 1) / tile, cap;
    if (tiles == 0) tiles = 1;  /* fewer than 4 floats: block 0 copies the tail */
    if (!v->grid_stride) return (unsigned)tiles;
    cap = max_blocks > 0 ? (size_t)max_blocks : (size_t)sms * resident_blocks(v->kernel, threads);
    return (unsigned)(tiles < cap ? tiles : cap);
}

static int threads_opt = 256;   /* --threads: block size of the float4 copies */

/* ---- --check ------------------------------------------------------------------------------- */

/* Every kernel at shapes that are multiples of nothing (a copy is checked against its input),
 * with several block shapes; the float4 copies also with a 3-block grid, so that the grid-stride
 * loop runs many times, and with warp-sized and 1024-thread blocks. */
static int run_checks(const args_t *a, const gpu_info_t *g)
{
    static const int shapes[][2] = {{1, 1}, {2, 1}, {3, 1}, {1, 5}, {7, 3}, {33, 31}, {31, 33}, {1000, 777},
                                    {1, 40009}, {40009, 1}, {4097, 13}, {1, 600001}, {600001, 1}, {8191, 4097}};
    static const int blocks2d[][2] = {{32, 8}, {16, 16}, {7, 5}};
    static const int threads1d[] = {256, 32, 1024};
    int nshapes = (int)(sizeof shapes / sizeof shapes[0]) - (a->quick ? 1 : 0);
    int s, b, v, fails = 0, checks = 0;
    char size[96];

    for (s = 0; s < nshapes; s++) {
        tmatrix_t m;
        ctx_t c;
        tmatrix_init(&m, shapes[s][0], shapes[s][1], a->seed, TMATRIX_INPUT_ONLY);
        c.out = m.d_out;
        c.in = m.d_in;
        c.nx = m.nx;
        c.ny = m.ny;
        for (b = 0; b < 3; b++) {
            c.block = a->bx ? dim3(a->bx, a->by) : dim3(blocks2d[b][0], blocks2d[b][1]);
            snprintf(size, sizeof size, "%dx%d block %ux%u", c.nx, c.ny, c.block.x, c.block.y);
            fails += tmatrix_check(&m, TMATRIX_COPY, "copyRow", size, launch_copy_row, &c, stdout);
            fails += tmatrix_check(&m, TMATRIX_COPY, "copyCol", size, launch_copy_col, &c, stdout);
            checks += 2;
            if (a->bx) break;
        }
        for (b = 0; b < 3; b++) {
            int maxb;
            c.threads = b == 0 ? threads_opt : threads1d[b];
            for (v = 0; v < NF4; v++) {
                for (maxb = 0; maxb <= 3; maxb += 3) {
                    if (maxb && !F4_VARIANTS[v].grid_stride) continue;
                    c.grid = f4_grid(&F4_VARIANTS[v], m.n, c.threads, g->sms, maxb);
                    snprintf(size, sizeof size, "%dx%d %d threads x %u blocks", c.nx, c.ny, c.threads, c.grid);
                    fails += tmatrix_check(&m, TMATRIX_COPY, F4_VARIANTS[v].label, size, F4_VARIANTS[v].launch, &c,
                                           stdout);
                    checks++;
                }
            }
        }
        tmatrix_free(&m);
    }
    return verify_summary(stdout, fails, checks);
}

/* ---- the experiments ---------------------------------------------------------------------- */

typedef struct {
    const gpu_info_t *g;
    tbench_t b;          /* the matrix with its input kept: a copy must reproduce it */
    ctx_t c;
} run_t;

/* Bytes one SM has asked for and not yet used, at most: resident threads x bytes each thread loads
 * before its first store. */
static double kib_in_flight_per_sm(const void *kernel, int threads, int bytes_per_thread)
{
    return resident_blocks(kernel, threads) * (double)threads * bytes_per_thread / 1024.0;
}

/* Experiment 1: the two bounds of the source.  Returns 1 if a kernel failed verification. */
static int experiment_bounds(run_t *r, timing_t *t_row, int *row_ok)
{
    timing_t t_col;
    int col_ok;
    char take[300];

    report_begin("bounds", "Experiment 1: the bounds of a transpose (the bytes of a transpose, nothing transposed)", NULL);
    report_row("cudaMemcpy D2D", &r->b.t_d2d, r->b.bytes, NAN);
    *row_ok = tbench_verify_then_time(&r->b, TMATRIX_COPY, "copyRow", launch_copy_row, &r->c, t_row);
    if (*row_ok) report_row("copyRow", t_row, r->b.bytes, NAN);
    else report_row_failed("copyRow");
    col_ok = tbench_verify_then_time(&r->b, TMATRIX_COPY, "copyCol", launch_copy_col, &r->c, &t_col);
    if (col_ok) report_row("copyCol", &t_col, r->b.bytes, NAN);
    else report_row_failed("copyCol");
    if (*row_ok && col_ok) {
        snprintf(take, sizeof take,
                 "copyCol runs at %.0f%% of copyRow: the source would expect any transpose of this matrix "
                 "between %.0f and %.0f GB/s.",
                 100.0 * t_row->median_ms / t_col.median_ms, stats_gbs(r->b.bytes, t_col.median_ms),
                 stats_gbs(r->b.bytes, t_row->median_ms));
        report_end(take);
    } else {
        report_end("a kernel failed verification: no bounds can be drawn.");
    }
    return !(*row_ok && col_ok);
}

/* Experiment 2: the same copy with more bytes in flight per thread. */
static int experiment_ceiling(run_t *r, const timing_t *t_row, int row_ok)
{
    timing_t t[NF4];
    int ok[NF4], v, best = -1, failed = 0, threads = r->c.threads;
    double d2d = r->b.d2d_gbs, best_gbs;
    char take[400];

    report_say("\nExperiment 2: copyRow is not the ceiling. float4 copies, %d threads per block;\n"
               "  xU = U float4 loads (16 B each) issued per thread before its first store; one pass = a block per\n"
               "  tile of U x %d float4s; grid-stride = %d SMs x the blocks resident per SM, looping; cs = __ldcs/__stcs.\n"
               "  KiB/SM: the most one SM can have in flight = resident threads x bytes each loads before its first store.\n",
               threads, threads, r->g->sms);
    report_begin("in_flight", "Copies of the same matrix (%D2D: against the cudaMemcpy row of experiment 1):", "KiB/SM");
    if (row_ok) report_row("copyRow", t_row, r->b.bytes,
                           kib_in_flight_per_sm((const void *)copy_row, (int)(r->c.block.x * r->c.block.y), 4));
    else report_row_failed("copyRow");
    for (v = 0; v < NF4; v++) {
        const f4_variant_t *fv = &F4_VARIANTS[v];
        r->c.grid = f4_grid(fv, r->b.m.n, threads, r->g->sms, 0);
        ok[v] = tbench_verify_then_time(&r->b, TMATRIX_COPY, fv->label, fv->launch, &r->c, &t[v]);
        if (!ok[v]) {
            report_row_failed(fv->label);
            failed = 1;
            continue;
        }
        report_row(fv->label, &t[v], r->b.bytes, kib_in_flight_per_sm(fv->kernel, threads, 16 * fv->u));
        if (best < 0 || t[v].median_ms < t[best].median_ms) best = v;
    }
    if (best >= 0) {
        best_gbs = stats_gbs(r->b.bytes, t[best].median_ms);
        snprintf(take, sizeof take,
                 "best copy kernel: %s, %.1f%% of cudaMemcpy (goal: 97%%) and %.1f%% of the theoretical peak; "
                 "copyRow was %.1f%% of cudaMemcpy: it bounded one-float-per-thread code, not a copy.",
                 F4_VARIANTS[best].label, 100.0 * best_gbs / d2d, 100.0 * best_gbs / r->g->peak_gbs,
                 row_ok ? 100.0 * stats_gbs(r->b.bytes, t_row->median_ms) / d2d : 0.0);
        report_end(take);
    } else {
        report_end("every float4 copy failed verification.");
    }
    return failed;
}

/* ---- main ----------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    static const char *summary =
        "Lesson 04: bounds of a transpose. Times copyRow and copyCol, the source's upper and lower bounds,\n"
        "then float4 copies with more bytes in flight per thread against cudaMemcpy and the theoretical peak.";
    lesson_opt_t opts[] = {
        {"--threads", OPT_INT, &threads_opt, 32, 1024, "T",
         "threads per block of the float4 copies, a multiple of 32 (default 256)"},
    };
    args_t a;
    gpu_info_t g;
    run_t r;
    timing_t t_row;
    int nx, ny, row_ok, failed = 0;
    size_t bytes;

    args_parse_or_exit(argc, argv, &a, summary,
                       "matrix NXxNY = NX columns x NY rows, or N for N x N (default 8192x8192; 2048x2048 with --quick)",
                       opts, 1);
    if (threads_opt % 32) args_reject("bad --threads '%d': expected a multiple of 32 (whole warps)", threads_opt);
    matrix_size_or_exit(&a, a.quick ? 2048 : 8192, a.quick ? 2048 : 8192, &nx, &ny);
    report_init("04_transpose_bounds", a.csv);
    gpu_init(&g);
    gpu_print_header(&g, "Lesson 04 - the bounds of a transpose, and the one that is real", &a);
    if (a.check) {
        failed = run_checks(&a, &g);
        gpu_finish();
        return failed;
    }

    bytes = (size_t)nx * ny * sizeof(float);
    r.c.block = a.bx ? dim3(a.bx, a.by) : dim3(32, 8);
    report_say("\nMatrix %d x %d floats (%d rows of %d), %.0f MiB each way; copyRow/copyCol blocks %ux%u.\n"
               "GB/s counts every element read once and written once: 2 x %.0f MiB per kernel.\n",
               nx, ny, ny, nx, bytes / 1048576.0, r.c.block.x, r.c.block.y, bytes / 1048576.0);
    tbench_init(&r.b, &g, &a, nx, ny, TMATRIX_INPUT_ONLY);
    r.g = &g;
    r.c.out = r.b.m.d_out;
    r.c.in = r.b.m.d_in;
    r.c.nx = nx;
    r.c.ny = ny;
    r.c.threads = threads_opt;
    r.c.grid = 1;

    failed |= experiment_bounds(&r, &t_row, &row_ok);
    failed |= experiment_ceiling(&r, &t_row, row_ok);

    tbench_free(&r.b);
    gpu_finish();
    if (failed) {
        fprintf(stderr, "A kernel FAILED verification: its figures were not reported.\n");
        return EXIT_VERIFY;
    }
    return EXIT_OK;
}
