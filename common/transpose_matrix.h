/* A matrix to test transpose kernels on: random input on the GPU, the expected transpose computed
 * on the CPU (cpu_transpose_f32), an output buffer, and a page-locked host buffer the GPU's result
 * is copied into for comparison (checked_bench.h: verify_launch_f32, verify_then_time).
 * Used by the copies and transposes of lessons 04 to 08 and their exercise checkers. */
#ifndef TRANSPOSE_MATRIX_H
#define TRANSPOSE_MATRIX_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "gpu.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int nx, ny;           /* the input has ny rows of nx floats, the transpose nx rows of ny floats */
    size_t n;             /* nx * ny                                                            */
    float *d_in, *d_out;  /* device, from cudaMalloc (so 256-byte aligned); d_in = rng_float(seed, i) */
    float *h_in;          /* host copy of the input, or NULL (see keep_input)                       */
    float *want;          /* host: cpu_transpose_f32 of the input                                   */
    float *got;           /* host, page-locked: room for the GPU's n output floats                  */
} tmatrix_t;

/* Allocates and fills everything; keep_input keeps the host copy of the input in h_in (for
 * kernels checked against the input itself, such as copies).  Exits 4 with a clear message when
 * device or host memory runs out. */
void tmatrix_init(tmatrix_t *m, int nx, int ny, uint64_t seed, int keep_input);
void tmatrix_free(tmatrix_t *m);

/* keep_input, by name: TMATRIX_KEEP_INPUT (1) keeps h_in next to want; TMATRIX_INPUT_ONLY keeps
 * h_in only (want = NULL), for programs that check nothing but copies (lesson 04): the CPU
 * transpose, a strided pass over the whole matrix, is skipped. */
#define TMATRIX_KEEP_INPUT 1
#define TMATRIX_INPUT_ONLY 2

/* What a kernel's output is compared with (the `transposed` argument below): TMATRIX_TRANSPOSE, the
 * transpose `want` (nx rows of ny); TMATRIX_COPY, the input itself `h_in` (ny rows of nx). */
#define TMATRIX_COPY 0
#define TMATRIX_TRANSPOSE 1

/* One line of a --check sweep: verify_launch_f32 (poisoned output, one launch, exact compare) of
 * launch(ctx) against the transpose or the input, then verify_print on f -- PASS, or FAIL naming
 * the first mismatch by [row, col] of the matrix the kernel wrote.  f = NULL prints nothing (an
 * exercise checker in --csv mode).  Returns 1 when the output differs, 0 when it matches. */
int tmatrix_check(const tmatrix_t *m, int transposed, const char *label, const char *size, launch_fn_t launch,
                  void *ctx, FILE *f);

/* The shapes (nx, ny) every transpose --check covers: 1x1, one column (1x4099), one row (4099x1),
 * just past one 32x32 tile (33x31), nothing a multiple of anything (1000x777) and, unless quick,
 * the large odd 8191x4097.  Returns how many of TMATRIX_CHECK_SHAPES to use. */
#define TMATRIX_N_CHECK_SHAPES 6
extern const int TMATRIX_CHECK_SHAPES[TMATRIX_N_CHECK_SHAPES][2];
int tmatrix_check_count(int quick);

/* ---- measuring at one size (lessons 04-06 and their exercise checkers) ---------------------- */

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

/* tmatrix_init(&b->m, nx, ny, a->seed, keep_input), then times cudaMemcpy D2D of the matrix and
 * sets it, with g->peak_gbs, as the report's ceilings (report_set_ceilings).  Prints nothing but
 * the ceiling rows of --csv. */
void tbench_init(tbench_t *b, const gpu_info_t *g, const args_t *a, int nx, int ny, int keep_input);
void tbench_free(tbench_t *b);

/* verify_then_time against the transpose or the input (as tmatrix_check): 1 and *t when the
 * output matched, otherwise 0 and the mismatch on stderr, untimed. */
int tbench_verify_then_time(const tbench_t *b, int transposed, const char *label, launch_fn_t launch, void *ctx,
                            timing_t *t);

#ifdef __cplusplus
}
#endif
#endif
