//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=4 --warp-sync=32
//possible write-write race on .*winner\[0\]
//warp_vote_bug_sameinstr.cu:10:

// Even in lock-step, two threads of one warp writing different values to the
// same element in the same instruction race.
__global__ void vote(int *winner) {
  if (threadIdx.x < 32)
    winner[0] = threadIdx.x;
}
