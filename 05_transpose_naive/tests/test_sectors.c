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

/* One warp_sectors case: the kernel, the block, the matrix, and the sectors expected per warp. */
typedef struct {
    kernel_kind_t kind;
    int bx, by, nx, ny;
    double ld, st;
} sector_case_t;

/* a warp of 32 threads along x: 128 contiguous bytes = 4 sectors, or 32 lanes 32 KiB apart */
static const sector_case_t WIDE[] = {
    {KIND_COPY_ROW, 32, 8, 8192, 8192, 4, 4},     {KIND_COPY_COL, 32, 8, 8192, 8192, 32, 32},
    {KIND_NAIVE_ROW, 32, 8, 8192, 8192, 4, 32},   {KIND_NAIVE_COL, 32, 8, 8192, 8192, 32, 4},
    {KIND_NAIVE_ROW, 64, 8, 8192, 8192, 4, 32},   {KIND_NAIVE_ROW, 128, 8, 2048, 512, 4, 32},
};
/* narrow blocks make 2-D warps: 8 x 4 (8x8, 8x32) and 16 x 2 (16x16, 16x8) */
static const sector_case_t NARROW[] = {
    {KIND_NAIVE_ROW, 8, 8, 8192, 8192, 4, 8},     {KIND_NAIVE_COL, 8, 8, 8192, 8192, 8, 4},
    {KIND_NAIVE_ROW, 8, 32, 8192, 8192, 4, 8},    {KIND_NAIVE_ROW, 16, 16, 8192, 8192, 4, 16},
    {KIND_NAIVE_COL, 16, 8, 8192, 8192, 16, 4},   {KIND_COPY_ROW, 8, 8, 8192, 8192, 4, 4},
};
/* edges: lanes outside the matrix touch nothing; a partial last warp counts as a warp.
 * 3 columns: warp w reads floats 3w..3w+2, which straddle a sector boundary for w = 2 and 5.
 * 7x5 block: warp 0 = rows 0-6 of columns 0-4 (7 read sectors, 5 written), warp 1 = 3 lanes. */
static const sector_case_t EDGES[] = {
    {KIND_NAIVE_ROW, 32, 8, 3, 8192, 10.0 / 8, 3},
    {KIND_COPY_ROW, 32, 1, 1, 1, 1, 1},
    {KIND_NAIVE_COL, 7, 5, 8192, 8192, (7.0 + 3.0) / 2, (5.0 + 1.0) / 2},
};

/* Every case of a group, then its one PASS/FAIL line; a failing case says what it got. */
static void check_cases(const char *name, const sector_case_t *c, int n)
{
    int i, bad = 0;
    for (i = 0; i < n; i++) {
        warp_sectors_t w = warp_sectors(c[i].kind, c[i].bx, c[i].by, c[i].nx, c[i].ny);
        if (w.ld != c[i].ld || w.st != c[i].st) {
            printf("  kind %d, block %dx%d, matrix %dx%d: %g + %g sectors, expected %g + %g\n", (int)c[i].kind,
                   c[i].bx, c[i].by, c[i].nx, c[i].ny, w.ld, w.st, c[i].ld, c[i].st);
            bad = 1;
        }
    }
    report(name, bad);
}

#define N_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))

int main(void)
{
    int bad = 0;
    size_t s[5] = {3, 1, 3, 7, 1};

    EXPECT(sectors_distinct(s, 5) == 3 && sectors_distinct(s, 1) == 1 && sectors_distinct(s, 0) == 0);
    report("sectors_distinct counts each sector once", bad);

    check_cases("32-wide warps: copyRow 4+4, copyCol 32+32, NaiveRow 4+32, NaiveCol 32+4", WIDE, N_OF(WIDE));
    check_cases("8-wide warps touch 4 + 8 sectors, 16-wide 4 + 16", NARROW, N_OF(NARROW));
    check_cases("edges: lanes outside the matrix, partial warps", EDGES, N_OF(EDGES));
    return failed;
}
