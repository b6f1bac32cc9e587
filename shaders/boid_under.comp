#version 430
// Picking (pickBoid in src/render/picking.cpp is the reference): the boid drawn nearest the
// pointer, in three dispatches of this pass over the state, u_stage 0, 1, 2, each narrowing by
// an atomic minimum: 0 the nearest screen distance within u_max_px; 1 the nearest depth among
// the boids within reach of it (the same distance in 2D, a pixel more in 3D); 2 the lowest id
// among those. Distances are non-negative, so their float bits order as the floats do.
#include "common.glsl"

layout(local_size_x = STEP_GROUP_SIZE) in;
layout(std430, binding = BIND_POS) readonly buffer PosBuf { uvec4 pos[]; };  // float bits, id
layout(std430, binding = BIND_PICKED) coherent buffer Best { uint best[4]; };  // px, depth, id bits

uniform mat4 u_view_projection;
uniform vec2 u_viewport;
uniform vec2 u_pixel;
uniform vec3 u_eye;
uniform uint u_three_d;
uniform float u_max_px;
uniform uint u_stage;

const float kBehind = 1.0e30;

// screenDistance in picking.cpp: kBehind when behind the camera or beyond u_max_px.
float screenDistance(vec3 p) {
    vec4 clip = u_view_projection * vec4(p, 1.0);
    if (clip.w <= 0.0) return kBehind;
    vec2 at = (clip.xy / clip.w * 0.5 + 0.5) * u_viewport;
    float d = length(at - u_pixel);
    return d <= u_max_px ? d : kBehind;
}

void main() {
    uint i = flatIndex(STEP_GROUP_SIZE);
    if (i >= BOIDS) return;
    vec3 p = uintBitsToFloat(pos[i].xyz);
    float px = screenDistance(p);
    if (px == kBehind) return;
    if (u_stage == 0u) {
        atomicMin(best[0], floatBitsToUint(px));
        return;
    }
    float nearest = uintBitsToFloat(best[0]);
    float reach = u_three_d != 0u ? nearest + 1.0 : nearest;
    if (px > reach) return;
    float depth = u_three_d != 0u ? length(p - u_eye) : 0.0;
    if (u_stage == 1u)
        atomicMin(best[1], floatBitsToUint(depth));
    else if (depth == uintBitsToFloat(best[1]))
        atomicMin(best[2], pos[i].w);
}
