/* cuda_device_runtime_api.h: the CUDA declarations are all in cuda.h, which bugle includes in every .cu file. */
#include <cuda.h>
