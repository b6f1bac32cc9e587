#version 430
// Group measures, pass 4: each boid's tree flattened to its root (each root listed for
// group_totals.comp), and its share added to the root's sums: its offset from the root (minimum
// image), 1 to the count, its unit velocity. The boids of a work group are neighbours in the
// sorted copy and mostly of one group: those of the group of its first boid are summed (in
// registers, then in shared memory) and added once; the others add their own. SUM_LANES
// invocations a work group, each taking sixteen of its STEP_GROUP_SIZE boids
// (work_group_sum.glsl's layout: lane l the boids l, l + 16, ...).
#include "common.glsl"
#include "slices.glsl"
#include "sorted_reads.glsl"
#include "groups.glsl"
#include "work_group_sum.glsl"

layout(local_size_x = 16) in;  // SUM_LANES

uniform uint u_root_group_limit;  // group_totals.comp's most work groups (one dispatch row)

shared vec4 s_offset[SUM_LANES];   // each lane's sums: xyz offset from the root, w the count
shared vec4 s_heading[SUM_LANES];  // xyz unit velocity

void addToRoot(uint root, vec3 d, vec3 h, uint count) {
    uint at = root * SUM_STRIDE;
    for (uint k = 0u; k < 3u; ++k) {
        addFixed(at + SUM_OFFSET + 2u * k, d[k]);
        addFixed(at + SUM_HEADING + 2u * k, h[k]);
    }
    atomicAdd(group_sums[at + SUM_COUNT], count);
}

shared uint s_root_count;  // the work group's roots
shared uint s_root_base;   // where the first of them goes in the list

// Work groups group_totals.comp takes for the first `count` roots listed: one a STEP_GROUP_SIZE,
// at most u_root_group_limit (it strides over the rest).
uint rootGroups(uint count) {
    return min((count + uint(STEP_GROUP_SIZE) - 1u) / uint(STEP_GROUP_SIZE), u_root_group_limit);
}

// The work group's roots given their places in the list by one atomic on its count (one a work
// group, not one a root: a flock of lone boids has a root a boid), and group_totals.comp's
// dispatch grown to cover them: the work groups' ranges of the list are each their own, so the
// growths add up to rootGroups of the whole list.
void reserveRoots() {
    uint count = s_root_count;
    if (count == 0u) return;
    uint base = atomicAdd(root_count, count);
    s_root_base = base;
    uint grow = rootGroups(base + count) - rootGroups(base);
    if (grow > 0u) atomicAdd(root_groups, grow);
}

// The lane's roots (bit k of `mask`: its k-th boid is one) into the list from `at` on.
void listRoots(uint first, uint lane, uint mask, uint at) {
    for (uint k = 0u; k < SUM_LANE_BOIDS; ++k)
        if ((mask & (1u << k)) != 0u) roots[at++] = laneBoid(first, lane, k);
}

void main() {
    uint lane = gl_LocalInvocationID.x;
    if (lane == 0u) s_root_count = 0u;
    barrier();
    uint first = measuredSlot() - lane;  // the work group's first boid (and, in an ensemble, its flock)
    uint first_root = inMeasuredFlock(first) ? findRoot(first) : NO_SLOT;
    vec4 offsets = vec4(0.0), headings = vec4(0.0);
    uint root_mask = 0u;
    for (uint k = 0u; k < SUM_LANE_BOIDS; ++k) {
        uint i = laneBoid(first, lane, k);
        bool live = inMeasuredFlock(i);
        uint root = NO_SLOT;
        vec3 d = vec3(0.0), h = vec3(0.0);
        if (live) {
            root = findRoot(i);
            parent[i] = root;
            if (root == i) root_mask |= 1u << k;
            d = offsetBetween(posAt(root), posAt(i));
            h = unitOf(velAt(i));
        }
        bool together = live && root == first_root;
        vec4 offset = together ? vec4(d, 1.0) : vec4(0.0), heading = together ? vec4(h, 0.0) : vec4(0.0);
        offsets = laneSum(offsets, offset, k);
        headings = laneSum(headings, heading, k);
        if (live && !together) addToRoot(root, d, h, 1u);
    }
    uint lane_roots = uint(bitCount(root_mask));
    uint lane_at = lane_roots > 0u ? atomicAdd(s_root_count, lane_roots) : 0u;
    s_offset[lane] = offsets;
    s_heading[lane] = headings;
    barrier();
    if (lane == 0u) {
        reserveRoots();
        if (first_root != NO_SLOT) {
            SUM_LEVEL_TWO(s_offset);
            SUM_LEVEL_TWO(s_heading);
            addToRoot(first_root, s_offset[0].xyz, s_heading[0].xyz, uint(s_offset[0].w));
        }
    }
    barrier();
    if (root_mask != 0u) listRoots(first, lane, root_mask, s_root_base + lane_at);
}
