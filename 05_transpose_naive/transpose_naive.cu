/* Lesson 05: a transpose is strided on one side -- which side should it be?
 *
 * Experiment 1: NaiveRow (read rows, write columns) against NaiveCol (read columns, write rows),
 * between the bounds of lesson 04 (copyRow, copyCol).  Both transposes touch the same number of
 * sectors per warp; only the side that is strided differs.
 * Experiment 2: block shapes.  The shape of a block decides the shape of its warps, and the shape of
 * a warp decides how many sectors each of its loads and stores touches.
 * Experiment 3: why reading columns wins.  NaiveCol with the strided loads cached in L1 and L2
 * (the default, __ldg, __ldca), in L2 only (__ldcg), or marked evict-first (__ldcs).
 *
 * The four plain kernels (copy_row, copy_col, transpose_naive_row, transpose_naive_col) are in
 * common/transpose_kernels.cuh: lessons 04 and 06 measure them too. */
#include "args.h"
#include "exitcodes.h"
#include "gpu.h"
#include "matrix_args.h"
#include "report.h"
#include "sectors.h"
#include "stats.h"
#include "transpose_kernels.cuh"
#include "transpose_matrix.h"
#include "verify.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- kernels ------------------------------------------------------------------------------ */

/* The naive transposes with the load made explicit.  LOAD(p) is one of the cache-hint loads
 * (CUDA C Programming Guide, "Load Functions Using Cache Hints"; PTX ld.global.<cop>):
 *   __ldg   ld.global.nc  read-only path: since Volta the same unified L1 as the other loads
 *   __ldca  ld.global.ca  cache in L1 and L2 (what a plain load asks for)
 *   __ldcg  ld.global.cg  cache in L2 only: every load goes past the L1
 *   __ldcs  ld.global.cs  streaming: cached, but first to be evicted (data used once)
 * The macro stamps out one small kernel per hint, so each is a plain kernel with nothing else
 * changed; the indices are exactly those of transpose_naive_col / transpose_naive_row. */
#define NAIVE_COL_WITH_LOAD(name, LOAD)                                                          \
    __global__ void name(float *out, const float *in, int nx, int ny)                            \
    {                                                                                            \
        unsigned r = blockIdx.x * blockDim.x + threadIdx.x, c;                                   \
        if (r >= (unsigned)ny) return;                                                           \
        for (c = blockIdx.y * blockDim.y + threadIdx.y; c < (unsigned)nx; c += gridDim.y * blockDim.y) \
            out[(size_t)c * ny + r] = LOAD(&in[(size_t)r * nx + c]);                             \
    }
#define NAIVE_ROW_WITH_LOAD(name, LOAD)                                                          \
    __global__ void name(float *out, const float *in, int nx, int ny)                            \
    {                                                                                            \
        unsigned c = blockIdx.x * blockDim.x + threadIdx.x, r;                                   \
        if (c >= (unsigned)nx) return;                                                           \
        for (r = blockIdx.y * blockDim.y + threadIdx.y; r < (unsigned)ny; r += gridDim.y * blockDim.y) \
            out[(size_t)c * ny + r] = LOAD(&in[(size_t)r * nx + c]);                             \
    }

NAIVE_COL_WITH_LOAD(transpose_naive_col_ldg, __ldg)
NAIVE_COL_WITH_LOAD(transpose_naive_col_ldca, __ldca)
NAIVE_COL_WITH_LOAD(transpose_naive_col_ldcg, __ldcg)
NAIVE_COL_WITH_LOAD(transpose_naive_col_ldcs, __ldcs)
NAIVE_ROW_WITH_LOAD(transpose_naive_row_ldcg, __ldcg)

/* ---- launches (each launches exactly one kernel) -------------------------------------------- */

typedef struct {
    float *out;
    const float *in;
    int nx, ny;
    dim3 block;
} ctx_t;

/* *_row kernels: threadIdx.x walks the nx columns; *_col kernels: the ny rows. */
#define ROW_LAUNCHER(name, kernel)                                                   \
    static void name(void *p)                                                        \
    {                                                                                \
        ctx_t *c = (ctx_t *)p;                                                       \
        kernel<<<grid_2d(c->nx, c->ny, c->block), c->block>>>(c->out, c->in, c->nx, c->ny); \
    }
#define COL_LAUNCHER(name, kernel)                                                   \
    static void name(void *p)                                                        \
    {                                                                                \
        ctx_t *c = (ctx_t *)p;                                                       \
        kernel<<<grid_2d(c->ny, c->nx, c->block), c->block>>>(c->out, c->in, c->nx, c->ny); \
    }
ROW_LAUNCHER(launch_copy_row, copy_row)
COL_LAUNCHER(launch_copy_col, copy_col)
ROW_LAUNCHER(launch_naive_row, transpose_naive_row)
COL_LAUNCHER(launch_naive_col, transpose_naive_col)
COL_LAUNCHER(launch_naive_col_ldg, transpose_naive_col_ldg)
COL_LAUNCHER(launch_naive_col_ldca, transpose_naive_col_ldca)
COL_LAUNCHER(launch_naive_col_ldcg, transpose_naive_col_ldcg)
COL_LAUNCHER(launch_naive_col_ldcs, transpose_naive_col_ldcs)
ROW_LAUNCHER(launch_naive_row_ldcg, transpose_naive_row_ldcg)

typedef struct {
    const char *label;
    launch_fn_t launch;
    kernel_kind_t kind;
} kernel_t;

static const kernel_t K_COPY_ROW = {"copyRow", launch_copy_row, KIND_COPY_ROW};
static const kernel_t K_COPY_COL = {"copyCol", launch_copy_col, KIND_COPY_COL};
static const kernel_t K_NAIVE_ROW = {"NaiveRow", launch_naive_row, KIND_NAIVE_ROW};
static const kernel_t K_NAIVE_COL = {"NaiveCol", launch_naive_col, KIND_NAIVE_COL};

/* Experiment 3, in the order printed; `base` is the row the extra column compares with. */
typedef struct {
    kernel_t k;
    int base;
} hint_row_t;
static const hint_row_t HINTS[] = {
    {{"NaiveCol ld.global", launch_naive_col, KIND_NAIVE_COL}, 0},
    {{"NaiveCol __ldg", launch_naive_col_ldg, KIND_NAIVE_COL}, 0},
    {{"NaiveCol __ldca", launch_naive_col_ldca, KIND_NAIVE_COL}, 0},
    {{"NaiveCol __ldcg", launch_naive_col_ldcg, KIND_NAIVE_COL}, 0},
    {{"NaiveCol __ldcs", launch_naive_col_ldcs, KIND_NAIVE_COL}, 0},
    {{"NaiveRow ld.global", launch_naive_row, KIND_NAIVE_ROW}, 5},
    {{"NaiveRow __ldcg", launch_naive_row_ldcg, KIND_NAIVE_ROW}, 5},
};
#define NHINTS ((int)(sizeof HINTS / sizeof HINTS[0]))
enum { H_DEFAULT = 0, H_LDCA = 2, H_LDCG = 3, H_LDCS = 4, H_ROW = 5, H_ROW_LDCG = 6 };

/* Experiment 2: the issue's shapes, the sources' (64x8 in D, 32x16 best in E), and two 8-wide ones. */
static const int SHAPES[][2] = {{8, 8}, {8, 32}, {16, 8}, {16, 16}, {32, 8}, {32, 16}, {32, 32}, {64, 8}, {64, 16}, {128, 8}};
#define NSHAPES ((int)(sizeof SHAPES / sizeof SHAPES[0]))

/* TMATRIX_COPY or TMATRIX_TRANSPOSE: what the kernel's output is compared with. */
static int reference_of(kernel_kind_t k) { return k == KIND_COPY_ROW || k == KIND_COPY_COL ? TMATRIX_COPY : TMATRIX_TRANSPOSE; }

/* ---- --check ------------------------------------------------------------------------------- */

static int check_one(const kernel_t *k, ctx_t *c, const tmatrix_t *m, const char *size)
{
    return tmatrix_check(m, reference_of(k->kind), k->label, size, k->launch, c, stdout);
}

/* Every kernel at shapes that are multiples of nothing, with every block shape of the sweep (or
 * --block), the hint variants with two block shapes; 1x600001 and 600001x1 make gridDim.y hit its
 * cap of 65535, so the slow-index loop runs more than once. */
static int run_checks(const args_t *a)
{
    static const int shapes[][2] = {{1, 1}, {2, 1}, {1, 3}, {7, 3}, {33, 31}, {31, 33}, {1000, 777}, {1, 40009},
                                    {40009, 1}, {4097, 13}, {1, 600001}, {600001, 1}, {2048, 512}, {8191, 4097}};
    static const int hint_blocks[][2] = {{32, 8}, {7, 5}};
    int nshapes = (int)(sizeof shapes / sizeof shapes[0]) - (a->quick ? 2 : 0);
    int s, b, h, fails = 0, checks = 0;
    char size[96];

    for (s = 0; s < nshapes; s++) {
        tmatrix_t m;
        ctx_t c;
        tmatrix_init(&m, shapes[s][0], shapes[s][1], a->seed, TMATRIX_KEEP_INPUT);
        c.out = m.d_out;
        c.in = m.d_in;
        c.nx = m.nx;
        c.ny = m.ny;
        for (b = 0; b < NSHAPES; b++) {
            c.block = a->bx ? dim3(a->bx, a->by) : dim3(SHAPES[b][0], SHAPES[b][1]);
            snprintf(size, sizeof size, "%dx%d block %ux%u", c.nx, c.ny, c.block.x, c.block.y);
            fails += check_one(&K_NAIVE_ROW, &c, &m, size);
            fails += check_one(&K_NAIVE_COL, &c, &m, size);
            checks += 2;
            if (a->bx) break;
        }
        for (b = 0; b < 2; b++) {
            c.block = a->bx ? dim3(a->bx, a->by) : dim3(hint_blocks[b][0], hint_blocks[b][1]);
            snprintf(size, sizeof size, "%dx%d block %ux%u", c.nx, c.ny, c.block.x, c.block.y);
            fails += check_one(&K_COPY_ROW, &c, &m, size);
            fails += check_one(&K_COPY_COL, &c, &m, size);
            checks += 2;
            for (h = 0; h < NHINTS; h++) {
                if (HINTS[h].k.launch == launch_naive_col || HINTS[h].k.launch == launch_naive_row) continue;
                fails += check_one(&HINTS[h].k, &c, &m, size);
                checks++;
            }
            if (a->bx) break;
        }
        tmatrix_free(&m);
    }
    return verify_summary(stdout, fails, checks);
}

/* ---- the experiments ---------------------------------------------------------------------- */

typedef struct {
    const gpu_info_t *g;
    tbench_t b;     /* the matrix with both references: its input (for copies) and its CPU transpose */
    ctx_t c;
} run_t;

/* Verifies k with block b, times it, prints its row (with_sectors: the extra column is the sectors
 * per warp, load + store, from sectors.h).  Returns 1 and *t when k verified. */
static int measure(run_t *r, const kernel_t *k, const char *label, dim3 b, timing_t *t, int with_sectors)
{
    int ok;
    double extra = NAN;
    r->c.block = b;
    ok = tbench_verify_then_time(&r->b, reference_of(k->kind), label, k->launch, &r->c, t);
    if (with_sectors) {
        warp_sectors_t w = warp_sectors(k->kind, (int)b.x, (int)b.y, r->c.nx, r->c.ny);
        extra = w.ld + w.st;
    }
    if (ok) report_row(label, t, r->b.bytes, extra);
    else report_row_failed(label);
    return ok;
}

static double gbs(const run_t *r, const timing_t *t) { return stats_gbs(r->b.bytes, t->median_ms); }

/* Experiment 1: which side should be strided? */
static int experiment_sides(run_t *r, dim3 b)
{
    const kernel_t *ks[4] = {&K_COPY_ROW, &K_COPY_COL, &K_NAIVE_ROW, &K_NAIVE_COL};
    timing_t t[4];
    int ok[4], i;
    char take[400];
    warp_sectors_t w[4];
    double mib = r->b.m.n * 4.0 / 1048576.0, l2 = r->g->l2_bytes / 1048576.0;

    report_say("\nExperiment 1: which side should be strided? Blocks %ux%u. Sectors per warp instruction "
               "(32-byte pieces\n  a warp's load or store touches, from the addresses; `make profile` measures them):\n",
               b.x, b.y);
    for (i = 0; i < 4; i++) {
        w[i] = warp_sectors(ks[i]->kind, (int)b.x, (int)b.y, r->c.nx, r->c.ny);
        report_say("    %-9s load %4.1f  store %4.1f\n", ks[i]->label, w[i].ld, w[i].st);
    }
    report_say("  NaiveRow's stores: a warp writes 32 x 4 = 128 useful bytes into %.0f sectors of 32 bytes:\n"
               "  %.1f%% of the bytes moved are useful (the source's \"write efficiency 12.5%%\").\n",
               w[2].st, 100.0 * 128.0 / (32.0 * w[2].st));
    report_say("  Each matrix is %.0f MiB, the L2 %.0f MiB: the output %s the L2.\n", mib, l2,
               mib <= l2 ? "fits in" : "does not fit in");
    report_begin("sides", "Copies and naive transposes of the same matrix:", NULL);
    report_row("cudaMemcpy D2D", &r->b.t_d2d, r->b.bytes, NAN);
    for (i = 0; i < 4; i++) ok[i] = measure(r, ks[i], ks[i]->label, b, &t[i], 0);
    if (ok[2] && ok[3]) {
        int col_wins = t[3].median_ms < t[2].median_ms;
        snprintf(take, sizeof take,
                 "%s is %.2fx faster than %s, though both touch %.0f sectors per warp (load + store): %s; "
                 "they sit at %.0f%% and %.0f%% of copyRow.",
                 col_wins ? "reading columns (NaiveCol)" : "writing columns (NaiveRow)",
                 col_wins ? t[2].median_ms / t[3].median_ms : t[3].median_ms / t[2].median_ms,
                 col_wins ? "writing them (NaiveRow)" : "reading them (NaiveCol)", w[2].ld + w[2].st,
                 col_wins ? "strided stores cost more than strided loads (make profile: sectors, L1 hits)"
                          : "on this GPU the strided stores cost less than the strided loads",
                 ok[0] ? 100.0 * gbs(r, &t[2]) / gbs(r, &t[0]) : 0.0, ok[0] ? 100.0 * gbs(r, &t[3]) / gbs(r, &t[0]) : 0.0);
        report_end(take);
    } else {
        report_end("a kernel failed verification.");
    }
    return !(ok[0] && ok[1] && ok[2] && ok[3]);
}

/* Experiment 2: the block-shape sweep. */
static int experiment_shapes(run_t *r)
{
    const kernel_t *ks[2] = {&K_NAIVE_ROW, &K_NAIVE_COL};
    timing_t t;
    int i, s, best[2] = {-1, -1}, failed = 0;
    double best_gbs[2] = {0, 0};
    char label[64], take[400];

    report_say("\nExperiment 2: block shapes (the same %d reps per shape). A block of bx x by threads forms warps of\n"
               "  min(bx, 32) x 32/min(bx, 32) threads: 32 x 1 when bx >= 32, 8 x 4 when bx = 8. ld+st sect = sectors per warp, load + store.\n",
               r->b.a->reps);
    report_begin("shapes", "NaiveRow and NaiveCol for each block shape:", "ld+st sect");
    for (i = 0; i < 2; i++) {
        for (s = 0; s < NSHAPES; s++) {
            snprintf(label, sizeof label, "%s %dx%d", ks[i]->label, SHAPES[s][0], SHAPES[s][1]);
            if (!measure(r, ks[i], label, dim3(SHAPES[s][0], SHAPES[s][1]), &t, 1)) {
                failed = 1;
                continue;
            }
            if (gbs(r, &t) > best_gbs[i]) {
                best_gbs[i] = gbs(r, &t);
                best[i] = s;
            }
        }
    }
    if (best[0] >= 0 && best[1] >= 0) {
        warp_sectors_t w0 = warp_sectors(KIND_NAIVE_ROW, SHAPES[best[0]][0], SHAPES[best[0]][1], r->c.nx, r->c.ny);
        warp_sectors_t w1 = warp_sectors(KIND_NAIVE_COL, SHAPES[best[1]][0], SHAPES[best[1]][1], r->c.nx, r->c.ny);
        snprintf(take, sizeof take,
                 "fastest NaiveRow: %dx%d (%.0f GB/s, %.0f sectors/warp); fastest NaiveCol: %dx%d (%.0f GB/s, "
                 "%.0f sectors/warp). Source E's best NaiveCol was 32x16, source D's best naive shape 8x8.",
                 SHAPES[best[0]][0], SHAPES[best[0]][1], best_gbs[0], w0.ld + w0.st, SHAPES[best[1]][0],
                 SHAPES[best[1]][1], best_gbs[1], w1.ld + w1.st);
        report_end(take);
    } else {
        report_end("a kernel failed verification.");
    }
    return failed;
}

/* Experiment 3: where the strided loads are served from. */
static int experiment_hints(run_t *r, dim3 b)
{
    timing_t t[NHINTS];
    int ok[NHINTS], h, failed = 0;
    char take[500];

    report_say("\nExperiment 3: cache hints on the loads, blocks %ux%u. NaiveCol's 32 sectors per load are shared by\n"
               "  the warps of a block that read the neighbouring columns: if the L1 keeps them, one DRAM sector feeds\n"
               "  8 floats. __ldcg sends every load past the L1 to the L2.\n",
               b.x, b.y);
    report_begin("hints", "NaiveCol (strided loads) and NaiveRow (coalesced loads) with each load instruction:", "% of ld");
    for (h = 0; h < NHINTS; h++) {
        double extra = NAN;
        r->c.block = b;
        ok[h] = tbench_verify_then_time(&r->b, TMATRIX_TRANSPOSE, HINTS[h].k.label, HINTS[h].k.launch, &r->c, &t[h]);
        if (!ok[h]) {
            report_row_failed(HINTS[h].k.label);
            failed = 1;
            continue;
        }
        if (ok[HINTS[h].base]) extra = 100.0 * t[HINTS[h].base].median_ms / t[h].median_ms;
        report_row(HINTS[h].k.label, &t[h], r->b.bytes, extra);
    }
    if (!failed) {
        snprintf(take, sizeof take,
                 "strided loads past the L1 (__ldcg) run at %.0f%% of the default; evict-first (__ldcs) at %.0f%%; "
                 "the default is %.0f%% of __ldca, i.e. %s. For coalesced loads (NaiveRow) __ldcg gives %.0f%%.",
                 100.0 * t[H_DEFAULT].median_ms / t[H_LDCG].median_ms, 100.0 * t[H_DEFAULT].median_ms / t[H_LDCS].median_ms,
                 100.0 * t[H_LDCA].median_ms / t[H_DEFAULT].median_ms,
                 /* within 5% or overlapping min-max ranges: the same, as far as this run can tell */
                 (fabs(t[H_LDCA].median_ms / t[H_DEFAULT].median_ms - 1.0) < 0.05 ||
                  (t[H_LDCA].min_ms <= t[H_DEFAULT].max_ms && t[H_DEFAULT].min_ms <= t[H_LDCA].max_ms))
                     ? "plain loads already cache in L1 here (what -Xptxas -dlcm=ca once had to ask for)"
                     : "plain loads and .ca loads differ here",
                 100.0 * t[H_ROW].median_ms / t[H_ROW_LDCG].median_ms);
        report_end(take);
    } else {
        report_end("a kernel failed verification.");
    }
    return failed;
}

/* ---- main ----------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    static const char *summary =
        "Lesson 05: naive transposes. Reads rows and writes columns (NaiveRow) or the other way round (NaiveCol),\n"
        "sweeps block shapes, and shows with cache hints why reading columns wins.";
    args_t a;
    gpu_info_t g;
    run_t r;
    int nx, ny, failed = 0;
    size_t bytes;
    dim3 b;

    args_parse_or_exit(argc, argv, &a, summary,
                       "matrix NXxNY = NX columns x NY rows, or N for N x N (default 8192x8192; 2048x2048 with --quick)\n"
                       "                  (the source's matrix: --size 2048x512)",
                       NULL, 0);
    matrix_size_or_exit(&a, a.quick ? 2048 : 8192, a.quick ? 2048 : 8192, &nx, &ny);
    report_init("05_transpose_naive", a.csv);
    gpu_init(&g);
    gpu_print_header(&g, "Lesson 05 - naive transposes: which side should be strided?", &a);
    if (a.check) {
        failed = run_checks(&a);
        gpu_finish();
        return failed;
    }

    bytes = (size_t)nx * ny * sizeof(float);
    report_say("\nMatrix %d x %d floats (%d rows of %d) -> its transpose, %d rows of %d; %.0f MiB each way.\n"
               "GB/s counts every element read once and written once.\n",
               nx, ny, ny, nx, nx, ny, bytes / 1048576.0);
    tbench_init(&r.b, &g, &a, nx, ny, TMATRIX_KEEP_INPUT);
    r.g = &g;
    r.c.out = r.b.m.d_out;
    r.c.in = r.b.m.d_in;
    r.c.nx = nx;
    r.c.ny = ny;
    b = a.bx ? dim3(a.bx, a.by) : dim3(32, 8);

    failed |= experiment_sides(&r, b);
    failed |= experiment_shapes(&r);
    failed |= experiment_hints(&r, b);

    tbench_free(&r.b);
    gpu_finish();
    if (failed) {
        fprintf(stderr, "A kernel FAILED verification: its figures were not reported.\n");
        return EXIT_VERIFY;
    }
    return EXIT_OK;
}
