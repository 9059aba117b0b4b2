/* Unit tests of lesson 06's block orders (block_order.h): which mappings are bijections between the
 * blocks of a grid and the tiles of a gx x gy grid.  Plain C99; one PASS/FAIL line per test. */
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

enum { ROW_MAJOR, DIAGONAL, SQUARE_ONLY };

/* The tile block number b (numbered row-major over a gx x gy grid) takes under the given order. */
static tile_xy_t tile_of(int order, unsigned b, unsigned gx, unsigned gy)
{
    if (order == ROW_MAJOR) return block_order_row_major(b, gx);
    if (order == DIAGONAL) return block_order_diagonal(b, gx, gy);
    return block_order_diagonal_square_only(b % gx, b / gx, gx);  /* 2-D grid: (blockIdx.x, blockIdx.y) */
}

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
    return failed;
}
