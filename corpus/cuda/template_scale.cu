//pass
//--blockDim=128 --gridDim=16 --kernel=scale<float>

// A kernel template instantiated twice; --kernel picks an instantiation by its
// source name.
template <typename T> struct Scaler {
  T factor;
  __device__ T apply(T x) const { return x * factor; }
};

template <typename T> __global__ void scale(T *data, T f) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  Scaler<T> s{f};
  data[i] = s.apply(data[i]);
}

template __global__ void scale<float>(float *, float);
template __global__ void scale<int>(int *, int);
