/* The matrix shape of the transpose lessons (04-06), from --size.  Plain C99. */
#ifndef MATRIX_ARGS_H
#define MATRIX_ARGS_H

#include "args.h"

#ifdef __cplusplus
extern "C" {
#endif

/* --size NXxNY is a matrix of NX columns and NY rows; one number N means N x N; no --size means
 * def_nx x def_ny.  Returns 0, or -1 (nothing set) when N x N would exceed ARGS_MAX_ELEMS, the
 * element count the kernels' int indices allow (args_parse already checks NXxNY). */
int matrix_size_from_args(const args_t *a, int def_nx, int def_ny, int *nx, int *ny);

/* matrix_size_from_args, rejecting a too-large N x N with args_reject (exit 2, naming the value). */
void matrix_size_or_exit(const args_t *a, int def_nx, int def_ny, int *nx, int *ny);

#ifdef __cplusplus
}
#endif
#endif
