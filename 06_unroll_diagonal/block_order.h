/* The order in which the blocks of a grid visit the tiles of a matrix.  Shared by lesson 06's
 * program (its kernels) and its unit test (tests/test_diagonal.c).  Plain C99; the functions are
 * __host__ __device__ under nvcc.
 *
 * Exercise 4 asks you for a diagonal order correct on every grid, and block_order_diagonal, below
 * block_order_grouped, is one: do the exercise before you read past block_order_grouped.
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

/* Column-major order: tile (b / gy, b % gy).  Blocks b and b + 1 take neighbouring tiles down one
 * column of tiles, so the blocks that start together cover a few whole columns of tiles instead of a
 * few whole rows: in a transpose their loads read scattered input rows, and their stores write
 * neighbouring pieces of the same output rows (an output row is an input column).  A bijection for
 * any gx and gy: it is row-major order with the roles of x and y exchanged. */
static inline BLOCK_ORDER_HD tile_xy_t block_order_column_major(unsigned b, unsigned gy)
{
    tile_xy_t t;
    t.x = b / gy;
    t.y = b % gy;
    return t;
}

/* The group side of the grouped order the lessons' kernels use. */
#define BLOCK_ORDER_GROUP 8u

/* Grouped order: the grid is cut into squares of g x g tiles, the groups taken row-major (a band of
 * g tile rows, group after group from left to right, then the next band) and the tiles inside a
 * group row-major too.  The blocks that start together then cover a few squares of tiles: in a
 * transpose, a patch of g tile rows of the input and g tile rows of the output at once (the
 * "swizzle" of matrix-product kernels, for the L2).  At the right and bottom edges a group has the
 * tiles that are left: w = min(g, gx - g * group) columns and h = min(g, gy - g * band) rows.
 * Why it is a bijection, for any gx, gy and g >= 1: b -> (band, local) cuts 0..gx*gy-1 into bands of
 * g * gx blocks, each one band's tiles (every band but the last is full); inside a band every group
 * but the last is full (h * g blocks), so local -> (group, i) finds the group, and i -> (i % w, i / w)
 * is row-major order on its w x h tiles.  g is clamped to the grid (bh, gw), which changes nothing
 * (a group wider than the grid has the grid's width) and keeps every product <= gx * gy: no overflow. */
static inline BLOCK_ORDER_HD tile_xy_t block_order_grouped(unsigned b, unsigned gx, unsigned gy, unsigned g)
{
    tile_xy_t t;
    unsigned bh = g < gy ? g : gy, gw = g < gx ? g : gx;     /* a full band's rows, a full group's columns */
    unsigned band = b / (bh * gx), local = b - band * (bh * gx);
    unsigned h = gy - band * bh < bh ? gy - band * bh : bh;  /* this band's rows: bh, fewer at the bottom */
    unsigned group = local / (h * gw), i = local - group * (h * gw);
    unsigned w = gx - group * gw < gw ? gx - group * gw : gw; /* this group's columns: gw, fewer at the right */
    t.x = group * gw + i % w;
    t.y = band * bh + i / w;
    return t;
}

/* Diagonal order, for any gx and gy (an answer to exercise 4; why it is a bijection: the README's
 * Exercises' answers).  Blocks that start together work on different tile rows and different tile
 * columns. */
static inline BLOCK_ORDER_HD tile_xy_t block_order_diagonal(unsigned b, unsigned gx, unsigned gy)
{
    tile_xy_t t;
    t.y = b % gy;
    t.x = (b / gy + t.y) % gx;
    return t;
}

/* The source's diagonal mapping, exercise.cu's, written for a 2-D grid (bid_x = blockIdx.x,
 * bid_y = blockIdx.y).  tests/test_diagonal.c checks on which grids it is a bijection; which tiles
 * it misses elsewhere, and why, is exercise 4's question (the README's Exercises' answers). */
static inline BLOCK_ORDER_HD tile_xy_t block_order_diagonal_square_only(unsigned bid_x, unsigned bid_y, unsigned gx)
{
    tile_xy_t t;
    t.y = bid_x;
    t.x = (bid_x + bid_y) % gx;
    return t;
}

#endif
