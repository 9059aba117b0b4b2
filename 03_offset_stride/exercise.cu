/* Lesson 03 exercise: the stride you did not write.
 *
 * A common way to give each thread more work is to hand it a contiguous chunk: exercise_check.cu's
 * add_one_chunked lets thread t of a block increment elements t*16 .. t*16 + 15 of the block's tile.
 * It looks like perfectly sequential access, but look at one step of the loop across the warp:
 * lane 0 touches element 0, lane 1 element 16, lane 2 element 32, ... -- that is a[i * 16], the
 * stride kernel of this lesson with s = 16.  Before you write anything, find stride 16 in the float
 * table of `make run` and predict what add_one_chunked reaches.  (It is not quite the same: the
 * chunked kernel does use the rest of each sector a few steps later; does that help?)
 *
 * TODO: write add_one_interleaved below (see exercise.h).  Keep the tile of each block, but swap
 * the order inside it: at step k (k = 0 .. ELEMS_PER_THREAD - 1) thread t increments element
 * k * blockDim.x + t of the tile, so that at every step the warp touches 32 consecutive floats.
 * Remember the last tile: elements at or past n must not be touched.
 *
 * Then `make exercise`: the checker verifies your kernel at odd sizes (every element incremented
 * exactly once, nothing past n changed: a guard zone surrounds the array), runs it once more under
 * compute-sanitizer, times it against add_one_chunked and gives one verdict: wrong, correct but
 * short of the goal (at least 2.5x the speed of add_one_chunked), or goal met. */
#include "exercise.h"

__global__ void add_one_interleaved(float *a, size_t n)
{
    /* TODO: your code here */
    (void)a;
    (void)n;
}
