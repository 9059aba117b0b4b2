/* Host unit tests of lesson 02's CPU references (coalescing.h).  Plain C99. */
#include "coalescing.h"
#include "tests/unit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>


static void test_strips_of(void)
{
    EXPECT(strips_of(1, 256) == 1);
    EXPECT(strips_of(256, 256) == 1);
    EXPECT(strips_of(257, 256) == 2);
    EXPECT(strips_of(1000, 3) == 334);
}

/* 3 x 5 matrix m[r][c] = 10 r + c, strips of 2: the last strip of a row or column is shorter. */
static void test_row_strips(void)
{
    float m[15], out[9];
    int r, c;
    for (r = 0; r < 3; r++)
        for (c = 0; c < 5; c++) m[r * 5 + c] = (float)(10 * r + c);
    cpu_row_strip_sums(m, out, 3, 5, 2);        /* 3 strips per row, stored strip-major */
    EXPECT(out[0 * 3 + 0] == 0 + 1);            /* row 0, columns 0-1 */
    EXPECT(out[1 * 3 + 0] == 2 + 3);            /* row 0, columns 2-3 */
    EXPECT(out[2 * 3 + 0] == 4);                /* row 0, column 4 alone */
    EXPECT(out[0 * 3 + 2] == 20 + 21);
    EXPECT(out[2 * 3 + 2] == 24);
    cpu_row_strip_sums(m, out, 3, 5, 256);      /* one strip: whole rows */
    EXPECT(out[0] == 10 && out[1] == 60 && out[2] == 110);
}

static void test_col_strips(void)
{
    float m[15], out[10];
    int r, c;
    for (r = 0; r < 3; r++)
        for (c = 0; c < 5; c++) m[r * 5 + c] = (float)(10 * r + c);
    cpu_col_strip_sums(m, out, 3, 5, 2);        /* 2 strips per column: rows 0-1, row 2 */
    EXPECT(out[0 * 5 + 0] == 0 + 10);
    EXPECT(out[0 * 5 + 4] == 4 + 14);
    EXPECT(out[1 * 5 + 0] == 20);
    EXPECT(out[1 * 5 + 3] == 23);
    cpu_col_strip_sums(m, out, 3, 5, 256);
    EXPECT(out[0] == 30 && out[4] == 42);
}

/* The summation order is part of the contract: 1e8 + 1 - 1e8 in float is 0 left to right. */
static void test_strip_order(void)
{
    float row[3] = {1e8f, 1.0f, -1e8f}, out[3];
    cpu_row_strip_sums(row, out, 1, 3, 256);
    EXPECT(out[0] == 0.0f);
    cpu_col_strip_sums(row, out, 3, 1, 256);    /* the same numbers as a 3 x 1 column */
    EXPECT(out[0] == 0.0f);
}

/* a*x rounded first and a*x + y rounded once differ: a = x = 1 + 2^-12, y = -(1 + 2^-11). */
static void test_saxpy_fused(void)
{
    float a = 1.0f + ldexpf(1.0f, -12), y = -(1.0f + ldexpf(1.0f, -11));
    volatile float p = a * a;                   /* 1 + 2^-11 + 2^-24 rounds to 1 + 2^-11 */
    EXPECT(saxpy_ref(a, a, y) == ldexpf(1.0f, -24));
    EXPECT(p + y == 0.0f);
    EXPECT(saxpy_ref(2.0f, 3.0f, 1.0f) == 7.0f);
}

int main(void)
{
    run_test("02 strips_of: strips covering a length", test_strips_of);
    run_test("02 cpu_row_strip_sums: values, short last strip, layout", test_row_strips);
    run_test("02 cpu_col_strip_sums: values, short last strip, layout", test_col_strips);
    run_test("02 strip sums add left to right / top to bottom in float", test_strip_order);
    run_test("02 saxpy_ref is one rounding (fmaf), not two", test_saxpy_fused);
    return unit_status();
}
