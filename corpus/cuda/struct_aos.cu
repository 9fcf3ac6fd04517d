//pass
//--blockDim=128 --gridDim=16

// Array of structs with fields of mixed widths (byte-level memory), updated
// in place one element per thread; the struct is read whole (SROA splits the
// copy into field loads) and written back whole.
struct Cell { int count; short flags; char tag; char pad; };

__global__ void update(Cell *cells, int delta) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  Cell c = cells[i];
  c.count += delta;
  c.flags |= 2;
  c.tag = 'u';
  cells[i] = c;
}
