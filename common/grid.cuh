/* Launch geometry every lesson shares: blocks that cover n items, and a 2-D grid that respects the
 * hardware's limit on gridDim.y. */
#ifndef GRID_CUH
#define GRID_CUH

#include <cuda_runtime.h>

/* ceil(n / per_block): blocks of per_block items that cover n items. */
static inline unsigned div_up(size_t n, unsigned per_block) { return (unsigned)((n + per_block - 1) / per_block); }

/* ceil(fast / block.x) blocks across, ceil(slow / block.y) down but at most 65535 (the cap on gridDim.y): a kernel
 * launched on it loops its slow index in steps of gridDim.y * blockDim.y. */
static inline dim3 grid_2d(unsigned fast, unsigned slow, dim3 block)
{
    unsigned gy = div_up(slow, block.y);
    return dim3(div_up(fast, block.x), gy < 65535u ? gy : 65535u, 1);   /* the hardware's cap on gridDim.y */
}

#endif
