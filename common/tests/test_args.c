/* Unit tests of the command-line parser (args.h): the strict number scanner, --opt=value, lists,
 * the error lines and exit codes (in a child process), args_without, sizes up to 2^40 elements, the
 * matrix shape.  Plain C99 plus fork; one PASS/FAIL line per test. */
#define _POSIX_C_SOURCE 200809L /* fork, dup2, fileno, waitpid */
#include "args.h"
#include "tests/internal.h"
#include "tests/unit.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>


/* ---- helpers -------------------------------------------------------------------------------- */

/* The lesson options the tests parse with: an int, a flag, a list. */
static int stride, fp64;
static args_list_t strides;
static const lesson_opt_t opts[3] = {
    {"--stride", OPT_INT, &stride, 1, 32, "S", "stride"},
    {"--fp64", OPT_FLAG, &fp64, 0, 0, NULL, "doubles"},
    {"--strides", OPT_LIST, &strides, 1, 32, NULL, "strides to time"},
};

static char err[512];

/* Parses "prog" + the arguments given (NULL-terminated), each one argv element as is (spaces kept). */
static int parse_v(args_t *a, ...)
{
    char *argv[64];
    int argc = 0;
    va_list ap;
    argv[argc++] = (char *)"prog";
    va_start(ap, a);
    while (argc < 63 && (argv[argc] = va_arg(ap, char *)) != NULL) argc++;
    va_end(ap);
    argv[argc] = NULL;
    stride = fp64 = 0;
    strides.n = 0;
    return args_parse(argc, argv, a, opts, 3, err, sizeof err);
}

/* Parses "prog" + line split on spaces. */
static int parse(const char *line, args_t *a)
{
    char buf[1024], *argv[128];
    int argc = unit_argv(line, buf, sizeof buf, argv, 128);
    stride = fp64 = 0;
    strides.n = 0;
    return args_parse(argc, argv, a, opts, 3, err, sizeof err);
}

/* option + value (one argv element each) must fail with an error that quotes the value in '...' */
static int rejects(const char *opt, const char *value)
{
    args_t a;
    char quoted[200];
    int r = parse_v(&a, opt, value, (char *)NULL);
    snprintf(quoted, sizeof quoted, "'%s'", value);
    if (r == ARGS_ERROR && strstr(err, quoted)) return 1;
    printf("  %s '%s' -> %d, message '%s'\n", opt, value, r, err);
    return 0;
}

/* What a child process printed and how it ended: args_parse_or_exit and args_reject exit. */
typedef struct {
    int rc;
    char out[8192], err[8192];
} child_t;

static void slurp(FILE *f, char *buf, size_t n)
{
    size_t got;
    rewind(f);
    got = fread(buf, 1, n - 1, f);
    buf[got] = '\0';
    fclose(f);
}

static void run_child(void (*fn)(void *), void *ctx, child_t *c)
{
    FILE *o = tmpfile(), *e = tmpfile();
    int status = 0;
    pid_t pid;
    c->rc = -1;
    c->out[0] = c->err[0] = '\0';
    if (!o || !e) return;
    fflush(NULL);
    pid = fork();
    if (pid == 0) {
        dup2(fileno(o), 1);
        dup2(fileno(e), 2);
        fn(ctx);
        fflush(NULL);
        _exit(99);  /* fn was to exit */
    }
    if (pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status)) c->rc = WEXITSTATUS(status);
    slurp(o, c->out, sizeof c->out);
    slurp(e, c->err, sizeof c->err);
}

/* args_parse_or_exit on "prog" + the space-separated line, with this size_help */
typedef struct {
    const char *line, *size_help;
} cmd_t;

static void parse_or_exit_child(void *ctx)
{
    const cmd_t *cmd = (const cmd_t *)ctx;
    static char buf[1024];
    char *argv[64], *t;
    int argc = 0;
    args_t a;
    snprintf(buf, sizeof buf, "./prog %s", cmd->line);
    for (t = strtok(buf, " "); t && argc < 63; t = strtok(NULL, " ")) argv[argc++] = t;
    argv[argc] = NULL;
    args_parse_or_exit(argc, argv, &a, "A test program.", cmd->size_help, opts, 3);
    printf("parsed\n");
    exit(args_dry_run() ? 10 : 0);
}

static child_t child;

static void run_parse(const char *line, const char *size_help)
{
    cmd_t cmd;
    cmd.line = line;
    cmd.size_help = size_help;
    run_child(parse_or_exit_child, &cmd, &child);
}

/* a usage error: exit 2, nothing on stdout, exactly two lines on stderr, the first being
 * "./prog: " + first (a prefix), the second the pointer to --help */
static int usage_error(const char *first)
{
    char want[600];
    snprintf(want, sizeof want, "./prog: %s", first);
    if (child.rc == EXIT_USAGE && child.out[0] == '\0' && !strncmp(child.err, want, strlen(want)) &&
        strstr(child.err, "\nrun with --help for the options\n") &&
        !strcmp(strstr(child.err, "\nrun with --help for the options\n"), "\nrun with --help for the options\n") &&
        !strstr(child.err, "Usage"))
        return 1;
    printf("  wanted exit 2 and '%s'; got %d, stdout '%s', stderr '%s'\n", want, child.rc, child.out, child.err);
    return 0;
}

/* the usage text with this size_help, as --help prints it */
static void usage_text(const char *size_help, char *buf, size_t n)
{
    FILE *f = tmpfile();
    buf[0] = '\0';
    if (!f) return;
    args_usage(f, "prog", "A test program.", size_help, opts, 3);
    slurp(f, buf, n);
}

/* ---- the tests ------------------------------------------------------------------------------ */

static void test_good(void)
{
    args_t a;
    EXPECT(parse("", &a) == ARGS_OK);
    EXPECT(a.reps == 20 && a.warmup == 3 && a.flush == FLUSH_AUTO && a.nx == 0 && !a.csv && !a.check);
    EXPECT(a.seed == 2024 && !a.dry_run && a.bx == 0 && stride == 0 && strides.n == 0);
    EXPECT(parse("--size 8191x4097 --reps 7 --warmup 0 --block 32x8 --csv --check --quick --seed 9", &a) == ARGS_OK);
    EXPECT(a.nx == 8191 && a.ny == 4097 && a.reps == 7 && a.warmup == 0 && a.bx == 32 && a.by == 8);
    EXPECT(a.csv && a.check && a.quick && a.seed == 9);
    EXPECT(parse("--size 4096", &a) == ARGS_OK && a.nx == 4096 && a.ny == 0);
    args_default_reps(10);  /* a lesson with many points: its own default, still overridden */
    EXPECT(parse("", &a) == ARGS_OK && a.reps == 10);
    EXPECT(parse("--quick", &a) == ARGS_OK && a.reps == 5);
    EXPECT(parse("--reps 7", &a) == ARGS_OK && a.reps == 7);
    args_default_reps(20);
    EXPECT(parse("--size 64M", &a) == ARGS_OK && a.nx == 64L << 20);
    EXPECT(parse("--size 2kx3", &a) == ARGS_OK && a.nx == 2048 && a.ny == 3);
    EXPECT(parse("--size 1x1 --block 256", &a) == ARGS_OK && a.nx == 1 && a.bx == 256 && a.by == 1);
    EXPECT(parse("--block 1024x1 --flush", &a) == ARGS_OK && a.flush == FLUSH_ON);
    EXPECT(parse("--no-flush", &a) == ARGS_OK && a.flush == FLUSH_OFF);
    EXPECT(parse("--stride 32 --fp64", &a) == ARGS_OK && stride == 32 && fp64 == 1);
    EXPECT(parse("--quick", &a) == ARGS_OK && a.reps == 5 && a.warmup == 1);
    EXPECT(parse("--reps 9 --quick --warmup 0", &a) == ARGS_OK && a.reps == 9 && a.warmup == 0);
    EXPECT(parse("--reps 100000 --warmup 10000 --seed 0", &a) == ARGS_OK && a.reps == 100000 && a.seed == 0);
    EXPECT(parse("--seed 18446744073709551615", &a) == ARGS_OK && a.seed == 18446744073709551615ull);
    EXPECT(parse("--reps 5 --reps 6", &a) == ARGS_OK && a.reps == 6);   /* the last one wins */
}

/* --help or -h anywhere: the usage, even after a bad argument */
static void test_help(void)
{
    args_t a;
    char text[8192];
    EXPECT(parse("--csv --help --bogus", &a) == ARGS_HELP && a.help);
    EXPECT(parse("--bogus -h", &a) == ARGS_HELP);
    EXPECT(parse("--reps +5 --help", &a) == ARGS_HELP);
    run_parse("--reps 0 --help", "elements");
    EXPECT(child.rc == 0 && !strncmp(child.out, "Usage: ./prog [options]\nA test program.\n", 40) && child.err[0] == '\0');
    usage_text("elements to copy", text, sizeof text);
    EXPECT(strstr(text, "\n  --size N|NXxNY  elements to copy\n") != NULL);
    EXPECT(strstr(text, "\n  --strides LIST  strides to time\n") != NULL);
    EXPECT(strstr(text, "\n  --stride S      stride\n") != NULL);
    EXPECT(strstr(text, "\n  --fp64          doubles\n") != NULL);
    EXPECT(strstr(text, "\n  --dry-run ") != NULL && strstr(text, "--option=value") != NULL);
    EXPECT(strstr(text, "\n  --block WxH ") != NULL && strstr(text, "\n  --no-flush ") != NULL);
}

/* every integer option scans numbers the same strict way */
static void test_strict_numbers(void)
{
    static const char *bad_numbers[] = {" 5", "+5", "-0", "064", "5 ", "0x10", "", "1e3", "5.0", "٥", "-5",
                                        "99999999999999999999", "18446744073709551616", "1 2", "0b1", "5\n"};
    static const char *int_opts[] = {"--reps", "--warmup", "--block", "--seed", "--size", "--stride", "--strides"};
    size_t i, k;
    for (k = 0; k < sizeof int_opts / sizeof int_opts[0]; k++)
        for (i = 0; i < sizeof bad_numbers / sizeof bad_numbers[0]; i++)
            if (!rejects(int_opts[k], bad_numbers[i])) failed_here = 1;
    /* the suffix only in --size */
    EXPECT(rejects("--reps", "1k") && rejects("--block", "1k") && rejects("--seed", "1k") && rejects("--stride", "1k"));
    EXPECT(rejects("--strides", "1k") && rejects("--size", "064k") && rejects("--size", "k"));
    /* leading zeros get a word of their own; ranges are said */
    EXPECT(rejects("--reps", "064") && strstr(err, "without leading zeros"));
    EXPECT(rejects("--reps", "100001") && strstr(err, "from 1 to 100000"));
    EXPECT(rejects("--warmup", "10001") && strstr(err, "from 0 to 10000"));
    EXPECT(rejects("--stride", "0") && strstr(err, "from 1 to 32"));
    EXPECT(rejects("--seed", "-3") && strstr(err, "from 0 to 18446744073709551615"));
    EXPECT(rejects("--block", "64x32") && strstr(err, "1 to 1024"));
    EXPECT(rejects("--block", "2000") && rejects("--block", "0x4") && rejects("--block", "32x") &&
           rejects("--block", "x32") && rejects("--block", "1x2x3") && rejects("--block", "032x8") &&
           rejects("--block", "32x08") && rejects("--block", "32X8"));
    EXPECT(rejects("--reps", "0") && rejects("--reps", "1.5") && rejects("--warmup", "-1"));
    {   /* the exact first line */
        args_t a;
        EXPECT(parse_v(&a, "--reps", "+5", (char *)NULL) == ARGS_ERROR &&
               !strcmp(err, "bad --reps '+5': expected a whole number from 1 to 100000"));
        EXPECT(parse_v(&a, "--block", "48 ", (char *)NULL) == ARGS_ERROR &&
               !strcmp(err, "bad --block '48 ': expected W or WxH threads, whole numbers with W*H from 1 to 1024"));
    }
}

static void test_sizes(void)
{
    int64_t nx = -1, ny = -1;
    args_t a;
    EXPECT(args_parse_size("65536x65536", &nx, &ny) == 0 && nx == 65536 && ny == 65536);
    EXPECT(parse("--size 65536x65536", &a) == ARGS_OK && a.nx * a.ny == (int64_t)1 << 32);
    EXPECT(args_parse_size("1048576x1048576", &nx, &ny) == 0 && nx * ny == ARGS_MAX_ELEMS);   /* 2^40 */
    EXPECT(args_parse_size("1048576x1048577", &nx, &ny) == -1);
    EXPECT(args_parse_size("1099511627776", &nx, &ny) == 0 && nx == (int64_t)1 << 40 && ny == 0);
    EXPECT(args_parse_size("1024G", &nx, &ny) == 0 && nx == (int64_t)1 << 40);
    EXPECT(args_parse_size("3G", &nx, &ny) == 0 && nx == (int64_t)3 << 30);
    nx = ny = -1;
    EXPECT(args_parse_size("1099511627777", &nx, &ny) == -1 && nx == -1 && ny == -1);  /* 2^40 + 1 */
    EXPECT(args_parse_size("1025G", &nx, &ny) == -1);
    EXPECT(args_parse_size("2147483647x1", &nx, &ny) == 0 && nx == 2147483647);
    EXPECT(args_parse_size("1x2147483647", &nx, &ny) == 0 && ny == 2147483647);
    EXPECT(args_parse_size("2147483648x1", &nx, &ny) == -1);   /* a side must fit an int */
    EXPECT(args_parse_size("1x2147483648", &nx, &ny) == -1);
    EXPECT(args_parse_size("2Gx1", &nx, &ny) == -1);
    EXPECT(args_parse_size("", &nx, &ny) == -1 && args_parse_size("k", &nx, &ny) == -1);
    EXPECT(args_parse_size("1x1x1", &nx, &ny) == -1 && args_parse_size("4096x", &nx, &ny) == -1);
    EXPECT(args_parse_size("x5", &nx, &ny) == -1 && args_parse_size("12q", &nx, &ny) == -1);
    EXPECT(args_parse_size("0", &nx, &ny) == -1 && args_parse_size("0x5", &nx, &ny) == -1);
    EXPECT(args_parse_size("99999999999999999999", &nx, &ny) == -1);
    EXPECT(rejects("--size", "1099511627777") && strstr(err, "2^40"));
    EXPECT(rejects("--size", "2147483648x1") && strstr(err, "each side is at most 2147483647"));
    EXPECT(rejects("--size", "2000000x2000000") && strstr(err, "NX*NY is at most"));
    EXPECT(rejects("--size", "0") && strstr(err, "start at 1"));
}

/* args_size_forms: a refused form is an error, and --help shows only the accepted ones */
static void test_size_forms(void)
{
    args_t a;
    char text[8192];
    args_size_forms(ARGS_SIZE_N);
    EXPECT(rejects("--size", "64x64") && strstr(err, "takes one number N"));
    EXPECT(parse("--size 64M", &a) == ARGS_OK && a.nx == 64 << 20);
    usage_text("floats", text, sizeof text);
    EXPECT(strstr(text, "\n  --size N        floats\n") && !strstr(text, "NXxNY"));
    args_size_forms(ARGS_SIZE_NXNY);
    EXPECT(rejects("--size", "64") && strstr(err, "takes NXxNY"));
    EXPECT(parse("--size 64x32", &a) == ARGS_OK && a.nx == 64 && a.ny == 32);
    usage_text("the matrix", text, sizeof text);
    EXPECT(strstr(text, "\n  --size NXxNY    the matrix\n") && !strstr(text, "N|"));
    args_size_forms(0);
    EXPECT(parse("--size 64", &a) == ARGS_ERROR && !strcmp(err, "unknown option '--size'"));
    args_size_forms(ARGS_SIZE_N | ARGS_SIZE_NXNY);
    EXPECT(parse("--size 64 --size 2x3", &a) == ARGS_OK && a.nx == 2 && a.ny == 3);
}

/* every option that takes a value takes --opt=value; a flag with a value is an error */
static void test_equals(void)
{
    args_t a;
    EXPECT(parse("--size=4096 --reps=7 --warmup=0 --block=32x8 --seed=9 --stride=3 --strides=1,2", &a) == ARGS_OK);
    EXPECT(a.nx == 4096 && a.reps == 7 && a.warmup == 0 && a.bx == 32 && a.by == 8 && a.seed == 9);
    EXPECT(stride == 3 && strides.n == 2 && strides.v[0] == 1 && strides.v[1] == 2);
    EXPECT(parse("--size=abc", &a) == ARGS_ERROR && !strncmp(err, "bad '--size=abc': expected N or NXxNY", 37));
    EXPECT(parse("--reps=+5", &a) == ARGS_ERROR && strstr(err, "'--reps=+5'"));
    EXPECT(parse("--reps=", &a) == ARGS_ERROR && strstr(err, "'--reps='"));
    EXPECT(parse("--strides=1,,2", &a) == ARGS_ERROR && strstr(err, "'--strides=1,,2'") && strstr(err, "empty"));
    EXPECT(parse("--csv=1", &a) == ARGS_ERROR && !strcmp(err, "option '--csv' takes no value: '--csv=1'"));
    EXPECT(parse("--fp64=yes", &a) == ARGS_ERROR && !strcmp(err, "option '--fp64' takes no value: '--fp64=yes'"));
    EXPECT(parse("--dry-run=1", &a) == ARGS_ERROR && strstr(err, "'--dry-run=1'"));
    EXPECT(parse("--bogus=1", &a) == ARGS_ERROR && !strcmp(err, "unknown option '--bogus' (in '--bogus=1')"));
    EXPECT(parse("--size=4096=5", &a) == ARGS_ERROR && strstr(err, "'--size=4096=5'"));
}

static void test_lists(void)
{
    args_t a;
    char line[1024];
    int i;
    EXPECT(parse("--strides 1,2,4", &a) == ARGS_OK && strides.n == 3 && strides.v[0] == 1 && strides.v[2] == 4);
    EXPECT(parse("--strides 32", &a) == ARGS_OK && strides.n == 1 && strides.v[0] == 32);
    EXPECT(parse("--strides 1,2 --strides 4", &a) == ARGS_OK && strides.n == 1 && strides.v[0] == 4);
    EXPECT(parse("--quick", &a) == ARGS_OK && strides.n == 0);   /* not given: left alone */
    /* 64 numbers fit, 65 do not */
    strcpy(line, "--strides 1");
    for (i = 1; i < 64; i++) strcat(line, ",2");
    EXPECT(parse(line, &a) == ARGS_OK && strides.n == 64 && strides.v[63] == 2);
    strcat(line, ",3");
    EXPECT(parse(line, &a) == ARGS_ERROR && strstr(err, "at most 64"));
    EXPECT(rejects("--strides", "x") && rejects("--strides", "1,,2") && rejects("--strides", "4,") &&
           rejects("--strides", ",4") && rejects("--strides", "0") && rejects("--strides", "33") &&
           rejects("--strides", "1;2") && rejects("--strides", "1, 2") && rejects("--strides", "01") &&
           rejects("--strides", "1,+2") && rejects("--strides", ","));
    EXPECT(rejects("--strides", "1,33") && strstr(err, "from 1 to 32 separated by commas"));
    /* every occurrence must be good, not only the last */
    EXPECT(parse("--strides x --strides 2", &a) == ARGS_ERROR &&
           !strncmp(err, "bad --strides 'x': expected whole numbers from 1 to 32", 54));
    EXPECT(parse("--strides 2 --strides x", &a) == ARGS_ERROR && strstr(err, "'x'"));
    EXPECT(parse("--stride x --stride 2", &a) == ARGS_ERROR && strstr(err, "'x'"));
}

/* a missing value names the option and says what followed */
static void test_missing_value(void)
{
    args_t a;
    EXPECT(parse("--seed --strides 1", &a) == ARGS_ERROR &&
           !strcmp(err, "option '--seed' needs a number, but '--strides' follows it"));
    EXPECT(parse("--seed", &a) == ARGS_ERROR && !strcmp(err, "option '--seed' needs a number; it is the last argument"));
    EXPECT(parse("--size --quick", &a) == ARGS_ERROR && strstr(err, "'--size' needs a size (N|NXxNY)") &&
           strstr(err, "'--quick'"));
    EXPECT(parse("--strides", &a) == ARGS_ERROR && strstr(err, "'--strides' needs a list"));
    EXPECT(parse("--stride --fp64", &a) == ARGS_ERROR && strstr(err, "'--stride'") && strstr(err, "'--fp64'"));
    EXPECT(parse("--block --reps 3", &a) == ARGS_ERROR && strstr(err, "'--block' needs a block shape"));
    /* a single dash is a (bad) value, not the next option */
    EXPECT(parse("--warmup -1", &a) == ARGS_ERROR && !strncmp(err, "bad --warmup '-1'", 17));
}

static void test_unknown(void)
{
    args_t a;
    EXPECT(parse("--bogus", &a) == ARGS_ERROR && !strcmp(err, "unknown option '--bogus'"));
    EXPECT(parse("-q", &a) == ARGS_ERROR && !strcmp(err, "unknown option '-q'"));
    EXPECT(parse("--", &a) == ARGS_ERROR && !strcmp(err, "unknown option '--'"));
    EXPECT(parse("--Size 5", &a) == ARGS_ERROR && !strcmp(err, "unknown option '--Size'"));
    EXPECT(parse("4096", &a) == ARGS_ERROR && strstr(err, "unexpected argument '4096'"));
    EXPECT(parse("--quick 5", &a) == ARGS_ERROR && strstr(err, "'5'") && strstr(err, "'--quick'"));
    EXPECT(parse("--reps 5 6", &a) == ARGS_ERROR && strstr(err, "unexpected argument '6'"));
}

static void test_without(void)
{
    args_t a;
    char text[8192];
    args_without("--block");
    args_without("--flush");
    EXPECT(parse("--block 32", &a) == ARGS_ERROR && !strcmp(err, "unknown option '--block'"));
    EXPECT(parse("--block=32", &a) == ARGS_ERROR && !strcmp(err, "unknown option '--block' (in '--block=32')"));
    EXPECT(parse("--flush", &a) == ARGS_ERROR && parse("--no-flush", &a) == ARGS_ERROR);
    EXPECT(parse("--reps 3 --size 5", &a) == ARGS_OK && a.reps == 3);   /* the others stay */
    usage_text("floats", text, sizeof text);
    EXPECT(!strstr(text, "--block") && !strstr(text, "flush") && strstr(text, "--reps N") && strstr(text, "--size"));
    args_without(NULL);
    EXPECT(parse("--block 32 --no-flush", &a) == ARGS_OK && a.bx == 32 && a.flush == FLUSH_OFF);
    usage_text("floats", text, sizeof text);
    EXPECT(strstr(text, "--block") && strstr(text, "--no-flush"));
    args_without("--size");
    EXPECT(parse("--size 5", &a) == ARGS_ERROR && !strcmp(err, "unknown option '--size'"));
    args_without(NULL);
}

/* args_configure: the three settings at once, and each call starts again from the shared parser */
static void test_configure(void)
{
    args_t a;
    args_configure(10, "--block", "N");
    EXPECT(parse("", &a) == ARGS_OK && a.reps == 10);
    EXPECT(parse("--block 32", &a) == ARGS_ERROR && !strcmp(err, "unknown option '--block'"));
    EXPECT(rejects("--size", "64x64") && strstr(err, "takes one number N"));
    args_configure(0, NULL, "NXxNY");
    EXPECT(parse("--block 32", &a) == ARGS_OK && a.reps == 20 && a.bx == 32);
    EXPECT(rejects("--size", "64") && strstr(err, "takes NXxNY"));
    args_configure(0, NULL, NULL);
    EXPECT(parse("--size 64 --size 2x3", &a) == ARGS_OK && a.nx == 2 && a.ny == 3);
}

/* size_help NULL: no --size in the parser or the usage */
static void test_no_size(void)
{
    char text[8192];
    usage_text(NULL, text, sizeof text);
    EXPECT(text[0] && !strstr(text, "--size") && !strstr(text, "suffix k/M/G") && strstr(text, "--reps N"));
    run_parse("--size 4096", NULL);
    EXPECT(usage_error("unknown option '--size'\n"));
    run_parse("--size=4096", NULL);
    EXPECT(usage_error("unknown option '--size' (in '--size=4096')\n"));
    run_parse("--reps 3", NULL);
    EXPECT(child.rc == 0 && !strcmp(child.out, "parsed\n"));
    run_parse("--size 4096", "elements");
    EXPECT(child.rc == 0);
}

/* args_parse_or_exit: the two-line error, exit 2, no usage on stderr */
static void test_parse_or_exit(void)
{
    run_parse("--reps +5", "elements");
    EXPECT(usage_error("bad --reps '+5': expected a whole number from 1 to 100000\n"));
    run_parse("--seed --strides 1", "elements");
    EXPECT(usage_error("option '--seed' needs a number, but '--strides' follows it\n"));
    run_parse("--strides x --strides 2", "elements");
    EXPECT(usage_error("bad --strides 'x': "));
    run_parse("--bogus", "elements");
    EXPECT(usage_error("unknown option '--bogus'\n"));
    run_parse("--help", NULL);
    EXPECT(child.rc == 0 && !strncmp(child.out, "Usage: ./prog", 13) && !strstr(child.out, "--size"));
    run_parse("--csv", "elements");
    EXPECT(child.rc == 0 && !strcmp(child.out, "parsed\n") && child.err[0] == '\0');
}

static void reject_child(void *ctx)
{
    char p0[] = "./prog", p1[] = "--block=48";
    char *argv[] = {p0, p1, NULL};
    args_t a;
    (void)ctx;
    args_parse_or_exit(2, argv, &a, "A test program.", "elements", opts, 3);
    args_reject("bad --block '%s': a multiple of 32 please", args_raw_value(2, argv, "--block"));
}

static void test_reject(void)
{
    run_child(reject_child, NULL, &child);
    EXPECT(usage_error("bad --block '48': a multiple of 32 please\n"));
}

/* --l2-fetch (lessons 01, 03, 06): 0 (not given), 32, 64 and 128 pass; another value is refused,
 * quoted as typed on the last parsed command line */
static void l2_fetch_child(void *ctx)
{
    char p0[] = "./prog", p1[] = "--l2-fetch=48";
    char *argv[] = {p0, p1, NULL};
    int v = 0;
    const lesson_opt_t fetch_opt[] = {{"--l2-fetch", OPT_INT, &v, 1, 1024, "B", "the L2's fetch"}};
    args_t a;
    (void)ctx;
    args_parse_or_exit(2, argv, &a, "A test program.", "elements", fetch_opt, 1);
    args_check_l2_fetch(v);
    exit(0);   /* accepted: the test fails on exit 0 */
}

static void test_l2_fetch(void)
{
    args_check_l2_fetch(0);     /* each returns; a refusal would exit this test program */
    args_check_l2_fetch(32);
    args_check_l2_fetch(64);
    args_check_l2_fetch(128);
    run_child(l2_fetch_child, NULL, &child);
    EXPECT(usage_error("bad --l2-fetch '48': expected 32, 64 or 128\n"));
}

static void test_dry_run(void)
{
    args_t a;
    EXPECT(parse("--dry-run --quick", &a) == ARGS_OK && a.dry_run && args_dry_run() == 1);
    EXPECT(parse("--quick", &a) == ARGS_OK && !a.dry_run && args_dry_run() == 0);
    EXPECT(parse("--dry-run", &a) == ARGS_OK && args_dry_run() == 1);
    EXPECT(parse("--dry-run --reps 0", &a) == ARGS_ERROR && args_dry_run() == 0);  /* errors still exit 2 */
    run_parse("--dry-run --size 64", "elements");
    EXPECT(child.rc == 10 && !strcmp(child.out, "parsed\n"));
    run_parse("--size 64", "elements");
    EXPECT(child.rc == 0);
}

/* the value after the last occurrence of an option, as typed; "?" when there is none */
static void test_raw_value(void)
{
    char p0[] = "prog", p1[] = "--size", p2[] = "8kx3", p3[] = "--block", p4[] = "7", p5[] = "--size", p6[] = "0x9",
         p7[] = "--block=048", p8[] = "--blockx=5", p9[] = "--seed=";
    char *argv[] = {p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, NULL};
    EXPECT(!strcmp(args_raw_value(7, argv, "--size"), "0x9"));   /* the last one wins, as in args_parse */
    EXPECT(!strcmp(args_raw_value(5, argv, "--size"), "8kx3"));
    EXPECT(!strcmp(args_raw_value(7, argv, "--block"), "7"));
    EXPECT(!strcmp(args_raw_value(8, argv, "--block"), "048"));  /* --opt=value, as typed */
    EXPECT(!strcmp(args_raw_value(9, argv, "--block"), "048"));  /* --blockx=5 is another option */
    EXPECT(!strcmp(args_raw_value(10, argv, "--seed"), ""));
    EXPECT(!strcmp(args_raw_value(7, argv, "--reps"), "?"));
    EXPECT(!strcmp(args_raw_value(2, argv, "--size"), "?"));      /* the option is the last token: no value */
    EXPECT(!strcmp(args_raw_value(7, argv, "prog"), "?"));        /* argv[0] is not an option */
    EXPECT(!strcmp(args_raw_value(0, argv, "--size"), "?"));
}

static void test_matrix_size(void)
{
    args_t a;
    int nx = -7, ny = -7;
    args_defaults(&a);
    EXPECT(matrix_size_from_args(&a, 8192, 4096, &nx, &ny) == 0 && nx == 8192 && ny == 4096);
    a.nx = 2048;
    a.ny = 512;
    EXPECT(matrix_size_from_args(&a, 8192, 4096, &nx, &ny) == 0 && nx == 2048 && ny == 512);
    a.nx = 1;
    a.ny = 2147483647;
    EXPECT(matrix_size_from_args(&a, 8, 8, &nx, &ny) == 0 && nx == 1 && ny == 2147483647);
    a.ny = 0;
    a.nx = 1000;
    EXPECT(matrix_size_from_args(&a, 8, 8, &nx, &ny) == 0 && nx == 1000 && ny == 1000);
    a.nx = 65536;   /* 2^32 elements: the GPU's memory decides, not the parser */
    EXPECT(matrix_size_from_args(&a, 8, 8, &nx, &ny) == 0 && nx == 65536 && ny == 65536);
    a.nx = 1048576; /* 2^40 */
    EXPECT(matrix_size_from_args(&a, 8, 8, &nx, &ny) == 0 && nx == 1048576 && ny == 1048576);
    nx = ny = -7;
    a.nx = 1048577;
    EXPECT(matrix_size_from_args(&a, 8, 8, &nx, &ny) == -1 && nx == -7 && ny == -7);
    a.nx = 2147483647;
    EXPECT(matrix_size_from_args(&a, 8, 8, &nx, &ny) == -1);
    a.nx = ARGS_MAX_ELEMS;
    EXPECT(matrix_size_from_args(&a, 8, 8, &nx, &ny) == -1);
}

static void matrix_child(void *ctx)
{
    char p0[] = "./prog", p1[] = "--size=1048577";
    char *argv[] = {p0, p1, NULL};
    args_t a;
    int nx, ny;
    (void)ctx;
    args_parse_or_exit(2, argv, &a, "A test program.", "the matrix", opts, 3);
    matrix_size_or_exit(&a, 8, 8, &nx, &ny);
    exit(0);
}

static void test_matrix_size_or_exit(void)
{
    run_child(matrix_child, NULL, &child);
    EXPECT(usage_error("bad --size '1048577': a square N x N matrix has at most 1099511627776 (2^40) elements"));
}

int main(void)
{
    run_test("args: defaults and good command lines", test_good);
    run_test("args: --help or -h anywhere prints the usage on stdout", test_help);
    run_test("args: one strict number scanner for every integer option", test_strict_numbers);
    run_test("args: --size up to 2^31-1 per side and 2^40 elements", test_sizes);
    run_test("args: args_size_forms refuses a form and hides it in --help", test_size_forms);
    run_test("args: --opt=value for every option with a value, not for flags", test_equals);
    run_test("args: OPT_LIST values, bounds, 64 numbers, repeated options", test_lists);
    run_test("args: a missing value names the option and what followed", test_missing_value);
    run_test("args: unknown options and stray arguments", test_unknown);
    run_test("args: args_without takes a shared option out of parser and usage", test_without);
    run_test("args: args_configure sets the default --reps, a missing option, one --size form", test_configure);
    run_test("args: size_help NULL means no --size", test_no_size);
    run_test("args: args_parse_or_exit errors are two lines on stderr, exit 2", test_parse_or_exit);
    run_test("args: args_reject is two lines on stderr, exit 2", test_reject);
    run_test("args: args_check_l2_fetch passes 0, 32, 64, 128 and refuses 48 as typed", test_l2_fetch);
    run_test("args: --dry-run is a flag args_dry_run reports", test_dry_run);
    run_test("args: the raw value of an option, for error messages", test_raw_value);
    run_test("args: matrix shape from --size (N is N x N, up to 2^40 elements)", test_matrix_size);
    run_test("args: matrix_size_or_exit quotes the --size as typed", test_matrix_size_or_exit);
    return unit_status();
}
