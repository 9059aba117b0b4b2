/* One matrix product C = A x B (FP32, row-major; A is M x K, B is K x N, C is M x N) as the lessons
 * that multiply matrices (02's naive product, 07's and 08's SGEMM) size it, set it up and verify it,
 * and the pieces every SGEMM program's main uses (07 part 2, 08 parts 2 and 3): its size options, its
 * --check over odd shapes, its memory ceilings.
 *
 * How a product is checked (gemm_check, gemm_time).  C is poisoned (NaN), the kernel runs
 * once, and then EVERY element of C is compared, on the GPU, with a reference computed on the GPU
 * in double by a plain one-thread-per-element kernel (each product of two floats is exact in
 * double; gemm_problem.cu): an element passes when |got - ref| <= cpu_gemm_tolerance(K) x
 * sum_k |a_ik b_kj| (cpu_gemm.h: min(K, 4 sqrt K) x 2^-23 of it, tight enough that a dropped k-term
 * fails), and NaN or Inf never passes, so a tile the kernel did not write always shows.  Then C is
 * copied back and compared on the CPU, in double, with the same bound: every element up to
 * GEMM_FULL_CHECK_MACS multiply-adds, beyond that the corners and GEMM_SAMPLE elements
 * (gemm_problem_t's `sample`).  The GPU reference itself is checked once per set of inputs against
 * the CPU's, bit for bit (both add the same exact products in the same order), on the corners and
 * GEMM_SAMPLE elements.
 *
 * The size options, the sampling policy and the FP32 lanes are plain C99 (gemm_problem.c,
 * unit-tested without a GPU in tests/test_gemm_problem.c); the rest needs the GPU (gemm_problem.cu). */
#ifndef GEMM_PROBLEM_H
#define GEMM_PROBLEM_H

#include <stddef.h>
#include <stdint.h>
#include "args.h"
#include "bench.h"
#include "gpu.h"
#include "stats.h"
#include "verify.h"
#ifdef __CUDACC__
#include <cuda_fp16.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the size: --mnk, --m, --n, --k (plain C) ------------------------------------------------ */

/* Per dimension: a product of two dimensions stays below 2^31 (the kernels index with int), and
 * a grid of one block per row or column stays below gridDim.y's 65535. */
#define GEMM_DIM_MAX 16384

/* The start of an SGEMM program's main: --mnk, --m, --n, --k (no --size, no --block: the kernels fix
 * their blocks) with args_parse_or_exit (usage and exit 0 on --help, exit 2 on an error), then M, N, K:
 * --m, --n, --k where given, otherwise --mnk, otherwise 4096 (1024 with --quick). */
void gemm_args_or_exit(int argc, char **argv, args_t *a, const char *summary, int *M, int *N, int *K);

/* ---- the FP32 peak ------------------------------------------------------------------------------ */

/* SMs x lanes x 2 flops per FMA x the clock cudaDevAttrClockRate reports (the boost clock), in
 * GFLOP/s; prints how it was computed (report_say: silent under --csv). */
double gemm_fp32_peak_say(const gpu_info_t *g);

/* ---- the matrices on the GPU and the verification (CUDA, gemm_problem.cu) ---------------------- */

struct __half;   /* cuda_fp16.h's half, declared for C */

typedef struct {
    int M, N, K;
    uint64_t seed;                   /* A is rng stream seed, B stream seed + 1; also picks the sample */
    size_t sample;                   /* what the CPU compares: 0, every element of C (products up to 2^28
                                        multiply-adds), else the four corners and this many (4096) */
    float *dA, *dB, *dC;             /* on the GPU: `offset` floats past what gpu_alloc returned */
    float *hA, *hB, *hC;             /* on the host: A and B for the reference, C as the last check read it */
    struct __half *dA16, *dB16;      /* A and B as half once a row read half (gemm_check), else NULL */
    double *dRef, *dAbs;             /* the GPU reference: each element of C in double, sum_k |a_ik b_kj| */
    int ref_ready;                   /* dRef, dAbs hold the reference of the current A and B */
    unsigned long long *dRes;        /* the comparison's mismatches and first index, on the GPU */
    int offset;
    float *baseA, *baseB, *baseC;    /* what gpu_alloc returned, for gemm_problem_free */
    struct __half *baseA16, *baseB16;
} gemm_problem_t;

/* GPU memory a product of this size takes: A, B, C (floats), the reference (two doubles per element
 * of C), and with `half` the half copies of A and B (for rows that read half: gemm_check). */
size_t gemm_problem_bytes(int M, int N, int K, int offset, int half);

/* Allocates A, B, C and the reference on the GPU and A, B, C on the host, fills A and B with random
 * values on the GPU and copies them to the host once.  offset > 0 places every device matrix that
 * many elements past its allocation: with offset 1 no matrix starts on a 16-byte boundary, so no
 * vector load is aligned.  The reference is computed at the first check. */
void gemm_problem_init(gemm_problem_t *p, int M, int N, int K, int offset, uint64_t seed);
void gemm_problem_free(gemm_problem_t *p);

/* ---- a kernel as a table row, verified and timed (CUDA) ----------------------------------------- */

#ifdef __CUDACC__
/* A kernel as a table row: its label (table, CSV, --check line and the NVTX range `make profile`
 * names it by), its launcher and block.  The launcher is the lesson's launch_<kernel> (its kernels
 * file): it enqueues C = A x B on stream s; kernels whose block shape is fixed ignore `block`,
 * lesson 02's naive products take any.  Set exactly one: launch, or launch_half for kernels that
 * read A and B as half (08 part 3's Tensor Core kernels). */
typedef struct {
    const char *label;
    void (*launch)(float *C, const float *A, const float *B, int M, int N, int K, dim3 block, cudaStream_t s);
    void (*launch_half)(float *C, const __half *A, const __half *B, int M, int N, int K, dim3 block, cudaStream_t s);
    dim3 block;
} gemm_row_t;

/* One --check line: poisons C, launches r once, compares all of C with the references (see the top
 * of this file), and reports PASS or FAIL under r->label and `size` (check_report).  A row with
 * launch_half reads p's A and B rounded to half: the first such row rounds them, in place (so the float
 * kernels, cuBLAS's FP32 path and both references see the same values from then on), keeps them as
 * half in p->dA16, p->dB16 and refreshes the host copies.  Returns 1 for a failure. */
int gemm_check(gemm_problem_t *p, const gemm_row_t *r, const char *size, check_tally_t *t);

/* Verify, then time: the same check; a kernel that fails gets report_failed's line and row and no
 * timing (returns 0); one that passes is timed (bench.h) into *t (returns 1).  The caller prints
 * its row (report_row), usually with its GFLOP/s in the extra column. */
int gemm_time(gemm_problem_t *p, const gemm_row_t *r, const args_t *a, int flush, timing_t *t);
#endif

/* --check's shapes: M x N x K, `offset` elements past the allocation (gemm_problem_init; 1 = rows
 * not 16-byte aligned), `big`: left out with --quick. */
typedef struct {
    int M, N, K;
    int offset;
    int big;
} gemm_case_t;

#ifdef __CUDACC__
/* The --check of an SGEMM program: the memory its largest shape needs (gpu_require_bytes), then for
 * each case (the big ones left out with --quick) fresh random inputs (rounded to half when a row
 * reads half), and gemm_check for every row; "OK: n of n checks passed" or "FAILED: ...".  Returns
 * the exit code (after gpu_finish). */
int gemm_check_cases(const gemm_case_t *cases, int ncases, const gemm_row_t *rows, int nrows, const args_t *a);
#endif

/* The memory ceilings of an SGEMM program (table "sgemm_ceiling": cudaMemcpy D2D on buffers too
 * large for the L2, for context: a product is compute-bound); sets the report's ceilings. */
void gemm_ceilings(const gpu_info_t *g, const args_t *a);

/* The two lines that say how an M x N x K product is verified (report_say: silent under --csv). */
void gemm_say_verification(int M, int N, int K);

#ifdef __cplusplus
}
#endif
#endif
