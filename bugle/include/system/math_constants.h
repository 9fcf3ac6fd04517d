/* math_constants.h: the CUDA declarations are all in cuda.h, which bugle includes in every .cu file. */
#include <cuda.h>
#ifndef BUGLE_MATH_CONSTANTS_H
#define BUGLE_MATH_CONSTANTS_H
#define CUDART_PI_F 3.141592654f
#define CUDART_PI 3.1415926535897931e+0
#define CUDART_2_OVER_PI_F 0.636619772f
#define CUDART_SQRT_2PI_F 2.506628275f
#define CUDART_INF_F __builtin_inff()
#define CUDART_NAN_F __builtin_nanf("")
#define CUDART_INF __builtin_inf()
#define CUDART_NAN __builtin_nan("")
#endif
