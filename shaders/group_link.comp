#version 430
// Group measures, pass 1: every pair of boids closer than the group radius (minimum image) is
// linked in a union-find forest (ECL-CC's hooking: find both roots, hook the one with the higher
// id under the other by compare-and-swap, retry if it moved). One dispatch links every pair,
// however long the chains: the passes do not depend on a group's diameter.
#include "common.glsl"
#include "sorted_reads.glsl"
#include "groups.glsl"

layout(local_size_x = STEP_GROUP_SIZE) in;

uniform uint u_init;  // 1: the dispatch before linking, every slot its own root

void unite(uint a, uint b) {
    while (true) {
        a = findRoot(a);
        b = findRoot(b);
        if (a == b) return;
        // a: the root with the higher id (then slot: equal ids, never in a valid flock, must not
        // hook two roots under each other), hooked under the other.
        if (idAt(a) < idAt(b) || (idAt(a) == idAt(b) && a < b)) {
            uint t = a;
            a = b;
            b = t;
        }
        if (atomicCompSwap(parent[a], a, b) == a) return;
    }
}

void main() {
    uint i = flatIndex(STEP_GROUP_SIZE);
    if (i >= BOIDS) return;
    if (u_init != 0u) {
        parent[i] = i;
        return;
    }
    vec3 p = posAt(i);
    float r2 = u_group_radius * u_group_radius;
    uvec3 c = cellOf(p);
    AxisCells ax = axisCells(c.x, CELLS_PER_AXIS.x), ay = axisCells(c.y, CELLS_PER_AXIS.y);
    AxisCells az = DIMS == 3 ? axisCells(c.z, CELLS_PER_AXIS.z) : AxisCells(0, 1, 1);
    ivec4 runs = xRuns(ax);
    for (int iz = 0; iz < az.count; ++iz)
        for (int iy = 0; iy < ay.count; ++iy) {
            uint row = (listedCell(az, iz) * CELLS_PER_AXIS.y + listedCell(ay, iy)) * CELLS_PER_AXIS.x;
            for (int r = 0; r < 2; ++r) {
                ivec2 run = r == 0 ? runs.xy : runs.zw;
                if (run.x > run.y) continue;
                uint end = cellEnd(row + uint(run.y));
                for (uint j = cellStart(row + uint(run.x)); j < end; ++j) {
                    if (j <= i) continue;  // each pair once
                    vec3 d = offsetBetween(p, posAt(j));
                    if (dot(d, d) < r2) unite(i, j);
                }
            }
        }
}
