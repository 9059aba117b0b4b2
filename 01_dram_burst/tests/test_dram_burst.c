/* Host unit tests of lesson 01's models: the per-warp sums the checks compare with (warp_sums.h)
 * and where the segment gather reads (gather.h).  Plain C99. */
#include "gather.h"
#include "warp_sums.h"
#include "tests/unit.h"

#include <stdlib.h>

static void test_warp_sums(void)
{
    float v[70], s[3];
    int i;
    for (i = 0; i < 70; i++) v[i] = (float)(i + 1);
    cpu_warp_sums_f32(v, 70, s);
    EXPECT(s[0] == 528.0f);              /* 1 + ... + 32    */
    EXPECT(s[1] == 1552.0f);             /* 33 + ... + 64   */
    EXPECT(s[2] == 405.0f);              /* 65 + ... + 70; missing lanes count 0 */
    {   /* the butterfly order differs from left-to-right: a case where float rounding shows it */
        float w[32] = {0};
        w[0] = 16777216.0f; w[1] = 1.0f; w[3] = 1.0f;
        cpu_warp_sums_f32(w, 32, s);
        /* left to right, (2^24 + 1) + 1 rounds to 2^24 twice; the butterfly adds 1 + 1 first */
        EXPECT(s[0] == 16777218.0f);
    }
}

/* Every segment size and both orders: the gather reads every element from a distinct float, each
 * segment's floats are consecutive and start a slot of max(S, 128) bytes of their own, and all
 * reads stay inside gather_src_floats. */
static void test_gather_geometry(void)
{
    static const int seg[] = {4, 8, 16, 32, 64, 128, 256, 512};
    static const size_t sizes[] = {1, 31, 1000, 4097};
    size_t si, i;
    int s, o;
    for (si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
        for (s = 0; s < 8; s++)
            for (o = 0; o < 2; o++) {
                size_t n = sizes[si], src = gather_src_floats(n, seg[s]);
                gather_geom_t g = make_geom(n, seg[s], o ? GATHER_SEQUENTIAL : GATHER_SCATTERED);
                unsigned char *seen = (unsigned char *)calloc(src, 1);
                size_t seg_floats = (size_t)seg[s] / 4, slot = seg[s] > 128 ? (size_t)seg[s] / 4 : 32;
                int ok = seen != NULL;
                EXPECT(((size_t)1 << g.seg_shift) == seg_floats && g.slot_floats == slot);
                EXPECT(g.nslots * seg_floats >= n && (g.mult & 1) == 1);
                EXPECT(gather_segments_count(n, g) == (n + seg_floats - 1) / seg_floats);
                for (i = 0; ok && i < n; i++) {
                    size_t at = gather_src_index(i, g);
                    ok = at < src && !seen[at];
                    if (ok) seen[at] = 1;
                    /* within a segment: consecutive floats; a segment's first float starts its slot */
                    if (ok && i % seg_floats) ok = at == gather_src_index(i - 1, g) + 1;
                    if (ok && i % seg_floats == 0) ok = at % slot == 0;
                }
                EXPECT(ok);
                free(seen);
            }
}

/* The sequential order puts segment k in slot k; the scattered one moves neighbours apart. */
static void test_gather_orders(void)
{
    gather_geom_t seq = make_geom(1 << 20, 4, GATHER_SEQUENTIAL), sc = make_geom(1 << 20, 4, GATHER_SCATTERED);
    EXPECT(gather_src_index(0, seq) == 0 && gather_src_index(1, seq) == 32 && gather_src_index(2, seq) == 64);
    EXPECT(gather_src_index(0, sc) == 0);
    EXPECT(gather_src_index(1, sc) - gather_src_index(0, sc) > 32 * 1024);   /* not in one DRAM row */
}

int main(void)
{
    run_test("01 cpu_warp_sums_f32: sums in warp_sum_xor's order", test_warp_sums);
    run_test("01 gather geometry: a permutation of slots, segments alone in their slots", test_gather_geometry);
    run_test("01 gather orders: sequential slot k, scattered far apart", test_gather_orders);
    return unit_status();
}
