/* A matrix to test transpose kernels on (see transpose_matrix.h). */
#include "transpose_matrix.h"
#include "checked_bench.h"
#include "cuda_check.h"
#include "exitcodes.h"
#include "gpu.h"
#include "report.h"
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
    m->want = keep_input == TMATRIX_INPUT_ONLY ? NULL
                                               : (float *)host_alloc(m->n * sizeof(float), "the expected transpose");
    m->got = host_alloc_pinned_f32(m->n, "the GPU's result (host copy)");
    CHECK(cudaMemcpy(h_in, m->d_in, m->n * sizeof(float), cudaMemcpyDeviceToHost));
    if (m->want) cpu_transpose_f32(h_in, m->want, nx, ny);
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

/* The reference of a kernel that transposes or copies m, and the width of the matrix it writes. */
static const float *reference(const tmatrix_t *m, int transposed, size_t *width)
{
    const float *ref = transposed ? m->want : m->h_in;
    if (!ref) {
        fprintf(stderr, "tmatrix: no %s kept to compare with (see keep_input of tmatrix_init)\n",
                transposed ? "transpose" : "input");
        exit(EXIT_CUDA);
    }
    *width = (size_t)(transposed ? m->ny : m->nx);
    return ref;
}

int tmatrix_check(const tmatrix_t *m, int transposed, const char *label, const char *size, launch_fn_t launch,
                  void *ctx, FILE *f)
{
    mismatch_t mm;
    size_t width;
    const float *ref = reference(m, transposed, &width);
    verify_launch_f32(launch, ctx, m->d_out, ref, m->got, m->n, &mm);
    return f ? verify_print(f, label, size, &mm, m->n, width) : mm.count != 0;
}

void tbench_init(tbench_t *b, const gpu_info_t *g, const args_t *a, int nx, int ny, int keep_input)
{
    tmatrix_init(&b->m, nx, ny, a->seed, keep_input);
    b->a = a;
    b->bytes = 2.0 * (double)(b->m.n * sizeof(float));
    b->flush = gpu_flush_wanted(g, a, 2 * b->m.n * sizeof(float));
    b->d2d_gbs = gpu_d2d_gbs(b->m.d_out, b->m.d_in, b->m.n * sizeof(float), a, b->flush, &b->t_d2d);
    report_set_ceilings(b->d2d_gbs, g->peak_gbs);
}

void tbench_free(tbench_t *b) { tmatrix_free(&b->m); }

int tbench_verify_then_time(const tbench_t *b, int transposed, const char *label, launch_fn_t launch, void *ctx,
                            timing_t *t)
{
    size_t width;
    const float *ref = reference(&b->m, transposed, &width);
    return verify_then_time(label, launch, ctx, b->m.d_out, ref, b->m.got, b->m.n, width, b->a, b->flush, t);
}
