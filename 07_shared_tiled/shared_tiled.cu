/* Lesson 07, part 1: shared memory as a corner-turn buffer -- the tiled transpose.
 *
 * A transpose reads the input along rows and writes the output along columns (or the other way
 * round): one of the two sides is always strided, and a strided warp pays a 32-byte sector for
 * every 4 useful bytes (lessons 02 and 05).  A block can fix both sides at once: it reads a square
 * tile with coalesced rows into shared memory, waits for the whole tile (__syncthreads), and
 * writes the tile back with coalesced rows of the output, each thread now fetching the element
 * another thread loaded.  Shared memory does not care about the order, as long as the 32 lanes of
 * a warp hit 32 different banks.
 *
 * Experiment 1: the source's mistake.  Staging every element through shared memory and reading
 * back the thread's own slot re-arranges nothing: the global accesses stay exactly those of the
 * naive transpose.  Against it, the real tile transpose with the same 32x32 threads.
 * Experiment 2: bank conflicts.  A [32][32] tile read along a column puts all 32 lanes in one
 * bank; one column of padding ([32][33]) spreads them over all 32.
 * Experiment 3: tile and block shape: 32x32 tiles moved by 32x8 threads (4 elements each) or 32x32
 * threads (1 each), 16x16 tiles, 64x64 tiles.
 * Experiment 4 (default size only): the same padded tile at 8191 x 4097, where rows are not
 * multiples of anything -- the question lesson 08 takes up.
 *
 * Layout (as in lessons 04-06): `in` has ny rows of nx floats, element (r, c) at in[r * nx + c];
 * the transpose `out` has nx rows of ny floats: out[c * ny + r] = in[r * nx + c].  Every kernel
 * handles any nx, ny >= 1.  Part 2 of the lesson (sgemm_tiled.cu) uses tiles for reuse instead. */
#include "args.h"
#include "banks.h"
#include "checked_bench.h"
#include "cuda_check.h"
#include "exitcodes.h"
#include "gpu.h"
#include "matrix_args.h"
#include "report.h"
#include "stats.h"
#include "transpose_kernels.cuh"
#include "transpose_matrix.h"
#include "verify.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- kernels ------------------------------------------------------------------------------ */

/* The source's "shared memory" transpose: each thread parks its element in tile[ty][tx], waits,
 * takes the same element back out of the same slot and stores it to the transposed position.
 * The global load is a coalesced row, the global store is the same strided column as in the naive
 * kernel: 32 sectors per warp store, 4 useful bytes in each.  The shared round trip only adds work.
 * One element per thread, any block shape up to 32 x 32. */
#define SAME_SLOT_MAX 32
__global__ void transpose_smem_same_slot(const float *__restrict__ in, float *__restrict__ out, int nx, int ny)
{
    __shared__ float tile[SAME_SLOT_MAX][SAME_SLOT_MAX];
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    int inside = c < nx && r < ny;
    if (inside) tile[threadIdx.y][threadIdx.x] = in[(size_t)r * nx + c];
    __syncthreads();  /* reached by every thread: the bounds test guards only the accesses */
    if (inside) out[(size_t)c * ny + r] = tile[threadIdx.y][threadIdx.x];
}

/* The tile transpose, written once for every shape of this lesson.  A block of T x R threads
 * (blockDim.x = T) moves one T x T tile: the tile whose top-left input element is
 * (r0, c0) = (blockIdx.y * T, blockIdx.x * T).  `tile` points to T rows of P floats in shared memory.
 *
 * Phase 1: thread (tx, ty) reads input rows r0 + ty, r0 + ty + R, ... at column c0 + tx.  A warp's
 * 32 consecutive tx read consecutive floats of one row (or of T-wide pieces of rows when T < 32):
 * coalesced.  All T / R loads of a thread are independent and issued before any of them is stored
 * to shared memory, so they are in flight together.
 * Phase 2 (after every element of the tile is in shared memory): thread (tx, ty) writes output
 * rows c0 + ty + j at column r0 + tx -- again consecutive tx on consecutive floats, coalesced --
 * taking input element (r0 + tx, c0 + ty + j), which is tile[tx][ty + j]: a column of the tile.
 * Going down a column steps P words at a time, so lane tx hits bank (tx * P + ...) % 32: with
 * P = 32 every lane lands in the same bank (32-way conflict), with P = 33 in bank tx + const.
 *
 * T, R and P are literal constants in every caller, so after inlining both loops unroll
 * completely.  Edges: a thread outside the matrix loads nothing (its slot gets a 0 that phase 2 never
 * writes out) and skips its stores, but still reaches __syncthreads -- the barrier sits outside
 * every branch, where all threads of the block arrive. */
static __device__ __forceinline__ void tile_transpose(const float *__restrict__ in, float *__restrict__ out,
                                                      int nx, int ny, float *tile, int T, int R, int P)
{
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int c0 = blockIdx.x * T, r0 = blockIdx.y * T;
    float v[16];  /* T / R <= 16 in every shape below; constant indices after unrolling: registers */
    int j;
#pragma unroll
    for (j = 0; j < T; j += R) {  /* all loads first: T / R of them in flight per thread */
        int r = r0 + ty + j, c = c0 + tx;
        v[j / R] = (r < ny && c < nx) ? in[(size_t)r * nx + c] : 0.0f;
    }
#pragma unroll
    for (j = 0; j < T; j += R) tile[(ty + j) * P + tx] = v[j / R];  /* outside: a harmless 0 */
    __syncthreads();
#pragma unroll
    for (j = 0; j < T; j += R) {
        int c = c0 + ty + j, r = r0 + tx;  /* output row c, output column r */
        if (c < nx && r < ny) out[(size_t)c * ny + r] = tile[tx * P + ty + j];
    }
}

/* One wrapper per shape: the name says tile, threads per block and whether the tile is padded. */
__global__ void transpose_tile32_blk32x8_nopad(const float *__restrict__ in, float *__restrict__ out, int nx, int ny)
{
    __shared__ float tile[32][32];
    tile_transpose(in, out, nx, ny, &tile[0][0], 32, 8, 32);
}

__global__ void transpose_tile32_blk32x8_pad(const float *__restrict__ in, float *__restrict__ out, int nx, int ny)
{
    __shared__ float tile[32][33];
    tile_transpose(in, out, nx, ny, &tile[0][0], 32, 8, 33);
}

__global__ void transpose_tile32_blk32x32_nopad(const float *__restrict__ in, float *__restrict__ out, int nx, int ny)
{
    __shared__ float tile[32][32];
    tile_transpose(in, out, nx, ny, &tile[0][0], 32, 32, 32);
}

__global__ void transpose_tile32_blk32x32_pad(const float *__restrict__ in, float *__restrict__ out, int nx, int ny)
{
    __shared__ float tile[32][33];
    tile_transpose(in, out, nx, ny, &tile[0][0], 32, 32, 33);
}

__global__ void transpose_tile16_blk16x16_pad(const float *__restrict__ in, float *__restrict__ out, int nx, int ny)
{
    __shared__ float tile[16][17];
    tile_transpose(in, out, nx, ny, &tile[0][0], 16, 16, 17);
}

__global__ void transpose_tile16_blk16x4_pad(const float *__restrict__ in, float *__restrict__ out, int nx, int ny)
{
    __shared__ float tile[16][17];
    tile_transpose(in, out, nx, ny, &tile[0][0], 16, 4, 17);
}

__global__ void transpose_tile64_blk64x4_pad(const float *__restrict__ in, float *__restrict__ out, int nx, int ny)
{
    __shared__ float tile[64][65];
    tile_transpose(in, out, nx, ny, &tile[0][0], 64, 4, 65);
}

/* ---- the variants the tables measure ------------------------------------------------------ */

/* Every launch in the lesson grids over ceil(nx / tw) x ceil(ny / th) blocks; gridDim.y <= 65535
 * and the smallest th is 8, hence the row limit (main rejects taller matrices).  The column limit
 * keeps c0 + tx and the like inside an int. */
#define MAX_ROWS (65535 * 8)
#define MAX_COLS (INT_MAX - 1024)

typedef void (*transpose_kernel_t)(const float *, float *, int, int);

typedef struct {
    const char *label;          /* table row, and the NVTX range `make profile` names it by */
    transpose_kernel_t kernel;  /* NULL: the naive kernel of lesson 05 (common/transpose_kernels.cuh) */
    int tw, th;                 /* elements per block in x and y                              */
    int bx, by;                 /* threads per block                                          */
    int pitch;                  /* row pitch of the shared tile in floats, 0 = none           */
    int same_slot;              /* both phases use tile[ty][tx]                               */
} variant_t;

static const variant_t V_NAIVE    = {"naive (lesson 05) 32x32", NULL, 32, 32, 32, 32, 0, 0};
static const variant_t V_SAME32   = {"smem same slot 32x32", transpose_smem_same_slot, 32, 32, 32, 32, 32, 1};
static const variant_t V_SAME8    = {"smem same slot 8x8", transpose_smem_same_slot, 8, 8, 8, 8, 32, 1};
static const variant_t V_32x8_NP  = {"tile32 thr32x8 [32][32]", transpose_tile32_blk32x8_nopad, 32, 32, 32, 8, 32, 0};
static const variant_t V_32x8_P   = {"tile32 thr32x8 [32][33]", transpose_tile32_blk32x8_pad, 32, 32, 32, 8, 33, 0};
static const variant_t V_32x32_NP = {"tile32 thr32x32 [32][32]", transpose_tile32_blk32x32_nopad, 32, 32, 32, 32, 32, 0};
static const variant_t V_32x32_P  = {"tile32 thr32x32 [32][33]", transpose_tile32_blk32x32_pad, 32, 32, 32, 32, 33, 0};
static const variant_t V_16x16_P  = {"tile16 thr16x16 [16][17]", transpose_tile16_blk16x16_pad, 16, 16, 16, 16, 17, 0};
static const variant_t V_16x4_P   = {"tile16 thr16x4 [16][17]", transpose_tile16_blk16x4_pad, 16, 16, 16, 4, 17, 0};
static const variant_t V_64x4_P   = {"tile64 thr64x4 [64][65]", transpose_tile64_blk64x4_pad, 64, 64, 64, 4, 65, 0};

static const variant_t *const ALL_VARIANTS[] = {&V_NAIVE, &V_SAME32, &V_SAME8, &V_32x8_NP, &V_32x8_P,
                                                &V_32x32_NP, &V_32x32_P, &V_16x16_P, &V_16x4_P, &V_64x4_P};
#define N_ALL ((int)(sizeof ALL_VARIANTS / sizeof ALL_VARIANTS[0]))

/* Worst passes per warp instruction over the kernel's shared-memory accesses (banks.h). */
static double smem_ways(const variant_t *v)
{
    int st, ld;
    if (!v->pitch) return 0.0;
    st = tile_smem_wavefronts(v->bx, v->by, v->pitch, PHASE_STORE_ROW);
    ld = v->same_slot ? st : tile_smem_wavefronts(v->bx, v->by, v->pitch, PHASE_LOAD_COLUMN);
    return st > ld ? st : ld;
}

static double elems_per_thread(const variant_t *v) { return (double)(v->tw * v->th) / (v->bx * v->by); }

typedef struct {
    const variant_t *v;
    const float *in;
    float *out;
    int nx, ny;
} launch_ctx_t;

static void launch_variant(void *p)
{
    const launch_ctx_t *c = (const launch_ctx_t *)p;
    const variant_t *v = c->v;
    dim3 block((unsigned)v->bx, (unsigned)v->by);
    if (!v->kernel) {
        transpose_naive_row<<<grid_2d((unsigned)c->nx, (unsigned)c->ny, block), block>>>(c->out, c->in, c->nx, c->ny);
        return;
    }
    dim3 grid((unsigned)((c->nx + v->tw - 1) / v->tw), (unsigned)((c->ny + v->th - 1) / v->th));
    v->kernel<<<grid, block>>>(c->in, c->out, c->nx, c->ny);
}

/* ---- --check ------------------------------------------------------------------------------- */

static int run_checks(const args_t *a, int user_nx, int user_ny)
{
    /* the odd shapes of transpose_matrix.h (8191x4097 only without --quick), then --size if given */
    int nshapes = tmatrix_check_count(a->quick), s, k, fails = 0, checks = 0;
    char size[64];
    mismatch_t mm;
    for (s = 0; s <= nshapes; s++) {
        tmatrix_t m;
        int nx = s < nshapes ? TMATRIX_CHECK_SHAPES[s][0] : user_nx;
        int ny = s < nshapes ? TMATRIX_CHECK_SHAPES[s][1] : user_ny;
        if (s == nshapes && !a->nx) break;  /* the size given with --size, if any, comes last */
        tmatrix_init(&m, nx, ny, a->seed, 0);
        snprintf(size, sizeof size, "%dx%d", nx, ny);
        for (k = 0; k < N_ALL; k++) {
            launch_ctx_t c = {ALL_VARIANTS[k], m.d_in, m.d_out, nx, ny};
            verify_launch_f32(launch_variant, &c, m.d_out, m.want, m.got, m.n, &mm);
            fails += verify_print(stdout, ALL_VARIANTS[k]->label, size, &mm, m.n, (size_t)ny);
            checks++;
        }
        tmatrix_free(&m);
    }
    return verify_summary(stdout, fails, checks);
}

/* ---- the experiments ---------------------------------------------------------------------- */

typedef struct {
    tmatrix_t m;
    const args_t *a;
    int flush;
    timing_t t_d2d;
} bench_t;

/* Verifies (on poisoned output) and times each variant, then prints the table's rows.  gbs[k] is
 * the bandwidth of variant k, 0 when it failed verification.  suffix is appended to every label
 * (the table row, the CSV row and the NVTX range `make profile` names the kernel by), so that a
 * kernel measured at a second size gets rows of its own.  The caller ends the table with its
 * takeaway (report_end).  Returns the number of failures. */
static int run_table(bench_t *b, const char *experiment, const char *title, const char *extra_name,
                     double (*extra)(const variant_t *), int with_d2d, const variant_t *const *vs, int nv,
                     const char *suffix, double *gbs)
{
    double bytes = 2.0 * (double)b->m.n * sizeof(float);  /* each element read once, written once */
    timing_t t[16];
    char labels[16][64];
    int ok[16], k, failed = 0;
    for (k = 0; k < nv; k++) {
        launch_ctx_t c = {vs[k], b->m.d_in, b->m.d_out, b->m.nx, b->m.ny};
        snprintf(labels[k], sizeof labels[k], "%s%s", vs[k]->label, suffix);
        ok[k] = verify_then_time(labels[k], launch_variant, &c, b->m.d_out, b->m.want, b->m.got, b->m.n,
                                 (size_t)b->m.ny, b->a, b->flush, &t[k]);
        gbs[k] = ok[k] ? stats_gbs(bytes, t[k].median_ms) : 0.0;
        failed += !ok[k];
    }
    report_begin(experiment, title, extra_name);
    if (with_d2d) report_row("cudaMemcpy D2D", &b->t_d2d, bytes, extra_name ? 0.0 : NAN);
    for (k = 0; k < nv; k++) {
        if (ok[k]) report_row(labels[k], &t[k], bytes, extra ? extra(vs[k]) : NAN);
        else report_row_failed(labels[k]);
    }
    return failed;
}

static void bench_init(bench_t *b, const gpu_info_t *g, const args_t *a, int nx, int ny)
{
    double d2d;
    tmatrix_init(&b->m, nx, ny, a->seed, 0);
    b->a = a;
    b->flush = gpu_flush_wanted(g, a, 2 * b->m.n * sizeof(float));
    d2d = gpu_d2d_gbs(b->m.d_out, b->m.d_in, b->m.n * sizeof(float), a, b->flush, &b->t_d2d);
    report_set_ceilings(d2d, g->peak_gbs);
}

static double pct_of(double gbs, double ref) { return ref > 0 ? 100.0 * gbs / ref : 0.0; }

/* Experiment 1: the same-slot mistake next to the naive kernel and the real tile transpose. */
static int experiment_mistake(bench_t *b)
{
    const variant_t *vs[] = {&V_NAIVE, &V_SAME32, &V_SAME8, &V_32x32_P};
    double gbs[4];
    char take[320];
    int failed;
    report_say("\nExperiment 1: the source's shared-memory transpose, which reads back its own slot.\n"
               "  Every row of this table reads the input along rows. The naive kernel and the same-slot kernel\n"
               "  store each element to its transposed address directly (a column: 32 sectors per warp store);\n"
               "  the tile kernel stores rows of the output, each thread writing an element another loaded.\n");
    failed = run_table(b, "mistake", "  One element per thread; GB/s = (bytes read + bytes written) / time:", "smem ways",
                       smem_ways, 1, vs, 4, "", gbs);
    if (gbs[0] > 0 && gbs[1] > 0 && gbs[3] > 0)
        snprintf(take, sizeof take,
                 "the same-slot kernel runs at %.0f%% of the naive kernel: its global accesses are the naive kernel's. "
                 "Reading another thread's element (the tile) makes the stores coalesced: %.1fx the naive kernel.",
                 pct_of(gbs[1], gbs[0]), gbs[3] / gbs[0]);
    else
        snprintf(take, sizeof take, "a kernel failed verification: no comparison.");
    report_end(take);
    return failed;
}

/* Experiment 2: the same tile kernels with and without one column of padding. */
static int experiment_banks(bench_t *b)
{
    const variant_t *vs[] = {&V_32x8_NP, &V_32x8_P, &V_32x32_NP, &V_32x32_P};
    double gbs[4];
    char take[320];
    int failed;
    report_say("\nExperiment 2: bank conflicts. The write phase reads a column of the tile: lane tx reads word\n"
               "  tx * P + j. With P = 32 that is bank j for all 32 lanes (%d passes), with P = 33 bank tx + j (%d pass).\n"
               "  'smem ways' is the worst number of passes of a warp's shared-memory access, from the bank arithmetic;\n"
               "  `make profile` measures the conflicts (smem ld/st confl).\n",
               tile_smem_wavefronts(32, 8, 32, PHASE_LOAD_COLUMN), tile_smem_wavefronts(32, 8, 33, PHASE_LOAD_COLUMN));
    failed = run_table(b, "banks", "  32x32 tiles, unpadded [32][32] and padded [32][33]:", "smem ways", smem_ways, 0, vs,
                       4, "", gbs);
    if (gbs[0] > 0 && gbs[1] > 0 && gbs[2] > 0 && gbs[3] > 0)
        snprintf(take, sizeof take,
                 "one column of padding: %.2fx faster with 32x8 threads, %.2fx with 32x32 threads, for %d bytes more "
                 "shared memory per block.", gbs[1] / gbs[0], gbs[3] / gbs[2], 32 * 4);
    else
        snprintf(take, sizeof take, "a kernel failed verification: no comparison.");
    report_end(take);
    return failed;
}

/* Experiment 3: tile size and threads per tile.  Returns failures; *pct_classic gets the padded
 * 32x32 tile with 32x8 threads as % of the copy (for the goal and experiment 4). */
static int experiment_shapes(bench_t *b, double d2d, double *pct_classic)
{
    const variant_t *vs[] = {&V_32x8_P, &V_32x32_P, &V_16x16_P, &V_16x4_P, &V_64x4_P};
    double gbs[5];
    char take[320];
    int failed, k, best = 0;
    report_say("\nExperiment 3: tile and block shape (all padded). More elements per thread means more loads in\n"
               "  flight per thread before the barrier; a bigger tile means longer coalesced runs and fewer\n"
               "  barriers per byte, but fewer blocks fit on an SM.\n");
    failed = run_table(b, "shapes", "  Padded tiles; 'elem/thread' = elements each thread moves:", "elem/thread",
                       elems_per_thread, 0, vs, 5, "", gbs);
    for (k = 1; k < 5; k++)
        if (gbs[k] > gbs[best]) best = k;
    if (gbs[best] > 0)
        snprintf(take, sizeof take,
                 "fastest here: %s at %.0f%% of the copy; 32x32 tiles with 4 elements per thread reach %.0f%%, "
                 "with 1 element per thread %.0f%%.", vs[best]->label, pct_of(gbs[best], d2d), pct_of(gbs[0], d2d),
                 pct_of(gbs[1], d2d));
    else
        snprintf(take, sizeof take, "every kernel failed verification.");
    report_end(take);
    *pct_classic = pct_of(gbs[0], d2d);
    return failed;
}

/* Experiment 4: the padded 32x32 tile at an odd size, with the copy at that size. */
static int experiment_odd(const gpu_info_t *g, const args_t *a, int nx, int ny, double pct_default, int dnx, int dny)
{
    bench_t b;
    const variant_t *vs[] = {&V_32x8_P};
    double gbs[1], d2d;
    char take[320], title[160];
    int failed;
    report_say("\nExperiment 4: the same padded tile kernel at %d x %d: no dimension is a multiple of the tile, and\n"
               "  most rows of %d floats start at addresses that are not multiples of 16 or 32 bytes.\n", nx, ny, nx);
    bench_init(&b, g, a, nx, ny);
    d2d = stats_gbs(2.0 * (double)b.m.n * sizeof(float), b.t_d2d.median_ms);
    snprintf(title, sizeof title, "  %d x %d, against the copy of the same bytes:", nx, ny);
    /* " @odd": the 8192 x 8192 rows already carry the kernel's plain label */
    failed = run_table(&b, "odd", title, NULL, NULL, 1, vs, 1, " @odd", gbs);
    if (gbs[0] > 0)
        snprintf(take, sizeof take,
                 "at %dx%d the padded tile reaches %.0f%% of the copy (%.0f%% at %dx%d): misaligned rows and partial "
                 "tiles cost it; lesson 08 measures why and fixes it.", nx, ny, pct_of(gbs[0], d2d), pct_default, dnx, dny);
    else
        snprintf(take, sizeof take, "the kernel failed verification.");
    report_end(take);
    tmatrix_free(&b.m);
    return failed;
}

/* ---- main ----------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    static const char *summary =
        "Lesson 07, part 1: shared memory as a corner-turn buffer. Transposes an NY x NX matrix (NY rows of\n"
        "NX floats) with the source's same-slot kernel, tiles with and without padding, and several tile and\n"
        "block shapes; every kernel is verified against the CPU before it is timed.";
    args_t a;
    gpu_info_t g;
    bench_t b;
    int nx, ny, failed = 0, def;
    double d2d, pct_classic = 0.0;

    args_parse_or_exit(argc, argv, &a, summary,
                       "matrix NXxNY: NX columns, NY rows (default 8192x8192, 2048x2048 with --quick); N means NxN",
                       NULL, 0);
    def = a.quick ? 2048 : 8192;
    matrix_size_or_exit(&a, def, def, &nx, &ny);
    if (ny > MAX_ROWS)
        args_reject("bad --size '%dx%d': at most %d rows (the grid's y dimension holds 65535 blocks of 8 rows)", nx, ny,
                    MAX_ROWS);
    if (nx > MAX_COLS) args_reject("bad --size '%dx%d': at most %d columns", nx, ny, MAX_COLS);
    if (a.bx)
        args_reject("bad --block '%dx%d': every kernel of this lesson fixes its own block shape (experiment 3 "
                    "compares them)", a.bx, a.by);
    report_init("07_shared_tiled", a.csv);

    gpu_init(&g);
    gpu_print_header(&g, "Lesson 07, part 1 - the tiled transpose: shared memory as a corner-turn buffer", &a);
    if (a.check) {
        failed = run_checks(&a, nx, ny);
        gpu_finish();
        return failed;
    }

    report_say("\nMatrix %d x %d floats (%.0f MiB in, %.0f MiB out).\n", nx, ny, (double)nx * ny * 4 / 1048576.0,
               (double)nx * ny * 4 / 1048576.0);
    bench_init(&b, &g, &a, nx, ny);
    d2d = stats_gbs(2.0 * (double)b.m.n * sizeof(float), b.t_d2d.median_ms);
    failed |= experiment_mistake(&b) != 0;
    failed |= experiment_banks(&b) != 0;
    failed |= experiment_shapes(&b, d2d, &pct_classic) != 0;
    if (!a.nx && !a.quick)
        report_say("\nGoal: the padded 32x32 tile with 32x8 threads at >= 85%% of cudaMemcpy D2D: %.1f%%  %s\n",
                   pct_classic, pct_classic >= 85.0 ? "PASS" : "MISS");
    else
        report_say("\nThe padded 32x32 tile with 32x8 threads: %.1f%% of cudaMemcpy D2D (the goal, >= 85%%, is judged "
                   "at the default 8192x8192).\n", pct_classic);
    tmatrix_free(&b.m);

    if (!a.nx) {
        int onx = a.quick ? 2047 : 8191, ony = a.quick ? 1025 : 4097;
        failed |= experiment_odd(&g, &a, onx, ony, pct_classic, nx, ny) != 0;
    }
    gpu_finish();
    if (failed) {
        fprintf(stderr, "A kernel FAILED verification: its figures were not reported.\n");
        return EXIT_VERIFY;
    }
    return EXIT_OK;
}
