/* What common/'s library defines for its own use and its unit tests, but no lesson calls: the
 * pieces behind the public helpers (the parser's steps, the statistics, the PASS/FAIL lines, the
 * CPU transpose, the table's bar).  Not part of the course's API (common/README.md lists that);
 * the library's own files include this header so that each definition is checked against it. */
#ifndef COMMON_INTERNAL_H
#define COMMON_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "../args.h"
#include "../gpu.h"
#include "../stats.h"
#include "../verify.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the exit codes of every program and checker (the table of common/README.md); the library
 * alone exits, so no lesson names them ---- */
#define EXIT_OK        0  /* everything ran and verified                       */
#define EXIT_VERIFY    1  /* a kernel produced a wrong result                  */
#define EXIT_USAGE     2  /* bad command-line arguments                        */
#define EXIT_NO_GPU    3  /* no usable GPU, no driver, driver too old, wrong ARCH */
#define EXIT_CUDA      4  /* any other CUDA error                              */
#define EXIT_NO_MEMORY 5  /* the run needs more GPU or host memory than is free */
#define EXIT_SHORT     6  /* an exercise checker: the kernel is correct but short of the goal */

/* ---- verify.c ---- */
/* Byte written by cudaMemset over outputs before every kernel (gpu_poison, the guard zones): 0xFFFFFFFF
 * is a NaN as a float (and as a double), so an element the kernel forgot to write can never pass a
 * comparison. */
#define POISON_BYTE 0xFF

/* Compares n floats.  With tol_abs = tol_rel = 0 the values must be equal; otherwise
 * |got - expected| <= tol_abs + tol_rel * |expected|.  A NaN never matches.
 * Fills *m and returns the number of differing elements (gpu_compare_f32 calls it). */
size_t verify_f32(const float *expected, const float *got, size_t n,
                  double tol_abs, double tol_rel, mismatch_t *m);

/* ---- args.c ---- */
/* One dimension of --size fits an int (the kernels' row and column indices); the element count
 * (NX*NY, or one number N) is bounded only by 2^40 here, since the real bound is the GPU's memory,
 * which each program checks after gpu_init. */
#define ARGS_MAX_DIM    2147483647LL
#define ARGS_MAX_ELEMS  (1LL << 40)
#define ARGS_MAX_REPS   100000
#define ARGS_MAX_WARMUP 10000

/* args_t.flush: neither --flush nor --no-flush, --no-flush, --flush (gpu_flush_wanted decides) */
enum { FLUSH_AUTO = -1, FLUSH_OFF = 0, FLUSH_ON = 1 };

enum { ARGS_OK = 0, ARGS_HELP = 1, ARGS_ERROR = -1 };

/* The steps of args_configure, each on its own (the tests set them one by one).
 * args_default_reps: --reps when none is given (20 until set).
 * args_without: takes one shared option out (args_configure's `without`); NULL brings every shared
 * option back and both forms of --size.
 * args_size_forms: ARGS_SIZE_N, ARGS_SIZE_NXNY or both (the default); 0 is args_without("--size"). */
enum { ARGS_SIZE_N = 1, ARGS_SIZE_NXNY = 2 };
void args_default_reps(int reps);
void args_without(const char *opt);
void args_size_forms(int forms);
/* 1 when --dry-run was given to the last args_parse (or args_parse_or_exit): the arguments and the
 * program's own checks of them are all that runs (gpu_init exits 0 before the first CUDA call). */
int args_dry_run(void);
void args_defaults(args_t *a);

/* Parses argv into *a and the lesson options.  Returns ARGS_OK, ARGS_HELP (--help or -h anywhere)
 * or ARGS_ERROR; on error writes a one-line reason quoting the bad argument as typed into err.
 * The shared options are those args_configure (args_without, args_size_forms) left. */
int args_parse(int argc, char **argv, args_t *a,
               const lesson_opt_t *opts, int nopts, char *err, size_t errlen);

/* Parses "4096", "64M", "8191x4097", "2kx3" into nx, ny (ny = 0 for one number).  Suffixes k, M, G
 * multiply by 2^10, 2^20, 2^30.  Each side of NXxNY is at most ARGS_MAX_DIM, the element count at
 * most ARGS_MAX_ELEMS.  Returns 0, or -1 (nothing set). */
int args_parse_size(const char *s, int64_t *nx, int64_t *ny);

/* The --help text.  size_help NULL: the program has no --size (no line for it). */
void args_usage(FILE *f, const char *prog, const char *summary, const char *size_help,
                const lesson_opt_t *opts, int nopts);

/* --size NXxNY is a matrix of NX columns and NY rows; one number N means N x N; no --size means
 * def_nx x def_ny.  Returns 0, or -1 (nothing set) when N x N would exceed ARGS_MAX_ELEMS
 * (args_parse already checks NXxNY). */
int matrix_size_from_args(const args_t *a, int def_nx, int def_ny, int *nx, int *ny);

/* Median (mean of the two middle values for an even count), min and max of n >= 1 samples
 * (batch is set to 1).  The input array is not modified. */
timing_t stats_summary(const float *ms, int n);

/* Theoretical DRAM bandwidth in GB/s: double data rate (2 transfers per clock) x clock x bus width.
 * mem_clock_khz and bus_bits as cudaDevAttrMemoryClockRate / cudaDevAttrGlobalMemoryBusWidth give them. */
double stats_peak_gbs(int mem_clock_khz, int bus_bits);

/* Flush the L2 before each timed launch?  Forced on/off by the user, otherwise only when the data
 * touched is smaller than 4x the L2, where a warm cache would serve part of it. */
int stats_should_flush(int flush_flag, size_t working_set_bytes, size_t l2_bytes);

/* One line of a --check sweep: "  PASS  what  (size)" or "  FAIL  what  (size): description"
 * on stdout.  Returns 1 for a failure, 0 for a pass, so callers can add up failures. */
int verify_print(FILE *f, const char *what, const char *size, const mismatch_t *m,
                 size_t n, size_t width);

/* The last line of a --check sweep, "OK: 12 of 12 checks passed" or "FAILED: 10 of 12 checks
 * passed", on f.  Returns the program's exit code: EXIT_OK, or EXIT_VERIFY when any check failed. */
int verify_summary(FILE *f, int fails, int checks);

/* CPU transpose of a row-major ny x nx matrix (ny rows, nx columns) into nx x ny:
 * out[c * ny + r] = in[r * nx + c].  Correct for any shape. */
void cpu_transpose_f32(const float *in, float *out, int nx, int ny);

/* The text bar: one '#' per 4 % of the copy ceiling, at most 30 characters ('>' marks the cut). */
void report_bar(double pct, char *buf, size_t len);

/* ---- gpu.cu ---- */
/* gpu_start's three steps (report.c's report_init, then gpu.cu's), one by one for the checkers
 * (checker_start) and the tests.  report_init: the lesson's name (first CSV column) and whether --csv
 * was given; when the environment variable LESSON_SUMMARY_FILE names a file, every CSV row
 * (ceilings, kernels, failures) is also appended to it, exactly as --csv prints it, while the
 * terminal gets the tables: the root `make run` builds its summary from it, and `make results` the
 * CSV of the run it shows. */
void report_init(const char *lesson, int csv);
/* The two ceilings every row is compared with: measured cudaMemcpy device-to-device GB/s and the
 * theoretical peak from the device attributes.  Also emitted as two CSV rows.  gpu_d2d_gbs sets
 * them each time it measures the copy. */
void report_set_ceilings(double d2d_gbs, double peak_gbs);
/* Finds the GPU and checks it can run this binary (gpu_start says how it exits when it cannot). */
void gpu_init(gpu_info_t *g);
/* The lesson's header: title, GPU, peak arithmetic, CUDA versions, timing method. */
void gpu_print_header(const gpu_info_t *g, const char *title, const args_t *a);

/* Synchronises, reports any pending error, frees the helpers' own buffers: the end of every run
 * (gpu_finish_status, check_summary, the checkers' verdicts). */
void gpu_finish(void);

/* Evicts everything from the L2 (reads a buffer twice its size), so that the next kernel finds
 * its data in DRAM: bench.h does it before each timed launch when asked to flush. */
void gpu_l2_flush(void);

/* From now on a fault inside a kernel (illegal or misaligned address, ...) ends the program with the
 * verdict `wrong` and exit 1 instead of exit 4: an exercise checker's (checker_start), where the
 * student's kernel is the likely cause. */
void gpu_faults_are_wrong(const char *kernel);

/* ---- bench.cu ---- */
/* The guard on each side of a guarded buffer of `bytes` (bench.h's guarded_alloc). */
size_t guarded_guard_bytes(size_t bytes);
/* host_alloc's page-locked twin (cudaMallocHost; free with cudaFreeHost): gpu_compare_f32's host copy. */
void *host_alloc_pinned(size_t bytes, const char *what);
/* Frees the guard check's and gpu_compare_f32's scratch memory (gpu_finish calls it). */
void bench_free_scratch(void);
/* 1 when this run is an exercise checker's own run under compute-sanitizer (checker.cu sets
 * CHECKER_CHILD_ENV in its environment): no guard zones there, and only the small sizes of the sweep. */
#define CHECKER_CHILD_ENV "COURSE_CHECKER_CHILD"
int checker_child_run(void);

/* ---- cpu_gemm.c ---- */
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

/* ---- gemm_problem.c: the CPU's full-check limit and sample (gemm_sample), and the pieces of
 * gemm_args_or_exit ---- */
#define GEMM_FULL_CHECK_MACS ((double)(1 << 28))
#define GEMM_SAMPLE 4096

/* The GPU compares every element at every size (gemm_problem.h).  The CPU compares every element of
 * products up to GEMM_FULL_CHECK_MACS multiply-adds, of larger ones the four corners and GEMM_SAMPLE
 * elements (its double-precision reference would take seconds to minutes): verify_gemm_f32's
 * `sample` for this product, 0 (every element) or GEMM_SAMPLE (gemm_problem_init sets p->sample). */
size_t gemm_sample(int M, int N, int K);

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

/* FP32 lanes (FMA units) per SM by compute capability: Volta, Turing and the A100 (8.0) have 64;
 * GA10x/AD10x (8.6, 8.7, 8.9), Hopper (9.0) and Blackwell (10.x, 12.x) have 128.  Plain C. */
int gemm_fp32_lanes_per_sm(int major, int minor);

#ifdef __cplusplus
}
#endif
#endif
