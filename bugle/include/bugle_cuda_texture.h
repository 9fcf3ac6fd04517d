/* CUDA textures and surfaces for bugle (part of cuda.h).

   A texture is read-only memory for the duration of a kernel, so bugle models it as a
   read-only array whose cells are arbitrary values: a texel is an uninterpreted function
   of (texture, component, layer, coordinates, level) -- `__bugle_texel` below, translated
   like every `const` external function (bugle/builtins.py).  Reads never race (nothing
   writes a texture), two reads of the same texel agree (also across threads), and nothing
   else is known about the values.  Filtering, normalised coordinates and address modes
   only change *which* arbitrary value is read, so they need no model.

   * texture references (`texture<T, dim, mode> tex;` at file scope): clang gives every
     variable of the `device_builtin_texture_type` class a 64-bit handle
     (llvm.nvvm.texsurf.handle.internal), which bugle turns into a constant that differs
     between textures (bugle/cuda_library.py); the class is passed to the tex* functions
     by that handle, which is why the handle is the first member of textureReference.
   * texture objects (`cudaTextureObject_t`, a 64-bit value made by host code): the value
     itself is the handle; `tex2D<float>(obj, x, y)`.
   * surfaces (`surface<void, 2>`, `cudaSurfaceObject_t`): surf*read is a texel read like
     above; surf*write would need a writable array model and is reported as unsupported
     by bugle (exit 4), never ignored.
   Element types: scalars and the CUDA vector types of char/short/int (signed and
   unsigned) and float; cudaReadModeNormalizedFloat returns float components. */
#ifndef BUGLE_CUDA_TEXTURE_H
#define BUGLE_CUDA_TEXTURE_H

enum cudaTextureReadMode { cudaReadModeElementType = 0, cudaReadModeNormalizedFloat = 1 };
enum cudaTextureAddressMode {
  cudaAddressModeWrap = 0, cudaAddressModeClamp = 1, cudaAddressModeMirror = 2, cudaAddressModeBorder = 3
};
enum cudaTextureFilterMode { cudaFilterModePoint = 0, cudaFilterModeLinear = 1 };
enum cudaChannelFormatKind {
  cudaChannelFormatKindSigned = 0, cudaChannelFormatKindUnsigned = 1, cudaChannelFormatKindFloat = 2,
  cudaChannelFormatKindNone = 3
};
enum cudaResourceType {
  cudaResourceTypeArray = 0, cudaResourceTypeMipmappedArray = 1, cudaResourceTypeLinear = 2,
  cudaResourceTypePitch2D = 3
};
enum cudaSurfaceBoundaryMode { cudaBoundaryModeZero = 0, cudaBoundaryModeClamp = 1, cudaBoundaryModeTrap = 2 };
#define cudaTextureType1D 0x01
#define cudaTextureType2D 0x02
#define cudaTextureType3D 0x03
#define cudaTextureTypeCubemap 0x0C
#define cudaTextureType1DLayered 0xF1
#define cudaTextureType2DLayered 0xF2
#define cudaTextureTypeCubemapLayered 0xFC
#define cudaSurfaceType1D 0x01
#define cudaSurfaceType2D 0x02
#define cudaSurfaceType3D 0x03
#define cudaArrayDefault 0x00
#define cudaArrayLayered 0x01
#define cudaArraySurfaceLoadStore 0x02
#define cudaArrayCubemap 0x04

struct cudaChannelFormatDesc { int x, y, z, w; enum cudaChannelFormatKind f; };
typedef unsigned long long cudaTextureObject_t;
typedef unsigned long long cudaSurfaceObject_t;

struct textureReference {
  unsigned long long __bugle_handle;  /* first: what device code receives (see above) */
  int normalized;
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureAddressMode addressMode[3];
  struct cudaChannelFormatDesc channelDesc;
  int sRGB;
  unsigned int maxAnisotropy;
  enum cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
};
struct surfaceReference { unsigned long long __bugle_handle; struct cudaChannelFormatDesc channelDesc; };

struct cudaResourceDesc {
  enum cudaResourceType resType;
  union {
    struct { cudaArray_t array; } array;
    struct { cudaMipmappedArray_t mipmap; } mipmap;
    struct { void *devPtr; struct cudaChannelFormatDesc desc; size_t sizeInBytes; } linear;
    struct { void *devPtr; struct cudaChannelFormatDesc desc; size_t width, height, pitchInBytes; } pitch2D;
  } res;
};
struct cudaTextureDesc {
  enum cudaTextureAddressMode addressMode[3];
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureReadMode readMode;
  int sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned int maxAnisotropy;
  enum cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
};
struct cudaResourceViewDesc { int format; size_t width, height, depth; unsigned int firstMipmapLevel,
  lastMipmapLevel, firstLayer, lastLayer; };

template <class T, int texType = cudaTextureType1D, enum cudaTextureReadMode mode = cudaReadModeElementType>
struct __attribute__((device_builtin_texture_type)) texture : public textureReference {
  __host__ texture(int norm = 0, enum cudaTextureFilterMode fMode = cudaFilterModePoint,
                   enum cudaTextureAddressMode aMode = cudaAddressModeClamp) {
    normalized = norm; filterMode = fMode;
    addressMode[0] = addressMode[1] = addressMode[2] = aMode; }
  __host__ texture(int norm, enum cudaTextureFilterMode fMode, enum cudaTextureAddressMode aMode,
                   struct cudaChannelFormatDesc desc) {
    normalized = norm; filterMode = fMode;
    addressMode[0] = addressMode[1] = addressMode[2] = aMode; channelDesc = desc; }
};
template <class T, int dim = 1>
struct __attribute__((device_builtin_surface_type)) surface : public surfaceReference {
  __host__ surface(void) {}
};

/* ---- the model: one texel component (32 bits) is an uninterpreted function ---- */
extern "C" __device__ unsigned int __bugle_texel(unsigned long long handle, int component, int layer,
                                                 float x, float y, float z, float level)
    __attribute__((const));
extern "C" __device__ unsigned int __bugle_texel_fetch(unsigned long long handle, int component, int x)
    __attribute__((const));

/* Component type and count of an element type; the value type a read returns. */
template <class T> struct __bugle_texel_traits;
#define BUGLE_TEXEL(T, C, N, F)                                                                    \
  template <> struct __bugle_texel_traits<T> { typedef C comp; typedef F normalized; static const int n = N; };
#define BUGLE_TEXELS(S, C, F)                                                                      \
  BUGLE_TEXEL(S##1, C, 1, float1) BUGLE_TEXEL(S##2, C, 2, float2) BUGLE_TEXEL(S##4, C, 4, float4)
BUGLE_TEXEL(signed char, signed char, 1, float) BUGLE_TEXEL(unsigned char, unsigned char, 1, float)
BUGLE_TEXEL(short, short, 1, float) BUGLE_TEXEL(unsigned short, unsigned short, 1, float)
BUGLE_TEXEL(int, int, 1, float) BUGLE_TEXEL(unsigned int, unsigned int, 1, float)
BUGLE_TEXEL(char, char, 1, float) BUGLE_TEXEL(float, float, 1, float)
BUGLE_TEXELS(char, signed char, float) BUGLE_TEXELS(uchar, unsigned char, float)
BUGLE_TEXELS(short, short, float) BUGLE_TEXELS(ushort, unsigned short, float)
BUGLE_TEXELS(int, int, float) BUGLE_TEXELS(uint, unsigned int, float)
BUGLE_TEXEL(float1, float, 1, float1) BUGLE_TEXEL(float2, float, 2, float2)
BUGLE_TEXEL(float4, float, 4, float4)
#undef BUGLE_TEXELS
#undef BUGLE_TEXEL
template <class T, enum cudaTextureReadMode M> struct __bugle_texel_value { typedef T type; };
template <class T> struct __bugle_texel_value<T, cudaReadModeNormalizedFloat> {
  typedef typename __bugle_texel_traits<T>::normalized type; };

template <class C> static __device__ __forceinline__ C __bugle_texel_as(unsigned int bits) {
  if constexpr (sizeof(C) == sizeof(unsigned int)) return __builtin_bit_cast(C, bits);
  else return (C)bits; }
/* The texel value of type R (a scalar or vector type) from its component reads (no
   loop: every read is a straight-line call). */
template <class R, class Read> static __device__ __forceinline__ R __bugle_texel_make(Read read) {
  typedef __bugle_texel_traits<R> tr;
  typedef typename tr::comp C;
  if constexpr (tr::n == 1) {
    return __builtin_bit_cast(R, __bugle_texel_as<C>(read(0)));
  } else {
    R r;
    r.x = __bugle_texel_as<C>(read(0));
    r.y = __bugle_texel_as<C>(read(1));
    if constexpr (tr::n == 4) {
      r.z = __bugle_texel_as<C>(read(2));
      r.w = __bugle_texel_as<C>(read(3));
    }
    return r;
  }
}
template <class R> static __device__ __forceinline__ R __bugle_tex(unsigned long long h, int layer, float x,
                                                                    float y, float z, float level) {
  return __bugle_texel_make<R>([=](int k) { return __bugle_texel(h, k, layer, x, y, z, level); }); }
template <class R> static __device__ __forceinline__ R __bugle_texfetch(unsigned long long h, int x) {
  return __bugle_texel_make<R>([=](int k) { return __bugle_texel_fetch(h, k, x); }); }

/* ---- texture references ---- */
#define BUGLE_TEXREF(DIM) texture<T, DIM, M> t
#define BUGLE_TEXVAL typename __bugle_texel_value<T, M>::type
#define BUGLE_TEXFN template <class T, enum cudaTextureReadMode M> static __device__ __forceinline__
BUGLE_TEXFN BUGLE_TEXVAL tex1Dfetch(BUGLE_TEXREF(cudaTextureType1D), int x) {
  return __bugle_texfetch<BUGLE_TEXVAL>(t.__bugle_handle, x); }
BUGLE_TEXFN BUGLE_TEXVAL tex1D(BUGLE_TEXREF(cudaTextureType1D), float x) {
  return __bugle_tex<BUGLE_TEXVAL>(t.__bugle_handle, 0, x, 0.0f, 0.0f, 0.0f); }
BUGLE_TEXFN BUGLE_TEXVAL tex2D(BUGLE_TEXREF(cudaTextureType2D), float x, float y) {
  return __bugle_tex<BUGLE_TEXVAL>(t.__bugle_handle, 0, x, y, 0.0f, 0.0f); }
BUGLE_TEXFN BUGLE_TEXVAL tex3D(BUGLE_TEXREF(cudaTextureType3D), float x, float y, float z) {
  return __bugle_tex<BUGLE_TEXVAL>(t.__bugle_handle, 0, x, y, z, 0.0f); }
BUGLE_TEXFN BUGLE_TEXVAL tex1DLayered(BUGLE_TEXREF(cudaTextureType1DLayered), float x, int layer) {
  return __bugle_tex<BUGLE_TEXVAL>(t.__bugle_handle, layer, x, 0.0f, 0.0f, 0.0f); }
BUGLE_TEXFN BUGLE_TEXVAL tex2DLayered(BUGLE_TEXREF(cudaTextureType2DLayered), float x, float y, int layer) {
  return __bugle_tex<BUGLE_TEXVAL>(t.__bugle_handle, layer, x, y, 0.0f, 0.0f); }
BUGLE_TEXFN BUGLE_TEXVAL texCubemap(BUGLE_TEXREF(cudaTextureTypeCubemap), float x, float y, float z) {
  return __bugle_tex<BUGLE_TEXVAL>(t.__bugle_handle, 0, x, y, z, 0.0f); }
BUGLE_TEXFN BUGLE_TEXVAL texCubemapLayered(BUGLE_TEXREF(cudaTextureTypeCubemapLayered), float x, float y,
                                           float z, int layer) {
  return __bugle_tex<BUGLE_TEXVAL>(t.__bugle_handle, layer, x, y, z, 0.0f); }
BUGLE_TEXFN BUGLE_TEXVAL tex1DLod(BUGLE_TEXREF(cudaTextureType1D), float x, float level) {
  return __bugle_tex<BUGLE_TEXVAL>(t.__bugle_handle, 0, x, 0.0f, 0.0f, level); }
BUGLE_TEXFN BUGLE_TEXVAL tex2DLod(BUGLE_TEXREF(cudaTextureType2D), float x, float y, float level) {
  return __bugle_tex<BUGLE_TEXVAL>(t.__bugle_handle, 0, x, y, 0.0f, level); }
BUGLE_TEXFN BUGLE_TEXVAL tex3DLod(BUGLE_TEXREF(cudaTextureType3D), float x, float y, float z, float level) {
  return __bugle_tex<BUGLE_TEXVAL>(t.__bugle_handle, 0, x, y, z, level); }
#undef BUGLE_TEXREF
#undef BUGLE_TEXVAL
#undef BUGLE_TEXFN

/* ---- texture objects: tex2D<float>(obj, x, y) and the out-parameter forms ---- */
#define BUGLE_TEXOBJ(NAME, PARAMS, LAYER, X, Y, Z, LOD)                                              \
  template <class T> static __device__ __forceinline__ T NAME(cudaTextureObject_t obj, PARAMS) {      \
    return __bugle_tex<T>(obj, LAYER, X, Y, Z, LOD); }                                               \
  template <class T> static __device__ __forceinline__ void NAME(T *r, cudaTextureObject_t obj, PARAMS) { \
    *r = __bugle_tex<T>(obj, LAYER, X, Y, Z, LOD); }
#define BUGLE_COMMA ,
BUGLE_TEXOBJ(tex1D, float x, 0, x, 0.0f, 0.0f, 0.0f)
BUGLE_TEXOBJ(tex2D, float x BUGLE_COMMA float y, 0, x, y, 0.0f, 0.0f)
BUGLE_TEXOBJ(tex3D, float x BUGLE_COMMA float y BUGLE_COMMA float z, 0, x, y, z, 0.0f)
BUGLE_TEXOBJ(tex1DLayered, float x BUGLE_COMMA int l, l, x, 0.0f, 0.0f, 0.0f)
BUGLE_TEXOBJ(tex2DLayered, float x BUGLE_COMMA float y BUGLE_COMMA int l, l, x, y, 0.0f, 0.0f)
BUGLE_TEXOBJ(texCubemap, float x BUGLE_COMMA float y BUGLE_COMMA float z, 0, x, y, z, 0.0f)
BUGLE_TEXOBJ(tex1DLod, float x BUGLE_COMMA float lod, 0, x, 0.0f, 0.0f, lod)
BUGLE_TEXOBJ(tex2DLod, float x BUGLE_COMMA float y BUGLE_COMMA float lod, 0, x, y, 0.0f, lod)
BUGLE_TEXOBJ(tex3DLod, float x BUGLE_COMMA float y BUGLE_COMMA float z BUGLE_COMMA float lod, 0, x, y, z, lod)
#undef BUGLE_TEXOBJ
#undef BUGLE_COMMA
template <class T> static __device__ __forceinline__ T tex1Dfetch(cudaTextureObject_t obj, int x) {
  return __bugle_texfetch<T>(obj, x); }
template <class T> static __device__ __forceinline__ void tex1Dfetch(T *r, cudaTextureObject_t obj, int x) {
  *r = __bugle_texfetch<T>(obj, x); }

/* ---- surfaces: reads as texels (x in bytes), writes reported by bugle ---- */
extern "C" __device__ void __bugle_cuda_unsupported_surface_write(const char *what);
#define BUGLE_SURF(N, PARAMS, LAYER, X, Y, Z)                                                        \
  template <class T> static __device__ __forceinline__ T surf##N##read(cudaSurfaceObject_t s, PARAMS,  \
      enum cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {                                       \
    return __bugle_tex<T>(s, LAYER, (float)(X), (float)(Y), (float)(Z), 0.0f); }                     \
  template <class T> static __device__ __forceinline__ void surf##N##read(T *r, cudaSurfaceObject_t s, PARAMS, \
      enum cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {                                       \
    *r = __bugle_tex<T>(s, LAYER, (float)(X), (float)(Y), (float)(Z), 0.0f); }                       \
  template <class T, int D> static __device__ __forceinline__ void surf##N##read(T *r, surface<void, D> s, \
      PARAMS, enum cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {                               \
    *r = __bugle_tex<T>(s.__bugle_handle, LAYER, (float)(X), (float)(Y), (float)(Z), 0.0f); }       \
  template <class T, class S> static __device__ __forceinline__ void surf##N##write(T v, S s, PARAMS,  \
      enum cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {                                       \
    __bugle_cuda_unsupported_surface_write("surf" #N "write"); }
#define BUGLE_COMMA ,
BUGLE_SURF(1D, int x, 0, x, 0, 0)
BUGLE_SURF(2D, int x BUGLE_COMMA int y, 0, x, y, 0)
BUGLE_SURF(3D, int x BUGLE_COMMA int y BUGLE_COMMA int z, 0, x, y, z)
BUGLE_SURF(1DLayered, int x BUGLE_COMMA int l, l, x, 0, 0)
BUGLE_SURF(2DLayered, int x BUGLE_COMMA int y BUGLE_COMMA int l, l, x, y, 0)
#undef BUGLE_SURF
#undef BUGLE_COMMA

/* ---- host side: binding and texture objects (declarations only) ---- */
template <class T> static __host__ inline struct cudaChannelFormatDesc cudaCreateChannelDesc(void) {
  struct cudaChannelFormatDesc d = {8 * (int)sizeof(T), 0, 0, 0, cudaChannelFormatKindNone}; return d; }
extern "C" {
__host__ struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w,
                                                            enum cudaChannelFormatKind f);
__host__ cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                                     size_t width, size_t height = 0, unsigned int flags = 0);
__host__ cudaError_t cudaMalloc3DArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                                       struct cudaExtent extent, unsigned int flags = 0);
__host__ cudaError_t cudaFreeArray(cudaArray_t array);
__host__ cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                       size_t count, enum cudaMemcpyKind kind);
__host__ cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                         size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind);
__host__ cudaError_t cudaCreateTextureObject(cudaTextureObject_t *obj, const struct cudaResourceDesc *res,
                                             const struct cudaTextureDesc *tex,
                                             const struct cudaResourceViewDesc *view);
__host__ cudaError_t cudaDestroyTextureObject(cudaTextureObject_t obj);
__host__ cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *obj, const struct cudaResourceDesc *res);
__host__ cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t obj);
__host__ cudaError_t cudaBindTexture(size_t *offset, const struct textureReference *tex, const void *ptr,
                                     const struct cudaChannelFormatDesc *desc, size_t size);
__host__ cudaError_t cudaBindTexture2D(size_t *offset, const struct textureReference *tex, const void *ptr,
                                       const struct cudaChannelFormatDesc *desc, size_t width, size_t height,
                                       size_t pitch);
__host__ cudaError_t cudaBindTextureToArray(const struct textureReference *tex, cudaArray_const_t array,
                                            const struct cudaChannelFormatDesc *desc);
__host__ cudaError_t cudaUnbindTexture(const struct textureReference *tex);
__host__ cudaError_t cudaBindSurfaceToArray(const struct surfaceReference *surf, cudaArray_const_t array,
                                            const struct cudaChannelFormatDesc *desc);
}
template <class T, int D, enum cudaTextureReadMode M>
static __host__ inline cudaError_t cudaBindTexture(size_t *offset, const texture<T, D, M> &tex, const void *ptr,
                                                   size_t size = ~(size_t)0) {
  return cudaBindTexture(offset, &tex, ptr, &tex.channelDesc, size); }
template <class T, int D, enum cudaTextureReadMode M>
static __host__ inline cudaError_t cudaBindTexture(size_t *offset, const texture<T, D, M> &tex, const void *ptr,
                                                   const struct cudaChannelFormatDesc &desc,
                                                   size_t size = ~(size_t)0) {
  return cudaBindTexture(offset, &tex, ptr, &desc, size); }
template <class T, int D, enum cudaTextureReadMode M>
static __host__ inline cudaError_t cudaBindTexture2D(size_t *offset, const texture<T, D, M> &tex, const void *ptr,
                                                     const struct cudaChannelFormatDesc &desc, size_t w, size_t h,
                                                     size_t pitch) {
  return cudaBindTexture2D(offset, &tex, ptr, &desc, w, h, pitch); }
template <class T, int D, enum cudaTextureReadMode M>
static __host__ inline cudaError_t cudaBindTextureToArray(const texture<T, D, M> &tex, cudaArray_const_t array,
                                                          const struct cudaChannelFormatDesc &desc) {
  return cudaBindTextureToArray(&tex, array, &desc); }
template <class T, int D, enum cudaTextureReadMode M>
static __host__ inline cudaError_t cudaBindTextureToArray(const texture<T, D, M> &tex, cudaArray_const_t array) {
  return cudaBindTextureToArray(&tex, array, &tex.channelDesc); }
template <class T, int D, enum cudaTextureReadMode M>
static __host__ inline cudaError_t cudaUnbindTexture(const texture<T, D, M> &tex) { return cudaUnbindTexture(&tex); }
#endif
