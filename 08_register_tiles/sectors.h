/* Sector arithmetic for one warp instruction, done on the host so the lesson can print how many
 * 32-byte sectors each register-tile kernel's stores touch next to the measured times, and so a
 * unit test (tests/test_sectors.c) can check it without a GPU.  Plain C99.
 *
 * The model (lessons 01-02): a warp's load or store is one request; the L1 splits it into the
 * 32-byte sectors its 32 lanes touch, and every sector touched is moved whole, however few of its
 * bytes the lanes use. */
#ifndef LESSON08_SECTORS_H
#define LESSON08_SECTORS_H

#define SECTOR_BYTES 32

/* Distinct 32-byte sectors touched when lane l accesses `bytes` bytes at byte address addr[l]. */
static inline int warp_sectors(const long long *addr, int bytes, int lanes)
{
    long long seen[64];
    int n = 0, l, k;
    for (l = 0; l < lanes; l++) {
        long long s, first = addr[l] / SECTOR_BYTES, last = (addr[l] + bytes - 1) / SECTOR_BYTES;
        for (s = first; s <= last; s++) {
            for (k = 0; k < n; k++)
                if (seen[k] == s) break;
            if (k == n && n < 64) seen[n++] = s;
        }
    }
    return n;
}

/* A register-tile transpose: thread (tx, ty) of a bx x by block moves the v x v block of the matrix
 * at rows v * ty.., columns v * tx.., loading v rows with v-float vector loads and storing v rows
 * of the output with v-float vector stores.  Lane l of the first warp is thread (l % bx, l / bx).
 * The matrix is wide (a large, sector-aligned row pitch), so different rows never share a sector.
 * Returns the sectors one store instruction (store_side != 0) or one load instruction touches. */
static inline int regtile_sectors(int bx, int by, int v, int store_side)
{
    const long long pitch = 1LL << 20;  /* bytes per row: far apart, 32-byte aligned */
    long long addr[32];
    int l, lanes = bx * by < 32 ? bx * by : 32;
    for (l = 0; l < lanes; l++) {
        long long tx = l % bx, ty = l / bx;
        /* store: output row v*tx (+k), columns v*ty..; load: input row v*ty (+i), columns v*tx.. */
        addr[l] = store_side ? (v * tx) * pitch + (v * ty) * 4 : (v * ty) * pitch + (v * tx) * 4;
    }
    return warp_sectors(addr, 4 * v, lanes);
}

#endif
