/* Lesson 02's kernels: what the 32 addresses of one warp look like.  Read this file first;
 * coalescing.cu only verifies, times and prints them.
 *
 * The 32 threads of a warp execute a load together.  When their 32 addresses are consecutive (an
 * index of the form A[(terms without threadIdx.x) + threadIdx.x], in blocks a multiple of 32
 * threads wide, so the warp lies along one row), the warp's 32 floats lie side by side: one
 * request (how many sectors and lines it touches: the README's worked example).  When consecutive
 * threads are a row apart, the same instruction touches 32 different sectors and uses 4 bytes of
 * each.
 *
 * Layout.  Matrices are row-major: element (r, c) of a matrix of `cols` columns is m[r * cols + c].
 * Launch.  Each kernel is followed by its launcher, launch_<kernel>(outputs, inputs, sizes, block,
 * stream): the grid it needs.  SAXPY and the strip sums take 1-D blocks; the copies and the products
 * 2-D blocks.  The hardware caps gridDim.y at 65535, so the copies and the strip sums loop over what a
 * capped grid leaves (grid_2d, common/grid.cuh); for the sizes the lesson times the loop body runs
 * once. */
#ifndef LESSON02_KERNELS_CUH
#define LESSON02_KERNELS_CUH

#include <stddef.h>
#include "grid.cuh"

/* y = a*x + y.  Thread i touches x[i] and y[i]: the index is blockIdx.x * blockDim.x +
 * threadIdx.x, the coalesced form (how many bytes an element moves: In depth's SAXPY part).
 * Written as `a * x[i] + y[i]`, nvcc would contract it into this same fused multiply-add (FFMA,
 * one rounding) by default (--fmad=true); fmaf says so whatever the flags, and the CPU's fmaf
 * then reproduces every bit.  Grid: div_up(n, block). */
__global__ void saxpy(float *y, float a, const float *x, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n) y[i] = fmaf(a, x[i], y[i]);
}

/* Grid: div_up(n, block.x) blocks of 1-D blocks. */
static inline void launch_saxpy(float *y, float a, const float *x, size_t n, dim3 block, cudaStream_t s)
{
    saxpy<<<div_up(n, block.x), block, 0, s>>>(y, a, x, n);
}

/* Strip sums with the lanes a row apart (the README's strided strip sum): thread r adds up `strip`
 * consecutive elements of row r (a strip of a row; the driver passes SUM_STRIP = 256).  Consecutive
 * threads take consecutive ROWS, so at each step the warp's 32 addresses are `cols` floats apart
 * (threadIdx.x is multiplied by cols): 32 sectors per load, 4 useful bytes in each.
 * Grid: div_up(rows, block) x min(strips of a row, 65535); out[s * rows + r]. */
__global__ void sum_strips_lanes_rows_apart(float *out, const float *m, int rows, int cols, int strip)
{
    size_t r = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    int ns = cols / strip + (cols % strip != 0), s, k;
    if (r >= (size_t)rows) return;
    for (s = blockIdx.y; s < ns; s += gridDim.y) {   /* gridDim.y is capped at 65535 */
        const float *p = m + r * cols + (size_t)s * strip;
        int len = min(strip, cols - s * strip);
        float acc = 0.0f;
        for (k = 0; k < len; k++) acc += p[k];
        out[(size_t)s * rows + r] = acc;
    }
}

/* One thread per row across (1-D blocks), one grid row per strip down (capped at 65535: the kernel
 * loops over the rest). */
static inline void launch_sum_strips_lanes_rows_apart(float *out, const float *m, int rows, int cols, int strip,
                                                      dim3 block, cudaStream_t s)
{
    sum_strips_lanes_rows_apart<<<grid_2d(rows, div_up(cols, strip), block), block, 0, s>>>(out, m, rows, cols,
                                                                                            strip);
}

/* Strip sums with the lanes adjacent (the README's coalesced strip sum): thread c adds up `strip`
 * consecutive elements of column c (a strip of a column: each thread walks down its own column).
 * Consecutive threads take consecutive COLUMNS:
 * m[(row) * cols + blockIdx.x * blockDim.x + threadIdx.x], the coalesced form, so at each step of
 * the walk a warp reads 32 neighbouring floats of one row.
 * Grid: div_up(cols, block) x min(strips of a column, 65535); out[s * cols + c]. */
__global__ void sum_strips_lanes_adjacent(float *out, const float *m, int rows, int cols, int strip)
{
    size_t c = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    int ns = rows / strip + (rows % strip != 0), s, k;
    if (c >= (size_t)cols) return;
    for (s = blockIdx.y; s < ns; s += gridDim.y) {
        const float *p = m + (size_t)s * strip * cols + c;
        int len = min(strip, rows - s * strip);
        float acc = 0.0f;
        for (k = 0; k < len; k++) acc += p[(size_t)k * cols];
        out[(size_t)s * cols + c] = acc;
    }
}

/* One thread per column across, one grid row per strip down. */
static inline void launch_sum_strips_lanes_adjacent(float *out, const float *m, int rows, int cols, int strip,
                                                    dim3 block, cudaStream_t s)
{
    sum_strips_lanes_adjacent<<<grid_2d(cols, div_up(rows, strip), block), block, 0, s>>>(out, m, rows, cols, strip);
}

/* The two 2D copies, copyRow and copyCol (the names the course's sources give them: REFERENCES.md).
 * Lesson 04 includes this file and measures the same two kernels as the bounds of a transpose.
 * Layout: `in` and `out` have ny rows of nx floats. */

/* copyRow (the coalesced copy): threadIdx.x along a row, so consecutive threads read and write
 * consecutive floats: a warp moves 32 neighbouring floats each way (its sectors per request: the
 * README's worked example and figure).  Grid: grid_2d(nx, ny, block). */
__global__ void copy_row(float *out, const float *in, int nx, int ny)
{
    unsigned c = blockIdx.x * blockDim.x + threadIdx.x, r;
    if (c >= (unsigned)nx) return;
    for (r = blockIdx.y * blockDim.y + threadIdx.y; r < (unsigned)ny; r += gridDim.y * blockDim.y)
        out[(size_t)r * nx + c] = in[(size_t)r * nx + c];
}

static inline void launch_copy_row(float *out, const float *in, int nx, int ny, dim3 block, cudaStream_t s)
{
    copy_row<<<grid_2d(nx, ny, block), block, 0, s>>>(out, in, nx, ny);
}

/* copyCol (the strided copy): threadIdx.x along a column, so consecutive threads are a whole row
 * (nx floats) apart on both sides: the same elements and bytes, but every lane of a warp touches
 * its own sector when reading and when writing, 32 sectors per request each way.  threadIdx.y
 * picks the column: the 8 warps of a 32 x 8 block take 8 neighbouring columns.
 * Grid: grid_2d(ny, nx, block). */
__global__ void copy_col(float *out, const float *in, int nx, int ny)
{
    unsigned r = blockIdx.x * blockDim.x + threadIdx.x, c;
    if (r >= (unsigned)ny) return;
    for (c = blockIdx.y * blockDim.y + threadIdx.y; c < (unsigned)nx; c += gridDim.y * blockDim.y)
        out[(size_t)r * nx + c] = in[(size_t)r * nx + c];
}

static inline void launch_copy_col(float *out, const float *in, int nx, int ny, dim3 block, cudaStream_t s)
{
    copy_col<<<grid_2d(ny, nx, block), block, 0, s>>>(out, in, nx, ny);
}

/* One element of the naive product C = A B (A: M x K, B: K x N, row-major): the dot product of
 * row `row` of A with column `col` of B, in a loop over k.  Which of row and col comes from
 * threadIdx.x decides which operand a warp reads in one piece -- the two kernels below. */
static __device__ __forceinline__ void matmul_element(float *C, const float *A, const float *B, int M, int N, int K,
                                                      int row, int col)
{
    int k;
    float acc = 0.0f;
    if (row >= M || col >= N) return;
    for (k = 0; k < K; k++) acc += A[(size_t)row * K + k] * B[(size_t)k * N + col];
    C[(size_t)row * N + col] = acc;
}

/* The textbook mapping (the coalesced product), Col = blockIdx.x * blockDim.x + threadIdx.x (the
 * name: threadIdx.x runs along a row of C, so it picks the column).
 * In the k loop, B[k * N + Col] and A[Row * K + k]: write each index as (part without
 * threadIdx.x) + (part with it) to see what a warp reads.  How many sectors and lines a warp
 * touches per step of k: the README's predictions 1 and 3c ask.
 * Grid: div_up(N, block.x) x div_up(M, block.y) (M, N <= GEMM_DIM_MAX keeps it below 65535). */
__global__ void matmul_x_along_row(float *C, const float *A, const float *B, int M, int N, int K)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    matmul_element(C, A, B, M, N, K, row, col);
}

/* M, N <= GEMM_DIM_MAX = 16384 keeps gridDim.y below 65535: these kernels do not loop, so their
 * grid is not capped. */
static inline void launch_matmul_x_along_row(float *C, const float *A, const float *B, int M, int N, int K, dim3 block,
                                             cudaStream_t s)
{
    matmul_x_along_row<<<dim3(div_up(N, block.x), div_up(M, block.y)), block, 0, s>>>(C, A, B, M, N, K);
}

/* The same product with the mapping swapped (the strided product):
 * Row = blockIdx.x * blockDim.x + threadIdx.x (threadIdx.x runs down a column of C, so it picks
 * the row).  The same two loads and the store, with threadIdx.x now in Row:
 * split each index the same way (the counts: predictions 1 and 3c).
 * Grid: div_up(M, block.x) x div_up(N, block.y). */
__global__ void matmul_x_along_col(float *C, const float *A, const float *B, int M, int N, int K)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    int col = blockIdx.y * blockDim.y + threadIdx.y;
    matmul_element(C, A, B, M, N, K, row, col);
}

static inline void launch_matmul_x_along_col(float *C, const float *A, const float *B, int M, int N, int K, dim3 block,
                                             cudaStream_t s)
{
    matmul_x_along_col<<<dim3(div_up(M, block.x), div_up(N, block.y)), block, 0, s>>>(C, A, B, M, N, K);
}

#endif
