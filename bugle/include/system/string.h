/* string.h for bugle (C standard 7.24): host declarations (memcpy and memset are in
   cuda.h, callable from device code too). */
#ifndef BUGLE_STRING_H
#define BUGLE_STRING_H
#include <stddef.h>
extern "C" {
void *memmove(void *dst, const void *src, size_t n);
int memcmp(const void *a, const void *b, size_t n);
void *memchr(const void *s, int c, size_t n);
char *strcpy(char *dst, const char *src);
char *strncpy(char *dst, const char *src, size_t n);
char *strcat(char *dst, const char *src);
char *strncat(char *dst, const char *src, size_t n);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
int strcasecmp(const char *a, const char *b);
size_t strlen(const char *s);
char *strdup(const char *s);
char *strchr(const char *s, int c);
char *strrchr(const char *s, int c);
char *strstr(const char *s, const char *t);
char *strtok(char *s, const char *delim);
char *strerror(int e);
}
#endif
