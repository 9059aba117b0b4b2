/* Lesson 06: more loads in flight per thread, and the order in which blocks run.
 *
 * Experiment 1: unrolling.  NaiveRow and NaiveCol where each thread moves 2, 4 or 8 elements that
 * lie blockDim.x apart, issuing all its loads before its first store.  Measured in the same run as
 * copyRow (the "upper bound" of lesson 04) and copyRow unrolled the same way.
 * Experiment 2: block order.  The same naive transposes with the blocks mapped to tiles in
 * row-major order or along diagonals -- the old cure for "partition camping" -- with a mapping that
 * is right for rectangular grids (block_order.h; tests/test_diagonal.c proves it and shows that the
 * source's mapping is not). */
#include "args.h"
#include "block_order.h"
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

/* ---- kernels: unrolled -------------------------------------------------------------------- */

/* Which output index element (r, c) of the ny x nx input goes to. */
#define OUT_TRANSPOSED 1
#define OUT_COPY 0
static __device__ __forceinline__ size_t out_index(unsigned r, unsigned c, int nx, int ny, int transposed)
{
    return transposed ? (size_t)c * ny + r : (size_t)r * nx + c;
}

/* Row-wise, unrolled by u: the block covers u * blockDim.x columns and blockDim.y rows; thread tx
 * takes columns c0, c0 + blockDim.x, ..., c0 + (u-1) * blockDim.x of its row, so each of its u
 * loads is still one coalesced 128-byte piece of a warp's row.  The u loads are independent and
 * all issued before the first store: u loads in flight per thread instead of one.  Threads whose
 * u columns are all inside take the straight path; at the right edge each column is tested, so
 * nothing outside the matrix is read or written.  u is a literal in every caller (1 < u <= 8).
 * Grid: grid_2d(ceil(nx / u), ny, block); the rows loop past gridDim.y's cap like the plain kernels. */
static __device__ __forceinline__ void rows_unrolled(float *out, const float *in, int nx, int ny, int u, int transposed)
{
    unsigned c0 = blockIdx.x * blockDim.x * u + threadIdx.x, r;
    int k;
    for (r = blockIdx.y * blockDim.y + threadIdx.y; r < (unsigned)ny; r += gridDim.y * blockDim.y) {
        float v[8];
        if (c0 + (u - 1) * blockDim.x < (unsigned)nx) {
#pragma unroll
            for (k = 0; k < u; k++) v[k] = in[(size_t)r * nx + c0 + k * blockDim.x];
#pragma unroll
            for (k = 0; k < u; k++) out[out_index(r, c0 + k * blockDim.x, nx, ny, transposed)] = v[k];
        } else {
#pragma unroll
            for (k = 0; k < u; k++)
                if (c0 + k * blockDim.x < (unsigned)nx) v[k] = in[(size_t)r * nx + c0 + k * blockDim.x];
#pragma unroll
            for (k = 0; k < u; k++)
                if (c0 + k * blockDim.x < (unsigned)nx) out[out_index(r, c0 + k * blockDim.x, nx, ny, transposed)] = v[k];
        }
    }
}

/* Column-wise (NaiveCol), unrolled by u: threadIdx.x walks rows, so thread tx takes rows
 * r0, r0 + blockDim.x, ... of its column: u strided loads in flight, then u coalesced stores.
 * Grid: grid_2d(ceil(ny / u), nx, block). */
static __device__ __forceinline__ void cols_unrolled(float *out, const float *in, int nx, int ny, int u)
{
    unsigned r0 = blockIdx.x * blockDim.x * u + threadIdx.x, c;
    int k;
    for (c = blockIdx.y * blockDim.y + threadIdx.y; c < (unsigned)nx; c += gridDim.y * blockDim.y) {
        float v[8];
        if (r0 + (u - 1) * blockDim.x < (unsigned)ny) {
#pragma unroll
            for (k = 0; k < u; k++) v[k] = in[(size_t)(r0 + k * blockDim.x) * nx + c];
#pragma unroll
            for (k = 0; k < u; k++) out[(size_t)c * ny + r0 + k * blockDim.x] = v[k];
        } else {
#pragma unroll
            for (k = 0; k < u; k++)
                if (r0 + k * blockDim.x < (unsigned)ny) v[k] = in[(size_t)(r0 + k * blockDim.x) * nx + c];
#pragma unroll
            for (k = 0; k < u; k++)
                if (r0 + k * blockDim.x < (unsigned)ny) out[(size_t)c * ny + r0 + k * blockDim.x] = v[k];
        }
    }
}

__global__ void copy_row_unroll4(float *out, const float *in, int nx, int ny) { rows_unrolled(out, in, nx, ny, 4, OUT_COPY); }
__global__ void transpose_row_unroll2(float *out, const float *in, int nx, int ny) { rows_unrolled(out, in, nx, ny, 2, OUT_TRANSPOSED); }
__global__ void transpose_row_unroll4(float *out, const float *in, int nx, int ny) { rows_unrolled(out, in, nx, ny, 4, OUT_TRANSPOSED); }
__global__ void transpose_row_unroll8(float *out, const float *in, int nx, int ny) { rows_unrolled(out, in, nx, ny, 8, OUT_TRANSPOSED); }
__global__ void transpose_col_unroll2(float *out, const float *in, int nx, int ny) { cols_unrolled(out, in, nx, ny, 2); }
__global__ void transpose_col_unroll4(float *out, const float *in, int nx, int ny) { cols_unrolled(out, in, nx, ny, 4); }
__global__ void transpose_col_unroll8(float *out, const float *in, int nx, int ny) { cols_unrolled(out, in, nx, ny, 8); }

/* ---- kernels: block order ------------------------------------------------------------------ */

/* One tile of NaiveRow (x: columns) or NaiveCol (x: rows), for the tile a block was given. */
static __device__ __forceinline__ void naive_row_tile(float *out, const float *in, int nx, int ny, tile_xy_t t)
{
    unsigned c = t.x * blockDim.x + threadIdx.x, r = t.y * blockDim.y + threadIdx.y;
    if (c < (unsigned)nx && r < (unsigned)ny) out[(size_t)c * ny + r] = in[(size_t)r * nx + c];
}

static __device__ __forceinline__ void naive_col_tile(float *out, const float *in, int nx, int ny, tile_xy_t t)
{
    unsigned r = t.x * blockDim.x + threadIdx.x, c = t.y * blockDim.y + threadIdx.y;
    if (c < (unsigned)nx && r < (unsigned)ny) out[(size_t)c * ny + r] = in[(size_t)r * nx + c];
}

/* 1-D grids of gx * gy blocks (gridDim.x allows 2^31 - 1, more than any matrix here has tiles);
 * the only difference between the row-major and the diagonal kernels is the block_order_* call. */
__global__ void transpose_row_order_rowmajor(float *out, const float *in, int nx, int ny, unsigned gx, unsigned gy)
{
    (void)gy;
    naive_row_tile(out, in, nx, ny, block_order_row_major(blockIdx.x, gx));
}
__global__ void transpose_row_order_diagonal(float *out, const float *in, int nx, int ny, unsigned gx, unsigned gy)
{
    naive_row_tile(out, in, nx, ny, block_order_diagonal(blockIdx.x, gx, gy));
}
__global__ void transpose_col_order_rowmajor(float *out, const float *in, int nx, int ny, unsigned gx, unsigned gy)
{
    (void)gy;
    naive_col_tile(out, in, nx, ny, block_order_row_major(blockIdx.x, gx));
}
__global__ void transpose_col_order_diagonal(float *out, const float *in, int nx, int ny, unsigned gx, unsigned gy)
{
    naive_col_tile(out, in, nx, ny, block_order_diagonal(blockIdx.x, gx, gy));
}

/* ---- launches (each launches exactly one kernel) -------------------------------------------- */

typedef struct {
    float *out;
    const float *in;
    int nx, ny;
    dim3 block;
} ctx_t;

/* ROWS: threadIdx.x walks the nx columns (u of them per thread); COLS: the ny rows. */
#define ROWS_LAUNCHER(name, kernel, u)                                                         \
    static void name(void *p)                                                                  \
    {                                                                                          \
        ctx_t *c = (ctx_t *)p;                                                                 \
        kernel<<<grid_2d(((unsigned)c->nx + (u) - 1) / (u), c->ny, c->block), c->block>>>(c->out, c->in, c->nx, c->ny); \
    }
#define COLS_LAUNCHER(name, kernel, u)                                                         \
    static void name(void *p)                                                                  \
    {                                                                                          \
        ctx_t *c = (ctx_t *)p;                                                                 \
        kernel<<<grid_2d(((unsigned)c->ny + (u) - 1) / (u), c->nx, c->block), c->block>>>(c->out, c->in, c->nx, c->ny); \
    }
ROWS_LAUNCHER(launch_copy_row, copy_row, 1)
ROWS_LAUNCHER(launch_copy_row_x4, copy_row_unroll4, 4)
ROWS_LAUNCHER(launch_naive_row, transpose_naive_row, 1)
ROWS_LAUNCHER(launch_naive_row_x2, transpose_row_unroll2, 2)
ROWS_LAUNCHER(launch_naive_row_x4, transpose_row_unroll4, 4)
ROWS_LAUNCHER(launch_naive_row_x8, transpose_row_unroll8, 8)
COLS_LAUNCHER(launch_naive_col, transpose_naive_col, 1)
COLS_LAUNCHER(launch_naive_col_x2, transpose_col_unroll2, 2)
COLS_LAUNCHER(launch_naive_col_x4, transpose_col_unroll4, 4)
COLS_LAUNCHER(launch_naive_col_x8, transpose_col_unroll8, 8)

/* The tile grid of NaiveRow (gx over the nx columns) or NaiveCol (gx over the ny rows). */
static void tile_grid(const ctx_t *c, int col_kernel, unsigned *gx, unsigned *gy)
{
    unsigned fast = (unsigned)(col_kernel ? c->ny : c->nx), slow = (unsigned)(col_kernel ? c->nx : c->ny);
    *gx = (fast + c->block.x - 1) / c->block.x;
    *gy = (slow + c->block.y - 1) / c->block.y;
}

#define ORDER_LAUNCHER(name, kernel, col_kernel)                                               \
    static void name(void *p)                                                                  \
    {                                                                                          \
        ctx_t *c = (ctx_t *)p;                                                                 \
        unsigned gx, gy;                                                                       \
        tile_grid(c, col_kernel, &gx, &gy);                                                    \
        kernel<<<gx * gy, c->block>>>(c->out, c->in, c->nx, c->ny, gx, gy);                   \
    }
ORDER_LAUNCHER(launch_row_rowmajor, transpose_row_order_rowmajor, 0)
ORDER_LAUNCHER(launch_row_diagonal, transpose_row_order_diagonal, 0)
ORDER_LAUNCHER(launch_col_rowmajor, transpose_col_order_rowmajor, 1)
ORDER_LAUNCHER(launch_col_diagonal, transpose_col_order_diagonal, 1)

typedef struct {
    const char *label;
    launch_fn_t launch;
    int transposed;     /* 1 (TMATRIX_TRANSPOSE), or 0 (TMATRIX_COPY): compared with the input */
} kernel_t;

/* Experiment 1, in the order printed. */
static const kernel_t UNROLLED[] = {
    {"copyRow", launch_copy_row, 0},          {"copyRow x4", launch_copy_row_x4, 0},
    {"NaiveRow", launch_naive_row, 1},        {"NaiveRow x2", launch_naive_row_x2, 1},
    {"NaiveRow x4", launch_naive_row_x4, 1},  {"NaiveRow x8", launch_naive_row_x8, 1},
    {"NaiveCol", launch_naive_col, 1},        {"NaiveCol x2", launch_naive_col_x2, 1},
    {"NaiveCol x4", launch_naive_col_x4, 1},  {"NaiveCol x8", launch_naive_col_x8, 1},
};
#define NUNROLLED ((int)(sizeof UNROLLED / sizeof UNROLLED[0]))
enum { U_COPY = 0, U_COPY_X4 = 1, U_FIRST_TRANSPOSE = 2 };

/* Experiment 2: pairs (row-major, diagonal). */
static const kernel_t ORDERS[] = {
    {"NaiveRow row-major order", launch_row_rowmajor, 1},
    {"NaiveRow diagonal order", launch_row_diagonal, 1},
    {"NaiveCol row-major order", launch_col_rowmajor, 1},
    {"NaiveCol diagonal order", launch_col_diagonal, 1},
};
#define NORDERS ((int)(sizeof ORDERS / sizeof ORDERS[0]))

/* ---- --check ------------------------------------------------------------------------------- */

/* Every kernel at shapes on both sides of the unrolled tiles' edges (u * blockDim.x = 64 ... 1024
 * columns or rows), with four block shapes; 1x600001 and 600001x1 make gridDim.y hit its cap. */
static int run_checks(const args_t *a)
{
    static const int shapes[][2] = {{1, 1}, {2, 3}, {3, 2}, {33, 31}, {31, 33}, {127, 9}, {129, 65}, {65, 129},
                                    {257, 31}, {31, 257}, {1025, 3}, {3, 1025}, {1000, 777}, {1, 40009},
                                    {40009, 1}, {1, 600001}, {600001, 1}, {8191, 4097}};
    static const int blocks[][2] = {{32, 8}, {16, 16}, {7, 5}, {128, 2}};
    int nshapes = (int)(sizeof shapes / sizeof shapes[0]) - (a->quick ? 1 : 0);
    int s, b, k, fails = 0, checks = 0;
    char size[96];

    for (s = 0; s < nshapes; s++) {
        tmatrix_t m;
        ctx_t c;
        tmatrix_init(&m, shapes[s][0], shapes[s][1], a->seed, TMATRIX_KEEP_INPUT);
        c.out = m.d_out;
        c.in = m.d_in;
        c.nx = m.nx;
        c.ny = m.ny;
        for (b = 0; b < 4; b++) {
            c.block = a->bx ? dim3(a->bx, a->by) : dim3(blocks[b][0], blocks[b][1]);
            snprintf(size, sizeof size, "%dx%d block %ux%u", c.nx, c.ny, c.block.x, c.block.y);
            for (k = 0; k < NUNROLLED + NORDERS; k++) {
                const kernel_t *kk = k < NUNROLLED ? &UNROLLED[k] : &ORDERS[k - NUNROLLED];
                fails += tmatrix_check(&m, kk->transposed, kk->label, size, kk->launch, &c, stdout);
                checks++;
            }
            if (a->bx) break;
        }
        tmatrix_free(&m);
    }
    return verify_summary(stdout, fails, checks);
}

/* ---- the experiments ---------------------------------------------------------------------- */

typedef struct {
    tbench_t b;     /* the matrix with both references: its input (for copies) and its CPU transpose */
    ctx_t c;
} run_t;

static int measure(run_t *r, const kernel_t *k, timing_t *t)
{
    return tbench_verify_then_time(&r->b, k->transposed, k->label, k->launch, &r->c, t);
}

/* Experiment 1: unrolled transposes against the copies. */
static int experiment_unroll(run_t *r)
{
    timing_t t[NUNROLLED];
    int ok[NUNROLLED], k, best = -1, failed = 0;
    char take[500];

    report_say("\nExperiment 1: unrolling, blocks %ux%u. xU = U elements per thread, blockDim.x apart, all U loads issued\n"
               "  before the first store. %% copyRow: speed relative to copyRow, the source's \"upper bound\".\n",
               r->c.block.x, r->c.block.y);
    report_begin("unroll", "Copies and transposes of the same matrix:", "% copyRow");
    for (k = 0; k < NUNROLLED; k++) {
        ok[k] = measure(r, &UNROLLED[k], &t[k]);
        if (!ok[k]) {
            report_row_failed(UNROLLED[k].label);
            failed = 1;
            continue;
        }
        report_row(UNROLLED[k].label, &t[k], r->b.bytes, ok[U_COPY] ? 100.0 * t[U_COPY].median_ms / t[k].median_ms : NAN);
        if (k >= U_FIRST_TRANSPOSE && (best < 0 || t[k].median_ms < t[best].median_ms)) best = k;
    }
    if (best >= 0 && ok[U_COPY] && ok[U_COPY_X4]) {
        double vs_copy = 100.0 * t[U_COPY].median_ms / t[best].median_ms;
        snprintf(take, sizeof take,
                 "fastest transpose: %s at %.0f%% of copyRow, so copyRow %s a bound for a transpose; "
                 "unrolled the same way, copyRow x4 reaches %.0f%% of copyRow: the copy with the same loads in flight "
                 "is %s.",
                 UNROLLED[best].label, vs_copy, vs_copy > 100.0 ? "is not" : "still looks like",
                 100.0 * t[U_COPY].median_ms / t[U_COPY_X4].median_ms,
                 t[U_COPY_X4].median_ms <= t[best].median_ms ? "still ahead of every transpose" : "behind this transpose");
        report_end(take);
    } else {
        report_end("a kernel failed verification.");
    }
    return failed;
}

/* How many distinct tiles the source's square-only mapping reaches on a gx x gy grid (host-side;
 * 0 when the grid is too large to bother). */
static size_t square_only_coverage(unsigned gx, unsigned gy)
{
    size_t n = (size_t)gx * gy, hit = 0, i, j;
    unsigned char *seen;
    if (n > ((size_t)1 << 26)) return 0;
    seen = (unsigned char *)calloc(n, 1);
    if (!seen) return 0;
    for (j = 0; j < gy; j++)
        for (i = 0; i < gx; i++) {
            tile_xy_t t = block_order_diagonal_square_only((unsigned)i, (unsigned)j, gx);
            if (t.y < gy && !seen[(size_t)t.y * gx + t.x]) {
                seen[(size_t)t.y * gx + t.x] = 1;
                hit++;
            }
        }
    free(seen);
    return hit;
}

/* Experiment 2: row-major against diagonal block order. */
static int experiment_order(run_t *r)
{
    timing_t t[NORDERS];
    int ok[NORDERS], k, failed = 0;
    unsigned gx, gy;
    size_t hit;
    char take[400];

    tile_grid(&r->c, 0, &gx, &gy);
    hit = square_only_coverage(gx, gy);
    report_say("\nExperiment 2: block order, blocks %ux%u. NaiveRow's grid is %u x %u tiles%s.\n", r->c.block.x,
               r->c.block.y, gx, gy, gx == gy ? " (square)" : " (rectangular)");
    if (hit == (size_t)gx * gy)
        report_say("  On this square grid the source's diagonal mapping reaches every tile; on a rectangular one it\n"
                   "  would not. This run uses block_order_diagonal, a bijection for every grid (make test checks it).\n");
    else if (hit)
        report_say("  The source's diagonal mapping would reach %zu of its %zu tiles (%.0f%%): the rest would never be "
                   "written.\n  This run uses block_order_diagonal, a bijection for every grid (make test checks it).\n",
                   hit, (size_t)gx * gy, 100.0 * hit / ((double)gx * gy));
    report_begin("order", "Naive transposes, 1-D grid, tiles taken in row-major or diagonal order:", "% row-maj");
    for (k = 0; k < NORDERS; k++) {
        ok[k] = measure(r, &ORDERS[k], &t[k]);
        if (!ok[k]) {
            report_row_failed(ORDERS[k].label);
            failed = 1;
            continue;
        }
        /* extra: speed relative to the row-major row of the same kernel (rows 0 and 2) */
        report_row(ORDERS[k].label, &t[k], r->b.bytes, ok[k & ~1] ? 100.0 * t[k & ~1].median_ms / t[k].median_ms : NAN);
    }
    if (!failed) {
        double row = t[0].median_ms / t[1].median_ms - 1.0, col = t[2].median_ms / t[3].median_ms - 1.0;
        snprintf(take, sizeof take, "diagonal order changes the speed of NaiveRow by %+.0f%% and of NaiveCol by %+.0f%%%s",
                 100.0 * row, 100.0 * col,
                 fabs(row) < 0.05 && fabs(col) < 0.05 ? ": no partition camping left for it to cure." : ".");
        report_end(take);
    } else {
        report_end("a kernel failed verification.");
    }
    return failed;
}

/* ---- main ----------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    static const char *summary =
        "Lesson 06: unrolled naive transposes (2, 4, 8 loads in flight per thread) against copyRow, then\n"
        "row-major against diagonal block order.";
    args_t a;
    gpu_info_t g;
    run_t r;
    int nx, ny, failed = 0;
    size_t bytes;

    args_parse_or_exit(argc, argv, &a, summary,
                       "matrix NXxNY = NX columns x NY rows, or N for N x N (default 8192x8192; 2048x2048 with --quick)",
                       NULL, 0);
    matrix_size_or_exit(&a, a.quick ? 2048 : 8192, a.quick ? 2048 : 8192, &nx, &ny);
    report_init("06_unroll_diagonal", a.csv);
    gpu_init(&g);
    gpu_print_header(&g, "Lesson 06 - loads in flight and block order", &a);
    if (a.check) {
        failed = run_checks(&a);
        gpu_finish();
        return failed;
    }

    tbench_init(&r.b, &g, &a, nx, ny, TMATRIX_KEEP_INPUT);
    r.c.out = r.b.m.d_out;
    r.c.in = r.b.m.d_in;
    r.c.nx = nx;
    r.c.ny = ny;
    r.c.block = a.bx ? dim3(a.bx, a.by) : dim3(32, 8);

    bytes = r.b.m.n * sizeof(float);
    report_say("\nMatrix %d x %d floats (%d rows of %d), %.0f MiB each way; GB/s counts every element read once and\n"
               "written once. cudaMemcpy D2D of the matrix: %.0f GB/s (%.1f%% of the peak), the 100%% of %%D2D.\n",
               nx, ny, ny, nx, bytes / 1048576.0, r.b.d2d_gbs, 100.0 * r.b.d2d_gbs / g.peak_gbs);

    failed |= experiment_unroll(&r);
    failed |= experiment_order(&r);

    tbench_free(&r.b);
    gpu_finish();
    if (failed) {
        fprintf(stderr, "A kernel FAILED verification: its figures were not reported.\n");
        return EXIT_VERIFY;
    }
    return EXIT_OK;
}
