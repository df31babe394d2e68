/* bench_clock.h -- the wall clock of the C benchmarks: clock_gettime(CLOCK_MONOTONIC)
 * where POSIX offers it, else clock() (processor time).  Include it first. */
#ifndef OFC_BENCH_CLOCK_H
#define OFC_BENCH_CLOCK_H

#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 199309L
#endif

#include <time.h>

#if defined(CLOCK_MONOTONIC)
static const char *const clock_name = "clock_gettime(CLOCK_MONOTONIC)";
static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
#else
static const char *const clock_name = "clock() (processor time)";
static double now_seconds(void)
{
    return (double)clock() / (double)CLOCKS_PER_SEC;
}
#endif

#endif /* OFC_BENCH_CLOCK_H */
