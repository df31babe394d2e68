/* bench_args.h -- the command line of the C benchmarks (bench_c, bench_game_c,
 * bench_settle), read as argparse reads the Python ones': -h or --help prints the
 * usage, what the program times and each argument with its range and default on
 * standard output (exit status 0); an option's value follows it (--hands 5) or is
 * joined to it (--hands=5); an unknown argument, an option without its value
 * or a count that is not a whole number in its range prints the usage and one line
 * naming it on standard error (exit status 2), before anything runs.
 *
 *     unsigned long long hands = 1000;              (the default)
 *     static const bench_arg args[] = {
 *         {"--hands", "hands per row", 1, 1000000, 0},    (an option and its value)
 *         {"--strict", "exit status 2 on a miss", 0, 1, 1}, (a flag: set to 1)
 *         {"deals", "deals per row", 1, 1000000, 0},      (a positional count)
 *     };
 *     unsigned long long *values[] = {&hands, &strict, &deals};
 *     int status = bench_parse(argc, argv, "bench_x", "Times x.", args, values, 3);
 *     if (status >= 0) return status;
 */
#ifndef OFC_BENCH_ARGS_H
#define OFC_BENCH_ARGS_H

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One argument: an option ("--hands": the next argument is its value; a flag takes
 * none) or, for a name without the leading "--", the next positional argument. */
typedef struct {
    const char *name;
    const char *help;
    unsigned long long least, most; /* the values taken, bounds included */
    int flag;                       /* 1: an option without a value, set to 1 */
} bench_arg;

static int bench_is_option(const bench_arg *arg)
{
    return strncmp(arg->name, "--", 2) == 0;
}

static void bench_usage(FILE *out, const char *prog, const bench_arg *args, size_t n)
{
    size_t k;
    fprintf(out, "usage: %s [-h]", prog);
    for (k = 0; k < n; k++) {
        if (args[k].flag || !bench_is_option(&args[k])) {
            fprintf(out, " [%s]", args[k].name);
        } else {
            fprintf(out, " [%s N]", args[k].name);
        }
    }
    fputc('\n', out);
}

/* The usage and "PROG: error: WHAT 'TEXT'" on standard error; 2 (argparse's status). */
static int bench_refuse(const char *prog, const bench_arg *args, size_t n,
                        const char *what, const char *text)
{
    bench_usage(stderr, prog, args, n);
    fprintf(stderr, "%s: error: %s '%s'\n", prog, what, text);
    return 2;
}

/* 1 with *out set when `text` is a whole number (digits only) from least to most. */
static int bench_count(const char *text, const bench_arg *arg, unsigned long long *out)
{
    char *end;
    unsigned long long v;
    if (text[0] < '0' || text[0] > '9') {
        return 0;
    }
    errno = 0;
    v = strtoull(text, &end, 10);
    if (errno != 0 || *end != '\0' || v < arg->least || v > arg->most) {
        return 0;
    }
    *out = v;
    return 1;
}

static int bench_value(const char *prog, const bench_arg *args, size_t n, size_t k,
                       const char *text, unsigned long long *out)
{
    if (!bench_count(text, &args[k], out)) {
        bench_usage(stderr, prog, args, n);
        fprintf(stderr,
                "%s: error: argument %s: expected a whole number from %llu to %llu, "
                "got '%s'\n",
                prog, args[k].name, args[k].least, args[k].most, text);
        return 2;
    }
    return -1;
}

/* Reads argv into values[k] (args[k]; an argument not given keeps its value, the
 * default).  Returns -1 to run on; else the exit status: 0 after --help, 2 after a
 * usage error. */
static int bench_parse(int argc, char **argv, const char *prog, const char *about,
                       const bench_arg *args, unsigned long long *const *values, size_t n)
{
    size_t k, next = 0;
    int i, status;
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            bench_usage(stdout, prog, args, n);
            printf("\n%s\n\n", about);
            for (k = 0; k < n; k++) {
                const char *value = bench_is_option(&args[k]) && !args[k].flag ? " N" : "";
                int width = (int)(strlen(args[k].name) + strlen(value));
                printf("  %s%s%*s%s\n", args[k].name, value, width < 11 ? 11 - width : 1, "",
                       args[k].help);
                if (!args[k].flag) {
                    printf("%13s(%llu to %llu; default: %llu)\n", "", args[k].least,
                           args[k].most, *values[k]);
                }
            }
            return 0;
        }
    }
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] == '-' && !(a[1] >= '0' && a[1] <= '9')) {
            const char *eq = strchr(a, '='); /* --hands=5: the option, its value */
            size_t len = eq != NULL ? (size_t)(eq - a) : strlen(a);
            for (k = 0; k < n; k++) {
                if (bench_is_option(&args[k]) && strlen(args[k].name) == len &&
                    strncmp(a, args[k].name, len) == 0) {
                    break;
                }
            }
            if (k == n) {
                return bench_refuse(prog, args, n, "unrecognized argument", a);
            }
            if (args[k].flag && eq != NULL) {
                bench_usage(stderr, prog, args, n);
                fprintf(stderr, "%s: error: argument %s: ignored explicit argument '%s'\n",
                        prog, args[k].name, eq + 1);
                return 2;
            }
            if (args[k].flag) {
                *values[k] = 1;
                continue;
            }
            if (eq != NULL) {
                a = eq + 1;
            } else if (i + 1 >= argc) {
                return bench_refuse(prog, args, n, "expected a value after", a);
            } else {
                a = argv[++i];
            }
        } else {
            for (k = next; k < n && bench_is_option(&args[k]); k++) {
                /* the next positional count */
            }
            if (k == n) {
                return bench_refuse(prog, args, n, "unrecognized argument", a);
            }
            next = k + 1;
        }
        status = bench_value(prog, args, n, k, a, values[k]);
        if (status >= 0) {
            return status;
        }
    }
    return -1;
}

#endif /* OFC_BENCH_ARGS_H */
