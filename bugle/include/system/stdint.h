/* stdint.h for bugle (C standard 7.20), from the compiler's predefined type macros. */
#ifndef BUGLE_STDINT_H
#define BUGLE_STDINT_H
typedef __INT8_TYPE__ int8_t;
typedef __INT16_TYPE__ int16_t;
typedef __INT32_TYPE__ int32_t;
typedef __INT64_TYPE__ int64_t;
typedef __UINT8_TYPE__ uint8_t;
typedef __UINT16_TYPE__ uint16_t;
typedef __UINT32_TYPE__ uint32_t;
typedef __UINT64_TYPE__ uint64_t;
typedef __INT8_TYPE__ int_least8_t;
typedef __INT16_TYPE__ int_least16_t;
typedef __INT32_TYPE__ int_least32_t;
typedef __INT64_TYPE__ int_least64_t;
typedef __UINT8_TYPE__ uint_least8_t;
typedef __UINT16_TYPE__ uint_least16_t;
typedef __UINT32_TYPE__ uint_least32_t;
typedef __UINT64_TYPE__ uint_least64_t;
typedef __INT8_TYPE__ int_fast8_t;
typedef __INT32_TYPE__ int_fast16_t;
typedef __INT32_TYPE__ int_fast32_t;
typedef __INT64_TYPE__ int_fast64_t;
typedef __UINT8_TYPE__ uint_fast8_t;
typedef __UINT32_TYPE__ uint_fast16_t;
typedef __UINT32_TYPE__ uint_fast32_t;
typedef __UINT64_TYPE__ uint_fast64_t;
typedef __INTPTR_TYPE__ intptr_t;
typedef __UINTPTR_TYPE__ uintptr_t;
typedef __INTMAX_TYPE__ intmax_t;
typedef __UINTMAX_TYPE__ uintmax_t;
#define INT8_MIN (-128)
#define INT16_MIN (-32767 - 1)
#define INT32_MIN (-2147483647 - 1)
#define INT64_MIN (-9223372036854775807LL - 1)
#define INT8_MAX 127
#define INT16_MAX 32767
#define INT32_MAX 2147483647
#define INT64_MAX 9223372036854775807LL
#define UINT8_MAX 255
#define UINT16_MAX 65535
#define UINT32_MAX 4294967295U
#define UINT64_MAX 18446744073709551615ULL
#define SIZE_MAX __SIZE_MAX__
#define INTPTR_MAX __INTPTR_MAX__
#define UINTPTR_MAX __UINTPTR_MAX__
#define INT8_C(v) v
#define INT16_C(v) v
#define INT32_C(v) v
#define INT64_C(v) v##LL
#define UINT8_C(v) v
#define UINT16_C(v) v
#define UINT32_C(v) v##U
#define UINT64_C(v) v##ULL
#endif
