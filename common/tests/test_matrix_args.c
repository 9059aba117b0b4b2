/* Unit tests of the matrix shape from --size (matrix_args.h).  Plain C99, one PASS/FAIL line each. */
#include "args.h"
#include "matrix_args.h"

#include <stdio.h>

static int failed = 0;
#define EXPECT(c) do { if (!(c)) { printf("  line %d: %s\n", __LINE__, #c); bad = 1; } } while (0)

static void report(const char *name, int bad)
{
    printf("%s %s\n", bad ? "FAIL" : "PASS", name);
    failed |= bad;
}

int main(void)
{
    args_t a;
    int nx = -7, ny = -7, bad = 0;

    args_defaults(&a);
    EXPECT(matrix_size_from_args(&a, 8192, 4096, &nx, &ny) == 0 && nx == 8192 && ny == 4096);
    a.nx = 2048;
    a.ny = 512;
    EXPECT(matrix_size_from_args(&a, 8192, 4096, &nx, &ny) == 0 && nx == 2048 && ny == 512);
    a.nx = 1;
    a.ny = 2147483647L;
    EXPECT(matrix_size_from_args(&a, 8, 8, &nx, &ny) == 0 && nx == 1 && ny == 2147483647);
    report("matrix size: default, NXxNY (NX columns, NY rows), 1 x (2^31 - 1)", bad);

    bad = 0;
    a.nx = 1000;
    a.ny = 0;
    EXPECT(matrix_size_from_args(&a, 8, 8, &nx, &ny) == 0 && nx == 1000 && ny == 1000);
    a.nx = 46340;  /* 46340^2 = 2147395600 fits */
    EXPECT(matrix_size_from_args(&a, 8, 8, &nx, &ny) == 0 && nx == 46340 && ny == 46340);
    nx = ny = -7;
    a.nx = 46341;  /* 46341^2 = 2147488281 does not */
    EXPECT(matrix_size_from_args(&a, 8, 8, &nx, &ny) == -1 && nx == -7 && ny == -7);
    a.nx = 65536;
    EXPECT(matrix_size_from_args(&a, 8, 8, &nx, &ny) == -1);
    a.nx = 2147483647L;
    EXPECT(matrix_size_from_args(&a, 8, 8, &nx, &ny) == -1);
    report("matrix size: one number N is N x N, rejected past 2^31 - 1 elements", bad);
    return failed;
}
