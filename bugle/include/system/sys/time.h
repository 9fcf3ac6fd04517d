/* sys/time.h for bugle (POSIX): host declarations. */
#ifndef BUGLE_SYS_TIME_H
#define BUGLE_SYS_TIME_H
#include <time.h>
struct timeval { long tv_sec, tv_usec; };
struct timezone { int tz_minuteswest, tz_dsttime; };
extern "C" int gettimeofday(struct timeval *tv, void *tz);
#endif
