/* Host unit tests of lesson 01's models: the per-warp sums the exercise's checker compares with
 * (warp_sums.h) and where the segment copies read (segments.h).  Plain C99. */
#include "segments.h"
#include "warp_sums.h"
#include "tests/unit.h"

#include <stdlib.h>
#include <string.h>

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

/* Experiment 2: element i reads float i % f of line i / f; the reads are distinct, a segment's floats
 * consecutive from the start of its own line, the lines in order, and segment_per_line_src_floats
 * is exactly the last float read + 1. */
static void test_segment_per_line(void)
{
    static const unsigned seg[] = {1, 2, 4, 8, 16, 32};   /* floats: S = 4 ... 128 bytes */
    static const size_t sizes[] = {1, 31, 33, 1000, 4097};
    size_t si, i;
    int s;
    EXPECT(segment_per_line_index(0, 1) == 0 && segment_per_line_index(1, 1) == 32 &&
           segment_per_line_index(5, 1) == 160);                          /* S = 4: one float per line */
    EXPECT(segment_per_line_index(1, 2) == 1 && segment_per_line_index(2, 2) == 32 &&
           segment_per_line_index(7, 2) == 97);                           /* S = 8: two per line       */
    EXPECT(segment_per_line_index(100, 32) == 100);                       /* S = 128: the plain copy  */
    for (si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
        for (s = 0; s < 6; s++) {
            size_t n = sizes[si], f = seg[s], src = segment_per_line_src_floats(n, seg[s]), end = 0;
            unsigned char *seen = (unsigned char *)calloc(src, 1);
            int ok = seen != NULL;
            EXPECT(segments_count(n, seg[s]) == (n + f - 1) / f);
            for (i = 0; ok && i < n; i++) {
                size_t at = segment_per_line_index(i, seg[s]);
                ok = at < src && !seen[at];
                if (ok) seen[at] = 1;
                if (at + 1 > end) end = at + 1;
                /* within a segment: consecutive floats; a segment starts line i / f */
                if (ok && i % f) ok = at == segment_per_line_index(i - 1, seg[s]) + 1;
                if (ok && i % f == 0) ok = at == i / f * LINE_FLOATS;
            }
            EXPECT(ok && end == src);
            free(seen);
        }
    EXPECT(segment_per_line_src_floats(0, 1) == 0);
}

/* Experiment 3: for every size and both orders, a permutation of the lines -- distinct reads, each
 * segment alone at the start of its line, inside permuted_line_src_floats -- and the same lines in
 * both orders when the segments fill a power of two of lines. */
static void test_permuted_lines(void)
{
    static const unsigned seg[] = {1, 2, 4, 8, 16, 32};
    static const size_t sizes[] = {1, 31, 1000, 4096, 4097};
    size_t si, i;
    int s, o;
    for (si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
        for (s = 0; s < 6; s++) {
            size_t n = sizes[si], f = seg[s], src = permuted_line_src_floats(n, seg[s]);
            unsigned char *lines[2];
            for (o = 0; o < 2; o++) {
                line_order_t ord = make_line_order(n, seg[s], o);
                unsigned char *seen = (unsigned char *)calloc(src, 1);
                int ok = seen != NULL;
                lines[o] = (unsigned char *)calloc(src / LINE_FLOATS, 1);
                ok = ok && lines[o] != NULL;
                EXPECT((ord.mult & 1) == 1 && ((ord.mask + 1) & ord.mask) == 0 && ord.mask + 1 >= segments_count(n, seg[s]));
                EXPECT(o == 1 || ord.mult == 1);
                for (i = 0; ok && i < n; i++) {
                    size_t at = permuted_line_index(i, seg[s], ord);
                    ok = at < src && !seen[at];
                    if (ok) seen[at] = 1;
                    if (ok) lines[o][at / LINE_FLOATS] = 1;
                    if (ok && i % f) ok = at == permuted_line_index(i - 1, seg[s], ord) + 1;
                    if (ok && i % f == 0) ok = at % LINE_FLOATS == 0;
                    /* the sequential order reads experiment 2's addresses */
                    if (ok && o == 0) ok = at == segment_per_line_index(i, seg[s]);
                }
                EXPECT(ok);
                free(seen);
            }
            if (lines[0] && lines[1] && (n % f == 0) && ((n / f) & (n / f - 1)) == 0)
                EXPECT(memcmp(lines[0], lines[1], src / LINE_FLOATS) == 0);
            free(lines[0]);
            free(lines[1]);
        }
}

/* The scattered order moves neighbouring segments far apart. */
static void test_scattered_far_apart(void)
{
    line_order_t sc = make_line_order(1 << 20, 1, 1);
    EXPECT(permuted_line_index(0, 1, sc) == 0);
    EXPECT(permuted_line_index(1, 1, sc) - permuted_line_index(0, 1, sc) > 32 * 1024);   /* not in one DRAM page */
}

int main(void)
{
    run_test("01 cpu_warp_sums_f32: sums in warp_sum_xor's order", test_warp_sums);
    run_test("01 segment_per_line_index: segment k at the start of line k, exact source extent", test_segment_per_line);
    run_test("01 permuted_line_index: a permutation of lines, sequential = experiment 2's addresses", test_permuted_lines);
    run_test("01 scattered lines: neighbouring segments far apart", test_scattered_far_apart);
    return unit_status();
}
