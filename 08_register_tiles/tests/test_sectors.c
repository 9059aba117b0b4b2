/* Unit tests of the sector arithmetic in sectors.h (plain C99, no GPU): one PASS/FAIL line each. */
#include "sectors.h"

#include <stdio.h>

/* One warp instruction: lane l accesses `bytes` bytes at byte address first + step * l. */
static const struct {
    const char *name;
    long long first, step;
    int bytes, sectors;
} ACCESSES[] = {
    {"sectors: 32 consecutive floats are 4 sectors", 0, 4, 4, 4},
    {"sectors: the same 128 bytes shifted by 4 bytes touch 5", 4, 4, 4, 5},
    {"sectors: 32 consecutive float4 are 16 sectors", 0, 16, 16, 16},
    {"sectors: 32 floats in 32 rows are 32 sectors", 0, 4096, 4, 32},
};

/* The register tiles of the lesson: v x v floats per thread, bx x by threads, the store or the load. */
static const struct {
    const char *name;
    int bx, by, v, store_side, sectors;
} REGTILES[] = {
    {"float4 4x4, 8x8 block: store touches 16 full sectors", 8, 8, 4, 1, 16},
    {"float4 4x4, 8x4 block: same warp shape, 16 sectors", 8, 4, 4, 1, 16},
    {"float4 4x4, 16x16 block: 16 sectors", 16, 16, 4, 1, 16},
    {"float4 4x4, 32x32 block: 32 half-used sectors", 32, 32, 4, 1, 32},
    {"float4 4x4, 32x2 block: same warp as 32x32, 32 sectors", 32, 2, 4, 1, 32},
    {"float4 4x4, 8x8 block: load touches 16 sectors", 8, 8, 4, 0, 16},
    {"float4 4x4, 32x32 block: load touches 16 sectors", 32, 32, 4, 0, 16},
    {"float2 2x2, 8x8 block: store touches 8 full sectors", 8, 8, 2, 1, 8},
    {"float2 2x2, 16x16 block: 16 half-used sectors", 16, 16, 2, 1, 16},
};

int main(void)
{
    const int naccesses = (int)(sizeof ACCESSES / sizeof ACCESSES[0]);
    const int ntiles = (int)(sizeof REGTILES / sizeof REGTILES[0]);
    long long addr[32];
    int k, l, got, want, bad = 0;
    for (k = 0; k < naccesses + ntiles; k++) {
        const char *name = k < naccesses ? ACCESSES[k].name : REGTILES[k - naccesses].name;
        if (k < naccesses) {
            for (l = 0; l < 32; l++) addr[l] = ACCESSES[k].first + ACCESSES[k].step * l;
            got = warp_sectors(addr, ACCESSES[k].bytes, 32);
            want = ACCESSES[k].sectors;
        } else {
            const int t = k - naccesses;
            got = regtile_sectors(REGTILES[t].bx, REGTILES[t].by, REGTILES[t].v, REGTILES[t].store_side);
            want = REGTILES[t].sectors;
        }
        if (got == want) printf("PASS %s\n", name);
        else printf("FAIL %s: %d sectors, expected %d\n", name, got, want);
        bad += got != want;
    }
    return bad ? 1 : 0;
}
