/* The runner of the copy and transpose lessons (04 to 08) and their exercise checkers: one launch
 * context, a kernel as a table row, a random matrix with its references, the --check sweep over
 * odd shapes, the measuring setup (bytes, L2 flush, cudaMemcpy ceiling) of one timed size, and the
 * two halves every exercise checker shares (verify the student's kernel, then time it in a table).
 *
 * Layout.  `in` is a row-major matrix of ny rows and nx columns: element (r, c) is in[r * nx + c].
 * A transpose writes `out` as nx rows of ny columns: out[c * ny + r] = in[r * nx + c].  A copy
 * writes out[i] = in[i] and is checked against the input itself. */
#ifndef TRANSPOSE_MATRIX_H
#define TRANSPOSE_MATRIX_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "bench.h"
#include "gpu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The one launch context of every copy and transpose kernel: launch(&ctx, stream) reads these. */
typedef struct {
    float *out;
    const float *in;
    int nx, ny;
    dim3 block;   /* threads per block, for kernels that take any shape (fixed-shape kernels ignore it) */
    dim3 grid;    /* blocks, for the kernels whose grid the caller picks rather than the launch working it
                   * out from nx, ny and block (grid-stride loops: lesson 04's float4 copies); tmatrix_ctx
                   * leaves it 0 x 0 x 0, on which a launch fails (CHECK_LAST says so) */
} tctx_t;

/* What a kernel's output is compared with. */
#define TMATRIX_COPY 0        /* the input itself, ny rows of nx */
#define TMATRIX_TRANSPOSE 1   /* its transpose, nx rows of ny    */

/* A kernel as a table row: the label the tables, --check lines and `make profile` show; the launch
 * (its ctx is a tctx_t); TMATRIX_COPY or TMATRIX_TRANSPOSE. */
typedef struct {
    const char *label;
    launch_fn_t launch;
    int reference;
} tkernel_t;

typedef struct {
    int nx, ny;           /* the input has ny rows of nx floats, the transpose nx rows of ny floats */
    size_t n;             /* nx * ny                                                            */
    float *d_in, *d_out;  /* device, from cudaMalloc (so 256-byte aligned); d_in = rng_float(seed, i) */
    float *h_in;          /* host copy of the input (for copies), or NULL                           */
    float *want;          /* host: cpu_transpose_f32 of the input, or NULL                          */
    float *got;           /* host, page-locked: room for the GPU's n output floats                  */
} tmatrix_t;

/* Which references tmatrix_init keeps (a bit set): the input for copies, the transpose. */
#define TMATRIX_KEEP_INPUT 1
#define TMATRIX_KEEP_TRANSPOSE 2
#define TMATRIX_KEEP_BOTH (TMATRIX_KEEP_INPUT | TMATRIX_KEEP_TRANSPOSE)

/* Allocates and fills everything (exits 5 with a clear message when device or host memory runs
 * out); the CPU transpose, a strided pass over the whole matrix, only when it is kept. */
void tmatrix_init(tmatrix_t *m, int nx, int ny, uint64_t seed, int keep);
void tmatrix_free(tmatrix_t *m);

/* The check of a kernel writing m->d_out against the transpose or the input (check_f32). */
check_t tmatrix_check_of(const tmatrix_t *m, int reference);

/* tctx_t for launches on m with the given block (grid 0 x 0 x 0: unset). */
tctx_t tmatrix_ctx(const tmatrix_t *m, dim3 block);

/* The matrix the transpose lessons and their exercise checkers time: --size (its --help line), or by
 * default 8192 x 8192, 2048 x 2048 with --quick (matrix_size_or_exit). */
#define TMATRIX_SIZE_HELP \
    "matrix NXxNY = NX columns x NY rows, or N for N x N (default 8192x8192; 2048x2048 with --quick)"
void tmatrix_size_or_exit(const args_t *a, int *nx, int *ny);

/* tmatrix_size_or_exit for kernels whose grids put one block per rows_per_block rows on gridDim.y
 * (at most 65535 blocks) and index columns with int: more rows than 65535 x rows_per_block, or more
 * columns than INT_MAX - 1024, exit 2 quoting --size as typed. */
void tmatrix_size_limited_or_exit(int argc, char **argv, const args_t *a, int rows_per_block, int *nx, int *ny);

/* The shapes (nx, ny) a transpose --check covers by default: 1x1, one column (1x4099), one row
 * (4099x1), just past one 32x32 tile (33x31), nothing a multiple of anything (1000x777) and,
 * unless quick, the large odd 8191x4097. */
#define TMATRIX_N_CHECK_SHAPES 6
extern const int TMATRIX_CHECK_SHAPES[TMATRIX_N_CHECK_SHAPES][2];

/* --check: for each of the first nshapes shapes (the last `big` of them left out with --quick), a
 * fresh random matrix, and on it every kernel with every block of `blocks` (only --block when
 * given): one PASS/FAIL line each, counted in *t.  Fixed-shape kernels: nblocks = 1. */
void tcheck_sweep(const tkernel_t *ks, int nk, const int (*shapes)[2], int nshapes, int big, const dim3 *blocks,
                  int nblocks, const args_t *a, check_tally_t *t);

/* The --check of a program whose kernels fix their own blocks (07's and 08's tiles): first the
 * memory the largest matrix needs (gpu_require_bytes), then tcheck_sweep at TMATRIX_CHECK_SHAPES
 * (8191x4097 left out with --quick), at the lesson's own `extra` shapes (NULL, 0: none) and, when
 * --size was given, at nx x ny. */
void tcheck_fixed_blocks(const tkernel_t *ks, int nk, const int (*extra)[2], int nextra, const args_t *a, int nx,
                         int ny, check_tally_t *t);

/* ---- measuring at one size ------------------------------------------------------------------ */

/* A matrix every table row of a run is measured on, with what each row needs: the bytes a copy or
 * transpose must move, whether timed runs flush the L2 first, and the cudaMemcpy D2D of the same
 * bytes -- timed once, the 100% of the report's %D2D column. */
typedef struct {
    tmatrix_t m;
    const args_t *a;
    double bytes;     /* 2 x n x 4: every element read once and written once */
    int flush;        /* gpu_flush_wanted for those bytes                    */
    timing_t t_d2d;   /* cudaMemcpy D2D of the n floats (a table row)        */
    double d2d_gbs;   /* its GB/s                                            */
} tbench_t;

/* Checks that the matrices fit in GPU memory (gpu_require_bytes), tmatrix_init(&b->m, nx, ny,
 * a->seed, keep), then times cudaMemcpy D2D of the matrix and sets it, with g->peak_gbs, as the
 * report's ceilings.  Prints nothing but the ceiling rows of --csv. */
void tbench_init(tbench_t *b, const gpu_info_t *g, const args_t *a, int nx, int ny, int keep);
void tbench_free(tbench_t *b);

/* Verifies k (ctx: a tctx_t on b->m) against its reference, times it and prints its row:
 * measure_row under `label` (k->label when NULL), with `extra` in the table's extra column.
 * Returns 1 and *t when k verified. */
int tbench_row(const tbench_t *b, const tkernel_t *k, const char *label, void *ctx, double extra, timing_t *t);

/* The same without printing: verify_then_time. */
int tbench_measure(const tbench_t *b, const tkernel_t *k, const char *label, void *ctx, timing_t *t);

/* Rows of kernels ks[0..n), all launched with ctx, each compared with an earlier one: verified, timed
 * and printed in turn, row k's extra column the speed of row base[k] as a percentage of its own
 * (100 x t[base[k]] / t[k]; NAN when either failed), base[k] <= k.  ok[k] says whether ks[k]
 * verified, t[k] its timing.  Returns 1 when any row failed verification, else 0. */
int tbench_rows_vs(const tbench_t *b, const tkernel_t *ks, const int *base, int n, void *ctx, int *ok, timing_t *t);

/* ---- exercise checkers (lessons 04 to 08) -------------------------------------------------- */

/* An exercise checker's command line: args_without("--block") unless takes_block (a checker whose
 * kernels fix their blocks), args_parse_or_exit with `summary`, --size the matrix it times
 * (TMATRIX_SIZE_HELP) and no options of its own, then tmatrix_size_or_exit into *nx, *ny. */
void texercise_args(int argc, char **argv, args_t *a, const char *summary, int takes_block, int *nx, int *ny);

/* What else names a launch in a --check line, appended to its size column (e.g. " grid 8x8 (square)"). */
typedef void (*tcheck_note_fn)(const tctx_t *c, char *buf, size_t len);

/* The first half of an exercise checker, after its header: the student's kernel `yours` (ctx: a
 * tctx_t) at each of the first nshapes shapes (the last `big` of them left out with --quick), with
 * each block of `blocks` (--block alone when given), as tcheck_sweep does, its PASS/FAIL lines on
 * stdout (none with --csv) with `note` (may be NULL) after the size; then "OK: N of N checks
 * passed", or on stderr "FAILED: F of N checks failed; fix <fix> in exercise.cu (no timing until it
 * passes)."  Returns -1 when the checker goes on to time its kernels; otherwise, after a failure or
 * with --check, it has called gpu_finish and returns the checker's exit code (EXIT_VERIFY, EXIT_OK). */
int texercise_verify(const tkernel_t *yours, const char *fix, const int (*shapes)[2], int nshapes, int big,
                     const dim3 *blocks, int nblocks, tcheck_note_fn note, const args_t *a);

/* The table's takeaway, from the rows' timings t[] (every row verified), their blocks and b (the
 * matrix, its bytes, the cudaMemcpy ceiling), written into take (len bytes). */
typedef void (*texercise_takeaway_fn)(const tbench_t *b, const dim3 *blocks, const timing_t *t, char *take, size_t len);

/* The second half: tbench_init at nx x ny (keeping the references the rows need), then the table
 * "exercise" under `title`: the cudaMemcpy D2D row, then one row per kernel, ks[k] launched with
 * blocks[k] (the lesson's "given" kernels and the student's, in the order printed), each verified
 * before it is timed (tbench_row); it ends with takeaway's line when every row verified, else with
 * "a kernel failed verification at the full size: no comparison.".  Frees what it allocated and
 * returns the checker's exit code (gpu_finish_status). */
int texercise_time(const gpu_info_t *g, const args_t *a, int nx, int ny, const char *title, const tkernel_t *ks,
                   const dim3 *blocks, int n, texercise_takeaway_fn takeaway);

#ifdef __cplusplus
}
#endif
#endif
