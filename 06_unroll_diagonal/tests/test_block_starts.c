/* Unit tests of block_starts.h: how far out of number order blocks started, from their start times.
 * Plain C99; one PASS/FAIL line per test. */
#include "block_starts.h"

#include <stdio.h>

static int failed = 0;

static void expect(const char *name, int ok)
{
    printf("%s %s\n", ok ? "PASS" : "FAIL", name);
    failed |= !ok;
}

int main(void)
{
    static unsigned long long t[1000];
    block_start_order_t o;
    unsigned b;

    /* in number order, each a tick later: no block out of place */
    for (b = 0; b < 1000; b++) t[b] = 100 + b;
    expect("blocks started in number order: 0 places out", block_start_order(t, 1000, &o) == 0 && o.p50 == 0 &&
                                                                o.p99 == 0 && o.max == 0);
    /* all in one tick: ties count as number order */
    for (b = 0; b < 1000; b++) t[b] = 7;
    expect("blocks stamped in the same tick count as in order", block_start_order(t, 1000, &o) == 0 && o.max == 0);
    /* reversed: block b started (999 - b)-th, |r - b| = |999 - 2b|: 1, 3, ..., 999, each twice */
    for (b = 0; b < 1000; b++) t[b] = 5000 - b;
    expect("reversed: median 499 or 501, 99th percentile 989, largest 999",
           block_start_order(t, 1000, &o) == 0 && (o.p50 == 499 || o.p50 == 501) && o.p99 == 989 && o.max == 999);
    /* one block late: block 10 starts last, every block after it one place early */
    for (b = 0; b < 1000; b++) t[b] = b;
    t[10] = 2000;
    expect("one block started last: it is 989 places late, 989 others 1 place early",
           block_start_order(t, 1000, &o) == 0 && o.p50 == 1 && o.p99 == 1 && o.max == 989);
    /* waves of 100 blocks in reversed order inside each wave: never more than 99 places out */
    for (b = 0; b < 1000; b++) t[b] = (b / 100) * 1000 + (99 - b % 100);
    expect("reversed inside waves of 100: at most 99 places out", block_start_order(t, 1000, &o) == 0 && o.max == 99);
    expect("one block: 0 places out", block_start_order(t, 1, &o) == 0 && o.max == 0);
    return failed;
}
