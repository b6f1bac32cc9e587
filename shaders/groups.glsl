// The group measures' shared state (docs/model.md, "Order parameters"): a union-find forest over
// the sorted copy's slots (group_link.comp hooks, group_sums.comp flattens), per-root sums, and
// the flock's totals. A group's root is its member with the lowest id, as the CPU reference's
// walk starts from it; positions are taken relative to the root by minimum image.
#ifndef MURMUR_GROUPS_GLSL
#define MURMUR_GROUPS_GLSL

layout(std430, binding = BIND_GROUP_PARENT) coherent volatile buffer Parent { uint parent[]; };  // slot -> parent slot
// Per root slot: x, y, z the sum of offsets from the root, w the count (uint); then the sum of unit
// velocities (xyz); then the sum of r̂ × v̂ about the group's centre (xyz). Float sums as bits.
layout(std430, binding = BIND_GROUP_SUMS) coherent buffer GroupSums { uint group_sums[]; };
#define SUM_OFFSET 0u
#define SUM_COUNT 3u
#define SUM_HEADING 4u
#define SUM_SPIN 8u
#define SUM_STRIDE 12u
// The flock's totals: x groups, y boids in groups, z the largest group, w unused; then the sum of
// the groups' |heading sums| and of their |spin sums| (float bits).
layout(std430, binding = BIND_GROUP_TOTALS) coherent buffer GroupTotals { uint totals[8]; };

uniform float u_group_radius;

// The root of slot x's tree (roots never move once group_link.comp has finished).
uint findRoot(uint x) {
    uint p = parent[x];
    while (p != x) {
        x = p;
        p = parent[x];
    }
    return x;
}

// A float added to a float stored as bits, atomically (OpenGL has no float atomics in core).
void addFloat(uint index, float value) {
    uint seen = group_sums[index], expected;
    do {
        expected = seen;
        seen = atomicCompSwap(group_sums[index], expected, floatBitsToUint(uintBitsToFloat(expected) + value));
    } while (seen != expected);
}

void addTotal(uint index, float value) {
    uint seen = totals[index], expected;
    do {
        expected = seen;
        seen = atomicCompSwap(totals[index], expected, floatBitsToUint(uintBitsToFloat(expected) + value));
    } while (seen != expected);
}

// v / |v|, 0 for a boid at rest (unitOf in src/cpu/order_params.cpp).
vec3 unitOf(vec3 v) {
    float len = length(v);
    return len > 0.0 ? v / len : vec3(0.0);
}

#endif
