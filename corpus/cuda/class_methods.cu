//pass
//--blockDim=[16,16] --gridDim=[4,4]

// A small matrix-view class with device member functions and a constructor.
class View {
  float *base;
  unsigned pitch;
public:
  __device__ View(float *b, unsigned p) : base(b), pitch(p) {}
  __device__ float &at(unsigned r, unsigned c) { return base[r * pitch + c]; }
};

__global__ void fill(float *m) {
  __requires(blockDim.x == 16 && blockDim.y == 16 && gridDim.x <= 4 && gridDim.y <= 65536);
  View v(m, 64);
  unsigned r = blockIdx.y * 16 + threadIdx.y, c = blockIdx.x * 16 + threadIdx.x;
  v.at(r, c) = (float)(r + c);
}
