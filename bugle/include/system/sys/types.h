/* sys/types.h for bugle (POSIX): the short unsigned names are in cuda.h. */
#ifndef BUGLE_SYS_TYPES_H
#define BUGLE_SYS_TYPES_H
#include <stddef.h>
typedef long ssize_t;
typedef long off_t;
typedef int pid_t;
#endif
