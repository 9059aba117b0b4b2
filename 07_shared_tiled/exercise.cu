/* Lesson 07 exercise: remove the bank conflicts without padding.
 *
 * This is the unpadded tile transpose of experiment 2, with its second phase (the notes' write
 * phase) broken.  In that phase a warp reads a COLUMN of tile[32][32]: lane tx reads word
 * tx * 32 + j, and all 32 lanes land in bank j -- 32 passes for one read (`make profile`, column
 * smem ld confl).  Experiment 2 fixed it with a [32][33] tile.  Here the tile must stay [32][32]: not one float more.
 *
 * Think about where element (row, col) of the tile is stored.  Nothing forces it to be
 * tile[row][col]: phase 1 may put it anywhere as long as phase 2 looks in the same place.  A row
 * of the tile always spreads a warp over 32 banks; the trouble is that one logical column sits in
 * the same bank in every row.  Store it so that the column an element goes to depends on its row,
 * differently in every row, with each row still a permutation of its 32 columns.
 *
 * TODO 1: in phase 1, store the element into your layout instead of tile[ty + j][tx].
 * TODO 2: in phase 2, thread (tx, ty) writes output rows c = c0 + ty + j (j = 0, 8, 16, 24) at
 *         column r = r0 + tx.  The value is input element (r, c), which is element (tx, ty + j) of
 *         the tile: read it from where phase 1 put it (the skeleton reads the wrong element).
 *
 * Then `make exercise`: the checker verifies your kernel at odd sizes (and once more under
 * compute-sanitizer, which also catches a missing __syncthreads), checks that the tile is still
 * 4096 bytes, then times it against cudaMemcpy and experiment 2's unpadded and padded tiles.  The
 * goal: at least 0.90x the padded tile's speed.  `make profile-exercise` shows its bank conflicts;
 * compare with the [32][32] and [32][33] rows of `make profile`. */
#include "exercise.h"

__global__ void transpose_tile_noconflict(float *__restrict__ out, const float *__restrict__ in, int nx, int ny)
{
    __shared__ float tile[EX_TILE][EX_TILE];  /* keep it [32][32] */
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int c0 = blockIdx.x * EX_TILE, r0 = blockIdx.y * EX_TILE;
    int j;

    /* Phase 1: coalesced rows of the input into the tile. */
    for (j = 0; j < EX_TILE; j += EX_ROWS) {
        int r = r0 + ty + j, c = c0 + tx;
        if (r < ny && c < nx) tile[ty + j][tx] = in[(size_t)r * nx + c];  /* TODO 1 */
    }
    __syncthreads();

    /* Phase 2: coalesced rows of the output. */
    for (j = 0; j < EX_TILE; j += EX_ROWS) {
        int c = c0 + ty + j, r = r0 + tx;  /* output row c, output column r */
        /* TODO 2: this stores tile element (ty + j, tx) -- the wrong one.  Output (c, r) is input
         * element (r, c), i.e. tile element (tx, ty + j): read it from where phase 1 put it. */
        if (c < nx && r < ny) out[(size_t)c * ny + r] = tile[ty + j][tx];
    }
}
