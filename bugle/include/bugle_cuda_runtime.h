/* The CUDA runtime API as host code uses it, for bugle (part of cuda.h; nvcc makes it
   visible in every .cu file, and so does bugle).

   bugle compiles only the device side of a program (clang -fcuda-is-device): host
   functions are parsed and type-checked but never translated or verified, so this file
   only declares what host code calls (cudaMalloc, cudaMemcpy, events, streams, texture
   binding, ...) and what a `kernel<<<grid, block, shmem, stream>>>(...)` launch needs
   (clang resolves it through cudaConfigureCall).  Written from the CUDA Runtime API
   documentation; the values of the enumerators are not used by the verifier. */
#ifndef BUGLE_CUDA_RUNTIME_H
#define BUGLE_CUDA_RUNTIME_H

#define CUDART_VERSION 12000
#define __CUDA_API_VERSION 12000
#define CUDA_VERSION 12000

enum cudaError {
  cudaSuccess = 0, cudaErrorInvalidValue = 1, cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3, cudaErrorLaunchFailure = 4, cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidDevice = 10, cudaErrorInvalidMemcpyDirection = 21, cudaErrorNoDevice = 100,
  cudaErrorNotReady = 600, cudaErrorUnknown = 999
};
typedef enum cudaError cudaError_t;
enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0, cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3, cudaMemcpyDefault = 4
};
enum cudaFuncCache {
  cudaFuncCachePreferNone = 0, cudaFuncCachePreferShared = 1, cudaFuncCachePreferL1 = 2,
  cudaFuncCachePreferEqual = 3
};
enum cudaSharedMemConfig {
  cudaSharedMemBankSizeDefault = 0, cudaSharedMemBankSizeFourByte = 1, cudaSharedMemBankSizeEightByte = 2
};
enum cudaMemoryAdvise { cudaMemAdviseSetReadMostly = 1, cudaMemAdviseSetPreferredLocation = 3 };
#define cudaHostAllocDefault 0x00
#define cudaHostAllocPortable 0x01
#define cudaHostAllocMapped 0x02
#define cudaHostAllocWriteCombined 0x04
#define cudaMemAttachGlobal 0x01
#define cudaStreamNonBlocking 0x01
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaDeviceScheduleAuto 0x00
#define cudaDeviceMapHost 0x08
#define cudaCpuDeviceId (-1)

typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
typedef struct cudaArray *cudaArray_t;
typedef const struct cudaArray *cudaArray_const_t;
typedef struct cudaMipmappedArray *cudaMipmappedArray_t;
typedef struct cudaGraphicsResource *cudaGraphicsResource_t;

struct cudaDeviceProp {
  char name[256];
  size_t totalGlobalMem, sharedMemPerBlock;
  int regsPerBlock, warpSize;
  size_t memPitch;
  int maxThreadsPerBlock, maxThreadsDim[3], maxGridSize[3], clockRate;
  size_t totalConstMem;
  int major, minor;
  size_t textureAlignment, texturePitchAlignment;
  int deviceOverlap, multiProcessorCount, kernelExecTimeoutEnabled, integrated, canMapHostMemory,
      computeMode, concurrentKernels, ECCEnabled, pciBusID, pciDeviceID, asyncEngineCount,
      unifiedAddressing, memoryClockRate, memoryBusWidth, l2CacheSize, maxThreadsPerMultiProcessor,
      managedMemory, cooperativeLaunch, sharedMemPerBlockOptin, sharedMemPerMultiprocessor;
};
struct cudaPitchedPtr { void *ptr; size_t pitch, xsize, ysize; };
struct cudaExtent { size_t width, height, depth; };
struct cudaPos { size_t x, y, z; };
struct cudaMemcpy3DParms {
  cudaArray_t srcArray; struct cudaPos srcPos; struct cudaPitchedPtr srcPtr;
  cudaArray_t dstArray; struct cudaPos dstPos; struct cudaPitchedPtr dstPtr;
  struct cudaExtent extent; enum cudaMemcpyKind kind;
};
struct cudaFuncAttributes {
  size_t sharedSizeBytes, constSizeBytes, localSizeBytes;
  int maxThreadsPerBlock, numRegs, ptxVersion, binaryVersion;
};
enum cudaDeviceAttr {
  cudaDevAttrMaxThreadsPerBlock = 1, cudaDevAttrMultiProcessorCount = 16,
  cudaDevAttrComputeCapabilityMajor = 75, cudaDevAttrComputeCapabilityMinor = 76,
  cudaDevAttrCooperativeLaunch = 95
};
enum cudaLimit { cudaLimitStackSize = 0, cudaLimitPrintfFifoSize = 1, cudaLimitMallocHeapSize = 2 };

static __host__ __device__ inline struct cudaExtent make_cudaExtent(size_t w, size_t h, size_t d) {
  struct cudaExtent e = {w, h, d}; return e; }
static __host__ __device__ inline struct cudaPos make_cudaPos(size_t x, size_t y, size_t z) {
  struct cudaPos p = {x, y, z}; return p; }
static __host__ __device__ inline struct cudaPitchedPtr make_cudaPitchedPtr(void *d, size_t p, size_t x,
                                                                            size_t y) {
  struct cudaPitchedPtr r = {d, p, x, y}; return r; }

/* What clang calls for `k<<<grid, block, shmem, stream>>>(args)`. */
extern "C" __host__ cudaError_t cudaConfigureCall(dim3 grid, dim3 block, size_t shmem = 0,
                                                  cudaStream_t stream = 0);

extern "C" {
/* device management and errors */
__host__ cudaError_t cudaGetDeviceCount(int *count);
__host__ cudaError_t cudaGetDevice(int *device);
__host__ cudaError_t cudaSetDevice(int device);
__host__ cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
__host__ cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device);
__host__ cudaError_t cudaDeviceSynchronize(void);
__host__ cudaError_t cudaThreadSynchronize(void);
__host__ cudaError_t cudaDeviceReset(void);
__host__ cudaError_t cudaThreadExit(void);
__host__ cudaError_t cudaSetDeviceFlags(unsigned int flags);
__host__ cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value);
__host__ cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache config);
__host__ cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config);
__host__ cudaError_t cudaGetLastError(void);
__host__ cudaError_t cudaPeekAtLastError(void);
__host__ const char *cudaGetErrorString(cudaError_t error);
__host__ const char *cudaGetErrorName(cudaError_t error);
__host__ cudaError_t cudaDriverGetVersion(int *version);
__host__ cudaError_t cudaRuntimeGetVersion(int *version);
__host__ cudaError_t cudaMemGetInfo(size_t *free, size_t *total);
/* memory */
__host__ cudaError_t cudaMalloc(void **ptr, size_t size);
__host__ cudaError_t cudaMallocManaged(void **ptr, size_t size, unsigned int flags = cudaMemAttachGlobal);
__host__ cudaError_t cudaMallocHost(void **ptr, size_t size);
__host__ cudaError_t cudaHostAlloc(void **ptr, size_t size, unsigned int flags);
__host__ cudaError_t cudaMallocPitch(void **ptr, size_t *pitch, size_t width, size_t height);
__host__ cudaError_t cudaMalloc3D(struct cudaPitchedPtr *ptr, struct cudaExtent extent);
__host__ cudaError_t cudaFree(void *ptr);
__host__ cudaError_t cudaFreeHost(void *ptr);
__host__ cudaError_t cudaHostGetDevicePointer(void **dev, void *host, unsigned int flags);
__host__ cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
__host__ cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                                     cudaStream_t stream = 0);
__host__ cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                  size_t height, enum cudaMemcpyKind kind);
__host__ cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p);
__host__ cudaError_t cudaMemset(void *ptr, int value, size_t count);
__host__ cudaError_t cudaMemsetAsync(void *ptr, int value, size_t count, cudaStream_t stream = 0);
__host__ cudaError_t cudaMemset2D(void *ptr, size_t pitch, int value, size_t width, size_t height);
__host__ cudaError_t cudaMemPrefetchAsync(const void *ptr, size_t count, int device, cudaStream_t stream = 0);
__host__ cudaError_t cudaMemAdvise(const void *ptr, size_t count, enum cudaMemoryAdvise advice, int device);
__host__ cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count,
                                        size_t offset = 0, enum cudaMemcpyKind kind = cudaMemcpyHostToDevice);
__host__ cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset = 0,
                                          enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost);
__host__ cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count, size_t offset,
                                             enum cudaMemcpyKind kind, cudaStream_t stream = 0);
__host__ cudaError_t cudaGetSymbolAddress(void **dev, const void *symbol);
/* streams and events */
__host__ cudaError_t cudaStreamCreate(cudaStream_t *stream);
__host__ cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned int flags);
__host__ cudaError_t cudaStreamDestroy(cudaStream_t stream);
__host__ cudaError_t cudaStreamSynchronize(cudaStream_t stream);
__host__ cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags = 0);
__host__ cudaError_t cudaStreamQuery(cudaStream_t stream);
__host__ cudaError_t cudaEventCreate(cudaEvent_t *event);
__host__ cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags);
__host__ cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = 0);
__host__ cudaError_t cudaEventSynchronize(cudaEvent_t event);
__host__ cudaError_t cudaEventQuery(cudaEvent_t event);
__host__ cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);
__host__ cudaError_t cudaEventDestroy(cudaEvent_t event);
/* kernels */
__host__ cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache config);
__host__ cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func);
__host__ cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args, size_t shmem,
                                      cudaStream_t stream);
__host__ cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 grid, dim3 block, void **args,
                                                 size_t shmem = 0, cudaStream_t stream = 0);
__host__ cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, const void *func,
                                                                   int blockSize, size_t shmem);
__host__ cudaError_t cudaProfilerStart(void);
__host__ cudaError_t cudaProfilerStop(void);
}

/* C++ conveniences of cuda_runtime.h: typed pointers and symbols. */
template <class T>
static __host__ inline cudaError_t cudaMalloc(T **ptr, size_t size) { return cudaMalloc((void **)ptr, size); }
template <class T>
static __host__ inline cudaError_t cudaMallocManaged(T **ptr, size_t size,
                                                     unsigned int flags = cudaMemAttachGlobal) {
  return cudaMallocManaged((void **)ptr, size, flags); }
template <class T>
static __host__ inline cudaError_t cudaMallocHost(T **ptr, size_t size) { return cudaMallocHost((void **)ptr, size); }
template <class T>
static __host__ inline cudaError_t cudaHostAlloc(T **ptr, size_t size, unsigned int flags) {
  return cudaHostAlloc((void **)ptr, size, flags); }
template <class T>
static __host__ inline cudaError_t cudaMallocPitch(T **ptr, size_t *pitch, size_t w, size_t h) {
  return cudaMallocPitch((void **)ptr, pitch, w, h); }
template <class T>
static __host__ inline cudaError_t cudaMemcpyToSymbol(const T &symbol, const void *src, size_t count,
                                                      size_t offset = 0,
                                                      enum cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  return cudaMemcpyToSymbol((const void *)&symbol, src, count, offset, kind); }
template <class T>
static __host__ inline cudaError_t cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t count,
                                                        size_t offset = 0,
                                                        enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  return cudaMemcpyFromSymbol(dst, (const void *)&symbol, count, offset, kind); }
template <class T>
static __host__ inline cudaError_t cudaGetSymbolAddress(void **dev, const T &symbol) {
  return cudaGetSymbolAddress(dev, (const void *)&symbol); }
template <class T>
static __host__ inline cudaError_t cudaFuncSetCacheConfig(T *func, enum cudaFuncCache config) {
  return cudaFuncSetCacheConfig((const void *)func, config); }
template <class T>
static __host__ inline cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, T *func) {
  return cudaFuncGetAttributes(attr, (const void *)func); }
template <class T>
static __host__ inline cudaError_t cudaLaunchCooperativeKernel(T *func, dim3 grid, dim3 block, void **args,
                                                               size_t shmem = 0, cudaStream_t stream = 0) {
  return cudaLaunchCooperativeKernel((const void *)func, grid, block, args, shmem, stream); }
template <class T>
static __host__ inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, T func,
                                                                                 int blockSize, size_t shmem) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, (const void *)func, blockSize, shmem); }
#endif
