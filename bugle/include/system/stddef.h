/* stddef.h for bugle (C standard 7.19). */
#ifndef BUGLE_STDDEF_H
#define BUGLE_STDDEF_H
typedef __SIZE_TYPE__ size_t;
typedef __PTRDIFF_TYPE__ ptrdiff_t;
#ifndef NULL
#define NULL __null
#endif
#define offsetof(T, m) __builtin_offsetof(T, m)
#endif
