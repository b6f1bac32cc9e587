#version 430
// Pass 1 of the step: each boid's cell, and an atomic count per cell that also gives the boid
// its rank within the cell (where the scatter will put it).
#include "common.glsl"

layout(local_size_x = STEP_GROUP_SIZE) in;
layout(std430, binding = BIND_POS) readonly buffer Pos { uvec4 pos[]; };  // float bits, id
layout(std430, binding = BIND_CELL_COUNT) buffer CellCount { uint cell_count[]; };
layout(std430, binding = BIND_BOID_CELL) writeonly buffer BoidCell { uint boid_cell[]; };
layout(std430, binding = BIND_BOID_RANK) writeonly buffer BoidRank { uint boid_rank[]; };

void main() {
    uint i = flatIndex(STEP_GROUP_SIZE);
    if (i >= BOIDS) return;
    uint cell = cellIndex(cellOf(uintBitsToFloat(pos[i].xyz)));
    boid_cell[i] = cell;
    boid_rank[i] = atomicAdd(cell_count[cell], 1u);
}
