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

/* The error bound used to accept a float result: |got - exact| <= cpu_gemm_tolerance(K) x
 * sum_k |a_ik b_kj|, where
 *     cpu_gemm_tolerance(K) = min(K, 4 sqrt(K)) x 2^-23.
 * Short sums (K <= 16) get K x 2^-23, twice the worst case of K roundings (2^-24 each) of a float
 * sum in any order: there a Tensor Core's truncating block sums can come close to the worst case.
 * Long sums get 4 sqrt(K) x 2^-23 = 8 sqrt(K) x 2^-24.  Rounding errors of random sign add up like
 * a random walk, and 8 sqrt(K) is the probabilistic bound of Higham and Mary (SIAM J. Sci.
 * Comput. 41(5), 2019) with lambda = 8: if rounding errors are independent and of mean zero, an
 * inner product of K <= 16384 terms exceeds it with probability below 2K exp(-32) < 5e-10,
 * whatever the signs of its terms; on the course's inputs (random signs in [-1, 1)) the errors
 * stay orders of magnitude below it.  It is tight enough to catch one dropped k-term: at K = 4096
 * it is 3.1e-5 of sum_k |a_ik b_kj| (about 1024 there), 0.031, while one term |a_ik b_kj| averages
 * 0.25 and exceeds 0.031 six times in seven (the bound K x 2^-23 of earlier versions was 0.5). */
double cpu_gemm_tolerance(int K);

/* Element i of the sample of C (M x N) that verify_gemm_f32 checks: i = 0..3 are the four corners
 * ([0, 0], [0, N-1], [M-1, 0], [M-1, N-1]), each later i a position picked by rng from seed. */
void cpu_gemm_sample_at(int M, int N, uint64_t seed, size_t i, int *row, int *col);

/* Checks got (M x N) against the reference within cpu_gemm_tolerance: every element when
 * sample == 0, otherwise the four corners and `sample` positions picked by rng from seed
 * (cpu_gemm_sample_at(.., i) for i < sample + 4).  NaN never passes.  Fills *m (first = row * N +
 * col) and returns the mismatches. */
size_t verify_gemm_f32(const float *A, const float *B, const float *got, int M, int N, int K,
                       size_t sample, uint64_t seed, mismatch_t *m);

#ifdef __cplusplus
}
#endif
#endif
