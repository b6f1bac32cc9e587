#version 430
// The neighbour counts in id order (GpuSimulation::neighbourCounts): the steer pass keeps them by
// slot; this puts them by id on the GPU, so the counts come back (4 bytes a boid) and the
// positions do not.
#include "common.glsl"

layout(local_size_x = STEP_GROUP_SIZE) in;
layout(std430, binding = BIND_POS) readonly buffer PosBuf { uvec4 pos[]; };  // float bits, id
layout(std430, binding = BIND_NEIGHBOURS) readonly buffer NbBuf { uint neighbours[]; };
layout(std430, binding = BIND_NEIGHBOURS_BY_ID) writeonly buffer ById { uint by_id[]; };

void main() {
    uint i = flatIndex(STEP_GROUP_SIZE);
    if (i >= BOIDS) return;
    uint id = pos[i].w;
    if (id < BOIDS) by_id[id] = neighbours[i];
}
