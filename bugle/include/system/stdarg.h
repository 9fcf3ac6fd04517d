/* stdarg.h for bugle (C standard 7.16): the compiler's builtins. */
#ifndef BUGLE_STDARG_H
#define BUGLE_STDARG_H
typedef __builtin_va_list va_list;
#define va_start(ap, last) __builtin_va_start(ap, last)
#define va_end(ap) __builtin_va_end(ap)
#define va_arg(ap, T) __builtin_va_arg(ap, T)
#define va_copy(d, s) __builtin_va_copy(d, s)
#endif
