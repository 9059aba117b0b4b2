/* Command-line parsing shared by all lessons (see args.h). */
#include "args.h"
#include "tests/internal.h"

#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- what a program set before parsing ------------------------------------------------------ */

/* --reps when not given (args_default_reps); --quick's 5 and an explicit --reps override it */
static int default_reps = 20;

/* The shared options, one bit each for args_without (--flush and --no-flush are one setting). */
enum {
    SH_SIZE = 1u << 0, SH_REPS = 1u << 1, SH_WARMUP = 1u << 2, SH_BLOCK = 1u << 3, SH_SEED = 1u << 4,
    SH_FLUSH = 1u << 5, SH_CHECK = 1u << 6, SH_QUICK = 1u << 7, SH_CSV = 1u << 8,
    SH_ALWAYS = 0       /* --dry-run and --help: every program has them */
};
typedef enum { S_SIZE, S_REPS, S_WARMUP, S_BLOCK, S_SEED, S_FLUSH, S_NO_FLUSH, S_CHECK, S_QUICK, S_CSV,
               S_DRY_RUN, S_HELP, S_COUNT } shared_id_t;
static const struct {
    const char *name;
    unsigned bit;
    const char *needs;  /* what its value is, for "option '--x' needs ..."; NULL for a flag */
} shared[S_COUNT] = {
    {"--size", SH_SIZE, "a size"},   /* the forms are added from size_forms */
    {"--reps", SH_REPS, "a number"},
    {"--warmup", SH_WARMUP, "a number"},
    {"--block", SH_BLOCK, "a block shape (W or WxH)"},
    {"--seed", SH_SEED, "a number"},
    {"--flush", SH_FLUSH, NULL},
    {"--no-flush", SH_FLUSH, NULL},
    {"--check", SH_CHECK, NULL},
    {"--quick", SH_QUICK, NULL},
    {"--csv", SH_CSV, NULL},
    {"--dry-run", SH_ALWAYS, NULL},
    {"--help", SH_ALWAYS, NULL},
};

static unsigned removed = 0;                           /* args_without */
static int size_forms = ARGS_SIZE_N | ARGS_SIZE_NXNY;  /* args_size_forms */
static int dry_run_given = 0;                          /* args_dry_run */

/* what args_reject and matrix_size_or_exit need from the last args_parse_or_exit */
static struct {
    const char *prog;
    int argc;
    char **argv;
} last = {"lesson", 0, NULL};

void args_default_reps(int reps) { default_reps = reps; }

void args_without(const char *opt)
{
    int k;
    if (!opt) {
        removed = 0;
        size_forms = ARGS_SIZE_N | ARGS_SIZE_NXNY;
        return;
    }
    for (k = 0; k < S_COUNT; k++)
        if (shared[k].bit != SH_ALWAYS && !strcmp(opt, shared[k].name)) {
            removed |= shared[k].bit;
            return;
        }
    /* a typo in the program itself: failing here is the only way it gets noticed */
    fprintf(stderr, "args_without: '%s' is not a shared option that a program can go without\n", opt);
    abort();
}

void args_size_forms(int forms) { size_forms = forms & (ARGS_SIZE_N | ARGS_SIZE_NXNY); }

void args_configure(int default_reps_or_0, const char *without, const char *size_form)
{
    args_default_reps(default_reps_or_0 > 0 ? default_reps_or_0 : 20);
    args_without(NULL);
    if (without) args_without(without);
    if (!size_form) return;
    if (strcmp(size_form, "N") && strcmp(size_form, "NXxNY")) {
        /* a typo in the program itself, as in args_without */
        fprintf(stderr, "args_configure: size_form '%s' is neither \"N\" nor \"NXxNY\"\n", size_form);
        abort();
    }
    args_size_forms(strcmp(size_form, "N") ? ARGS_SIZE_NXNY : ARGS_SIZE_N);
}

int args_dry_run(void) { return dry_run_given; }

void args_defaults(args_t *a)
{
    memset(a, 0, sizeof *a);
    a->reps = default_reps;
    a->warmup = 3;
    a->flush = FLUSH_AUTO;
    a->seed = 2024;
}

/* ---- the one number scanner ------------------------------------------------------------------- */

enum { SCAN_OK, SCAN_SYNTAX, SCAN_LEADING_ZERO, SCAN_TOO_BIG };

/* s[0..len) as a whole decimal number of at most max: digits only (no sign, no space, no 0x), no
 * leading zero except "0" itself, so that what is accepted reads the same to everyone. */
static int scan_number(const char *s, size_t len, unsigned long long max, unsigned long long *out)
{
    unsigned long long v = 0;
    size_t i;
    if (len == 0) return SCAN_SYNTAX;
    for (i = 0; i < len; i++)
        if (s[i] < '0' || s[i] > '9') return SCAN_SYNTAX;
    if (s[0] == '0' && len > 1) return SCAN_LEADING_ZERO;
    for (i = 0; i < len; i++) {
        unsigned d = (unsigned)(s[i] - '0');
        if (d > max || v > (max - d) / 10) return SCAN_TOO_BIG;  /* v * 10 + d > max, without overflow */
        v = v * 10 + d;
    }
    *out = v;
    return SCAN_OK;
}

/* scan_number with an optional k/M/G suffix (x 2^10, 2^20, 2^30): --size only. */
static int scan_count(const char *s, size_t len, unsigned long long max, unsigned long long *out)
{
    unsigned long long v, mul = 1;
    int r;
    if (len > 0) {
        switch (s[len - 1]) {
        case 'k': case 'K': mul = 1ull << 10; len--; break;
        case 'm': case 'M': mul = 1ull << 20; len--; break;
        case 'g': case 'G': mul = 1ull << 30; len--; break;
        default: break;
        }
    }
    r = scan_number(s, len, max, &v);
    if (r != SCAN_OK) return r;
    if (v > max / mul) return SCAN_TOO_BIG;
    *out = v * mul;
    return SCAN_OK;
}

static const char *zeros_note(int r) { return r == SCAN_LEADING_ZERO ? ", written without leading zeros" : ""; }

/* ---- one parser per kind of value: NULL when the value is good, else why it is not (in why) --- */

static const char *int_value(const char *s, long min, long max, long *out, char *why, size_t n)
{
    unsigned long long v = 0;
    int r = max < 0 || max < min ? SCAN_TOO_BIG : scan_number(s, strlen(s), (unsigned long long)max, &v);
    if (r == SCAN_OK && (long long)v >= (long long)min) {
        *out = (long)v;
        return NULL;
    }
    snprintf(why, n, "expected a whole number from %ld to %ld%s", min, max, zeros_note(r));
    return why;
}

static const char *seed_value(const char *s, unsigned long long *out, char *why, size_t n)
{
    int r = scan_number(s, strlen(s), ULLONG_MAX, out);
    if (r == SCAN_OK) return NULL;
    snprintf(why, n, "expected a whole number from 0 to %llu%s", ULLONG_MAX, zeros_note(r));
    return why;
}

static const char *block_value(const char *s, int *bx, int *by, char *why, size_t n)
{
    const char *x = strchr(s, 'x');
    unsigned long long w = 0, h = 1;
    int r = scan_number(s, x ? (size_t)(x - s) : strlen(s), 1024, &w);
    if (r == SCAN_OK && x) r = scan_number(x + 1, strlen(x + 1), 1024, &h);
    if (r == SCAN_OK && w >= 1 && h >= 1 && w * h <= 1024) {  /* the hardware's threads per block */
        *bx = (int)w;
        *by = (int)h;
        return NULL;
    }
    snprintf(why, n, "expected W or WxH threads, whole numbers with W*H from 1 to 1024%s", zeros_note(r));
    return why;
}

static const char *size_forms_text(int forms)
{
    return forms == ARGS_SIZE_N ? "N" : forms == ARGS_SIZE_NXNY ? "NXxNY" : "N|NXxNY";
}

static const char *size_value(const char *s, int forms, int64_t *nx, int64_t *ny, char *why, size_t n)
{
    const char *x = strchr(s, 'x');
    unsigned long long a = 0, b = 0;
    int r;
    if (!x) {
        r = scan_count(s, strlen(s), (unsigned long long)ARGS_MAX_ELEMS, &a);
    } else {
        r = scan_count(s, (size_t)(x - s), (unsigned long long)ARGS_MAX_DIM, &a);
        if (r == SCAN_OK) r = scan_count(x + 1, strlen(x + 1), (unsigned long long)ARGS_MAX_DIM, &b);
    }
    if (r == SCAN_SYNTAX || r == SCAN_LEADING_ZERO)
        snprintf(why, n, "expected %s%s, whole numbers with an optional k/M/G suffix%s",
                 forms == ARGS_SIZE_N ? "one number N" : forms == ARGS_SIZE_NXNY ? "NXxNY" : "N or NXxNY",
                 forms == ARGS_SIZE_N ? "" : " (NX columns, NY rows)", zeros_note(r));
    else if (r == SCAN_TOO_BIG && !x)
        snprintf(why, n, "at most %lld (2^40) elements", ARGS_MAX_ELEMS);
    else if (r == SCAN_TOO_BIG)
        snprintf(why, n, "each side is at most %lld", ARGS_MAX_DIM);
    else if (a == 0 || (x && b == 0))
        snprintf(why, n, "sizes start at 1");
    else if (x && a * b > (unsigned long long)ARGS_MAX_ELEMS)  /* both <= 2^31: no overflow */
        snprintf(why, n, "NX*NY is at most %lld (2^40) elements", ARGS_MAX_ELEMS);
    else if (x && !(forms & ARGS_SIZE_NXNY))
        snprintf(why, n, "this program takes one number N, not NXxNY");
    else if (!x && !(forms & ARGS_SIZE_N))
        snprintf(why, n, "this program takes NXxNY (NX columns, NY rows), not one number");
    else {
        *nx = (int64_t)a;
        *ny = (int64_t)b;
        return NULL;
    }
    return why;
}

int args_parse_size(const char *s, int64_t *nx, int64_t *ny)
{
    char why[160];
    return size_value(s, ARGS_SIZE_N | ARGS_SIZE_NXNY, nx, ny, why, sizeof why) ? -1 : 0;
}

static const char *list_value(const char *s, long min, long max, args_list_t *out, char *why, size_t n)
{
    args_list_t l;
    const char *p = s;
    l.n = 0;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        long v;
        char item[40], ignored[160];
        if (l.n == ARGS_LIST_MAX) {
            snprintf(why, n, "at most %d numbers", ARGS_LIST_MAX);
            return why;
        }
        snprintf(item, sizeof item, "%.*s", (int)(len < 32 ? len : 32), p);
        if (len >= 32 || int_value(item, min, max, &v, ignored, sizeof ignored)) {
            snprintf(why, n, "expected whole numbers from %ld to %ld separated by commas%s", min, max,
                     len == 0 ? " (an item is empty)" : "");
            return why;
        }
        l.v[l.n++] = (int)v;
        if (!comma) break;
        p = comma + 1;
    }
    *out = l;
    return NULL;
}

/* ---- the parser ------------------------------------------------------------------------------- */

/* One argument being parsed: its option's name, and its value as typed. */
typedef struct {
    const char *tok;       /* the argument as typed: "--reps" or "--reps=5"          */
    char name[48];         /* "--reps"                                                */
    const char *value;     /* "5" (the next argument, or what follows '='); NULL: none */
    int attached;          /* the value came as --opt=value                           */
} arg_t;

/* "bad --reps '+5': why", or "bad '--reps=+5': why": the argument exactly as typed, either way. */
static int bad_value(const arg_t *g, const char *why, char *err, size_t errlen)
{
    if (g->attached) snprintf(err, errlen, "bad '%s': %s", g->tok, why);
    else snprintf(err, errlen, "bad %s '%s': %s", g->name, g->value, why);
    return ARGS_ERROR;
}

/* Finds the value of the option in argv[*i] (attached, or the next argument, which it consumes).
 * A next argument that starts with "--" is the next option, not a value: no value of ours does. */
static int take_value(arg_t *g, int argc, char **argv, int *i, const char *needs, char *err, size_t errlen)
{
    if (g->attached) return ARGS_OK;
    if (*i + 1 >= argc) {
        snprintf(err, errlen, "option '%s' needs %s; it is the last argument", g->name, needs);
        return ARGS_ERROR;
    }
    if (!strncmp(argv[*i + 1], "--", 2)) {
        snprintf(err, errlen, "option '%s' needs %s, but '%s' follows it", g->name, needs, argv[*i + 1]);
        return ARGS_ERROR;
    }
    g->value = argv[++*i];
    return ARGS_OK;
}

static int shared_lookup(const char *name, unsigned off)
{
    int k;
    for (k = 0; k < S_COUNT; k++)
        if (!(shared[k].bit & off) && !strcmp(name, shared[k].name)) return k;
    return -1;
}

static int lesson_lookup(const char *name, const lesson_opt_t *opts, int nopts)
{
    int k;
    for (k = 0; k < nopts; k++)
        if (!strcmp(name, opts[k].name)) return k;
    return -1;
}

typedef struct {
    int reps_given, warmup_given;
    unsigned off;          /* shared options this program does not have */
} state_t;

static int shared_option(int k, arg_t *g, int argc, char **argv, int *i, args_t *a, state_t *st,
                         char *err, size_t errlen)
{
    char why[200], needs[64];
    long n = 0;
    const char *bad = NULL;
    if (!shared[k].needs) {
        switch ((shared_id_t)k) {
        case S_FLUSH: a->flush = FLUSH_ON; break;
        case S_NO_FLUSH: a->flush = FLUSH_OFF; break;
        case S_CHECK: a->check = 1; break;
        case S_QUICK: a->quick = 1; break;
        case S_CSV: a->csv = 1; break;
        case S_DRY_RUN: a->dry_run = 1; break;
        default: a->help = 1; break;   /* --help, found before the loop; kept for completeness */
        }
        return ARGS_OK;
    }
    if (k == S_SIZE) snprintf(needs, sizeof needs, "a size (%s)", size_forms_text(size_forms));
    else snprintf(needs, sizeof needs, "%s", shared[k].needs);
    if (take_value(g, argc, argv, i, needs, err, errlen)) return ARGS_ERROR;
    switch ((shared_id_t)k) {
    case S_SIZE: bad = size_value(g->value, size_forms, &a->nx, &a->ny, why, sizeof why); break;
    case S_REPS:
        if (!(bad = int_value(g->value, 1, ARGS_MAX_REPS, &n, why, sizeof why))) a->reps = (int)n;
        st->reps_given = 1;
        break;
    case S_WARMUP:
        if (!(bad = int_value(g->value, 0, ARGS_MAX_WARMUP, &n, why, sizeof why))) a->warmup = (int)n;
        st->warmup_given = 1;
        break;
    case S_BLOCK: bad = block_value(g->value, &a->bx, &a->by, why, sizeof why); break;
    default: bad = seed_value(g->value, &a->seed, why, sizeof why); break;
    }
    return bad ? bad_value(g, bad, err, errlen) : ARGS_OK;
}

static int lesson_option(const lesson_opt_t *o, arg_t *g, int argc, char **argv, int *i, char *err, size_t errlen)
{
    char why[200];
    const char *bad;
    long n = 0;
    args_list_t l;
    if (o->kind == OPT_FLAG) {
        *(int *)o->dst = 1;
        return ARGS_OK;
    }
    if (take_value(g, argc, argv, i, o->kind == OPT_LIST ? "a list of numbers (e.g. 1,2,4)" : "a number",
                   err, errlen))
        return ARGS_ERROR;
    if (o->kind == OPT_LIST) {
        /* every occurrence must be good; the last one wins, and a bad one leaves dst alone */
        bad = list_value(g->value, o->min, o->max, &l, why, sizeof why);
        if (!bad) memcpy(o->dst, &l, sizeof l);
    } else {
        bad = int_value(g->value, o->min, o->max, &n, why, sizeof why);
        if (!bad) *(int *)o->dst = (int)n;
    }
    return bad ? bad_value(g, bad, err, errlen) : ARGS_OK;
}

/* One argument, argv[*i]: an option, with its value if it takes one. */
static int parse_arg(int argc, char **argv, int *i, args_t *a, const lesson_opt_t *opts, int nopts,
                     state_t *st, char *err, size_t errlen)
{
    const char *t = argv[*i], *eq = strchr(t, '=');
    arg_t g;
    int k, o;
    size_t len = eq ? (size_t)(eq - t) : strlen(t);
    if (strncmp(t, "--", 2) != 0) {
        const char *prev = *i > 1 ? argv[*i - 1] : NULL;
        if (t[0] == '-') snprintf(err, errlen, "unknown option '%s'", t);
        else if (prev && !strncmp(prev, "--", 2) && !strchr(prev, '='))
            snprintf(err, errlen, "unexpected argument '%s' after '%s', which takes no value", t, prev);
        else snprintf(err, errlen, "unexpected argument '%s': options start with --", t);
        return ARGS_ERROR;
    }
    g.tok = t;
    g.attached = eq != NULL;
    g.value = eq ? eq + 1 : NULL;
    snprintf(g.name, sizeof g.name, "%.*s", (int)(len < sizeof g.name ? len : sizeof g.name - 1), t);
    k = len < sizeof g.name ? shared_lookup(g.name, st->off) : -1;
    o = k < 0 && len < sizeof g.name ? lesson_lookup(g.name, opts, nopts) : -1;
    if (k < 0 && o < 0) {
        if (eq) snprintf(err, errlen, "unknown option '%s' (in '%s')", g.name, t);
        else snprintf(err, errlen, "unknown option '%s'", t);
        return ARGS_ERROR;
    }
    if (eq && (k >= 0 ? !shared[k].needs : opts[o].kind == OPT_FLAG)) {
        snprintf(err, errlen, "option '%s' takes no value: '%s'", g.name, t);
        return ARGS_ERROR;
    }
    return k >= 0 ? shared_option(k, &g, argc, argv, i, a, st, err, errlen)
                  : lesson_option(&opts[o], &g, argc, argv, i, err, errlen);
}

/* args_parse for a program without the shared options in `off` (besides those args_without took). */
static int parse_without(int argc, char **argv, args_t *a, const lesson_opt_t *opts, int nopts, unsigned off,
                         char *err, size_t errlen)
{
    state_t st;
    int i;
    args_defaults(a);
    dry_run_given = 0;
    if (errlen) err[0] = '\0';
    /* --help wins wherever it is: whoever typed it wants the options, not an error about them */
    for (i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            a->help = 1;
            return ARGS_HELP;
        }
    st.reps_given = st.warmup_given = 0;
    st.off = off | removed | (size_forms ? 0u : (unsigned)SH_SIZE);
    for (i = 1; i < argc; i++)
        if (parse_arg(argc, argv, &i, a, opts, nopts, &st, err, errlen)) return ARGS_ERROR;
    /* --quick is for a first look, not for the numbers: fewer repetitions unless asked for */
    if (a->quick && !st.reps_given) a->reps = 5;
    if (a->quick && !st.warmup_given) a->warmup = 1;
    dry_run_given = a->dry_run;
    return ARGS_OK;
}

int args_parse(int argc, char **argv, args_t *a, const lesson_opt_t *opts, int nopts, char *err, size_t errlen)
{
    return parse_without(argc, argv, a, opts, nopts, 0, err, errlen);
}

/* ---- usage and the reactions ------------------------------------------------------------------ */

static void usage_line(FILE *f, const char *head, const char *text)
{
    fprintf(f, "  %-15s %s\n", head, text);
}

void args_usage(FILE *f, const char *prog, const char *summary, const char *size_help,
                const lesson_opt_t *opts, int nopts)
{
    unsigned off = removed | (size_help && size_forms ? 0u : (unsigned)SH_SIZE);
    char head[64], text[100];
    int k;
    fprintf(f, "Usage: %s [options]\n%s\n\n", prog, summary);
    fprintf(f, "Options (an option with a value also takes it as --option=value):\n");
    if (!(off & SH_SIZE)) {
        snprintf(head, sizeof head, "--size %s", size_forms_text(size_forms));
        usage_line(f, head, size_help);
        usage_line(f, "", "(suffix k/M/G = x1024, x1024^2, x1024^3)");
    }
    if (!(off & SH_REPS)) {
        snprintf(text, sizeof text, "timed repetitions per kernel, median reported (default %d)", default_reps);
        usage_line(f, "--reps N", text);
    }
    if (!(off & SH_WARMUP)) usage_line(f, "--warmup N", "untimed launches before timing (default 3)");
    if (!(off & SH_BLOCK)) usage_line(f, "--block WxH", "thread-block shape, W*H <= 1024 (default: lesson's choice)");
    if (!(off & SH_FLUSH)) {
        usage_line(f, "--flush", "flush the L2 cache before every timed launch");
        usage_line(f, "--no-flush", "never flush (default: flush when the data is < 4x the L2 size)");
    }
    if (!(off & SH_SEED)) usage_line(f, "--seed N", "seed of the random input data (default 2024)");
    if (!(off & SH_CHECK)) {
        usage_line(f, "--check", "verify every kernel at several odd sizes, no timing");
        usage_line(f, "", "(with --quick: only the small sizes)");
    }
    if (!(off & SH_QUICK)) usage_line(f, "--quick", "smaller sizes, 5 repetitions after 1 warm-up (unless given)");
    if (!(off & SH_CSV)) usage_line(f, "--csv", "machine-readable rows on stdout, nothing else");
    for (k = 0; k < nopts; k++) {
        const char *meta = opts[k].meta ? opts[k].meta : opts[k].kind == OPT_LIST ? "LIST" : "N";
        snprintf(head, sizeof head, "%s%s%s", opts[k].name, opts[k].kind == OPT_FLAG ? "" : " ",
                 opts[k].kind == OPT_FLAG ? "" : meta);
        usage_line(f, head, opts[k].help);
    }
    usage_line(f, "--dry-run", "check the arguments only: exit 0 before the first GPU call, nothing runs");
    usage_line(f, "--help", "this text");
    fprintf(f, "\nExit codes: 0 ok, 1 verification failed, 2 usage error, 3 no usable GPU/driver, 4 other CUDA error"
#ifdef EXIT_NO_MEMORY
               ",\n            5 not enough GPU or host memory"
#endif
               ".\n");
}

const char *args_raw_value(int argc, char **argv, const char *opt)
{
    const char *v = "?";
    size_t len = strlen(opt);
    int i;
    if (!argv) {   /* the command line of the last args_parse_or_exit */
        argc = last.argc;
        argv = last.argv;
    }
    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], opt) && i + 1 < argc) v = argv[i + 1];
        else if (!strncmp(argv[i], opt, len) && argv[i][len] == '=') v = argv[i] + len + 1;
    }
    return v;
}

/* The second line of every usage error: the usage itself would push the reason off the screen. */
static void print_help_hint(void)
{
    fprintf(stderr, "run with --help for the options\n");
}

void args_reject(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: ", last.prog);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    print_help_hint();
    exit(EXIT_USAGE);
}

void args_check_l2_fetch(int bytes)
{
    if (bytes != 0 && bytes != 32 && bytes != 64 && bytes != 128)
        args_reject("bad --l2-fetch '%s': expected 32, 64 or 128", args_raw_value(0, NULL, "--l2-fetch"));
}

void args_parse_or_exit(int argc, char **argv, args_t *a, const char *summary,
                        const char *size_help, const lesson_opt_t *opts, int nopts)
{
    char err[512];
    const char *prog = argc > 0 ? argv[0] : "lesson";
    int r;
    last.prog = prog;
    last.argc = argc;
    last.argv = argv;
    r = parse_without(argc, argv, a, opts, nopts, size_help ? 0u : (unsigned)SH_SIZE, err, sizeof err);
    if (r == ARGS_HELP) {
        args_usage(stdout, prog, summary, size_help, opts, nopts);
        exit(EXIT_OK);
    }
    if (r == ARGS_ERROR) {
        fprintf(stderr, "%s: %s\n", prog, err);
        print_help_hint();
        exit(EXIT_USAGE);
    }
}

/* ---- the matrix shape ------------------------------------------------------------------------- */

int matrix_size_from_args(const args_t *a, int def_nx, int def_ny, int *nx, int *ny)
{
    if (a->nx == 0) {
        *nx = def_nx;
        *ny = def_ny;
        return 0;
    }
    if (a->ny == 0) {
        /* N x N: N <= 2^20 keeps it within ARGS_MAX_ELEMS (and N within an int) */
        if (a->nx > ARGS_MAX_ELEMS / a->nx) return -1;
        *nx = *ny = (int)a->nx;
        return 0;
    }
    *nx = (int)a->nx;
    *ny = (int)a->ny;
    return 0;
}

void matrix_size_or_exit(const args_t *a, int def_nx, int def_ny, int *nx, int *ny)
{
    const char *typed = args_raw_value(last.argc, last.argv, "--size");
    char num[32];
    if (!matrix_size_from_args(a, def_nx, def_ny, nx, ny)) return;
    if (!strcmp(typed, "?")) {   /* not parsed by args_parse_or_exit (a test): the number will do */
        snprintf(num, sizeof num, "%lld", (long long)a->nx);
        typed = num;
    }
    args_reject("bad --size '%s': a square N x N matrix has at most %lld (2^40) elements, so N <= 1048576",
                typed, ARGS_MAX_ELEMS);
}
