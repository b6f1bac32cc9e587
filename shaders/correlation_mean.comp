#version 430
// The first of the pair correlations' two dispatches (CorrelationPass, src/gpu/correlation_pass.hpp):
// one work group walks every boid twice, for the mean velocity V and then the mean |v - V|^2 that
// C(r) is normalised by (measureCorrelations in src/model/correlations.cpp, in double there).
// Each invocation keeps its share compensated (Kahan), then work_group_sum.glsl adds the shares.
// Output: vec4(V, mean |u|^2), which correlation_pairs.comp reads; nothing comes back but the bins.
#include "common.glsl"
#include "work_group_sum.glsl"

layout(local_size_x = STEP_GROUP_SIZE) in;
layout(std430, binding = BIND_VEL) readonly buffer VelBuf { uvec4 vel[]; };  // float bits, species
layout(std430, binding = BIND_CORR_MEAN) writeonly buffer Mean { vec4 mean_u2; };

uniform uint u_boids;  // the flock's, from slot u_first (an ensemble's flock)
uniform uint u_first;

shared vec4 s_sum[STEP_GROUP_SIZE];

vec3 velocityAt(uint i) { return uintBitsToFloat(vel[u_first + i].xyz); }

// This invocation's compensated sum of (u, |u|^2) over boids lid, lid + STEP_GROUP_SIZE, ... with
// u = v - mean: the velocity itself while the mean is not known (w 0), then the fluctuation.
vec4 shareOf(uint lid, vec3 mean, bool fluctuations) {
    precise vec4 sum = vec4(0.0), lost = vec4(0.0);
    for (uint i = lid; i < u_boids; i += uint(STEP_GROUP_SIZE)) {
        vec3 u = velocityAt(i) - mean;
        precise vec4 term = fluctuations ? vec4(0.0, 0.0, 0.0, dot(u, u)) : vec4(u, 0.0);
        precise vec4 y = term - lost;
        precise vec4 t = sum + y;
        lost = (t - sum) - y;
        sum = t;
    }
    return sum;
}

vec4 groupSum(uint lid, vec4 share) {
    s_sum[lid] = share;
    barrier();
    SUM_LEVEL_ONE(s_sum, lid);
    barrier();
    if (lid == 0u) SUM_LEVEL_TWO(s_sum);
    barrier();
    vec4 total = s_sum[0];
    barrier();
    return total;
}

void main() {
    uint lid = gl_LocalInvocationID.x;
    float n = float(max(u_boids, 1u));
    vec3 mean = groupSum(lid, shareOf(lid, vec3(0.0), false)).xyz / n;
    float u2 = groupSum(lid, shareOf(lid, mean, true)).w / n;
    if (lid == 0u) mean_u2 = vec4(mean, u2);
}
