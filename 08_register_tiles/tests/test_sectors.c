/* Unit tests of the sector arithmetic in sectors.h (plain C99, no GPU): one PASS/FAIL line each. */
#include "sectors.h"

#include <stdio.h>

static int failures = 0;

static void expect(const char *name, int got, int want)
{
    if (got == want) {
        printf("PASS %s\n", name);
    } else {
        printf("FAIL %s: got %d, expected %d\n", name, got, want);
        failures++;
    }
}

int main(void)
{
    long long a[32];
    int l;
    for (l = 0; l < 32; l++) a[l] = 4 * l;
    expect("sectors: 32 consecutive floats are 4 sectors", warp_sectors(a, 4, 32), 4);
    for (l = 0; l < 32; l++) a[l] = 4 * l + 4;
    expect("sectors: the same 128 bytes shifted by 4 bytes touch 5", warp_sectors(a, 4, 32), 5);
    for (l = 0; l < 32; l++) a[l] = 16 * l;
    expect("sectors: 32 consecutive float4 are 16 sectors", warp_sectors(a, 16, 32), 16);
    for (l = 0; l < 32; l++) a[l] = 4096LL * l;
    expect("sectors: 32 floats in 32 rows are 32 sectors", warp_sectors(a, 4, 32), 32);

    expect("float4 4x4, 8x8 block: store touches 16 full sectors", regtile_sectors(8, 8, 4, 1), 16);
    expect("float4 4x4, 8x4 block: same warp shape, 16 sectors", regtile_sectors(8, 4, 4, 1), 16);
    expect("float4 4x4, 16x16 block: 16 sectors", regtile_sectors(16, 16, 4, 1), 16);
    expect("float4 4x4, 32x32 block: 32 half-used sectors", regtile_sectors(32, 32, 4, 1), 32);
    expect("float4 4x4, 32x2 block: same warp as 32x32, 32 sectors", regtile_sectors(32, 2, 4, 1), 32);
    expect("float4 4x4, 8x8 block: load touches 16 sectors", regtile_sectors(8, 8, 4, 0), 16);
    expect("float4 4x4, 32x32 block: load touches 16 sectors", regtile_sectors(32, 32, 4, 0), 16);
    expect("float2 2x2, 8x8 block: store touches 8 full sectors", regtile_sectors(8, 8, 2, 1), 8);
    expect("float2 2x2, 16x16 block: 16 half-used sectors", regtile_sectors(16, 16, 2, 1), 16);
    return failures ? 1 : 0;
}
