/* Lesson 02 exercise: make the row sums coalesced.
 *
 * exercise_check.cu already sums each row with ONE THREAD PER ROW: thread r walks row r from left
 * to right.  At every step the 32 threads of a warp read 32 different rows, `cols` floats apart:
 * the index is m[r * cols + c] with r = blockIdx.x * blockDim.x + threadIdx.x, so threadIdx.x is
 * multiplied by cols -- the opposite of the coalesced form A[(terms without threadIdx.x) +
 * threadIdx.x].  Before you write anything, say which of experiment 2's strip sums (the strided
 * one, sum_strips_lanes_rows_apart, or the coalesced one, sum_strips_lanes_adjacent) the given
 * kernel reads like, and which yours will, and count its load requests: the README's exercise 2
 * asks whether the speed-up will match experiment 2a's, and why.
 *
 * TODO: write row_sums_warp_per_row below (see exercise.h): let a whole warp own one row.
 *   - row w = global thread index / 32; a warp with w >= rows returns (all its lanes together);
 *   - which elements of row w each lane adds up is yours to choose: pick them so that every load
 *     of the warp has the coalesced form above;
 *   - the warp adds its 32 partial sums with warp_sum_xor() (common/warp.cuh: every lane of the
 *     warp must call it), and lane 0 stores the total in sums[w].
 *
 * Then `make exercise`: the checker verifies your kernel at odd sizes (cols x rows: 1x1, 1000x1, 1x1000,
 * 31x33, ...) and three block sizes, with guard zones around the matrix and the sums, then once more
 * under compute-sanitizer; it times it against the one-thread-per-row version and gives one
 * verdict: wrong, correct but short of the goal (at least 2x the speed of one thread per row), or
 * goal met. */
#include "exercise.h"
#include "warp.cuh"

__global__ void row_sums_warp_per_row(float *sums, const float *m, int rows, int cols)
{
    /* TODO: your code here */
    (void)m;
    (void)sums;
    (void)rows;
    (void)cols;
}
