/* stdlib.h for bugle (C standard 7.22): declarations for host code (malloc, free and
   abs are in cuda.h, callable from device code too). */
#ifndef BUGLE_STDLIB_H
#define BUGLE_STDLIB_H
#include <stddef.h>
typedef struct { int quot, rem; } div_t;
typedef struct { long quot, rem; } ldiv_t;
extern "C" {
void *calloc(size_t n, size_t size);
void *realloc(void *p, size_t size);
void *aligned_alloc(size_t align, size_t size);
int posix_memalign(void **p, size_t align, size_t size);
[[noreturn]] void exit(int status);
[[noreturn]] void abort(void);
[[noreturn]] void _Exit(int status);
int atexit(void (*f)(void));
int atoi(const char *s);
long atol(const char *s);
long long atoll(const char *s);
double atof(const char *s);
long strtol(const char *s, char **end, int base);
unsigned long strtoul(const char *s, char **end, int base);
long long strtoll(const char *s, char **end, int base);
unsigned long long strtoull(const char *s, char **end, int base);
double strtod(const char *s, char **end);
float strtof(const char *s, char **end);
int rand(void);
void srand(unsigned int seed);
long random(void);
void srandom(unsigned int seed);
double drand48(void);
void srand48(long seed);
char *getenv(const char *name);
int system(const char *command);
void qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));
void *bsearch(const void *key, const void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));
div_t div(int a, int b);
ldiv_t ldiv(long a, long b);
}
#define RAND_MAX 2147483647
#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1
#endif
