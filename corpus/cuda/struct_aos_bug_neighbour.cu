//xfail:NOT_ALL_VERIFIED
//--blockDim=128 --gridDim=16
//possible (read-write|write-read|write-write) race on .*cells
//struct_aos_bug_neighbour.cu:1[0-4]:

// struct_aos.cu writing the updated struct into the next element.
struct Cell { int count; short flags; char tag; char pad; };

__global__ void update(Cell *cells, int delta) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  Cell c = cells[i];
  c.count += delta;
  cells[i + 1] = c;
}
