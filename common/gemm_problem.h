/* One matrix product C = A x B (FP32, row-major; A is M x K, B is K x N, C is M x N) as the lessons
 * that multiply matrices (02's naive product, 07's and 08's SGEMM) size it, set it up and verify it.
 *
 * The size options and the sampling policy are plain C99 (gemm_problem.c, unit-tested without a
 * GPU in tests/test_gemm_problem.c); the buffers, the verification and the --check sweep need the
 * GPU (gemm_problem.cu). */
#ifndef GEMM_PROBLEM_H
#define GEMM_PROBLEM_H

#include <stddef.h>
#include <stdint.h>
#include "args.h"
#include "gpu.h"
#include "stats.h"
#include "verify.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the size: --mnk, --m, --n, --k (plain C) ------------------------------------------------ */

/* Per dimension: a product of two dimensions stays below 2^31 (the kernels index with int), and
 * a grid of one block per row or column stays below gridDim.y's 65535. */
#define GEMM_DIM_MAX 16384
#define GEMM_SIZE_NOPTS 4
/* The --size line of the usage of a program that sizes its product with the options below. */
#define GEMM_SIZE_HELP "not used: give the product's size with --mnk or --m/--n/--k"

typedef struct {
    int mnk, m, n, k;                      /* as given; 0 = not given */
    lesson_opt_t opts[GEMM_SIZE_NOPTS];    /* --mnk --m --n --k, each writing its field above */
} gemm_size_args_t;

/* Fills s->opts for args_parse_or_exit(..., s->opts, GEMM_SIZE_NOPTS).  They point into *s, so s
 * must not be copied or go out of scope while they are used (args_reject prints them again). */
void gemm_size_args_init(gemm_size_args_t *s);

/* M, N, K: --m, --n, --k where given, otherwise --mnk, otherwise 4096 (1024 with --quick). */
void gemm_size_resolve(const gemm_size_args_t *s, int quick, int *M, int *N, int *K);

/* After args_parse_or_exit: a --size or --block exits 2 through args_reject, quoting the value as
 * typed ("bad --block '8x8': <block_why>"); otherwise *M, *N, *K from gemm_size_resolve. */
void gemm_size_or_exit(int argc, char **argv, const args_t *a, const gemm_size_args_t *s, const char *block_why,
                       int *M, int *N, int *K);

/* Blocks of per_block rows or columns that cover n: one dimension of a launch grid. */
static inline unsigned gemm_blocks(int n, int per_block) { return (unsigned)((n + per_block - 1) / per_block); }

/* ---- how much of C is checked (plain C) ------------------------------------------------------- */

/* Products up to GEMM_FULL_CHECK_MACS multiply-adds are checked element by element; larger ones on
 * GEMM_SAMPLE elements plus the four corners (the double-precision reference would take seconds).
 * The bound, from cpu_gemm_tolerance: |got - exact| <= K x 2^-23 x sum_k |a_ik b_kj|. */
#define GEMM_FULL_CHECK_MACS ((double)(1 << 28))
#define GEMM_SAMPLE 4096

/* verify_gemm_f32's `sample` for this product: 0 (every element) or GEMM_SAMPLE. */
size_t gemm_sample(int M, int N, int K);
/* How many elements that check compares (the n of verify_describe's "k of n differ"). */
size_t gemm_checked_elems(int M, int N, int K);

/* ---- the FP32 peak ------------------------------------------------------------------------------ */

/* FP32 lanes (FMA units) per SM by compute capability: Volta, Turing and the A100 (8.0) have 64;
 * GA10x/AD10x (8.6, 8.7, 8.9), Hopper (9.0) and Blackwell (10.x, 12.x) have 128.  Plain C. */
int gemm_fp32_lanes_per_sm(int major, int minor);

/* SMs x lanes x 2 flops per FMA x the clock cudaDevAttrClockRate reports (the boost clock), in
 * GFLOP/s; prints how it was computed (report_say: silent under --csv). */
double gemm_fp32_peak_say(const gpu_info_t *g);

/* ---- the matrices on the GPU and the verification (CUDA, gemm_problem.cu) ---------------------- */

typedef struct {
    int M, N, K;
    uint64_t seed;                   /* A is rng stream seed, B stream seed + 1; also picks the sample */
    float *dA, *dB, *dC;             /* on the GPU: `offset` floats past what gpu_alloc returned */
    float *hA, *hB, *hC;             /* on the host: A and B for the reference, C for the result */
    float *baseA, *baseB, *baseC;    /* what gpu_alloc returned, for gemm_problem_free */
} gemm_problem_t;

/* Allocates A, B, C on the GPU and on the host, fills A and B with random values on the GPU and
 * copies them to the host once.  offset > 0 places every device matrix that many floats past its
 * allocation: with offset 1 no matrix starts on a 16-byte boundary, so no vector load is aligned. */
void gemm_problem_init(gemm_problem_t *p, int M, int N, int K, int offset, uint64_t seed);
void gemm_problem_free(gemm_problem_t *p);

/* Poisons C, runs launch(ctx) once, copies C back and checks it with verify_gemm_f32 (every element
 * or gemm_sample's sample).  Fills *m and returns the number of elements outside the bound. */
size_t gemm_problem_verify(gemm_problem_t *p, launch_fn_t launch, void *ctx, mismatch_t *m);

/* gemm_problem_verify; on a mismatch prints "what: FAILED verification: <what differs>" on stderr.
 * Returns 1 when the kernel verified, 0 when it did not. */
int gemm_problem_verified(gemm_problem_t *p, const char *what, launch_fn_t launch, void *ctx);

/* gemm_problem_verified(p, what, ...), then, only if it verified, bench_median_ms(label, ...) into
 * *t.  Returns 1 when the kernel verified and was timed. */
int gemm_verify_then_time(gemm_problem_t *p, const char *label, const char *what, launch_fn_t launch, void *ctx,
                          const args_t *a, int flush, timing_t *t);

/* The two lines that say how an M x N x K product is verified (report_say: silent under --csv). */
void gemm_say_verification(int M, int N, int K);

/* The memory ceilings of an SGEMM program, measured on buffers too large for the L2 and reported
 * as their own table ("sgemm_ceiling"): context only, a product of this size is compute-bound. */
void gemm_report_ceilings(const gpu_info_t *g, const args_t *a);

/* ---- --check: every kernel on a list of shapes (CUDA, gemm_problem.cu) ------------------------ */

typedef struct {
    int M, N, K;
    int offset;   /* floats past the allocation (gemm_problem_init); 1 = rows not 16-byte aligned */
    int big;      /* left out with --quick */
} gemm_case_t;

typedef struct { int fails, checks; } gemm_tally_t;

/* One PASS/FAIL line (verify_print) for launch(ctx) on p, counted in *t. */
void gemm_check_launch(gemm_problem_t *p, const char *what, const char *size, launch_fn_t launch, void *ctx,
                       gemm_tally_t *t);

/* What a lesson checks on one shape: gemm_check_launch for each of its kernels. */
typedef void (*gemm_check_fn_t)(gemm_problem_t *p, const char *size, void *user, gemm_tally_t *t);

/* For each case (the big ones left out with --quick): fresh random inputs from seed a->seed + 2 x
 * the case's index, the size text "M=.. N=.. K=..[, unaligned rows][, sampled]", check(p, size,
 * user, t).  Then prints "OK: n of n checks passed" or "FAILED: ..." and returns EXIT_OK or
 * EXIT_VERIFY. */
int gemm_run_checks(const gemm_case_t *cases, int ncases, const args_t *a, gemm_check_fn_t check, void *user);

#ifdef __cplusplus
}
#endif
#endif
