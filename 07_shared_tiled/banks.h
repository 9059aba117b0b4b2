/* Shared-memory bank arithmetic, done on the host so the lesson can print how many passes
 * ("wavefronts") one warp's shared-memory access needs next to the measured times, and so a unit
 * test (tests/test_banks.c) can check the arithmetic without a GPU.  Plain C99.
 *
 * The model: shared memory is 32 banks of 4-byte words; word w lives in bank w % 32.  In one pass
 * a bank delivers one word, so a warp whose 32 lanes touch k different words of the same bank
 * needs k passes (a "k-way bank conflict").  Lanes that read the same word share one read
 * (broadcast), so they do not conflict. */
#ifndef BANKS_H
#define BANKS_H

#define SMEM_BANKS 32

/* Passes one warp instruction needs when lane l touches the 4-byte word with index word[l]
 * (lanes with a negative index are inactive).  1 means conflict-free. */
static inline int smem_wavefronts(const long *word, int lanes)
{
    int bank, l, k, worst = 0;
    for (bank = 0; bank < SMEM_BANKS; bank++) {
        int distinct = 0;
        for (l = 0; l < lanes; l++) {
            if (word[l] < 0 || word[l] % SMEM_BANKS != bank) continue;
            for (k = 0; k < l; k++)
                if (word[k] == word[l]) break;   /* an earlier lane reads the same word: broadcast */
            if (k == l) distinct++;
        }
        if (distinct > worst) worst = distinct;
    }
    return worst;
}

enum { PHASE_STORE_ROW = 0, PHASE_LOAD_COLUMN = 1 };

/* The tile kernels of this lesson: a block of bx x by threads, a tile of floats with a row pitch
 * of `pitch` words.  Phase PHASE_STORE_ROW is the first half, thread (tx, ty) writing
 * tile[ty][tx]; PHASE_LOAD_COLUMN is the second half of a transposing kernel, thread (tx, ty)
 * reading tile[tx][ty].  Returns the passes of the first warp (lane l is thread l % bx, l / bx;
 * every other warp of the block only adds a constant row to all its addresses, which moves
 * every lane by the same number of banks and leaves the count unchanged). */
static inline int tile_smem_wavefronts(int bx, int by, int pitch, int phase)
{
    long word[32];
    int l, lanes = bx * by < 32 ? bx * by : 32;
    for (l = 0; l < lanes; l++) {
        long tx = l % bx, ty = l / bx;
        word[l] = phase == PHASE_STORE_ROW ? ty * pitch + tx : tx * pitch + ty;
    }
    return smem_wavefronts(word, lanes);
}

#endif
