//xfail:BUGLE_ERROR
//--blockDim=256 --gridDim=8
//warp_lane_bug_ptx.cu:10:3: error: inline assembly \(asm\("mov.u32 \$0, %laneid;"\)\) is not supported

// The lane read with inline PTX: bugle cannot read PTX, and says so (exit 4) at the
// asm statement instead of guessing what it does.
__global__ void laneIds(unsigned int *lanes, unsigned int *warps) {
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned int lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  lanes[i] = lane;
  warps[i] = threadIdx.x / warpSize;
}
