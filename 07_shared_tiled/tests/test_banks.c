/* Unit tests of the bank arithmetic in banks.h (plain C99, no GPU): one PASS/FAIL line each. */
#include "banks.h"

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
    long w[32];
    int l;

    for (l = 0; l < 32; l++) w[l] = l;
    expect("banks: 32 consecutive words need one pass", smem_wavefronts(w, 32), 1);
    for (l = 0; l < 32; l++) w[l] = 7;
    expect("banks: 32 lanes on one word are a broadcast, one pass", smem_wavefronts(w, 32), 1);
    for (l = 0; l < 32; l++) w[l] = 2 * l;
    expect("banks: stride of 2 words is a 2-way conflict", smem_wavefronts(w, 32), 2);
    for (l = 0; l < 32; l++) w[l] = 32 * l;
    expect("banks: stride of 32 words puts every lane in bank 0 (32-way)", smem_wavefronts(w, 32), 32);
    for (l = 0; l < 32; l++) w[l] = 33 * l;
    expect("banks: stride of 33 words is conflict-free", smem_wavefronts(w, 32), 1);
    for (l = 0; l < 32; l++) w[l] = (l % 2) ? -1 : 32 * l;
    expect("banks: inactive lanes do not count", smem_wavefronts(w, 32), 16);

    expect("tile 32x8 threads [32][32]: row store is conflict-free",
           tile_smem_wavefronts(32, 8, 32, PHASE_STORE_ROW), 1);
    expect("tile 32x8 threads [32][32]: column read is 32-way",
           tile_smem_wavefronts(32, 8, 32, PHASE_LOAD_COLUMN), 32);
    expect("tile 32x8 threads [32][33]: column read is conflict-free",
           tile_smem_wavefronts(32, 8, 33, PHASE_LOAD_COLUMN), 1);
    expect("tile 32x32 threads [32][33]: column read is conflict-free",
           tile_smem_wavefronts(32, 32, 33, PHASE_LOAD_COLUMN), 1);
    expect("tile 64x4 threads [64][65]: both phases conflict-free",
           tile_smem_wavefronts(64, 4, 65, PHASE_STORE_ROW) + tile_smem_wavefronts(64, 4, 65, PHASE_LOAD_COLUMN), 2);
    expect("tile 16x16 threads [16][17]: half-warp rows collide once (2-way)",
           tile_smem_wavefronts(16, 16, 17, PHASE_STORE_ROW), 2);
    expect("tile 16x16 threads [16][17]: column read 2-way",
           tile_smem_wavefronts(16, 16, 17, PHASE_LOAD_COLUMN), 2);
    expect("8x8 block in a [32][32] tile, tile[ty][tx]: 4-way",
           tile_smem_wavefronts(8, 8, 32, PHASE_STORE_ROW), 4);
    return failures ? 1 : 0;
}
