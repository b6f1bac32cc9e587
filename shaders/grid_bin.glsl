// Binning one boid: its cell, and its rank among the boids of that cell (an atomic count; the
// scatter puts the boid at its cell's start plus this rank). grid_count.comp bins a state that
// came from elsewhere (an upload, a change of grid); flock_steer.comp bins each boid it writes, so
// the next step starts binned. Counts go to the count buffer that the next scan reads; the scan
// before zeroed it.
#ifndef MURMUR_GRID_BIN_GLSL
#define MURMUR_GRID_BIN_GLSL

layout(std430, binding = BIND_NEXT_COUNT) buffer NextCount { uint next_count[]; };
layout(std430, binding = BIND_BOID_BIN) writeonly buffer BoidBin { uvec2 boid_bin[]; };

void binBoid(uint slot, vec3 p) {
    uint cell = cellIndex(cellOf(p));
    boid_bin[slot] = uvec2(cell, atomicAdd(next_count[cell], 1u));
}

#endif
