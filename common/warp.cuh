/* Warp-level helpers shared by the lessons' kernels. */
#ifndef WARP_CUH
#define WARP_CUH

/* Sum of v over the 32 lanes of a full warp, every lane gets the result.  The butterfly order
 * (offsets 16, 8, 4, 2, 1) is fixed, so cpu_warp_sums_f32() (01_dram_burst/warp_sums.h) reproduces
 * it bit for bit.
 * All 32 lanes must call it: launch blocks whose size is a multiple of 32 and let lanes with
 * nothing to add pass 0. */
static __device__ __forceinline__ float warp_sum_xor(float v)
{
#ifdef COURSE_CHECK_WHOLE_WARP
    /* The exercise checkers' build (common/lesson.mk): a lane that returned before this call leaves
     * the full-mask shuffles below undefined -- and on today's GPUs often still "right", so no output
     * shows it.  A vote counts the lanes that take part; fewer than 32 stops the kernel (__trap), and
     * the checker calls the exercise wrong. */
    if (__popc(__ballot_sync(0xffffffffu, 1)) != 32) __trap();
#endif
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

#endif
