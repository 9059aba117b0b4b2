/* Matrix shape from --size (see matrix_args.h). */
#include "matrix_args.h"

int matrix_size_from_args(const args_t *a, int def_nx, int def_ny, int *nx, int *ny)
{
    if (a->nx == 0) {
        *nx = def_nx;
        *ny = def_ny;
        return 0;
    }
    if (a->ny == 0) {
        if (a->nx > ARGS_MAX_ELEMS / a->nx) return -1;
        *nx = *ny = (int)a->nx;
        return 0;
    }
    *nx = (int)a->nx;
    *ny = (int)a->ny;
    return 0;
}

void matrix_size_or_exit(const args_t *a, int def_nx, int def_ny, int *nx, int *ny)
{
    if (matrix_size_from_args(a, def_nx, def_ny, nx, ny))
        args_reject("bad --size '%ld': a square N x N matrix needs N * N <= %ld elements", a->nx, ARGS_MAX_ELEMS);
}
