/* A matrix to test transpose kernels on: random input on the GPU, the expected transpose computed
 * on the CPU (cpu_transpose_f32), an output buffer, and a page-locked host buffer the GPU's result
 * is copied into for comparison (checked_bench.h: verify_launch_f32, verify_then_time).
 * Used by the tiled transposes of lessons 07 and 08 and their exercise checkers. */
#ifndef TRANSPOSE_MATRIX_H
#define TRANSPOSE_MATRIX_H

#include <stddef.h>
#include <stdint.h>

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

/* The shapes (nx, ny) every transpose --check covers: 1x1, one column (1x4099), one row (4099x1),
 * just past one 32x32 tile (33x31), nothing a multiple of anything (1000x777) and, unless quick,
 * the large odd 8191x4097.  Returns how many of TMATRIX_CHECK_SHAPES to use. */
#define TMATRIX_N_CHECK_SHAPES 6
extern const int TMATRIX_CHECK_SHAPES[TMATRIX_N_CHECK_SHAPES][2];
int tmatrix_check_count(int quick);

#ifdef __cplusplus
}
#endif
#endif
