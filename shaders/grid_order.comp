#version 430
// Pass 3b: each cell's start resolved in place (grid_cells.glsl) and its boids put in id order.
// The scatter's order within a cell follows the binning's atomics, which differ from run to run;
// summing neighbours in id order instead makes a GPU run reproducible to the bit (same seed,
// parameters and driver, same state after any number of steps). A cell of at most
// ORDER_SMALL_CELL boids is sorted here by its own invocation (insertion sort); a larger one is
// listed for grid_order_large.comp, whose work group sorts it together: one invocation's loops
// stay short (llvmpipe and lavapipe stop any invocation after 65,535 loop iterations in all, so a
// long insertion sort there would end unsorted).
#include "common.glsl"
#define CELL_START_ACCESS  // read and written: each cell's start resolved in place
#define READS_CELL_COUNT
#include "grid_cells.glsl"
#include "grid_order.glsl"

layout(local_size_x = STEP_GROUP_SIZE) in;

void main() {
    uint cell = flatIndex(STEP_GROUP_SIZE);
    if (cell >= TOTAL_CELLS) return;
    uint start = scannedStart(cell), end = start + cell_count[cell];
    cell_start[cell] = start;  // resolved for the passes after this one (sorted_reads.glsl)
    if (end - start > uint(ORDER_SMALL_CELL)) {
        uint at = atomicAdd(large_dispatch.x, 1u);
        large_cells[at] = cell;
        return;
    }
    // The scatter keeps most of a cell in the order of the slots before, id order where the boids
    // stayed in their cells: a boid already after a lower id is read no further.
    uint previous_id = end > start ? sorted_pos[start].w : 0u;
    for (uint a = start + 1u; a < end; ++a) {
        uint id = sorted_pos[a].w;
        if (id > previous_id) {
            previous_id = id;
            continue;
        }
        Entry e = load(a);
        uint b = a;
        for (; b > start && sorted_pos[b - 1u].w > id; --b) store(b, load(b - 1u));
        store(b, e);
    }
}
