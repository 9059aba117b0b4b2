/* A matrix to test transpose kernels on (see transpose_matrix.h). */
#include "transpose_matrix.h"
#include "checked_bench.h"
#include "cuda_check.h"
#include "gpu.h"
#include "verify.h"

#include <stdlib.h>

const int TMATRIX_CHECK_SHAPES[TMATRIX_N_CHECK_SHAPES][2] = {
    {1, 1}, {1, 4099}, {4099, 1}, {33, 31}, {1000, 777}, {8191, 4097}};

int tmatrix_check_count(int quick) { return quick ? TMATRIX_N_CHECK_SHAPES - 1 : TMATRIX_N_CHECK_SHAPES; }

void tmatrix_init(tmatrix_t *m, int nx, int ny, uint64_t seed, int keep_input)
{
    float *h_in;
    m->nx = nx;
    m->ny = ny;
    m->n = (size_t)nx * (size_t)ny;
    m->d_in = (float *)gpu_alloc(m->n * sizeof(float), "the input matrix");
    m->d_out = (float *)gpu_alloc(m->n * sizeof(float), "the output matrix");
    gpu_fill_random_f32(m->d_in, m->n, seed);
    /* The CPU reference starts from the very floats the GPU holds. */
    h_in = (float *)host_alloc(m->n * sizeof(float), "the host copy of the input");
    m->want = (float *)host_alloc(m->n * sizeof(float), "the expected transpose");
    m->got = host_alloc_pinned_f32(m->n, "the GPU's result (host copy)");
    CHECK(cudaMemcpy(h_in, m->d_in, m->n * sizeof(float), cudaMemcpyDeviceToHost));
    cpu_transpose_f32(h_in, m->want, nx, ny);
    if (keep_input) {
        m->h_in = h_in;
    } else {
        free(h_in);
        m->h_in = NULL;
    }
}

void tmatrix_free(tmatrix_t *m)
{
    CHECK(cudaFree(m->d_in));
    CHECK(cudaFree(m->d_out));
    CHECK(cudaFreeHost(m->got));
    free(m->want);
    free(m->h_in);
    m->d_in = m->d_out = m->got = m->want = m->h_in = NULL;
}
