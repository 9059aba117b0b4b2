/* Host unit tests of lesson 03's logic (offset_stride.h), including the check every point passes
 * (incr_expected, the rule the GPU comparison of incr_check.cuh applies).  Plain C99. */
#include "offset_stride.h"
#include "tests/unit.h"

#include <stdio.h>
#include <stdlib.h>


static void test_touched_span(void)
{
    incr_check_t o = os_check_of(NULL, OS_OFFSET, 3, 10, 1, 0, 1), s = os_check_of(NULL, OS_STRIDE, 3, 10, 1, 0, 1);
    EXPECT(os_span(OS_OFFSET, 0, 10) == 10 && os_span(OS_OFFSET, 32, 10) == 42);
    EXPECT(os_span(OS_STRIDE, 1, 10) == 10 && os_span(OS_STRIDE, 3, 10) == 28 && os_span(OS_STRIDE, 32, 1) == 1);
    EXPECT(o.elems == 13 + OS_GUARD && s.elems == 28 + OS_GUARD);
    EXPECT(!incr_touched(2, o.first, o.step, o.count) && incr_touched(3, o.first, o.step, o.count));
    EXPECT(incr_touched(12, o.first, o.step, o.count) && !incr_touched(13, o.first, o.step, o.count));
    EXPECT(incr_touched(0, s.first, s.step, s.count) && incr_touched(27, s.first, s.step, s.count));
    EXPECT(!incr_touched(26, s.first, s.step, s.count) && !incr_touched(30, s.first, s.step, s.count));
    EXPECT(!incr_touched(1, s.first, s.step, s.count));
}

static void test_bytes_model(void)
{
    /* float: 4, 8, 16 bytes per element until the stride reaches a sector, then a sector each */
    EXPECT(os_bytes_per_elem(4, 1, 32) == 4 && os_bytes_per_elem(4, 4, 32) == 16);
    EXPECT(os_bytes_per_elem(4, 8, 32) == 32 && os_bytes_per_elem(4, 32, 32) == 32);
    EXPECT(os_bytes_per_elem(4, 12, 64) == 48 && os_bytes_per_elem(4, 16, 64) == 64);
    EXPECT(os_bytes_per_elem(16, 3, 32) == 32 && os_bytes_per_elem(16, 3, 64) == 48);
    /* DRAM bytes per useful byte with a 64-byte fetch: float 1, 2, 4, 8, 12, 12 */
    EXPECT(os_dram_per_useful(4, 1, 64) == 1.0 && os_dram_per_useful(4, 2, 64) == 2.0);
    EXPECT(os_dram_per_useful(4, 8, 64) == 8.0 && os_dram_per_useful(4, 16, 64) == 12.0);
    EXPECT(os_dram_per_useful(4, 32, 64) == 12.0);
    /* with a 32-byte fetch the float floor is 8: one sector read, one written, 8 useful bytes */
    EXPECT(os_dram_per_useful(4, 32, 32) == 8.0);
    EXPECT(os_dram_per_useful(8, 8, 64) == 6.0 && os_dram_per_useful(16, 2, 64) == 2.0);
    EXPECT(os_dram_per_useful(16, 32, 64) == 3.0);
}

static void test_warp_sectors(void)
{
    EXPECT(os_warp_sectors(4, 0, 1) == 4 && os_warp_sectors(4, 1, 1) == 5 && os_warp_sectors(4, 8, 1) == 4);
    EXPECT(os_warp_sectors(4, 0, 2) == 8 && os_warp_sectors(4, 0, 8) == 32 && os_warp_sectors(4, 0, 32) == 32);
    EXPECT(os_warp_sectors(8, 0, 1) == 8 && os_warp_sectors(8, 1, 1) == 9 && os_warp_sectors(8, 4, 1) == 8);
    EXPECT(os_warp_sectors(16, 0, 1) == 16 && os_warp_sectors(16, 1, 1) == 17 && os_warp_sectors(16, 0, 2) == 32);
    EXPECT(os_warp_sectors(4, 0, 3) == 12);   /* 32 floats 12 bytes apart span 384 bytes */
}

/* A CPU simulation of one launch on a buffer filled as incr_fill fills it.  skip: an element
 * the simulated kernel leaves alone (or (size_t)-1 for none). */
static void simulate(int kind, int param, size_t n, float *buf, size_t total, uint64_t seed, int comps, size_t skip)
{
    size_t j;
    int c;
    for (j = 0; j < total; j++)
        for (c = 0; c < comps; c++) buf[j * comps + c] = rng_float(seed, (uint64_t)j * comps + c);
    for (j = 0; j < n; j++) {
        size_t at = kind == OS_OFFSET ? j + (size_t)param : j * (size_t)param;
        if (at == skip) continue;
        for (c = 0; c < comps; c++) buf[at * comps + c] += 1.0f;
    }
}

/* What the GPU comparison (incr_check.cuh) does, on the host: every value against incr_expected.
 * Returns how many differ; *first_elem: the element of the first. */
static size_t compare_all(incr_check_t ic, const void *vals, size_t *first_elem)
{
    size_t v, nvals = ic.f64 ? ic.elems : ic.elems * (size_t)ic.comps, bad = 0;
    for (v = 0; v < nvals; v++) {
        double got = ic.f64 ? ((const double *)vals)[v] : (double)((const float *)vals)[v];
        if (!(got == incr_expected(ic, v))) {
            if (!bad) *first_elem = ic.f64 ? v : v / (size_t)ic.comps;
            bad++;
        }
    }
    return bad;
}

/* The check on simulated launches: right passes, wrong elements are found wherever they are. */
static void test_check(void)
{
    enum { N = 1000 };
    size_t total = os_span(OS_STRIDE, 7, N) + OS_GUARD, first = 0, j;
    float *buf = (float *)malloc(total * 4 * sizeof(float));
    double *dbl = (double *)malloc(total * sizeof(double));
    incr_check_t ic;
    if (!buf || !dbl) { EXPECT(0); return; }

    ic = os_check_of(buf, OS_STRIDE, 7, N, 1, 0, 11);
    EXPECT(ic.elems == total);
    simulate(OS_STRIDE, 7, N, buf, total, 11, 1, (size_t)-1);
    EXPECT(compare_all(ic, buf, &first) == 0);
    ic.step = 6;            /* the wrong stride: most touched elements are wrong */
    EXPECT(compare_all(ic, buf, &first) > N);
    ic.step = 7;
    buf[total - 1] += 1.0f; /* a write into the guard */
    EXPECT(compare_all(ic, buf, &first) == 1 && first == total - 1);

    ic = os_check_of(buf, OS_STRIDE, 3, N, 4, 0, 5);   /* float4 */
    simulate(OS_STRIDE, 3, N, buf, ic.elems, 5, 4, (size_t)-1);
    EXPECT(compare_all(ic, buf, &first) == 0);
    buf[3 * 4 + 2] -= 1.0f; /* element 3, component z: missed */
    EXPECT(compare_all(ic, buf, &first) == 1 && first == 3);

    ic = os_check_of(dbl, OS_OFFSET, 5, N, 1, 1, 9);   /* double, offset 5 */
    for (j = 0; j < ic.elems; j++) dbl[j] = (double)rng_float(9, j) + (j >= 5 && j < N + 5 ? 1.0 : 0.0);
    EXPECT(compare_all(ic, dbl, &first) == 0);
    dbl[4] += 1.0;         /* one before the first touched element */
    EXPECT(compare_all(ic, dbl, &first) == 1 && first == 4);
    free(buf);
    free(dbl);
}

/* --check's planted fault (offset_stride.cu, check_planted_fault): stride_f32 s=3 on 100003 floats
 * that skips the element os_fault_elem names.  The whole-buffer comparison finds exactly that
 * element; the 8 windows of 8192 elements an earlier version checked at the timed size (the first
 * at the start, the last at the end of the guard, the others evenly between) never look at it. */
static void test_planted_fault(void)
{
    enum { N = 100003, WINDOW = 8192, NWIN = 8 };
    size_t total = os_span(OS_STRIDE, 3, N) + OS_GUARD, skip = os_fault_elem(OS_STRIDE, 3, N), first = 0, w;
    float *buf = (float *)malloc(total * sizeof(float));
    incr_check_t ic = os_check_of(buf, OS_STRIDE, 3, N, 1, 0, 2024);
    int in_a_window = 0;
    if (!buf) { EXPECT(0); return; }
    EXPECT(incr_touched(skip, ic.first, ic.step, ic.count));
    simulate(OS_STRIDE, 3, N, buf, total, 2024, 1, skip);
    EXPECT(compare_all(ic, buf, &first) == 1 && first == skip);
    for (w = 0; w < NWIN; w++) {
        size_t lo = w == NWIN - 1 ? total - WINDOW : (total - WINDOW) / (NWIN - 1) * w;
        in_a_window |= skip >= lo && skip < lo + WINDOW;
    }
    EXPECT(total > (size_t)WINDOW * NWIN && !in_a_window);
    free(buf);
}

/* rng_float + 1 is exact in float: the premise of comparing after an increment with == */
static void test_increment_exact(void)
{
    uint64_t i;
    int ok = 1;
    for (i = 0; i < 100000; i++) {
        float v = rng_float(3, i);
        ok &= (double)(v + 1.0f) == (double)v + 1.0;
    }
    EXPECT(ok);
}

int main(void)
{
    run_test("03 os_span / os_check_of: which elements offsets and strides touch", test_touched_span);
    run_test("03 byte model: bytes per element, DRAM bytes per useful byte", test_bytes_model);
    run_test("03 os_warp_sectors: sectors per warp request", test_warp_sectors);
    run_test("03 incr_expected: a correct launch passes, wrong elements are caught", test_check);
    run_test("03 the planted fault: the whole-buffer check catches what 8 windows missed", test_planted_fault);
    run_test("03 rng_float + 1 is exact in float", test_increment_exact);
    return unit_status();
}
