/* One matrix product C = A x B (FP32, row-major; A is M x K, B is K x N, C is M x N) as the lessons
 * that multiply matrices (02's naive product, 07's and 08's SGEMM) size it, set it up and verify it,
 * and the start, the --check sweep and the end of an SGEMM program (07 part 2, 08 parts 2 and 3).
 *
 * How a product is checked (gemm_check_of: the check_t of bench.h, so measure_row, check_line and
 * verify_then_time work on products as on everything else).  C is poisoned (NaN), the kernel runs
 * once, and then EVERY element of C is compared, on the GPU, with a reference computed on the GPU
 * in double by a plain one-thread-per-element kernel (each product of two floats is exact in
 * double; gemm_problem.cu): an element passes when |got - ref| <= cpu_gemm_tolerance(K) x
 * sum_k |a_ik b_kj| (cpu_gemm.h: min(K, 4 sqrt K) x 2^-23 of it, tight enough that a dropped k-term
 * fails), and NaN or Inf never passes, so a tile the kernel did not write always shows.  Then C is
 * copied back and compared on the CPU, in double, with the same bound: every element up to
 * GEMM_FULL_CHECK_MACS multiply-adds, beyond that the corners and GEMM_SAMPLE elements.  The GPU
 * reference itself is checked once per set of inputs against the CPU's, bit for bit (both add
 * the same exact products in the same order), on the corners and GEMM_SAMPLE elements.
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

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the size: --mnk, --m, --n, --k (plain C) ------------------------------------------------ */

/* Per dimension: a product of two dimensions stays below 2^31 (the kernels index with int), and
 * a grid of one block per row or column stays below gridDim.y's 65535. */
#define GEMM_DIM_MAX 16384
#define GEMM_SIZE_NOPTS 4

typedef struct {
    int mnk, m, n, k;                      /* as given; 0 = not given */
    lesson_opt_t opts[GEMM_SIZE_NOPTS];    /* --mnk --m --n --k, each writing its field above */
} gemm_size_args_t;

/* Fills s->opts for args_parse_or_exit(..., s->opts, GEMM_SIZE_NOPTS).  They point into *s, so s
 * must not be copied or go out of scope while they are used (args_reject prints them again). */
void gemm_size_args_init(gemm_size_args_t *s);

/* M, N, K: --m, --n, --k where given, otherwise --mnk, otherwise 4096 (1024 with --quick). */
void gemm_size_resolve(const gemm_size_args_t *s, int quick, int *M, int *N, int *K);

/* ---- how much of C the CPU compares (plain C) ------------------------------------------------- */

/* The GPU compares every element at every size (above).  The CPU compares every element of products
 * up to GEMM_FULL_CHECK_MACS multiply-adds, of larger ones the four corners and GEMM_SAMPLE
 * elements (its double-precision reference would take seconds to minutes). */
#define GEMM_FULL_CHECK_MACS ((double)(1 << 28))
#define GEMM_SAMPLE 4096

/* verify_gemm_f32's `sample` for this product: 0 (every element) or GEMM_SAMPLE. */
size_t gemm_sample(int M, int N, int K);
/* How many elements a check compares (the n of verify_describe's "k of n differ"): M x N, all of
 * them (on the GPU). */
size_t gemm_checked_elems(int M, int N, int K);

/* ---- the FP32 peak ------------------------------------------------------------------------------ */

/* FP32 lanes (FMA units) per SM by compute capability: Volta, Turing and the A100 (8.0) have 64;
 * GA10x/AD10x (8.6, 8.7, 8.9), Hopper (9.0) and Blackwell (10.x, 12.x) have 128.  Plain C. */
int gemm_fp32_lanes_per_sm(int major, int minor);

/* SMs x lanes x 2 flops per FMA x the clock cudaDevAttrClockRate reports (the boost clock), in
 * GFLOP/s; prints how it was computed (report_say: silent under --csv). */
double gemm_fp32_peak_say(const gpu_info_t *g);

/* ---- the matrices on the GPU and the verification (CUDA, gemm_problem.cu) ---------------------- */

struct __half;   /* cuda_fp16.h's half, declared for C */

typedef struct {
    int M, N, K;
    uint64_t seed;                   /* A is rng stream seed, B stream seed + 1; also picks the sample */
    float *dA, *dB, *dC;             /* on the GPU: `offset` floats past what gpu_alloc returned */
    float *hA, *hB, *hC;             /* on the host: A and B for the reference, C as the last check read it */
    struct __half *dA16, *dB16;      /* A and B as half, after gemm_problem_round_to_half (else NULL) */
    double *dRef, *dAbs;             /* the GPU reference: each element of C in double, sum_k |a_ik b_kj| */
    int ref_ready;                   /* dRef, dAbs hold the reference of the current A and B */
    unsigned long long *dRes;        /* the comparison's mismatches and first index, on the GPU */
    int offset;
    float *baseA, *baseB, *baseC;    /* what gpu_alloc returned, for gemm_problem_free */
    struct __half *baseA16, *baseB16;
} gemm_problem_t;

/* GPU memory a product of this size takes: A, B, C (floats), the reference (two doubles per element
 * of C), and with `half` the half copies of A and B (gemm_problem_round_to_half). */
size_t gemm_problem_bytes(int M, int N, int K, int offset, int half);

/* Allocates A, B, C and the reference on the GPU and A, B, C on the host, fills A and B with random
 * values on the GPU and copies them to the host once.  offset > 0 places every device matrix that
 * many elements past its allocation: with offset 1 no matrix starts on a 16-byte boundary, so no
 * vector load is aligned.  The reference is computed at the first check. */
void gemm_problem_init(gemm_problem_t *p, int M, int N, int K, int offset, uint64_t seed);
void gemm_problem_free(gemm_problem_t *p);

/* Rounds A and B to the nearest half on the GPU: in place (so the float kernels, cuBLAS's FP32 path
 * and both references see the same values) and into p->dA16, p->dB16 (as far past their
 * allocations as the floats), then refreshes the host copies; the reference is recomputed at the
 * next check.  For the Tensor Core kernels of 08 part 3. */
void gemm_problem_round_to_half(gemm_problem_t *p);

/* How p's product is checked (see the top of this file): run() poisons C, runs launch(ctx,
 * gpu_stream()) once, compares all of C with the GPU reference, copies C to p->hC and compares it
 * with the CPU reference; it returns the elements outside the bound, *n = M x N, *width = N.
 * p must outlive the check_t. */
check_t gemm_check_of(gemm_problem_t *p);

/* c = gemm_check_of(p), then c.run (old call shape, kept for lesson 02): fills *m, returns the
 * elements outside the bound. */
size_t gemm_problem_verify(gemm_problem_t *p, launch_fn_t launch, void *ctx, mismatch_t *m);

/* The two lines that say how an M x N x K product is verified (report_say: silent under --csv). */
void gemm_say_verification(int M, int N, int K);

/* One ratio column of gemm_say_rates: its title and width, the decimals, and what it shows of a
 * kernel's GFLOP/s gf: scale x gf / base, or "-" where base <= 0 (its reference failed). */
typedef struct {
    const char *title;
    int width, decimals;
    double base, scale;
} gemm_rate_col_t;

/* The short table an SGEMM program prints after its measured one (report_say: silent under --csv):
 * a header, then per kernel its label, GFLOP/s and the two ratio columns, or "FAILED verification". */
void gemm_say_rates(const char *const labels[], const int ok[], const double gf[], int n,
                    const gemm_rate_col_t cols[2]);

/* ---- an SGEMM program: the launch context, and its whole main ---------------------------------- */

struct cublasContext;   /* cublas_v2.h's cublasHandle_t is a struct cublasContext * */

/* THE launch context of every SGEMM kernel and library call (07 part 2, 08 parts 2 and 3): the
 * product, the block of a kernel whose block shape is free (07's sgemm_naive; 0 elsewhere) and,
 * for the cuBLAS rows, the handle (NULL elsewhere). */
typedef struct {
    const gemm_problem_t *p;
    int bx, by;
    struct cublasContext *cublas;
} gemm_ctx_t;

/* --check's shapes: M x N x K, `offset` elements past the allocation (gemm_problem_init; 1 = rows
 * not 16-byte aligned), `big`: left out with --quick. */
typedef struct {
    int M, N, K;
    int offset;
    int big;
} gemm_case_t;

/* What a program checks on one shape: check_line(&gemm_check_of(p), ...) for each of its kernels,
 * counted in *t.  user: what the program's open() made (NULL without one). */
typedef void (*gemm_check_fn_t)(gemm_problem_t *p, const char *size, void *user, check_tally_t *t);

/* The program's experiments after the memory ceilings, at M x N x K; returns 1 if a kernel failed
 * verification.  user as above. */
typedef int (*gemm_experiments_fn_t)(const gpu_info_t *g, const args_t *a, int M, int N, int K, void *user);

/* What one SGEMM program is. */
typedef struct {
    const char *lesson;                 /* report_init's name, e.g. "08_register_tiles" */
    const char *title;                  /* the header's title */
    const char *summary;                /* the --help text */
    const gemm_case_t *cases;           /* --check's shapes */
    int ncases;
    gemm_check_fn_t check;              /* --check on one shape */
    gemm_experiments_fn_t experiments;  /* the run without --check */
    int half;                           /* 1: the program rounds its inputs to half (its memory need) */
    const char *planted_on;             /* --check also plants faults on this kernel's output (its
                                           table label; NULL: none), launched by planted_launch on a
                                           gemm_ctx_t that holds only the product */
    launch_fn_t planted_launch;
    void *(*open)(void);                /* after gpu_init: what check and experiments get as user (the
                                           cuBLAS handle: cublas_check.h's cublas_gemm_open); or NULL */
    void (*close)(void *user);          /* before the end: undoes open */
} gemm_program_t;

/* The whole main of an SGEMM program, `return gemm_program_main(&PROGRAM, argc, argv);`:
 *   1. the program takes no --size and no --block (its kernels fix their blocks; --mnk/--m/--n/--k
 *      size the product), so both are unknown options; parses (usage and exit 0 on --help, exit 2
 *      on an error); M, N, K; report_init; gpu_init; the header; gpu_require_bytes for the most GPU
 *      memory the run holds at once (the largest --check shape, or the M x N x K product and the
 *      ceilings' buffers), before anything runs; user = open().
 *   2. --check: for each case (the big ones left out with --quick) fresh random inputs from seed
 *      a->seed + 2 x the case's index, the size text "M=.. N=.. K=..[, unaligned rows][, CPU on a
 *      sample]", check(p, size, user, t).  Then, when planted_on is set, the planted faults, each
 *      line PASSing when the check CATCHES the fault: planted_launch's kernel with one 64x64 tile of
 *      C left unwritten, and with the last k-term taken out of every element of C (what a k loop
 *      that stops one short leaves), at small odd shapes and at 4096^3 (left out with --quick).
 *      Then "OK: n of n checks passed" or "FAILED: ...".
 *      Otherwise: the memory ceilings (table "sgemm_ceiling": cudaMemcpy D2D on buffers too large
 *      for the L2, context only, the product being compute-bound), then experiments(...).
 *   3. close(user), gpu_finish; returns EXIT_OK or EXIT_VERIFY (after an experiment whose kernel
 *      failed verification, with gpu_finish_status's line). */
int gemm_program_main(const gemm_program_t *prog, int argc, char **argv);

#ifdef __cplusplus
}
#endif
#endif
