/* The copies and transposes of lessons 02 and 04 to 08 (see transpose_matrix.h). */
#include "transpose_matrix.h"
#include "cuda_check.h"
#include "report.h"
#include "verify.h"
#include "tests/internal.h"

#include <math.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

const int TMATRIX_CHECK_SHAPES[TMATRIX_N_CHECK_SHAPES][2] = {
    {1, 1}, {1, 4099}, {4099, 1}, {33, 31}, {1000, 777}, {8191, 4097}};

void tmatrix_init(tmatrix_t *m, int nx, int ny, uint64_t seed, int keep)
{
    float *h_in;
    m->nx = nx;
    m->ny = ny;
    m->n = (size_t)nx * (size_t)ny;
    m->d_in = (float *)guarded_alloc(&m->g_in, m->n * sizeof(float), "in");
    m->d_out = (float *)guarded_alloc(&m->g_out, m->n * sizeof(float), "out");
    gpu_fill_random_f32(m->d_in, m->n, seed);
    /* The CPU reference starts from the very floats the GPU holds. */
    h_in = (float *)host_alloc(m->n * sizeof(float), "the host copy of the input");
    m->want = keep & TMATRIX_TRANSPOSE ? (float *)host_alloc(m->n * sizeof(float), "the expected transpose")
                                       : NULL;
    CHECK(cudaMemcpy(h_in, m->d_in, m->n * sizeof(float), cudaMemcpyDeviceToHost));
    if (m->want) cpu_transpose_f32(h_in, m->want, nx, ny);
    if (keep & TMATRIX_COPY) {
        m->h_in = h_in;
    } else {
        free(h_in);
        m->h_in = NULL;
    }
}

void tmatrix_free(tmatrix_t *m)
{
    guarded_free(&m->g_in);
    guarded_free(&m->g_out);
    free(m->want);
    free(m->h_in);
    m->d_in = m->d_out = m->want = m->h_in = NULL;
}

size_t tmatrix_bytes(int nx, int ny)
{
    size_t bytes = (size_t)nx * (size_t)ny * sizeof(float);
    return 2 * (bytes + 2 * guarded_guard_bytes(bytes));
}

void tmatrix_size_or_exit(const args_t *a, int rows_per_block, int *nx, int *ny)
{
    const int def = a->quick ? 2048 : 8192;
    const long max_rows = 65535L * rows_per_block, max_cols = INT_MAX - 1024L;
    matrix_size_or_exit(a, def, def, nx, ny);
    if (rows_per_block > 0 && *ny > max_rows)
        args_reject("bad --size '%s': at most %ld rows (the kernels' grids put a block per %d row%s on the grid's y "
                    "dimension, at most 65535)", args_raw_value(0, NULL, "--size"), max_rows, rows_per_block,
                    rows_per_block == 1 ? "" : "s");
    if (*nx > max_cols)
        args_reject("bad --size '%s': at most %ld columns", args_raw_value(0, NULL, "--size"), max_cols);
}

void tbench_init(tbench_t *b, const gpu_info_t *g, const args_t *a, int nx, int ny, int keep)
{
    size_t bytes = (size_t)nx * (size_t)ny * sizeof(float);
    gpu_require_bytes(tmatrix_bytes(nx, ny), "the input and output matrices");
    tmatrix_init(&b->m, nx, ny, a->seed, keep);
    b->a = a;
    b->bytes = 2.0 * (double)bytes;
    b->flush = gpu_flush_wanted(g, a, 2 * bytes);
    b->d2d_gbs = gpu_d2d_gbs(b->m.d_out, b->m.d_in, bytes, a, b->flush, &b->t_d2d);
}

void tbench_free(tbench_t *b) { tmatrix_free(&b->m); }

/* ---- a kernel as a table row ------------------------------------------------------------------ */

/* What r's output must equal, and the width that names a mismatch by row and column. */
static const float *reference_of(const tmatrix_t *m, const trow_t *r, size_t *width)
{
    const float *ref = r->reference == TMATRIX_TRANSPOSE ? m->want : m->h_in;
    if (!ref) {
        fprintf(stderr, "%s: no %s kept to compare with (see tmatrix_init's keep)\n", r->label,
                r->reference == TMATRIX_TRANSPOSE ? "transpose" : "input");
        exit(EXIT_CUDA);
    }
    *width = (size_t)(r->reference == TMATRIX_TRANSPOSE ? m->ny : m->nx);   /* a transpose has ny columns */
    return ref;
}

/* Poison the output, run r once, compare every element; the number that differ, in *mm. */
static size_t verify(const tmatrix_t *m, const trow_t *r, dim3 block, mismatch_t *mm, size_t *width)
{
    const float *want = reference_of(m, r, width);
    gpu_poison(m->d_out, m->n * sizeof(float));
    r->launch(m->d_out, m->d_in, m->nx, m->ny, block, gpu_stream());
    CHECK_LAST();
    return gpu_compare_f32(m->d_out, want, m->n, mm);
}

int trow_time(const tbench_t *b, const trow_t *r, dim3 block, timing_t *t)
{
    const tmatrix_t *m = &b->m;
    cudaStream_t s = gpu_stream();
    mismatch_t mm;
    size_t width;
    bench_t bt;

    /* 1. verify: correct first, or no figures at all */
    verify(m, r, block, &mm, &width);
    {
        const guarded_t bufs[2] = {m->g_in, m->g_out};
        if (row_failed(r->label, &mm, m->n, width, bufs, 2)) return 0;
    }
    /* 2. time: the same launch, in bench.h's loop */
    for (bench_start(&bt, r->label, b->a, b->flush); bench_next(&bt);)
        r->launch(m->d_out, m->d_in, m->nx, m->ny, block, s);
    *t = bt.t;
    return 1;
}

int trow_measure(const tbench_t *b, const trow_t *r, dim3 block, double extra, timing_t *t)
{
    if (!trow_time(b, r, block, t)) return 0;
    report_row(r->label, t, b->bytes, extra);
    return 1;
}

int trow_check(const tmatrix_t *m, const trow_t *r, dim3 block, const char *size, check_tally_t *t)
{
    const guarded_t bufs[2] = {m->g_in, m->g_out};
    mismatch_t mm;
    size_t width;
    verify(m, r, block, &mm, &width);
    return check_report(t, r->label, size, &mm, m->n, width, bufs, 2);
}

/* The references rows rs[0..n) are checked against (tmatrix_init's keep). */
static int keep_of(const trow_t *rs, int n)
{
    int k, keep = 0;
    for (k = 0; k < n; k++) keep |= rs[k].reference;
    return keep;
}

void tcheck_sweep(const trow_t *rs, int nr, const int (*shapes)[2], int nshapes, int big, const dim3 *blocks,
                  int nblocks, void (*note)(int nx, int ny, dim3 block, char *buf, size_t len), const args_t *a,
                  check_tally_t *t)
{
    int s, b, k, keep = keep_of(rs, nr);
    size_t len;
    char size[160];
    if (a->quick) nshapes -= big;
    for (s = 0; s < nshapes; s++) {
        tmatrix_t m;
        tmatrix_init(&m, shapes[s][0], shapes[s][1], a->seed, keep);
        for (b = 0; b < (a->bx ? 1 : nblocks); b++) {
            dim3 block = a->bx ? dim3(a->bx, a->by) : blocks[b];
            if (nblocks > 1 || a->bx)
                snprintf(size, sizeof size, "%dx%d block %ux%u", m.nx, m.ny, block.x, block.y);
            else
                snprintf(size, sizeof size, "%dx%d", m.nx, m.ny);
            len = strlen(size);
            if (note) note(m.nx, m.ny, block, size + len, sizeof size - len);
            for (k = 0; k < nr; k++) trow_check(&m, &rs[k], block, size, t);
        }
        tmatrix_free(&m);
    }
}
