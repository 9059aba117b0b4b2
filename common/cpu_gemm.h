/* CPU reference for the matrix product C = A * B, row-major, in double precision.  Plain C99.
 * Used by every lesson that multiplies matrices (02's naive product, 07/08's SGEMM). */
#ifndef CPU_GEMM_H
#define CPU_GEMM_H

#include <stddef.h>
#include <stdint.h>
#include "verify.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One element of C = A * B (A: M x K, B: K x N, both row-major): its value in double, and
 * sum_k |a_ik * b_kj|, which bounds the rounding error of a float sum taken in any order. */
void cpu_gemm_element(const float *A, const float *B, int N, int K, int row, int col,
                      double *value, double *abs_sum);

/* Element i of the sample of C (M x N) that verify_gemm_f32 checks: i = 0..3 are the four corners
 * ([0, 0], [0, N-1], [M-1, 0], [M-1, N-1]), each later i a position picked by rng from seed. */
void cpu_gemm_sample_at(int M, int N, uint64_t seed, size_t i, int *row, int *col);

/* Checks got (M x N) against the reference within the bound of gemm_problem.h's top comment
 * (cpu_gemm_tolerance, in common/tests/internal.h: min(K, 4 sqrt K) x 2^-23 x sum |a_ik b_kj|): every element when
 * sample == 0, otherwise the four corners and `sample` positions picked by rng from seed
 * (cpu_gemm_sample_at(.., i) for i < sample + 4).  NaN never passes.  Fills *m (first = row * N +
 * col) and returns the mismatches. */
size_t verify_gemm_f32(const float *A, const float *B, const float *got, int M, int N, int K,
                       size_t sample, uint64_t seed, mismatch_t *m);

#ifdef __cplusplus
}
#endif
#endif
