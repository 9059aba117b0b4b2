/* Unit tests of the bank arithmetic in banks.h (plain C99, no GPU): one PASS/FAIL line each. */
#include "banks.h"

#include <stdio.h>

/* Warp patterns: lane l touches word base + stride * l (nothing, when odd_idle and l is odd). */
static const struct {
    const char *name;
    long base, stride;
    int odd_idle, passes;
} WARPS[] = {
    {"banks: 32 consecutive words need one pass", 0, 1, 0, 1},
    {"banks: 32 lanes on one word are a broadcast, one pass", 7, 0, 0, 1},
    {"banks: stride of 2 words is a 2-way conflict", 0, 2, 0, 2},
    {"banks: stride of 32 words puts every lane in bank 0 (32-way)", 0, 32, 0, 32},
    {"banks: stride of 33 words is conflict-free", 0, 33, 0, 1},
    {"banks: inactive lanes do not count", 0, 32, 1, 16},
};

/* The tile kernels of the lesson: bx x by threads, a tile of `pitch` words per row, one phase. */
static const struct {
    const char *name;
    int bx, by, pitch, phase, passes;
} TILES[] = {
    {"tile 32x8 threads [32][32]: row store is conflict-free", 32, 8, 32, PHASE_STORE_ROW, 1},
    {"tile 32x8 threads [32][32]: column read is 32-way", 32, 8, 32, PHASE_LOAD_COLUMN, 32},
    {"tile 32x8 threads [32][33]: column read is conflict-free", 32, 8, 33, PHASE_LOAD_COLUMN, 1},
    {"tile 32x32 threads [32][33]: column read is conflict-free", 32, 32, 33, PHASE_LOAD_COLUMN, 1},
    {"tile 64x4 threads [64][65]: row store is conflict-free", 64, 4, 65, PHASE_STORE_ROW, 1},
    {"tile 64x4 threads [64][65]: column read is conflict-free", 64, 4, 65, PHASE_LOAD_COLUMN, 1},
    {"tile 16x16 threads [16][17]: half-warp rows collide once (2-way)", 16, 16, 17, PHASE_STORE_ROW, 2},
    {"tile 16x16 threads [16][17]: column read 2-way", 16, 16, 17, PHASE_LOAD_COLUMN, 2},
    {"8x8 block in a [32][32] tile, tile[ty][tx]: 4-way", 8, 8, 32, PHASE_STORE_ROW, 4},
};

#define COUNT(a) ((int)(sizeof a / sizeof a[0]))

/* Prints the PASS/FAIL line; returns 1 when the arithmetic gave another number of passes. */
static int expect_passes(const char *name, int got, int want)
{
    if (got == want) printf("PASS %s\n", name);
    else printf("FAIL %s: got %d passes, expected %d\n", name, got, want);
    return got != want;
}

int main(void)
{
    long word[32];
    int i, l, failures = 0;
    for (i = 0; i < COUNT(WARPS); i++) {
        for (l = 0; l < 32; l++) word[l] = WARPS[i].odd_idle && l % 2 ? -1 : WARPS[i].base + WARPS[i].stride * l;
        failures += expect_passes(WARPS[i].name, smem_wavefronts(word, 32), WARPS[i].passes);
    }
    for (i = 0; i < COUNT(TILES); i++)
        failures += expect_passes(TILES[i].name, tile_smem_wavefronts(TILES[i].bx, TILES[i].by, TILES[i].pitch,
                                                                      TILES[i].phase), TILES[i].passes);
    return failures ? 1 : 0;
}
