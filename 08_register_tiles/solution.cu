/* Lesson 08 exercise, reference solution: the float2 2x2 register tile.  The kernel lives in
 * reg_tile_2x2.cuh, where register_tiles.cu includes it too (one copy of it in the lesson). */
#include "reg_tile_2x2.cuh"
