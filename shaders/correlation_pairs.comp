#version 430
// The second of the pair correlations' dispatches (CorrelationPass): every pair i < j once, the
// N-body way (each work group holds a block of boids i and walks the blocks j from its own on, a
// block at a time staged in shared memory). A pair within u_r_max adds its u_i . u_j / mean |u|^2
// (u = v - V, correlation_mean.comp's output) and 1 to its distance's bin (bins of equal width
// over [0, u_r_max), the minimum image in wrap bounds), as measureCorrelations does in double.
// The sums are fixed point (CORR_FIXED_ONE to one mean |u|^2) in two 32-bit words with a carry:
// integer additions, so the bins are the same to the bit whatever order the pairs come in.
// Output: per bin uvec4(sum low word, sum high word, pairs low word, pairs high word), added to.
#include "common.glsl"

layout(local_size_x = STEP_GROUP_SIZE) in;
layout(std430, binding = BIND_POS) readonly buffer PosBuf { uvec4 pos[]; };  // float bits, id
layout(std430, binding = BIND_VEL) readonly buffer VelBuf { uvec4 vel[]; };  // float bits, species
layout(std430, binding = BIND_CORR_MEAN) readonly buffer Mean { vec4 mean_u2; };
layout(std430, binding = BIND_CORR_BINS) buffer Bins { uvec4 bins[]; };

uniform uint u_boids;  // the flock's: an ensemble's flock u_flock, from slot u_first
uniform uint u_first;
uniform uint u_flock;
uniform uint u_bins;
uniform float u_r_max;

shared vec4 s_p[STEP_GROUP_SIZE], s_u[STEP_GROUP_SIZE];
shared uint s_lo[MAX_CORR_BINS], s_hi[MAX_CORR_BINS], s_pairs[MAX_CORR_BINS];

vec3 positionAt(uint i) { return uintBitsToFloat(pos[u_first + i].xyz); }
vec3 fluctuationAt(uint i) { return uintBitsToFloat(vel[u_first + i].xyz) - mean_u2.xyz; }

// One pair's term t (in units of 1 / CORR_FIXED_ONE) as a 64-bit two's complement integer: below
// 2^31 in size through int, past it by whole 2^32s (both exact in float there).
uvec2 fixedWords(float t) {
    if (abs(t) < 2147483648.0) {
        int whole = int(round(t));
        return uvec2(uint(whole), whole < 0 ? 0xFFFFFFFFu : 0u);
    }
    float high = floor(t * (1.0 / 4294967296.0));
    return uvec2(uint(t - high * 4294967296.0), uint(int(high)));
}

void addPair(uint b, float term) {
    uvec2 w = fixedWords(term * CORR_FIXED_ONE);
    uint before = atomicAdd(s_lo[b], w.x);
    atomicAdd(s_hi[b], w.y + (before + w.x < before ? 1u : 0u));
    atomicAdd(s_pairs[b], 1u);
}

// The work group's bin b into the whole flock's, carrying into each high word.
void addToBins(uint b) {
    uint pairs = s_pairs[b];
    if (pairs == 0u) return;
    uint lo = s_lo[b], before = atomicAdd(bins[b].x, lo);
    atomicAdd(bins[b].y, s_hi[b] + (before + lo < before ? 1u : 0u));
    before = atomicAdd(bins[b].z, pairs);
    if (before + pairs < before) atomicAdd(bins[b].w, 1u);
}

void main() {
#if ENSEMBLE
    g_flock = u_flock;  // P: its parameter block (its world)
#endif
    uint lid = gl_LocalInvocationID.x, block = flatGroup();
    for (uint b = lid; b < u_bins; b += uint(STEP_GROUP_SIZE)) s_lo[b] = s_hi[b] = s_pairs[b] = 0u;
    uint i = block * uint(STEP_GROUP_SIZE) + lid;
    bool live = i < u_boids;
    vec3 p = live ? positionAt(i) : vec3(0.0), u = live ? fluctuationAt(i) : vec3(0.0);
    float inv_u2 = mean_u2.w > 0.0 ? 1.0 / mean_u2.w : 0.0, width = u_r_max / float(u_bins);
    uint blocks = (u_boids + uint(STEP_GROUP_SIZE) - 1u) / uint(STEP_GROUP_SIZE);
    for (uint t = block; t < blocks; ++t) {  // the same count for every invocation: the barriers are uniform
        barrier();  // the last block's reads (and the bins' zeroing) are done
        uint j = t * uint(STEP_GROUP_SIZE) + lid;
        if (j < u_boids) {
            s_p[lid] = vec4(positionAt(j), 0.0);
            s_u[lid] = vec4(fluctuationAt(j), 0.0);
        }
        barrier();
        uint count = min(uint(STEP_GROUP_SIZE), u_boids - t * uint(STEP_GROUP_SIZE));
        for (uint k = t == block ? lid + 1u : 0u; live && k < count; ++k) {
            float r = length(offsetBetween(p, s_p[k].xyz));
            if (r < u_r_max) addPair(min(uint(r / width), u_bins - 1u), dot(u, s_u[k].xyz) * inv_u2);
        }
    }
    barrier();
    for (uint b = lid; b < u_bins; b += uint(STEP_GROUP_SIZE)) addToBins(b);
}
