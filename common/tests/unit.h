/* The harness of every host unit test (common/tests and each lesson's tests/): EXPECT records a
 * failed expectation with its line, run_test prints one "PASS name" or "FAIL name" line per test
 * (what common/test.sh counts), and main returns unit_status().  Plain C99, one test program per
 * file, so the counters can live here. */
#ifndef UNIT_H
#define UNIT_H

#include <stdio.h>
#include <string.h>

#ifdef __GNUC__
#define UNIT_MAYBE_UNUSED __attribute__((unused))
#else
#define UNIT_MAYBE_UNUSED
#endif

static int failures = 0, failed_here = 0;

#define EXPECT(cond)                                                             \
    do {                                                                         \
        if (!(cond)) {                                                           \
            printf("  expectation failed at line %d: %s\n", __LINE__, #cond);     \
            failed_here = 1;                                                     \
        }                                                                        \
    } while (0)

static UNIT_MAYBE_UNUSED void run_test(const char *name, void (*fn)(void))
{
    failed_here = 0;
    fn();
    printf("%s %s\n", failed_here ? "FAIL" : "PASS", name);
    failures += failed_here;
}

/* The exit status of a test program: 1 when any test failed. */
static int unit_status(void) { return failures ? 1 : 0; }

/* Splits "prog " + line on spaces into argv (in buf, which must outlive argv); returns argc. */
static UNIT_MAYBE_UNUSED int unit_argv(const char *line, char *buf, size_t buflen, char **argv, int maxargs)
{
    int argc = 0;
    char *t;
    snprintf(buf, buflen, "prog %s", line);
    for (t = strtok(buf, " "); t && argc < maxargs - 1; t = strtok(NULL, " ")) argv[argc++] = t;
    argv[argc] = NULL;
    return argc;
}

#endif
