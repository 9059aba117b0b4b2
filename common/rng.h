/* Counter-based random numbers: value i of stream `seed` is a pure function of (seed, i),
 * so the GPU can fill a buffer in parallel and the CPU reference can recompute any element
 * without copying the input back.  Same code on host and device, integer math only. */
#ifndef RNG_H
#define RNG_H

#include <stdint.h>

/* splitmix64 finaliser: a bijection on 64-bit integers with good avalanche */
#ifdef __CUDACC__
__host__ __device__
#endif
static inline uint64_t rng_mix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* Uniform float in [-1, 1) on a grid of 2^-23: exactly representable, never NaN,
 * and sums of a few thousand of them are still exact in double. */
#ifdef __CUDACC__
__host__ __device__
#endif
static inline float rng_float(uint64_t seed, uint64_t i)
{
    uint64_t r = rng_mix64(seed ^ rng_mix64(i));
    int32_t k = (int32_t)(r >> 40) - (1 << 23);  /* [-2^23, 2^23) */
    return (float)k * (1.0f / 8388608.0f);
}

#endif
