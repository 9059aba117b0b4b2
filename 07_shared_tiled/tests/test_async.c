/* Unit tests of async_layout.h, the arithmetic of async_kernels.cuh (plain C99, no GPU): the swizzled
 * shared-memory layout against the TMA's 128-byte swizzle, the bank conflicts of every shared-memory
 * access the cp.async and TMA kernels make (banks.h), the thread-to-data mappings (each element
 * once, the transpose right), and the tensor-map and copy-size rules.  One PASS/FAIL line each. */
#include "async_layout.h"
#include "banks.h"

#include <stdio.h>
#include <string.h>

static int failures = 0;

static void expect(const char *name, long got, long want)
{
    if (got == want) {
        printf("PASS %s\n", name);
    } else {
        printf("FAIL %s: got %ld, expected %ld\n", name, got, want);
        failures++;
    }
}

static void expect_str(const char *name, const char *got, const char *want)
{
    int same = (got == NULL && want == NULL) || (got && want && strstr(got, want) != NULL);
    if (same) {
        printf("PASS %s\n", name);
    } else {
        printf("FAIL %s: got \"%s\", expected \"%s\"\n", name, got ? got : "(none)", want ? want : "(none)");
        failures++;
    }
}

/* Passes of one warp instruction in which lane l accesses `bytes` (4, 8 or 16) at float index
 * start[l] (< 0: inactive).  The hardware serves a 64-bit access per half warp and a 128-bit one per
 * quarter warp (each such group moves at most 128 bytes, all 32 banks, in one pass): the passes are
 * the sum over the groups, so a conflict-free 16-byte access takes 4, an 8-byte one 2, a 4-byte
 * one 1. */
static int warp_passes(const long *start, int bytes)
{
    int lanes_per_group = 32 / (bytes / 4), g, l, k, total = 0;
    for (g = 0; g < 32; g += lanes_per_group) {
        long w[32];
        int n = 0;
        for (l = g; l < g + lanes_per_group; l++)
            for (k = 0; k < bytes / 4; k++) w[n++] = start[l] < 0 ? -1 : start[l] + k;
        total += smem_wavefronts(w, n);
    }
    return total;
}

/* The byte offset where the TMA's CU_TENSOR_MAP_SWIZZLE_128B puts byte `b` of a box whose rows are
 * 128 bytes, in a buffer on a 1 KiB boundary: address bits 4-6 XOR bits 7-9. */
static long tma_swizzle_128b(long b) { return b ^ (((b >> 7) & 7) << 4); }

static void test_swizzle(void)
{
    int row, col, ok = 1, perm = 1;
    for (row = 0; row < 64; row++)
        for (col = 0; col < 32; col++)
            ok &= swz(row, col, 32) * 4 == tma_swizzle_128b((long)row * 128 + col * 4);
    expect("swz(row, col, 32) is the TMA's 128-byte swizzle (1 KiB-aligned box, 128-byte rows)", ok, 1);
    for (row = 0; row < 64; row++) {
        int seen[64] = {0};
        for (col = 0; col < 64; col++) {
            int w = swz(row, col, 64) - row * 64;
            if (w < 0 || w >= 64 || seen[w]++) perm = 0;
        }
    }
    expect("swz(row, col, 64) keeps every row in place and uses each of its 64 slots once", perm, 1);
    ok = 1;
    for (row = 0; row < 64; row++)
        for (col = 0; col < 64; col += 4) ok &= swz(row, col, 64) % 4 == 0;
    expect("swz keeps 16-byte chunks whole and 16-byte aligned (cp.async 16 and LDS.128 need it)", ok, 1);
}

/* cp.async, phase 1: the copies of each warp instruction, 16, 8 or 4 bytes (cpa_load_tile). */
static void test_cpasync_loads(void)
{
    int vec, worst, w, i, l;
    for (vec = 4; vec <= 16; vec *= 2) {
        const int per = vec / 4, n = CPA_COPIES(vec);
        int covered[CPA_TILE_FLOATS] = {0}, once = 1, coalesced = 1;
        char name[160];
        worst = 0;
        for (w = 0; w < CPA_THREADS / 32; w++)
            for (i = 0; i < n; i++) {
                long start[32];
                long lines[32];
                int nlines = 0, m;
                for (l = 0; l < 32; l++) {
                    int row, col, k;
                    long line;
                    cpa_copy_at(32 * w + l, i, vec, &row, &col);
                    start[l] = swz(row, col, CPA_T);
                    for (k = 0; k < per; k++) covered[row * CPA_T + col + k]++;
                    /* the 128-byte line of global memory it reads, in a matrix of 8192-float rows */
                    line = ((long)row * 8192 + col) * 4 / 128;
                    for (m = 0; m < nlines && lines[m] != line; m++) continue;
                    if (m == nlines) lines[nlines++] = line;
                }
                coalesced &= nlines == 32 * vec / 128;  /* every line the warp touches, it uses whole */
                if (warp_passes(start, vec) > worst) worst = warp_passes(start, vec);
            }
        for (i = 0; i < CPA_TILE_FLOATS; i++) once &= covered[i] == 1;
        snprintf(name, sizeof name, "cp.async %d-byte loads: every tile element copied once", vec);
        expect(name, once, 1);
        snprintf(name, sizeof name, "cp.async %d-byte loads: a warp reads %d whole 128-byte line%s of global memory",
                 vec, vec / 4, vec == 4 ? "" : "s");
        expect(name, coalesced, 1);
        snprintf(name, sizeof name, "cp.async %d-byte loads: conflict-free in shared memory (%d pass%s per warp)", vec,
                 vec / 4, vec == 4 ? "" : "es");
        expect(name, worst, vec / 4);
    }
}

/* cp.async, phase 2 of the transpose: LDS.128 of (row, chunk), 4 per thread (cpa_store_transposed). */
static void test_cpasync_store(void)
{
    int covered[CPA_T][CPA_T / 4], w, i, l, worst = 0, once = 1, coalesced = 1;
    memset(covered, 0, sizeof covered);
    for (w = 0; w < CPA_THREADS / 32; w++)
        for (i = 0; i < 4; i++) {
            long start[32];
            for (l = 0; l < 32; l++) {
                const int row = cpa_store_row(w, l), k = cpa_store_chunk(w, i);
                start[l] = swz(row, 4 * k, CPA_T);
                covered[row][k]++;
                /* lane l writes output column r0 + row: consecutive lanes, consecutive floats */
                coalesced &= row == cpa_store_row(w, 0) + l;
            }
            if (warp_passes(start, 16) > worst) worst = warp_passes(start, 16);
        }
    for (i = 0; i < CPA_T; i++)
        for (l = 0; l < CPA_T / 4; l++) once &= covered[i][l] == 1;
    expect("cp.async transpose store: every (row, 16-byte chunk) of the tile read once", once, 1);
    expect("cp.async transpose store: LDS.128 conflict-free (4 passes per warp)", worst, 4);
    expect("cp.async transpose store: a warp's 32 lanes write 32 consecutive floats of an output row", coalesced, 1);
}

/* TMA: the 4 x 4 blocks of the shared-memory transpose (tma_block_of), simulated on the host: a box
 * laid out as the TMA writes it (swizzled), every thread's 4 reads and 4 writes, then the two
 * transposed 32 x 32 sub-boxes read back as the TMA store reads them. */
static void test_tma_transpose(void)
{
    static float A[TMA_BOX_FLOATS], B[TMA_BOX_FLOATS];
    int covered[2][8][8], w, l, k, e, i, j, worst_rd = 0, worst_wr = 0, once = 1, right = 1;
    memset(covered, 0, sizeof covered);
    for (i = 0; i < TMA_BOX_Y; i++)
        for (j = 0; j < TMA_BOX_X; j++) A[swz(i, j, TMA_BOX_X)] = (float)(i * 1000 + j);  /* input (r0+i, c0+j) */
    for (i = 0; i < TMA_BOX_FLOATS; i++) B[i] = -1.0f;
    for (w = 0; w < TMA_THREADS / 32; w++) {
        for (k = 0; k < 4; k++) {  /* the k-th LDS.128 and the k-th STS.128 of every lane */
            long rd[32], wr[32];
            for (l = 0; l < 32; l++) {
                int h, p, q;
                tma_block_of(w, l, &h, &p, &q);
                rd[l] = swz(TMA_SUB * h + 4 * p + k, 4 * q, TMA_BOX_X);
                wr[l] = h * TMA_SUB * TMA_SUB + swz(4 * q + k, 4 * p, TMA_SUB);
            }
            if (warp_passes(rd, 16) > worst_rd) worst_rd = warp_passes(rd, 16);
            if (warp_passes(wr, 16) > worst_wr) worst_wr = warp_passes(wr, 16);
        }
        for (l = 0; l < 32; l++) {  /* what the kernel computes: v[j] = row 32h + 4p + j, chunk q */
            int h, p, q;
            float v[4][4];
            tma_block_of(w, l, &h, &p, &q);
            covered[h][p][q]++;
            for (j = 0; j < 4; j++)
                for (e = 0; e < 4; e++) v[j][e] = A[swz(TMA_SUB * h + 4 * p + j, 4 * q, TMA_BOX_X) + e];
            for (e = 0; e < 4; e++)  /* row 4q + e of sub-box h, chunk p = (v0.e, v1.e, v2.e, v3.e) */
                for (j = 0; j < 4; j++) B[h * TMA_SUB * TMA_SUB + swz(4 * q + e, 4 * p, TMA_SUB) + j] = v[j][e];
        }
    }
    for (w = 0; w < 2; w++)
        for (i = 0; i < 8; i++)
            for (j = 0; j < 8; j++) once &= covered[w][i][j] == 1;
    /* sub-box h, row jj (output row c0 + jj), column ii (output column r0 + 32h + ii) must hold input
     * (r0 + 32h + ii, c0 + jj) */
    for (w = 0; w < 2; w++)
        for (j = 0; j < TMA_SUB; j++)
            for (i = 0; i < TMA_SUB; i++)
                right &= B[w * TMA_SUB * TMA_SUB + swz(j, i, TMA_SUB)] == (float)((TMA_SUB * w + i) * 1000 + j);
    expect("TMA transpose: every 4x4 block of both 32x32 sub-boxes moved by exactly one thread", once, 1);
    expect("TMA transpose: the two swizzled sub-boxes hold the transpose of the swizzled box", right, 1);
    expect("TMA transpose: LDS.128 from the loaded box conflict-free (4 passes per warp)", worst_rd, 4);
    expect("TMA transpose: STS.128 into the store boxes conflict-free (4 passes per warp)", worst_wr, 4);
}

static void test_rules(void)
{
    expect_str("tensor map: 8192 x 8192 floats, box 32 x 64, 128-byte swizzle: fine",
               tma_map_problem(8192, 8192, 0x7f0000000000ULL, TMA_BOX_X, TMA_BOX_Y, 128), NULL);
    expect_str("tensor map: 8191 floats a row (32764 bytes) is no 16-byte multiple",
               tma_map_problem(8191, 4097, 0, TMA_BOX_X, TMA_BOX_Y, 128), "row pitch is not a multiple of 16");
    expect_str("tensor map: the transpose of 8192 x 4097 has rows of 4097 floats: refused",
               tma_map_problem(4097, 8192, 0, TMA_SUB, TMA_SUB, 128), "row pitch is not a multiple of 16");
    expect_str("tensor map: 4 floats a row is the smallest pitch allowed",
               tma_map_problem(4, 4100, 0, TMA_BOX_X, TMA_BOX_Y, 128), NULL);
    expect_str("tensor map: a base 8 bytes past a 16-byte boundary is refused",
               tma_map_problem(8192, 8192, 8, TMA_BOX_X, TMA_BOX_Y, 128), "16-byte boundary");
    expect_str("tensor map: a 64-float (256-byte) box row does not fit the 128-byte swizzle",
               tma_map_problem(8192, 8192, 0, 64, 64, 128), "wider than the swizzle span");
    expect_str("tensor map: ... but is fine without a swizzle",
               tma_map_problem(8192, 8192, 0, 64, 64, 0), NULL);
    expect_str("tensor map: a box side of 257 elements is refused",
               tma_map_problem(8192, 8192, 0, 32, 257, 128), "1 to 256");
    expect_str("tensor map: a box row of 2 floats (8 bytes) is no 16-byte multiple",
               tma_map_problem(8192, 8192, 0, 2, 64, 0), "multiple of 16 bytes");

    expect("cp.async copy size: 8192 floats a row, aligned buffers: 16 bytes", cpasync_vec_bytes(8192, 0), 16);
    expect("cp.async copy size: 8190 floats a row: 8 bytes", cpasync_vec_bytes(8190, 0), 8);
    expect("cp.async copy size: 8191 floats a row: 4 bytes", cpasync_vec_bytes(8191, 0), 4);
    expect("cp.async copy size: a buffer 8 bytes past 16: 8 bytes", cpasync_vec_bytes(8192, 8), 8);
    expect("cp.async copy size: a buffer 4 bytes past 8: 4 bytes", cpasync_vec_bytes(8192, 4), 4);

    expect("persistent grid: 132 SMs x 3 blocks for 16384 tiles", persistent_blocks(16384, 132, 3, 0), 396);
    expect("persistent grid: never more blocks than tiles", persistent_blocks(5, 132, 3, 0), 5);
    expect("persistent grid: --check's cap of 3 blocks", persistent_blocks(1000, 132, 3, 3), 3);
    expect("persistent grid: at least one block", persistent_blocks(0, 132, 3, 0), 1);

    expect("shared memory: 4 cp.async stages of 64 x 64 floats = 64 KiB", cpa_smem_bytes(4), 65536);
    expect("shared memory: TMA transpose, 4 stages + 2 store buffers of 8 KiB, 1 KiB slack, 4 barriers",
           tma_transpose_smem_bytes(4), 1024 + 6 * 8192 + 32);
    expect("shared memory: every kernel fits the H100's 227 KiB per block",
           tma_transpose_smem_bytes(4) <= 227 * 1024 && cpa_smem_bytes(4) <= 227 * 1024, 1);
}

int main(void)
{
    test_swizzle();
    test_cpasync_loads();
    test_cpasync_store();
    test_tma_transpose();
    test_rules();
    return failures ? 1 : 0;
}
