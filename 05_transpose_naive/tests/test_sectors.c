/* Unit tests of the sector arithmetic of lesson 05 (sectors.h).  Plain C99, one PASS/FAIL line each. */
#include "sectors.h"

#include <stdio.h>

static int failed = 0;
#define EXPECT(c) do { if (!(c)) { printf("  line %d: %s\n", __LINE__, #c); bad = 1; } } while (0)

static void report(const char *name, int bad)
{
    printf("%s %s\n", bad ? "FAIL" : "PASS", name);
    failed |= bad;
}

static int is(warp_sectors_t w, double ld, double st) { return w.ld == ld && w.st == st; }

int main(void)
{
    int bad = 0;
    size_t s[5] = {3, 1, 3, 7, 1};

    EXPECT(sectors_distinct(s, 5) == 3 && sectors_distinct(s, 1) == 1 && sectors_distinct(s, 0) == 0);
    report("sectors_distinct counts each sector once", bad);

    bad = 0;  /* a warp of 32 threads along x: 128 contiguous bytes = 4 sectors, or 32 lanes 32 KiB apart */
    EXPECT(is(warp_sectors(KIND_COPY_ROW, 32, 8, 8192, 8192), 4, 4));
    EXPECT(is(warp_sectors(KIND_COPY_COL, 32, 8, 8192, 8192), 32, 32));
    EXPECT(is(warp_sectors(KIND_NAIVE_ROW, 32, 8, 8192, 8192), 4, 32));
    EXPECT(is(warp_sectors(KIND_NAIVE_COL, 32, 8, 8192, 8192), 32, 4));
    EXPECT(is(warp_sectors(KIND_NAIVE_ROW, 64, 8, 8192, 8192), 4, 32));
    EXPECT(is(warp_sectors(KIND_NAIVE_ROW, 128, 8, 2048, 512), 4, 32));
    report("32-wide warps: copyRow 4+4, copyCol 32+32, NaiveRow 4+32, NaiveCol 32+4", bad);

    bad = 0;  /* narrow blocks make 2-D warps: 8 x 4 (8x8, 8x32) and 16 x 2 (16x16, 16x8) */
    EXPECT(is(warp_sectors(KIND_NAIVE_ROW, 8, 8, 8192, 8192), 4, 8));
    EXPECT(is(warp_sectors(KIND_NAIVE_COL, 8, 8, 8192, 8192), 8, 4));
    EXPECT(is(warp_sectors(KIND_NAIVE_ROW, 8, 32, 8192, 8192), 4, 8));
    EXPECT(is(warp_sectors(KIND_NAIVE_ROW, 16, 16, 8192, 8192), 4, 16));
    EXPECT(is(warp_sectors(KIND_NAIVE_COL, 16, 8, 8192, 8192), 16, 4));
    EXPECT(is(warp_sectors(KIND_COPY_ROW, 8, 8, 8192, 8192), 4, 4));
    report("8-wide warps touch 4 + 8 sectors, 16-wide 4 + 16", bad);

    bad = 0;  /* edges: lanes outside the matrix touch nothing; a partial last warp counts as a warp */
    /* 3 columns: warp w reads floats 3w..3w+2, which straddle a sector boundary for w = 2 and 5 */
    EXPECT(is(warp_sectors(KIND_NAIVE_ROW, 32, 8, 3, 8192), 10.0 / 8, 3));
    EXPECT(is(warp_sectors(KIND_COPY_ROW, 32, 1, 1, 1), 1, 1));
    /* 7x5 block: warp 0 = rows 0-6 of columns 0-4 (7 read sectors, 5 written), warp 1 = 3 lanes */
    EXPECT(is(warp_sectors(KIND_NAIVE_COL, 7, 5, 8192, 8192), (7.0 + 3.0) / 2, (5.0 + 1.0) / 2));
    report("edges: lanes outside the matrix, partial warps", bad);
    return failed;
}
