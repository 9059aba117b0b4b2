/* The order in which the blocks of a grid visit the tiles of a matrix.  Shared by lesson 06's
 * program (its kernels) and its unit test (tests/test_diagonal.c).  Plain C99; the functions are
 * __host__ __device__ under nvcc.
 *
 * A grid of gx x gy tiles is launched as a 1-D grid of gx * gy blocks; block b asks one of these
 * functions which tile (x, y) it should transpose.  Any order is correct if, and only if, it is a
 * bijection: every tile is taken by exactly one block. */
#ifndef BLOCK_ORDER_H
#define BLOCK_ORDER_H

#ifdef __CUDACC__
#define BLOCK_ORDER_HD __host__ __device__
#else
#define BLOCK_ORDER_HD
#endif

typedef struct {
    unsigned x, y;  /* tile column 0..gx-1, tile row 0..gy-1 */
} tile_xy_t;

/* Row-major order: tile (b % gx, b / gx), the order in which the hardware numbers the blocks of a
 * 2-D gx x gy grid (blockIdx.x fastest). */
static inline BLOCK_ORDER_HD tile_xy_t block_order_row_major(unsigned b, unsigned gx)
{
    tile_xy_t t;
    t.x = b % gx;
    t.y = b / gx;
    return t;
}

/* Diagonal order, for any gx and gy: y = b % gy, x = (b / gy + y) % gx.  Blocks b and b + 1 take
 * tiles one step apart along a diagonal (x + 1, y + 1, wrapping around), so blocks that start
 * together work on different tile rows and different tile columns.
 * Why it is a bijection: b <-> (q, y) = (b / gy, b % gy) is one between 0..gx*gy-1 and
 * 0..gx-1 x 0..gy-1, and for each fixed y, q -> (q + y) % gx is a rotation of 0..gx-1. */
static inline BLOCK_ORDER_HD tile_xy_t block_order_diagonal(unsigned b, unsigned gx, unsigned gy)
{
    tile_xy_t t;
    t.y = b % gy;
    t.x = (b / gy + t.y) % gx;
    return t;
}

/* The source's diagonal mapping, written for a 2-D grid (bid_x = blockIdx.x, bid_y = blockIdx.y):
 * y = bid_x, x = (bid_x + bid_y) % gx.  It never looks at gy: y runs over 0..gx-1 instead of
 * 0..gy-1, so it is a bijection only when gx == gy.  On a taller grid some tiles are taken twice and
 * the rows y >= gx never; on a wider one, tiles with y >= gy are asked for and rows lose columns. */
static inline BLOCK_ORDER_HD tile_xy_t block_order_diagonal_square_only(unsigned bid_x, unsigned bid_y, unsigned gx)
{
    tile_xy_t t;
    t.y = bid_x;
    t.x = (bid_x + bid_y) % gx;
    return t;
}

#endif
