/* time.h for bugle (C standard 7.27): host declarations (clock() is in cuda.h). */
#ifndef BUGLE_TIME_H
#define BUGLE_TIME_H
#include <stddef.h>
typedef long time_t;
typedef long clock_t;
struct tm { int tm_sec, tm_min, tm_hour, tm_mday, tm_mon, tm_year, tm_wday, tm_yday, tm_isdst; };
struct timespec { time_t tv_sec; long tv_nsec; };
extern "C" {
time_t time(time_t *t);
double difftime(time_t a, time_t b);
struct tm *localtime(const time_t *t);
struct tm *gmtime(const time_t *t);
char *ctime(const time_t *t);
size_t strftime(char *s, size_t n, const char *format, const struct tm *t);
int clock_gettime(int clock, struct timespec *ts);
}
#define CLOCKS_PER_SEC 1000000L
#define CLOCK_REALTIME 0
#define CLOCK_MONOTONIC 1
#endif
