/* helper_cuda.h for bugle: the error-checking and device-selection helpers CUDA samples
   call from host code (written here from how samples use them; host code is never run). */
#ifndef BUGLE_HELPER_CUDA_H
#define BUGLE_HELPER_CUDA_H
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
static inline void __bugle_check(cudaError_t e, const char *what, const char *file, int line) {
  if (e != cudaSuccess) {
    fprintf(stderr, "CUDA error at %s:%d code=%d \"%s\"\n", file, line, (int)e, what);
    exit(EXIT_FAILURE);
  }
}
#define checkCudaErrors(val) __bugle_check((val), #val, __FILE__, __LINE__)
#define getLastCudaError(msg) __bugle_check(cudaGetLastError(), (msg), __FILE__, __LINE__)
static inline int findCudaDevice(int argc, const char **argv) { return 0; }
static inline int gpuDeviceInit(int device) { return device; }
static inline int gpuGetMaxGflopsDeviceId(void) { return 0; }
static inline int _ConvertSMVer2Cores(int major, int minor) { return 64; }
#endif
