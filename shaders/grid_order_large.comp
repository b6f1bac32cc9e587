#version 430
// Pass 3c (an indirect dispatch: one work group per cell grid_order.comp listed, none when no cell
// holds more than ORDER_SMALL_CELL boids): the cell's boids put in id order by a bitonic sort in
// place, every comparator ascending (the first of each merge compares i with its mirror i ^ (k-1),
// then i with i ^ j), so the slots past the cell's end act as +infinity and need no padding.
// Each round's compare-swaps are spread over the work group, a barrier between rounds.
#include "common.glsl"
#define READS_CELL_COUNT
#include "grid_cells.glsl"
#define ORDER_SHARED coherent
#include "grid_order.glsl"

layout(local_size_x = STEP_GROUP_SIZE) in;

void compareSwap(uint start, uint n, uint i, uint l) {
    if (l <= i || l >= n) return;
    if (sorted_pos[start + i].w <= sorted_pos[start + l].w) return;
    Entry e = load(start + i);
    store(start + i, load(start + l));
    store(start + l, e);
}

void main() {
    uint cell = large_cells[gl_WorkGroupID.x];
    uint start = cell_start[cell], n = cell_count[cell];
    uint n2 = 1u;
    while (n2 < n) n2 <<= 1u;
    for (uint k = 2u; k <= n2; k <<= 1u)
        for (uint j = k >> 1u; j > 0u; j >>= 1u) {
            for (uint i = gl_LocalInvocationID.x; i < n2; i += uint(STEP_GROUP_SIZE))
                compareSwap(start, n, i, j == (k >> 1u) ? i ^ (k - 1u) : i ^ j);
            memoryBarrierBuffer();
            barrier();
        }
}
