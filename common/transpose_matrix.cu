/* The runner of the copy and transpose lessons (see transpose_matrix.h). */
#include "transpose_matrix.h"
#include "cuda_check.h"
#include "exitcodes.h"
#include "report.h"
#include "verify.h"

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
    m->d_in = (float *)gpu_alloc(m->n * sizeof(float), "the input matrix");
    m->d_out = (float *)gpu_alloc(m->n * sizeof(float), "the output matrix");
    gpu_fill_random_f32(m->d_in, m->n, seed);
    /* The CPU reference starts from the very floats the GPU holds. */
    h_in = (float *)host_alloc(m->n * sizeof(float), "the host copy of the input");
    m->want = keep & TMATRIX_KEEP_TRANSPOSE ? (float *)host_alloc(m->n * sizeof(float), "the expected transpose")
                                            : NULL;
    m->got = (float *)host_alloc_pinned(m->n * sizeof(float), "the GPU's result (host copy)");
    CHECK(cudaMemcpy(h_in, m->d_in, m->n * sizeof(float), cudaMemcpyDeviceToHost));
    if (m->want) cpu_transpose_f32(h_in, m->want, nx, ny);
    if (keep & TMATRIX_KEEP_INPUT) {
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
    gpu_free_host(m->got);
    free(m->want);
    free(m->h_in);
    m->d_in = m->d_out = m->got = m->want = m->h_in = NULL;
}

check_t tmatrix_check_of(const tmatrix_t *m, int reference)
{
    const float *ref = reference == TMATRIX_TRANSPOSE ? m->want : m->h_in;
    if (!ref) {
        fprintf(stderr, "tmatrix: no %s kept to compare with (see tmatrix_init's keep)\n",
                reference == TMATRIX_TRANSPOSE ? "transpose" : "input");
        exit(EXIT_CUDA);
    }
    /* a transpose has ny columns, a copy nx */
    return check_f32(m->d_out, ref, m->got, m->n, (size_t)(reference == TMATRIX_TRANSPOSE ? m->ny : m->nx));
}

tctx_t tmatrix_ctx(const tmatrix_t *m, dim3 block)
{
    tctx_t c;
    c.out = m->d_out;
    c.in = m->d_in;
    c.nx = m->nx;
    c.ny = m->ny;
    c.block = block;
    c.grid = dim3(0, 0, 0);
    return c;
}

void tmatrix_size_or_exit(const args_t *a, int *nx, int *ny)
{
    int def = a->quick ? 2048 : 8192;
    matrix_size_or_exit(a, def, def, nx, ny);
}

void tmatrix_size_limited_or_exit(int argc, char **argv, const args_t *a, int rows_per_block, int *nx, int *ny)
{
    const long max_rows = 65535L * rows_per_block, max_cols = INT_MAX - 1024L;
    tmatrix_size_or_exit(a, nx, ny);
    if (*ny > max_rows)
        args_reject("bad --size '%s': at most %ld rows (the kernels' grids put a block per %d rows on the grid's y "
                    "dimension, at most 65535)", args_raw_value(argc, argv, "--size"), max_rows, rows_per_block);
    if (*nx > max_cols)
        args_reject("bad --size '%s': at most %ld columns", args_raw_value(argc, argv, "--size"), max_cols);
}

/* The references kernels ks[0..n) are checked against (tmatrix_init's keep). */
static int keep_of(const tkernel_t *ks, int n)
{
    int k, keep = 0;
    for (k = 0; k < n; k++) keep |= ks[k].reference == TMATRIX_TRANSPOSE ? TMATRIX_KEEP_TRANSPOSE : TMATRIX_KEEP_INPUT;
    return keep;
}

/* tcheck_sweep, with its lines on f (NULL: none) and note's words after each size. */
static void sweep(const tkernel_t *ks, int nk, const int (*shapes)[2], int nshapes, int big, const dim3 *blocks,
                  int nblocks, const args_t *a, FILE *f, tcheck_note_fn note, check_tally_t *t)
{
    int s, b, k, keep = keep_of(ks, nk);
    size_t len;
    char size[160];
    if (a->quick) nshapes -= big;
    for (s = 0; s < nshapes; s++) {
        tmatrix_t m;
        tmatrix_init(&m, shapes[s][0], shapes[s][1], a->seed, keep);
        for (b = 0; b < (a->bx ? 1 : nblocks); b++) {
            tctx_t c = tmatrix_ctx(&m, a->bx ? dim3(a->bx, a->by) : blocks[b]);
            if (nblocks > 1 || a->bx)
                snprintf(size, sizeof size, "%dx%d block %ux%u", m.nx, m.ny, c.block.x, c.block.y);
            else
                snprintf(size, sizeof size, "%dx%d", m.nx, m.ny);
            len = strlen(size);
            if (note) note(&c, size + len, sizeof size - len);
            for (k = 0; k < nk; k++) {
                check_t chk = tmatrix_check_of(&m, ks[k].reference);
                check_line(&chk, ks[k].label, size, ks[k].launch, &c, f, t);
            }
        }
        tmatrix_free(&m);
    }
}

void tcheck_sweep(const tkernel_t *ks, int nk, const int (*shapes)[2], int nshapes, int big, const dim3 *blocks,
                  int nblocks, const args_t *a, check_tally_t *t)
{
    sweep(ks, nk, shapes, nshapes, big, blocks, nblocks, a, stdout, NULL, t);
}

void tcheck_fixed_blocks(const tkernel_t *ks, int nk, const int (*extra)[2], int nextra, const args_t *a, int nx,
                         int ny, check_tally_t *t)
{
    const int big = TMATRIX_N_CHECK_SHAPES - 1, mine[1][2] = {{nx, ny}};
    const dim3 fixed(1);  /* ignored: every launcher fixes its own block */
    size_t most = (size_t)TMATRIX_CHECK_SHAPES[big][0] * TMATRIX_CHECK_SHAPES[big][1];  /* 8191x4097 */
    if (a->nx && (size_t)nx * ny > most) most = (size_t)nx * ny;
    gpu_require_bytes(2 * most * sizeof(float), "the largest input and output matrices --check uses");
    tcheck_sweep(ks, nk, TMATRIX_CHECK_SHAPES, TMATRIX_N_CHECK_SHAPES, 1, &fixed, 1, a, t);
    if (nextra) tcheck_sweep(ks, nk, extra, nextra, 0, &fixed, 1, a, t);
    if (a->nx) tcheck_sweep(ks, nk, mine, 1, 0, &fixed, 1, a, t);
}

void tbench_init(tbench_t *b, const gpu_info_t *g, const args_t *a, int nx, int ny, int keep)
{
    size_t bytes = (size_t)nx * (size_t)ny * sizeof(float);
    gpu_require_bytes(2 * bytes, "the input and output matrices");
    tmatrix_init(&b->m, nx, ny, a->seed, keep);
    b->a = a;
    b->bytes = 2.0 * (double)bytes;
    b->flush = gpu_flush_wanted(g, a, 2 * bytes);
    b->d2d_gbs = gpu_d2d_gbs(b->m.d_out, b->m.d_in, bytes, a, b->flush, &b->t_d2d);
    report_set_ceilings(b->d2d_gbs, g->peak_gbs);
}

void tbench_free(tbench_t *b) { tmatrix_free(&b->m); }

int tbench_measure(const tbench_t *b, const tkernel_t *k, const char *label, void *ctx, timing_t *t)
{
    check_t chk = tmatrix_check_of(&b->m, k->reference);
    return verify_then_time(label ? label : k->label, k->launch, ctx, &chk, b->a, b->flush, t);
}

int tbench_row(const tbench_t *b, const tkernel_t *k, const char *label, void *ctx, double extra, timing_t *t)
{
    check_t chk = tmatrix_check_of(&b->m, k->reference);
    return measure_row(label ? label : k->label, k->launch, ctx, &chk, b->a, b->flush, b->bytes, extra, t);
}

int tbench_rows_vs(const tbench_t *b, const tkernel_t *ks, const int *base, int n, void *ctx, int *ok, timing_t *t)
{
    int k, failed = 0;
    for (k = 0; k < n; k++) {
        ok[k] = tbench_measure(b, &ks[k], NULL, ctx, &t[k]);
        failed |= !ok[k];
        report_result(ks[k].label, ok[k], &t[k], b->bytes,
                      ok[k] && ok[base[k]] ? 100.0 * t[base[k]].median_ms / t[k].median_ms : NAN);
    }
    return failed;
}

/* ---- exercise checkers ----------------------------------------------------------------------- */

void texercise_args(int argc, char **argv, args_t *a, const char *summary, int takes_block, int *nx, int *ny)
{
    if (!takes_block) args_without("--block");
    args_parse_or_exit(argc, argv, a, summary, TMATRIX_SIZE_HELP, NULL, 0);
    tmatrix_size_or_exit(a, nx, ny);
}

int texercise_verify(const tkernel_t *yours, const char *fix, const int (*shapes)[2], int nshapes, int big,
                     const dim3 *blocks, int nblocks, tcheck_note_fn note, const args_t *a)
{
    check_tally_t t = {0, 0};
    /* Correct first: no PASS/FAIL lines with --csv (stdout is only CSV then) */
    sweep(yours, 1, shapes, nshapes, big, blocks, nblocks, a, a->csv ? NULL : stdout, note, &t);
    if (t.fails)
        fprintf(stderr, "FAILED: %d of %d checks failed; fix %s in exercise.cu (no timing until it passes).\n", t.fails,
                t.checks, fix);
    else
        report_say("OK: %d of %d checks passed\n", t.checks, t.checks);
    if (!t.fails && !a->check) return -1;
    gpu_finish();
    return t.fails ? EXIT_VERIFY : EXIT_OK;
}

int texercise_time(const gpu_info_t *g, const args_t *a, int nx, int ny, const char *title, const tkernel_t *ks,
                   const dim3 *blocks, int n, texercise_takeaway_fn takeaway)
{
    tbench_t b;
    timing_t *t = (timing_t *)host_alloc((size_t)n * sizeof(timing_t), "the exercise's timings");
    char take[400];
    int k, ok = 1;
    tbench_init(&b, g, a, nx, ny, keep_of(ks, n));
    report_begin("exercise", title, NULL);
    report_row("cudaMemcpy D2D", &b.t_d2d, b.bytes, NAN);
    for (k = 0; k < n; k++) {
        tctx_t c = tmatrix_ctx(&b.m, blocks[k]);
        ok &= tbench_row(&b, &ks[k], NULL, &c, NAN, &t[k]);
    }
    if (ok) takeaway(&b, blocks, t, take, sizeof take);
    report_end(ok ? take : "a kernel failed verification at the full size: no comparison.");
    tbench_free(&b);
    free(t);
    return gpu_finish_status(!ok);
}
