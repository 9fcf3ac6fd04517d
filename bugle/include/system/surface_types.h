/* surface_types.h: the CUDA declarations are all in cuda.h, which bugle includes in every .cu file. */
#include <cuda.h>
