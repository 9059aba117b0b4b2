/* The four one-element-per-thread kernels that lessons 04, 05 and 06 all measure, kept here once:
 * copy_row and copy_col (the "bounds" of lesson 04) and the two naive transposes (lesson 05).
 *
 * Layout.  `in` is a row-major matrix of ny rows and nx columns: element (r, c) is in[r * nx + c].
 * A transpose writes `out` as nx rows of ny columns: out[c * ny + r] = in[r * nx + c].  The copies
 * write out[i] = in[i] for every element, so they are checked against the input itself.
 *
 * Launch.  2-D blocks of any shape; the grid comes from grid_2d(fast, slow, block), where `fast` is
 * the extent that threadIdx.x walks (nx for the *_row kernels, ny for the *_col kernels).  The
 * hardware caps gridDim.y at 65535, so the slow index loops in steps of gridDim.y * blockDim.y;
 * for every matrix the lessons time the loop body runs once.  Every element is visited exactly
 * once for any nx, ny >= 1, multiples of the block or not.
 *
 * Indices.  c < nx and r < ny fit an unsigned int (args.h caps nx * ny at 2^31 - 1); the linear
 * index is formed in size_t so nothing can wrap.  The pointers are deliberately not __restrict__:
 * the loads stay plain ld.global (lesson 05 compares them with explicit cache hints). */
#ifndef TRANSPOSE_KERNELS_CUH
#define TRANSPOSE_KERNELS_CUH

#define GRID_Y_MAX 65535u

/* ceil(fast / block.x) blocks across, ceil(slow / block.y) down but at most GRID_Y_MAX. */
static inline dim3 grid_2d(unsigned fast, unsigned slow, dim3 block)
{
    unsigned gy = (slow + block.y - 1) / block.y;
    return dim3((fast + block.x - 1) / block.x, gy < GRID_Y_MAX ? gy : GRID_Y_MAX, 1);
}

/* `static`: each program compiles its own copy, so a lesson may still name its own kernels freely;
 * `unused`: a program that launches only some of them builds without a warning. */

/* copyRow: consecutive threads read and write consecutive floats of a row.  A warp moves 128
 * contiguous bytes each way: 4 sectors per request on both sides.  Grid: grid_2d(nx, ny, block). */
static __global__ __attribute__((unused)) void copy_row(float *out, const float *in, int nx, int ny)
{
    unsigned c = blockIdx.x * blockDim.x + threadIdx.x, r;
    if (c >= (unsigned)nx) return;
    for (r = blockIdx.y * blockDim.y + threadIdx.y; r < (unsigned)ny; r += gridDim.y * blockDim.y)
        out[(size_t)r * nx + c] = in[(size_t)r * nx + c];
}

/* copyCol: consecutive threads walk down a column, nx floats apart, on both sides.  Every lane of
 * a warp touches its own sector when reading and when writing: 32 sectors per request each way.
 * Grid: grid_2d(ny, nx, block). */
static __global__ __attribute__((unused)) void copy_col(float *out, const float *in, int nx, int ny)
{
    unsigned r = blockIdx.x * blockDim.x + threadIdx.x, c;
    if (r >= (unsigned)ny) return;
    for (c = blockIdx.y * blockDim.y + threadIdx.y; c < (unsigned)nx; c += gridDim.y * blockDim.y)
        out[(size_t)r * nx + c] = in[(size_t)r * nx + c];
}

/* NaiveRow: read a row (coalesced), write it as a column of out (consecutive threads ny floats
 * apart: 32 sectors per store request, 4 useful bytes in each).  Grid: grid_2d(nx, ny, block). */
static __global__ __attribute__((unused)) void transpose_naive_row(float *out, const float *in, int nx, int ny)
{
    unsigned c = blockIdx.x * blockDim.x + threadIdx.x, r;
    if (c >= (unsigned)nx) return;
    for (r = blockIdx.y * blockDim.y + threadIdx.y; r < (unsigned)ny; r += gridDim.y * blockDim.y)
        out[(size_t)c * ny + r] = in[(size_t)r * nx + c];
}

/* NaiveCol: read a column of in (consecutive threads nx floats apart: 32 sectors per load
 * request), write a row of out (coalesced).  Grid: grid_2d(ny, nx, block). */
static __global__ __attribute__((unused)) void transpose_naive_col(float *out, const float *in, int nx, int ny)
{
    unsigned r = blockIdx.x * blockDim.x + threadIdx.x, c;
    if (r >= (unsigned)ny) return;
    for (c = blockIdx.y * blockDim.y + threadIdx.y; c < (unsigned)nx; c += gridDim.y * blockDim.y)
        out[(size_t)c * ny + r] = in[(size_t)r * nx + c];
}

#endif
