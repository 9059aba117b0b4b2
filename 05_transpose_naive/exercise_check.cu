/* Checker for the lesson 05 exercise (common/checker.h's pattern): checks that the map of
 * exercise.cu (or solution.cu, the reference) covers its tile, prints the sectors its warps touch
 * (computed from the map), verifies transpose_warp_patch against the CPU transpose at odd shapes,
 * then times it against NaiveRow and NaiveCol with 32x8 blocks and with 8x32 blocks (the fastest
 * shape of both in the lesson's sweep) and gives the verdict.
 *
 * The goal: your kernel at 1.10x the speed of the faster NaiveRow of the table (8x32 on the H100)
 * or more -- exercise.cu's "faster than NaiveRow in its best block shape", with room for noise.  On
 * the H100 (results/NVIDIA_H100_80GB_HBM3/answers/05_transpose_naive.txt, ./solution at 8192 x 8192)
 * the reference ran at 1.20x NaiveRow 8x32 (and 1.01x NaiveCol 8x32, the fastest given kernel);
 * NaiveRow's own warp shape as a map runs at 1.00x and falls short, as do NaiveCol 32x8 (0.97x) and
 * NaiveRow 32x8 (0.28x). */
#include "args.h"
#include "checker.h"
#include "exercise.h"
#include "gpu.h"
#include "kernels.cuh"
#include "report.h"
#include "sectors.h"
#include "transpose_matrix.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* The checker's --help summary. */
static const char SUMMARY[] =
    "Lesson 05 exercise: checks the tile and map you chose (exercise.cu), prints the sectors your warps\n"
    "touch, verifies your transpose_warp_patch at odd shapes, then times it against NaiveRow and NaiveCol.";

static const checker_t CK = {"05_transpose_naive_exercise", "Lesson 05 exercise - the shape of a warp", SUMMARY,
                             TMATRIX_SIZE_HELP, NULL, NULL /* no --block: PATCH_THREADS */, NULL, "transpose_warp_patch",
                             "the faster NaiveRow", 1.10, "memcheck",
                             /* --size: a block per tile of patch_tile_h rows down the grid; a map whose
                              * tile has no rows is the map check's to report, after the start */
                             patch_tile_h > 0 ? patch_tile_h : 0};

/* Your kernel: 1-D blocks of PATCH_THREADS, a block per patch_tile_h x patch_tile_w tile (exercise.h);
 * `block` is not used. */
static void launch_yours(float *out, const float *in, int nx, int ny, dim3 block, cudaStream_t s)
{
    dim3 grid(div_up(nx, patch_tile_w), div_up(ny, patch_tile_h));
    (void)block;
    transpose_warp_patch<<<grid, PATCH_THREADS, 0, s>>>(out, in, nx, ny);
}

/* Whether the map gives every element of the tile to exactly one thread; if not, why, into why. */
static int map_covers_tile(char *why, size_t len)
{
    int *owner, t, dr, dc, ok = 1;
    if (patch_tile_w < 1 || patch_tile_h < 1 || patch_tile_w * patch_tile_h != PATCH_THREADS) {
        snprintf(why, len, "the tile is %d x %d, not %d elements", patch_tile_w, patch_tile_h, PATCH_THREADS);
        return 0;
    }
    owner = (int *)malloc(PATCH_THREADS * sizeof(int));
    for (t = 0; t < PATCH_THREADS; t++) owner[t] = -1;
    for (t = 0; t < PATCH_THREADS && ok; t++) {
        patch_map_host(t, &dr, &dc);
        if (dr < 0 || dr >= patch_tile_h || dc < 0 || dc >= patch_tile_w) {
            snprintf(why, len, "thread %d gets (row %d, column %d), outside the %d x %d tile", t, dr, dc,
                     patch_tile_h, patch_tile_w);
            ok = 0;
        } else if (owner[dr * patch_tile_w + dc] >= 0) {
            snprintf(why, len, "threads %d and %d both get (row %d, column %d)", owner[dr * patch_tile_w + dc], t, dr,
                     dc);
            ok = 0;
        } else
            owner[dr * patch_tile_w + dc] = t;
    }
    free(owner);
    return ok;
}

/* What the map means for memory, computed from its addresses for the block at the origin of an
 * nx x ny matrix (base 32-byte aligned), lanes outside the matrix left out, as sectors.h counts the
 * given kernels: sectors per warp on each side (averaged over the block's warps), the share of
 * their bytes the warp uses, and the 128-byte lines the whole block reads and writes. */
typedef struct {
    double ld, st;           /* sectors per warp instruction */
    double ld_use, st_use;   /* useful bytes / (sectors x 32) */
    int ld_lines, st_lines;  /* distinct 128-byte lines per block */
    double ld_fill, st_fill; /* useful bytes / (lines x 128) */
} map_sectors_t;

static map_sectors_t map_sectors(int nx, int ny)
{
    map_sectors_t m = {0, 0, 0, 0, 0, 0, 0, 0};
    size_t ldl[PATCH_THREADS], stl[PATCH_THREADS];
    int t0, l, n = 0, warps = 0, elems = 0;
    for (t0 = 0; t0 < PATCH_THREADS; t0 += 32) {
        size_t ld[32], st[32];
        int k = 0, dr, dc;
        for (l = 0; l < 32; l++) {
            patch_map_host(t0 + l, &dr, &dc);
            if (dr >= ny || dc >= nx) continue;
            ld[k] = ((size_t)dr * (size_t)nx + (size_t)dc) / 8;
            st[k] = ((size_t)dc * (size_t)ny + (size_t)dr) / 8;
            ldl[n] = ld[k] / 4;
            stl[n] = st[k] / 4;
            k++;
            n++;
        }
        if (k == 0) continue;
        m.ld += sectors_distinct(ld, k);
        m.st += sectors_distinct(st, k);
        elems += k;
        warps++;
    }
    if (!warps) return m;
    m.ld_use = elems * 4.0 / (m.ld * 32.0);
    m.st_use = elems * 4.0 / (m.st * 32.0);
    m.ld /= warps;
    m.st /= warps;
    m.ld_lines = sectors_distinct(ldl, n);  /* distinct 128-byte lines, as distinct sectors are counted */
    m.st_lines = sectors_distinct(stl, n);
    m.ld_fill = n * 4.0 / (m.ld_lines * 128.0);
    m.st_fill = n * 4.0 / (m.st_lines * 128.0);
    return m;
}

/* The timing table: the given kernels (rows 0..3), then yours (row 4), each with its block. */
static const trow_t KS[] = {{"NaiveRow 32x8 (given)", launch_transpose_naive_row, TMATRIX_TRANSPOSE},
                            {"NaiveCol 32x8 (given)", launch_transpose_naive_col, TMATRIX_TRANSPOSE},
                            {"NaiveRow 8x32 (given)", launch_transpose_naive_row, TMATRIX_TRANSPOSE},
                            {"NaiveCol 8x32 (given)", launch_transpose_naive_col, TMATRIX_TRANSPOSE},
                            {"warp patch (yours)", launch_yours, TMATRIX_TRANSPOSE}};
static const dim3 KS_BLOCK[] = {dim3(32, 8), dim3(32, 8), dim3(8, 32), dim3(8, 32), dim3(PATCH_THREADS)};
enum { N_GIVEN = 4, YOURS = 4, NKS = 5 };

/* The table's takeaway, and the verdict's ratio (the speed of yours / the faster NaiveRow's), from
 * the timings t[] of rows that all verified. */
static double takeaway(const timing_t *t, char *take, size_t len)
{
    int k, best = 0, best_row = 0;
    for (k = 1; k < N_GIVEN; k++) {
        if (t[k].median_ms < t[best].median_ms) best = k;
        if (KS[k].launch == launch_transpose_naive_row && t[k].median_ms < t[best_row].median_ms) best_row = k;
    }
    snprintf(take, len,
             "yours runs at %.2fx the fastest NaiveRow here (%s) and %.2fx the fastest given kernel (%s): %s.",
             t[best_row].median_ms / t[YOURS].median_ms, KS[best_row].label, t[best].median_ms / t[YOURS].median_ms,
             KS[best].label,
             t[YOURS].median_ms < t[best_row].median_ms ? "you beat NaiveRow's best shape"
                                                        : "NaiveRow's best shape is still ahead");
    return t[best_row].median_ms / t[YOURS].median_ms;
}

int main(int argc, char **argv)
{
    static const int shapes[][2] = {{1, 1}, {8, 4}, {7, 3}, {32, 8}, {33, 31}, {31, 33}, {1000, 777},
                                    {1, 40009}, {40009, 1}, {4097, 13}, {2048, 512}, {8191, 4097}};
    const trow_t yours = {"transpose_warp_patch (yours)", launch_yours, TMATRIX_TRANSPOSE};
    char why[200], take[400];
    args_t a;
    gpu_info_t g;
    tbench_t b;
    timing_t t[NKS];
    check_tally_t tally = {0, 0, stdout};
    int nx, ny, rc, k, ok = 1;
    double ratio = NAN;

    checker_start(&CK, argc, argv, &a, &g);
    tmatrix_size_or_exit(&a, 0, &nx, &ny);
    tally.out = a.csv ? NULL : stdout;

    /* The map first: a thread per element of the tile, or nothing else makes sense (and the kernel
     * is not launched: a thread outside its tile could write anywhere). */
    if (!map_covers_tile(why, sizeof why)) {
        if (tally.out) fprintf(tally.out, "FAIL: your map does not cover the tile: %s (fix TILE_W, TILE_H or patch_map)\n", why);
        tally.fails = tally.checks = 1;
        return checker_verified(&CK, &tally, &a);
    }
    {
        map_sectors_t m = map_sectors(nx, ny);
        report_say("\nYour tile: %d rows x %d columns. Computed from your map's addresses at %d x %d:\n", patch_tile_h,
                   patch_tile_w, nx, ny);
        report_say("  per warp: load %.1f sectors (%.0f%% of their bytes used), store %.1f sectors (%.0f%% used)\n",
                   m.ld, 100.0 * m.ld_use, m.st, 100.0 * m.st_use);
        report_say("  per block: reads %d lines of 128 B (%.0f%% of each), writes %d lines (%.0f%% of each; the rest of "
                   "a line is other blocks')\n",
                   m.ld_lines, 100.0 * m.ld_fill, m.st_lines, 100.0 * m.st_fill);
        report_say("Sectors per warp, load + store, of the given kernels:");
        for (k = 0; k < N_GIVEN; k++) {
            warp_sectors_t w = warp_sectors(KS[k].launch == launch_transpose_naive_row ? KIND_NAIVE_ROW : KIND_NAIVE_COL,
                                            (int)KS_BLOCK[k].x, (int)KS_BLOCK[k].y, nx, ny);
            report_say("%s %.*s %.0f + %.0f", k ? "," : "", 13, KS[k].label, w.ld, w.st);
        }
        report_say("; yours %.1f + %.1f.\n", m.ld, m.st);
    }

    /* Correct: every element of the transpose, on poisoned output, at shapes that are multiples of
     * nothing (partial tiles, a single row or column); with --quick not 2048x512 and 8191x4097. */
    report_say("\nVerification against the CPU transpose:\n");
    tcheck_sweep(&yours, 1, shapes, (int)(sizeof shapes / sizeof shapes[0]), 2, &KS_BLOCK[YOURS], 1, NULL, &a, &tally);
    if ((rc = checker_verified(&CK, &tally, &a)) >= 0) return rc;

    /* Then fast: the given kernels and yours at the full size, each verified again first. */
    tbench_init(&b, &g, &a, nx, ny, TMATRIX_TRANSPOSE);
    report_begin("exercise", "Transposes of the whole matrix:", NULL);
    report_row("cudaMemcpy D2D", &b.t_d2d, b.bytes, NAN);
    for (k = 0; k < NKS; k++) ok &= trow_measure(&b, &KS[k], KS_BLOCK[k], NAN, &t[k]);
    if (ok) {
        ratio = takeaway(t, take, sizeof take);
        report_end(take);
    } else {
        report_end("a kernel failed verification at the full size: no comparison.");
    }
    tbench_free(&b);
    return checker_verdict(&CK, ratio);
}
