/* The C library names in namespace std, for the <cxxx> headers (C++ standard
   [headers]): one block per C header, once that header has been included. */
#if defined(BUGLE_STDDEF_H) && !defined(BUGLE_STD_STDDEF)
#define BUGLE_STD_STDDEF
namespace std { using ::size_t; using ::ptrdiff_t; typedef decltype(nullptr) nullptr_t; }
#endif
#if defined(BUGLE_STDINT_H) && !defined(BUGLE_STD_STDINT)
#define BUGLE_STD_STDINT
namespace std {
using ::int8_t; using ::int16_t; using ::int32_t; using ::int64_t;
using ::uint8_t; using ::uint16_t; using ::uint32_t; using ::uint64_t;
using ::intptr_t; using ::uintptr_t; using ::intmax_t; using ::uintmax_t;
}
#endif
#if defined(BUGLE_STDIO_H) && !defined(BUGLE_STD_STDIO)
#define BUGLE_STD_STDIO
namespace std {
using ::FILE; using ::printf; using ::fprintf; using ::sprintf; using ::snprintf; using ::scanf;
using ::fscanf; using ::sscanf; using ::puts; using ::fputs; using ::putchar; using ::fgets;
using ::fopen; using ::fclose; using ::fflush; using ::fread; using ::fwrite; using ::fseek;
using ::ftell; using ::rewind; using ::feof; using ::perror; using ::remove; using ::getchar;
}
#endif
#if defined(BUGLE_STDLIB_H) && !defined(BUGLE_STD_STDLIB)
#define BUGLE_STD_STDLIB
namespace std {
using ::malloc; using ::calloc; using ::realloc; using ::free; using ::exit; using ::abort;
using ::atoi; using ::atol; using ::atof; using ::strtol; using ::strtoul; using ::strtod;
using ::strtof; using ::rand; using ::srand; using ::getenv; using ::system; using ::qsort;
using ::abs; using ::labs; using ::llabs; using ::div_t; using ::div;
}
#endif
#if defined(BUGLE_STRING_H) && !defined(BUGLE_STD_STRING)
#define BUGLE_STD_STRING
namespace std {
using ::memcpy; using ::memset; using ::memmove; using ::memcmp; using ::strcpy; using ::strncpy;
using ::strcat; using ::strcmp; using ::strncmp; using ::strlen; using ::strchr; using ::strrchr;
using ::strstr; using ::strtok; using ::strerror;
}
#endif
#if defined(BUGLE_MATH_H) && !defined(BUGLE_STD_MATH)
#define BUGLE_STD_MATH
namespace std {
using ::sqrt; using ::fabs; using ::floor; using ::ceil; using ::trunc; using ::round; using ::exp;
using ::exp2; using ::log; using ::log2; using ::log10; using ::sin; using ::cos; using ::tan;
using ::asin; using ::acos; using ::atan; using ::atan2; using ::sinh; using ::cosh; using ::tanh;
using ::pow; using ::fmod; using ::fmin; using ::fmax; using ::fma; using ::cbrt; using ::erf;
using ::hypot; using ::abs; using ::isnan; using ::isinf; using ::isfinite; using ::ldexp;
using ::copysign; using ::expm1; using ::log1p; using ::rint; using ::lgamma; using ::tgamma;
using ::sqrtf; using ::fabsf; using ::floorf; using ::ceilf; using ::expf; using ::logf; using ::powf;
using ::sinf; using ::cosf; using ::fminf; using ::fmaxf;
}
#endif
#if defined(BUGLE_TIME_H) && !defined(BUGLE_STD_TIME)
#define BUGLE_STD_TIME
namespace std { using ::time_t; using ::clock_t; using ::time; using ::clock; using ::difftime; using ::tm; }
#endif
