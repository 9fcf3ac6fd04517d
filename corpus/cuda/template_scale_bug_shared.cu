//xfail:NOT_ALL_VERIFIED
//--blockDim=128 --gridDim=16 --kernel=scale<int>
//possible (write-read|read-write|write-write) race on .*(acc|data)

// template_scale.cu where the int instantiation accumulates into a shared
// variable without synchronisation.
template <typename T> __global__ void scale(T *data, T f) {
  __shared__ T acc;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  acc = data[i] * f;
  data[i] = acc;
}

template __global__ void scale<float>(float *, float);
template __global__ void scale<int>(int *, int);
