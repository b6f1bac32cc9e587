// The group measures' shared state (docs/model.md, "Order parameters"): a union-find forest over
// the sorted copy's slots (flock_measure.comp's walk and group_links.comp hook, group_sums.comp
// flattens), per-root sums, and the flock's totals. A group's root is its member with the lowest
// id, as the CPU reference's walk starts from it; positions are taken relative to the root by
// minimum image.
#ifndef MURMUR_GROUPS_GLSL
#define MURMUR_GROUPS_GLSL

layout(std430, binding = BIND_GROUP_PARENT) coherent volatile buffer Parent { uint parent[]; };  // slot -> parent slot
#define NO_SLOT 0xFFFFFFFFu
uniform float u_group_radius;  // one flock's; an all-flocks pass reads each flock's (groupRadius)

// GROUPS_FOREST_ONLY (a sampled step's steer pass, which only links): the forest without the sums
// and totals, so that pass declares no storage block it does not use.
#ifndef GROUPS_FOREST_ONLY
// Per root slot (SUM_STRIDE words): the sum of offsets from the root (xyz), the count, the sum of
// unit velocities (xyz), the sum of r̂ × v̂ about the group's centre (xyz). Each sum is 64-bit
// fixed point (FIXED_SCALE steps a unit) in two words, low then high, two's complement, added by
// integer atomics: the same bits whatever order the boids arrive in, so a run reproduces.
layout(std430, binding = BIND_GROUP_SUMS) coherent buffer GroupSums { uint group_sums[]; };
#define SUM_OFFSET 0u
#define SUM_COUNT 6u
#define SUM_HEADING 7u
#define SUM_SPIN 13u
#define SUM_STRIDE 20u
// The flock's totals: [0] groups, [1] boids in groups, [2] the largest group, [3] the root
// group_giant.comp chose; [4, 5] the sum of the groups' |heading sums|, [6, 7] of their |spin
// sums| (fixed point, as above). An all-flocks pass (slices.glsl) writes flock k's eight at 8k.
layout(std430, binding = BIND_GROUP_TOTALS) coherent buffer GroupTotals { uint totals[]; };
#define TOTALS_STRIDE 8u
// Word 3 of a flock's totals: 1 + the root slot group_giant.comp chose (0: none yet).
#define TOTALS_GIANT 3u
// The roots group_sums.comp found (each flock's, in the order they came: group_totals.comp adds
// integers and lists, so the order changes no bit), and group_totals.comp's dispatch
// (glDispatchComputeIndirect's three counts first): a work group per STEP_GROUP_SIZE roots, at
// most u_root_group_limit (the rest taken in strides). GpuSimulation sets (0, 1, 1, 0) first.
layout(std430, binding = BIND_GROUP_ROOTS) coherent buffer GroupRoots {
    uint root_groups;  // glDispatchComputeIndirect: x, y, z
    uint root_rows;
    uint root_depth;
    uint root_count;
    uint roots[];
};
#define FIXED_SCALE 1048576.0  // 2^20 steps a unit (or per unit vector component)
#endif

// A root's parent: GROUP_ROOT (layout.glsl) until group_sums.comp flattens each tree, then its
// own slot. Every slot is a root when a sample begins: the parents cleared to GROUP_ROOT.
// The root of slot x's tree, halving the path on the way (each visited slot skips to its
// grandparent: an ancestor, so a race with another halving or a hook loses nothing; hooks only
// write roots, halving only non-roots). Roots never move once group_links.comp has finished.
uint findRoot(uint x) {
    uint p = parent[x];
    while (p != GROUP_ROOT && p != x) {
        uint grandparent = parent[p];
        if (grandparent != GROUP_ROOT && grandparent != p) parent[x] = grandparent;
        x = p;
        p = grandparent;
    }
    return x;
}

// Links the trees of slots a and b (ECL-CC's hooking: find both roots, hook the one with the
// higher id under the other by compare-and-swap, retry if it moved); returns the root they share
// (a slot of both trees from then on, so a caller may pass it as the next link's a).
uint unite(uint a, uint b) {
    while (true) {
        a = findRoot(a);
        b = findRoot(b);
        if (a == b) return a;
        // a: the root with the higher id (then slot: equal ids, never in a valid flock, must not
        // hook two roots under each other), hooked under the other.
        if (idAt(a) < idAt(b) || (idAt(a) == idAt(b) && a < b)) {
            uint t = a;
            a = b;
            b = t;
        }
        if (atomicCompSwap(parent[a], GROUP_ROOT, b) == GROUP_ROOT) return b;
    }
}

#ifndef GROUPS_FOREST_ONLY
// x in fixed point, split into the two words of a 64-bit two's-complement number (|x| below
// 2^43 / FIXED_SCALE: every sum here is far below). Within 2^31 steps the signed low word is the
// whole number (a small negative one as f + 2^32 in a float would lose its low 8 bits); beyond,
// f is a multiple of 256 and f - high * 2^32 is exact in a float.
uvec2 fixedWords(float x) {
    float f = floor(x * FIXED_SCALE + 0.5);
    if (abs(f) < 2147483648.0) {
        int i = int(f);
        return uvec2(uint(i), i < 0 ? 0xFFFFFFFFu : 0u);
    }
    float high = floor(f / 4294967296.0);
    return uvec2(uint(f - high * 4294967296.0), uint(int(high)));
}

// x added to the fixed-point sum at words [index, index + 1]: the low word's carry goes into the
// high word, so the 64-bit total is exact in any order.
void addFixed(uint index, float x) {
    uvec2 w = fixedWords(x);
    uint old = atomicAdd(group_sums[index], w.x);
    uint high = w.y + (old + w.x < old ? 1u : 0u);
    if (high != 0u) atomicAdd(group_sums[index + 1u], high);
}

void addFixedTotal(uint index, float x) {
    uvec2 w = fixedWords(x);
    uint old = atomicAdd(totals[index], w.x);
    uint high = w.y + (old + w.x < old ? 1u : 0u);
    if (high != 0u) atomicAdd(totals[index + 1u], high);
}

// The sum at words [index, index + 1] as a float: within 2^31 steps of 0 the signed low word, so
// a small negative sum keeps its precision; beyond, high and low words apart.
float fixedValue(uint index) {
    uint low = group_sums[index];
    int high = int(group_sums[index + 1u]);
    if ((high == 0 && low < 0x80000000u) || (high == -1 && low >= 0x80000000u)) return float(int(low)) / FIXED_SCALE;
    return (float(high) * 4294967296.0 + float(low)) / FIXED_SCALE;
}

vec3 fixedVec3(uint index) { return vec3(fixedValue(index), fixedValue(index + 2u), fixedValue(index + 4u)); }

#endif

// v / |v|, 0 for a boid at rest (unitOf in src/cpu/order_params.cpp).
vec3 unitOf(vec3 v) {
    float len = safeLength(v);
    return len > 0.0 ? v / len : vec3(0.0);
}

#endif
