/* The copies and transposes of lessons 02 and 04 to 08: a random matrix with its references, a
 * kernel as a table row, verified then timed (trow_measure), the --check sweep over odd shapes,
 * and the measuring setup of one timed size (bytes, L2 flush, the cudaMemcpy ceiling).
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

/* What a kernel's output is compared with (trow_t.reference), and, as a bit set, which of these
 * references a matrix keeps (tmatrix_init's and tbench_init's `keep`). */
#define TMATRIX_COPY 1        /* the input itself, ny rows of nx */
#define TMATRIX_TRANSPOSE 2   /* its transpose, nx rows of ny    */

typedef struct {
    int nx, ny;           /* the input has ny rows of nx floats, the transpose nx rows of ny floats   */
    size_t n;             /* nx * ny                                                                  */
    float *d_in, *d_out;  /* device, guarded (bench.h's guarded_alloc); d_in = rng_float(seed, i)      */
    guarded_t g_in, g_out;
    float *h_in;          /* host copy of the input (for copies), or NULL                              */
    float *want;          /* host: the CPU transpose of the input, or NULL                             */
} tmatrix_t;

/* Allocates and fills everything (exits 5 with a clear message when device or host memory runs
 * out).  keep: the references the rows measured on it need, TMATRIX_COPY (the input), TMATRIX_TRANSPOSE
 * or both (TMATRIX_COPY | TMATRIX_TRANSPOSE); the CPU transpose, a strided pass over the whole
 * matrix, only when it is kept. */
void tmatrix_init(tmatrix_t *m, int nx, int ny, uint64_t seed, int keep);
void tmatrix_free(tmatrix_t *m);

/* GPU memory tmatrix_init takes for an nx x ny matrix: input and output with their guards. */
size_t tmatrix_bytes(int nx, int ny);

/* The matrix the transpose lessons and their exercise checkers time: --size (its --help line), or by
 * default 8192 x 8192, 2048 x 2048 with --quick (matrix_size_or_exit). */
#define TMATRIX_SIZE_HELP \
    "matrix NXxNY = NX columns x NY rows, or N for N x N (default 8192x8192; 2048x2048 with --quick)"
/* With rows_per_block > 0, for kernels whose grids put one block per rows_per_block rows on gridDim.y
 * (at most 65535 blocks): more rows than 65535 x rows_per_block exit 2 quoting --size as typed; so do
 * more columns than INT_MAX - 1024 (the kernels index columns with int).  0: no row limit. */
void tmatrix_size_or_exit(const args_t *a, int rows_per_block, int *nx, int *ny);

/* The shapes (nx, ny) a transpose --check covers by default: 1x1, one column (1x4099), one row
 * (4099x1), just past one 32x32 tile (33x31), nothing a multiple of anything (1000x777) and,
 * unless quick, the large odd 8191x4097. */
#define TMATRIX_N_CHECK_SHAPES 6
extern const int TMATRIX_CHECK_SHAPES[TMATRIX_N_CHECK_SHAPES][2];

/* ---- a measuring run at one size ------------------------------------------------------------ */

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

#ifdef __CUDACC__
/* ---- a kernel as a table row ------------------------------------------------------------------ */

/* A kernel as a table row: its label (the table, the CSV, the --check line and the NVTX range
 * `make profile` names it by), its launcher and what its output is compared with.  The launcher is
 * the lesson's launch_<kernel> (its kernels file): it enqueues the kernel on stream s over the
 * ny x nx matrix `in`; kernels whose block shape is fixed ignore `block`. */
typedef struct {
    const char *label;
    void (*launch)(float *out, const float *in, int nx, int ny, dim3 block, cudaStream_t s);
    int reference;   /* TMATRIX_COPY or TMATRIX_TRANSPOSE */
} trow_t;

/* Verify, then time: the output is poisoned, r runs once with `block`, and every element is
 * compared with the reference (and the guards around both matrices checked); a kernel that differs
 * gets report_failed's line and row, and no timing (returns 0).  One that matches is timed in
 * bench.h's loop (returns 1, *t). */
int trow_time(const tbench_t *b, const trow_t *r, dim3 block, timing_t *t);

/* trow_time, then the kernel's table row (report_row) with `extra` in the extra column. */
int trow_measure(const tbench_t *b, const trow_t *r, dim3 block, double extra, timing_t *t);

/* One --check line of r on m with `block` (check_report): PASS, or FAIL with what differs or which
 * guard was written.  Returns 1 for a failure. */
int trow_check(const tmatrix_t *m, const trow_t *r, dim3 block, const char *size, check_tally_t *t);

/* --check: for each of the first nshapes shapes (the last `big` of them left out with --quick), a
 * fresh random matrix, and on it every row with every block of `blocks` (only --block when given):
 * one line each (trow_check), with note's words after the size: what else names the launch (e.g.
 * " grid 8x8"; note may be NULL). */
void tcheck_sweep(const trow_t *rs, int nr, const int (*shapes)[2], int nshapes, int big, const dim3 *blocks,
                  int nblocks, void (*note)(int nx, int ny, dim3 block, char *buf, size_t len), const args_t *a,
                  check_tally_t *t);

#endif

#ifdef __cplusplus
}
#endif
#endif
