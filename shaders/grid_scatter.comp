#version 430
// Pass 3: boids reordered into cell order (each to its cell's start plus its rank), so the
// steering pass reads neighbours from contiguous, coherent memory.
#include "common.glsl"
#include "grid_cells.glsl"

layout(local_size_x = STEP_GROUP_SIZE) in;
layout(std430, binding = BIND_POS) readonly buffer Pos { uvec4 pos[]; };  // copied as uints: bit for bit
layout(std430, binding = BIND_VEL) readonly buffer Vel { uvec4 vel[]; };
layout(std430, binding = BIND_SORTED_POS) writeonly buffer SortedPos { uvec4 sorted_pos[]; };
layout(std430, binding = BIND_SORTED_VEL) writeonly buffer SortedVel { uvec4 sorted_vel[]; };
layout(std430, binding = BIND_BOID_BIN) readonly buffer BoidBin { uvec2 boid_bin[]; };  // cell, rank
#if STORED_STEER
layout(std430, binding = BIND_STEER) readonly buffer Steer { vec4 steer[]; };
layout(std430, binding = BIND_SORTED_STEER) writeonly buffer SortedSteer { vec4 sorted_steer[]; };
#endif
#if PERCHING
layout(std430, binding = BIND_PERCH) readonly buffer Perch { float perch[]; };
layout(std430, binding = BIND_SORTED_PERCH) writeonly buffer SortedPerch { float sorted_perch[]; };
#endif

void main() {
    uint i = flatIndex(STEP_GROUP_SIZE);
    if (i >= TOTAL_BOIDS) return;
    uvec2 bin = boid_bin[i];
    uint dst = scannedStart(bin.x) + bin.y;
    sorted_pos[dst] = pos[i];
    sorted_vel[dst] = vel[i];
#if PERCHING
    sorted_perch[dst] = perch[i];
#endif
#if STORED_STEER
    sorted_steer[dst] = steer[i];
#endif
}
