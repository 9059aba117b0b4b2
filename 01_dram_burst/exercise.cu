/* Lesson 01 exercise: read only the bytes you use.
 *
 * exercise_check.cu already sums the particles' masses from an array of structures (AoS):
 * thread i reads p[i].mass, 4 useful bytes out of every 32-byte particle.  Before you write
 * anything, predict from the bytes each kernel moves (count them by the README's sector and fetch
 * models) how many times as fast your SoA kernel will run.
 *
 * TODO: write mass_sums_soa below.  The masses now sit in their own array (structure of arrays,
 * SoA), so consecutive threads read consecutive floats.  Each thread loads mass[i] (0 when
 * i >= n), the warp adds its 32 values with warp_sum_xor() (common/warp.cuh: every lane of the
 * warp must call it), and lane 0 of the warp stores the sum in warp_sums[i / 32].
 *
 * Then `make exercise`: the checker verifies your kernel at odd sizes (with guard zones around
 * your buffers, then once more under compute-sanitizer), times it against the AoS version, and
 * gives one verdict: wrong, correct but short of the goal (at least 2x the speed of AoS), or goal
 * met.  Then compare the measured speed-up with your prediction. */
#include "exercise.h"
#include "warp.cuh"

__global__ void mass_sums_soa(float *warp_sums, const float *mass, size_t n)
{
    /* TODO: your code here */
    (void)mass;
    (void)warp_sums;
    (void)n;
}
