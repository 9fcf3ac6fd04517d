/* errno.h for bugle (host code only). */
#ifndef BUGLE_ERRNO_H
#define BUGLE_ERRNO_H
extern "C" int *__errno_location(void);
#define errno (*__errno_location())
#define EDOM 33
#define ERANGE 34
#define EINVAL 22
#define ENOMEM 12
#endif
