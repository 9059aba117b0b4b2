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

/* The error bound used to accept a float result: |got - exact| <= K * 2^-23 * sum_k |a_ik b_kj|,
 * about twice the worst case of K roundings (2^-24 each) of a float accumulation. */
double cpu_gemm_tolerance(int K);

/* Checks got (M x N) against the reference within cpu_gemm_tolerance: every element when
 * sample == 0, otherwise `sample` elements picked by rng from seed (always including the four
 * corners).  NaN never passes.  Fills *m (first = row * N + col) and returns the mismatches. */
size_t verify_gemm_f32(const float *A, const float *B, const float *got, int M, int N, int K,
                       size_t sample, uint64_t seed, mismatch_t *m);

#ifdef __cplusplus
}
#endif
#endif
