/* Command-line parsing shared by all lessons (see args.h). */
#include "args.h"
#include "exitcodes.h"

#include <errno.h>
#include <stdarg.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* --reps when not given (args_default_reps); --quick's 5 and an explicit --reps override it */
static int default_reps = 20;

void args_default_reps(int reps) { default_reps = reps; }

void args_defaults(args_t *a)
{
    memset(a, 0, sizeof *a);
    a->reps = default_reps;
    a->warmup = 3;
    a->flush = FLUSH_AUTO;
    a->seed = 2024;
}

/* Parses a whole decimal number with an optional k/M/G suffix; rejects signs, junk and overflow. */
static int parse_count(const char *s, size_t len, long max, long *out)
{
    unsigned long long v = 0, mul = 1;
    size_t i, digits = 0;
    if (len == 0) return -1;
    switch (s[len - 1]) {
    case 'k': case 'K': mul = 1ull << 10; len--; break;
    case 'm': case 'M': mul = 1ull << 20; len--; break;
    case 'g': case 'G': mul = 1ull << 30; len--; break;
    default: break;
    }
    for (i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9') return -1;
        v = v * 10 + (unsigned long long)(s[i] - '0');
        if (v > (unsigned long long)max) return -1;
        digits++;
    }
    if (digits == 0) return -1;
    if (v > (unsigned long long)max / mul) return -1;
    v *= mul;
    if (v == 0) return -1;
    *out = (long)v;
    return 0;
}

int args_parse_size(const char *s, long *nx, long *ny)
{
    const char *x = strchr(s, 'x');
    long a = 0, b = 0;
    if (!x) {
        if (parse_count(s, strlen(s), ARGS_MAX_ELEMS, &a)) return -1;
        *nx = a;
        *ny = 0;
        return 0;
    }
    if (parse_count(s, (size_t)(x - s), ARGS_MAX_DIM, &a)) return -1;
    if (parse_count(x + 1, strlen(x + 1), ARGS_MAX_DIM, &b)) return -1;
    if ((unsigned long long)a * (unsigned long long)b > (unsigned long long)ARGS_MAX_ELEMS) return -1;
    *nx = a;
    *ny = b;
    return 0;
}

/* Plain signed integer in [min, max], no suffix. */
static int parse_int(const char *s, long min, long max, long *out)
{
    char *end;
    long v;
    if (*s == '\0') return -1;
    errno = 0;
    v = strtol(s, &end, 10);
    if (errno || *end != '\0' || v < min || v > max) return -1;
    *out = v;
    return 0;
}

static int parse_block(const char *s, int *bx, int *by)
{
    const char *x = strchr(s, 'x');
    long w, h = 1;
    if (x) {
        char buf[32];
        size_t n = (size_t)(x - s);
        if (n == 0 || n >= sizeof buf) return -1;
        memcpy(buf, s, n);
        buf[n] = '\0';
        if (parse_int(buf, 1, 1024, &w) || parse_int(x + 1, 1, 1024, &h)) return -1;
    } else if (parse_int(s, 1, 1024, &w)) {
        return -1;
    }
    if (w * h > 1024) return -1;  /* the hardware limit of threads per block */
    *bx = (int)w;
    *by = (int)h;
    return 0;
}

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return ARGS_ERROR; } while (0)

int args_parse(int argc, char **argv, args_t *a,
               const lesson_opt_t *opts, int nopts, char *err, size_t errlen)
{
    int i, k, reps_given = 0, warmup_given = 0;
    args_defaults(a);
    for (i = 1; i < argc; i++) {
        const char *t = argv[i];
        const char *v = (i + 1 < argc) ? argv[i + 1] : NULL;
        long n;
        if (!strcmp(t, "--help") || !strcmp(t, "-h")) { a->help = 1; return ARGS_HELP; }
        else if (!strcmp(t, "--csv"))   a->csv = 1;
        else if (!strcmp(t, "--check")) a->check = 1;
        else if (!strcmp(t, "--quick")) a->quick = 1;
        else if (!strcmp(t, "--flush")) a->flush = FLUSH_ON;
        else if (!strcmp(t, "--no-flush")) a->flush = FLUSH_OFF;
        else if (!strcmp(t, "--size") || !strcmp(t, "--reps") || !strcmp(t, "--warmup") ||
                 !strcmp(t, "--block") || !strcmp(t, "--seed")) {
            if (!v) FAIL("option %s needs a value", t);
            i++;
            if (!strcmp(t, "--size")) {
                if (args_parse_size(v, &a->nx, &a->ny))
                    FAIL("bad --size '%s': expected N or NXxNY, whole numbers >= 1 (k/M/G suffix allowed), at most %ld elements", v, ARGS_MAX_ELEMS);
            } else if (!strcmp(t, "--reps")) {
                if (parse_int(v, 1, ARGS_MAX_REPS, &n)) FAIL("bad --reps '%s': expected a whole number from 1 to %d", v, ARGS_MAX_REPS);
                a->reps = (int)n;
                reps_given = 1;
            } else if (!strcmp(t, "--warmup")) {
                if (parse_int(v, 0, ARGS_MAX_WARMUP, &n)) FAIL("bad --warmup '%s': expected a whole number from 0 to %d", v, ARGS_MAX_WARMUP);
                a->warmup = (int)n;
                warmup_given = 1;
            } else if (!strcmp(t, "--block")) {
                if (parse_block(v, &a->bx, &a->by)) FAIL("bad --block '%s': expected W or WxH with W*H from 1 to 1024 threads", v);
            } else {
                char *end;
                unsigned long long s;
                errno = 0;
                s = strtoull(v, &end, 10);
                if (errno || *end != '\0' || *v < '0' || *v > '9') FAIL("bad --seed '%s': expected a whole number", v);
                a->seed = s;
            }
        } else {
            for (k = 0; k < nopts; k++)
                if (!strcmp(t, opts[k].name)) break;
            if (k == nopts) FAIL("unknown option '%s'", t);
            if (opts[k].kind == OPT_FLAG) {
                *opts[k].dst = 1;
            } else {
                if (!v) FAIL("option %s needs a value", t);
                i++;
                if (parse_int(v, opts[k].min, opts[k].max, &n))
                    FAIL("bad %s '%s': expected a whole number from %ld to %ld", t, v, opts[k].min, opts[k].max);
                *opts[k].dst = (int)n;
            }
        }
    }
    /* --quick is for a first look, not for the numbers: fewer repetitions unless asked for */
    if (a->quick && !reps_given) a->reps = 5;
    if (a->quick && !warmup_given) a->warmup = 1;
    return ARGS_OK;
}

void args_usage(FILE *f, const char *prog, const char *summary, const char *size_help,
                const lesson_opt_t *opts, int nopts)
{
    int k;
    fprintf(f, "Usage: %s [options]\n%s\n\n", prog, summary);
    fprintf(f, "Options:\n");
    fprintf(f, "  --size N|NXxNY  %s\n", size_help);
    fprintf(f, "                  (suffix k/M/G = x1024, x1024^2, x1024^3)\n");
    fprintf(f, "  --reps N        timed repetitions per kernel, median reported (default %d)\n", default_reps);
    fprintf(f, "  --warmup N      untimed launches before timing (default 3)\n");
    fprintf(f, "  --block WxH     thread-block shape, W*H <= 1024 (default: lesson's choice)\n");
    fprintf(f, "  --flush         flush the L2 cache before every timed launch\n");
    fprintf(f, "  --no-flush      never flush (default: flush when the data is < 4x the L2 size)\n");
    fprintf(f, "  --seed N        seed of the random input data (default 2024)\n");
    fprintf(f, "  --check         verify every kernel at several odd sizes, no timing\n");
    fprintf(f, "                  (with --quick: only the small sizes)\n");
    fprintf(f, "  --quick         smaller sizes, 5 repetitions after 1 warm-up (unless given)\n");
    fprintf(f, "  --csv           machine-readable rows on stdout, nothing else\n");
    for (k = 0; k < nopts; k++) {
        char head[40];
        snprintf(head, sizeof head, "%s%s%s", opts[k].name, opts[k].kind == OPT_INT ? " " : "",
                 opts[k].kind == OPT_INT ? (opts[k].meta ? opts[k].meta : "N") : "");
        fprintf(f, "  %-15s %s\n", head, opts[k].help);
    }
    fprintf(f, "  --help          this text\n");
    fprintf(f, "\nExit codes: 0 ok, 1 verification failed, 2 usage error, 3 no usable GPU/driver, 4 other CUDA error.\n");
}

const char *args_raw_value(int argc, char **argv, const char *opt)
{
    const char *v = "?";
    int i;
    for (i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], opt)) v = argv[i + 1];
    return v;
}

/* what args_reject needs to print the usage again */
static struct {
    const char *prog, *summary, *size_help;
    const lesson_opt_t *opts;
    int nopts;
} last = {"lesson", "", "", NULL, 0};

void args_reject(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: ", last.prog);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    args_usage(stderr, last.prog, last.summary, last.size_help, last.opts, last.nopts);
    exit(EXIT_USAGE);
}

void args_parse_or_exit(int argc, char **argv, args_t *a, const char *summary,
                        const char *size_help, const lesson_opt_t *opts, int nopts)
{
    char err[256];
    const char *prog = argc > 0 ? argv[0] : "lesson";
    int r;
    last.prog = prog;
    last.summary = summary;
    last.size_help = size_help;
    last.opts = opts;
    last.nopts = nopts;
    r = args_parse(argc, argv, a, opts, nopts, err, sizeof err);
    if (r == ARGS_HELP) {
        args_usage(stdout, prog, summary, size_help, opts, nopts);
        exit(EXIT_OK);
    }
    if (r == ARGS_ERROR) {
        fprintf(stderr, "%s: %s\n", prog, err);
        args_usage(stderr, prog, summary, size_help, opts, nopts);
        exit(EXIT_USAGE);
    }
}
