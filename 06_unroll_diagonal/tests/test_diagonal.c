/* Unit tests of lesson 06's block orders (block_order.h): which mappings are bijections between the
 * blocks of a grid and the tiles of a gx x gy grid, and that each order walks the tiles as its
 * comment says.  Plain C99; one PASS/FAIL line per test. */
#include "block_order.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failed = 0;
#define EXPECT(c) do { if (!(c)) { printf("  line %d: %s\n", __LINE__, #c); bad = 1; } } while (0)

static void report(const char *name, int bad)
{
    printf("%s %s\n", bad ? "FAIL" : "PASS", name);
    failed |= bad;
}

/* GROUPED is the kernels' grouped order (g = BLOCK_ORDER_GROUP); GROUPED_G the same with the group
 * side in group_g, to test other sides too. */
enum { ROW_MAJOR, COLUMN_MAJOR, DIAGONAL, GROUPED, GROUPED_G, SQUARE_ONLY };
static unsigned group_g = 1;

/* The tile block number b (numbered row-major over a gx x gy grid) takes under the given order. */
static tile_xy_t tile_of(int order, unsigned b, unsigned gx, unsigned gy)
{
    if (order == ROW_MAJOR) return block_order_row_major(b, gx);
    if (order == COLUMN_MAJOR) return block_order_column_major(b, gy);
    if (order == DIAGONAL) return block_order_diagonal(b, gx, gy);
    if (order == GROUPED) return block_order_grouped(b, gx, gy, BLOCK_ORDER_GROUP);
    if (order == GROUPED_G) return block_order_grouped(b, gx, gy, group_g);
    return block_order_diagonal_square_only(b % gx, b / gx, gx);  /* 2-D grid: (blockIdx.x, blockIdx.y) */
}

/* 1 when a and b are the same tile. */
static int same(tile_xy_t a, unsigned x, unsigned y) { return a.x == x && a.y == y; }

/* 1 when every tile of the gx x gy grid is taken exactly once (and none outside it is asked for). */
static int is_bijection(int order, unsigned gx, unsigned gy)
{
    unsigned b, n = gx * gy;
    unsigned char *seen = (unsigned char *)calloc(n, 1);
    int ok = 1;
    if (!seen) {
        printf("  out of memory\n");
        return 0;
    }
    for (b = 0; b < n && ok; b++) {
        tile_xy_t t = tile_of(order, b, gx, gy);
        if (t.x >= gx || t.y >= gy || seen[t.y * gx + t.x]) ok = 0;
        else seen[t.y * gx + t.x] = 1;
    }
    free(seen);
    return ok;  /* n blocks, no tile twice, none outside: every tile once */
}

int main(void)
{
    unsigned gx, gy, rect = 0, rect_broken = 0;
    int bad = 0;

    for (gx = 1; gx <= 48; gx++)
        for (gy = 1; gy <= 48; gy++) EXPECT(is_bijection(ROW_MAJOR, gx, gy));
    report("row-major order is a bijection for every grid up to 48 x 48", bad);

    bad = 0;
    for (gx = 1; gx <= 64; gx++) EXPECT(is_bijection(SQUARE_ONLY, gx, gx));
    report("the source's diagonal mapping is a bijection on square grids (1x1 to 64x64)", bad);

    bad = 0;
    for (gx = 1; gx <= 48; gx++)
        for (gy = 1; gy <= 48; gy++)
            if (gx != gy) {
                rect++;
                rect_broken += !is_bijection(SQUARE_ONLY, gx, gy);
            }
    printf("      the source's mapping fails on %u of %u rectangular grids up to 48 x 48\n", rect_broken, rect);
    EXPECT(rect_broken > 0);
    EXPECT(!is_bijection(SQUARE_ONLY, 2, 1) && !is_bijection(SQUARE_ONLY, 1, 2) && !is_bijection(SQUARE_ONLY, 2, 4));
    /* a square 8192 x 8192 matrix in 32x8 blocks is a 256 x 1024 grid: square matrix, rectangular grid */
    EXPECT(!is_bijection(SQUARE_ONLY, 256, 1024));
    report("the source's diagonal mapping is not a bijection on rectangular grids (e.g. 256 x 1024)", bad);

    bad = 0;
    for (gx = 1; gx <= 64; gx++)
        for (gy = 1; gy <= 64; gy++) EXPECT(is_bijection(DIAGONAL, gx, gy));
    EXPECT(is_bijection(DIAGONAL, 256, 1024) && is_bijection(DIAGONAL, 1024, 256));
    EXPECT(is_bijection(DIAGONAL, 1, 100003) && is_bijection(DIAGONAL, 100003, 1) && is_bijection(DIAGONAL, 65535, 3));
    EXPECT(is_bijection(DIAGONAL, 257, 513) && is_bijection(DIAGONAL, 12, 18));
    report("the lesson's diagonal order is a bijection for every grid up to 64 x 64 and large odd ones", bad);

    bad = 0;
    /* What makes it diagonal: the first min(gx, gy) blocks take tiles in distinct rows and columns,
     * each one step down and right of the previous one (wrapping). */
    for (gx = 1; gx <= 40; gx++)
        for (gy = 1; gy <= 40; gy++) {
            unsigned b, m = gx < gy ? gx : gy;
            for (b = 0; b + 1 < gx * gy; b++) {
                tile_xy_t t0 = block_order_diagonal(b, gx, gy), t1 = block_order_diagonal(b + 1, gx, gy);
                if ((b + 1) % gy) EXPECT(t1.y == t0.y + 1 && t1.x == (t0.x + 1) % gx);
            }
            for (b = 0; b < m; b++) {
                tile_xy_t t = block_order_diagonal(b, gx, gy);
                EXPECT(t.x == b && t.y == b);
            }
        }
    report("the lesson's diagonal order walks diagonals: consecutive blocks one tile down and right", bad);

    bad = 0;
    for (gx = 1; gx <= 64; gx++)
        for (gy = 1; gy <= 64; gy++) EXPECT(is_bijection(COLUMN_MAJOR, gx, gy));
    EXPECT(is_bijection(COLUMN_MAJOR, 256, 1024) && is_bijection(COLUMN_MAJOR, 1024, 256));
    EXPECT(is_bijection(COLUMN_MAJOR, 1, 100003) && is_bijection(COLUMN_MAJOR, 100003, 1));
    report("column-major order is a bijection for every grid up to 64 x 64 and large odd ones", bad);

    bad = 0;
    /* What makes it column-major: block b takes tile (b / gy, b % gy), so consecutive blocks go down
     * one column of tiles, and the next column starts at the top. */
    for (gx = 1; gx <= 40; gx++)
        for (gy = 1; gy <= 40; gy++) {
            unsigned b;
            for (b = 0; b < gx * gy; b++) EXPECT(same(block_order_column_major(b, gy), b / gy, b % gy));
        }
    EXPECT(same(block_order_column_major(0, 4), 0, 0) && same(block_order_column_major(3, 4), 0, 3) &&
           same(block_order_column_major(4, 4), 1, 0));
    report("column-major order walks down the columns of tiles: block b takes (b / gy, b % gy)", bad);

    bad = 0;
    for (gx = 1; gx <= 64; gx++)
        for (gy = 1; gy <= 64; gy++) EXPECT(is_bijection(GROUPED, gx, gy));
    EXPECT(is_bijection(GROUPED, 256, 1024) && is_bijection(GROUPED, 1024, 256) && is_bijection(GROUPED, 257, 513));
    EXPECT(is_bijection(GROUPED, 1, 100003) && is_bijection(GROUPED, 100003, 1) && is_bijection(GROUPED, 65535, 3));
    EXPECT(is_bijection(GROUPED, 18, 18) && is_bijection(GROUPED, 143, 156) && is_bijection(GROUPED, 9, 1025));
    for (group_g = 1; group_g <= 12; group_g++)
        for (gx = 1; gx <= 30; gx++)
            for (gy = 1; gy <= 30; gy++) EXPECT(is_bijection(GROUPED_G, gx, gy));
    group_g = 100000;   /* a group far larger than the grid: one group, row-major */
    EXPECT(is_bijection(GROUPED_G, 70000, 3) && is_bijection(GROUPED_G, 3, 70000));
    report("grouped order is a bijection for every grid up to 64 x 64 (groups of 1 to 12 up to 30 x 30), with partial groups", bad);

    bad = 0;
    /* What makes it grouped, on a 12 x 10 grid with 8 x 8 groups: blocks 0-63 the top-left square
     * row-major, 64-95 the partial group right of it (4 x 8), then the bottom band's two groups
     * (8 x 2 and 4 x 2). */
    EXPECT(same(block_order_grouped(0, 12, 10, 8), 0, 0) && same(block_order_grouped(7, 12, 10, 8), 7, 0));
    EXPECT(same(block_order_grouped(8, 12, 10, 8), 0, 1) && same(block_order_grouped(63, 12, 10, 8), 7, 7));
    EXPECT(same(block_order_grouped(64, 12, 10, 8), 8, 0) && same(block_order_grouped(67, 12, 10, 8), 11, 0));
    EXPECT(same(block_order_grouped(68, 12, 10, 8), 8, 1) && same(block_order_grouped(95, 12, 10, 8), 11, 7));
    EXPECT(same(block_order_grouped(96, 12, 10, 8), 0, 8) && same(block_order_grouped(104, 12, 10, 8), 0, 9));
    EXPECT(same(block_order_grouped(112, 12, 10, 8), 8, 8) && same(block_order_grouped(119, 12, 10, 8), 11, 9));
    /* on a grid of at least g x g tiles the first g * g blocks take the top-left square */
    for (gx = 8; gx <= 40; gx++)
        for (gy = 8; gy <= 40; gy++) {
            unsigned b;
            for (b = 0; b < 64; b++) EXPECT(same(block_order_grouped(b, gx, gy, 8), b % 8, b / 8));
        }
    /* groups of 1, or groups that hold the whole grid: row-major order */
    for (gx = 1; gx <= 20; gx++)
        for (gy = 1; gy <= 20; gy++) {
            unsigned b;
            for (b = 0; b < gx * gy; b++) {
                tile_xy_t r = block_order_row_major(b, gx);
                EXPECT(same(block_order_grouped(b, gx, gy, 1), r.x, r.y));
                EXPECT(same(block_order_grouped(b, gx, gy, 20), r.x, r.y));
            }
        }
    report("grouped order takes g x g squares row-major, partial ones at the edges; g = 1 is row-major", bad);
    return failed;
}
