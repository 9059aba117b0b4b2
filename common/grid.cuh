/* Launch geometry every lesson shares: blocks that cover n items, a 2-D grid that respects the
 * hardware's limit on gridDim.y, and the threads one SM holds (for __launch_bounds__). */
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

/* The threads one SM holds, in device code: the ceiling for __launch_bounds__'s blocks-per-SM
 * argument, since ptxas rejects a request for more blocks than fit ("out of range", an error with
 * warnings as errors).  1024 on compute capability 7.5; 1536 on 8.6, 8.7, 8.9, 11.x and 12.x; 2048 on
 * 7.0, 8.0, 9.0 and 10.x (CUDA C++ Programming Guide, technical specifications per compute
 * capability; ptxas 13.0 accepts exactly these).  The host pass sees 2048 and launches nothing by it. */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 750
#define SM_MAX_THREADS 1024
#elif defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 860 || __CUDA_ARCH__ == 870 || __CUDA_ARCH__ == 890 || __CUDA_ARCH__ >= 1100)
#define SM_MAX_THREADS 1536
#else
#define SM_MAX_THREADS 2048
#endif

#endif
