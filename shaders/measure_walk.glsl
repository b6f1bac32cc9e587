// The walk over the cells around one boid that the measure passes share (flock_measure.comp's
// nearest neighbour and first links, group_links.comp's remaining links), with the steer pass's
// row and x-cell culling (cellCull: only boids beyond the reach are left out). The including pass
// defines its WalkState and visitCandidate(w, j, d2) before including this.
#ifndef MURMUR_MEASURE_WALK_GLSL
#define MURMUR_MEASURE_WALK_GLSL

uniform float u_nn_radius;  // one flock's; an all-flocks pass reads each flock's from the table

// The measured flock's radii (slices.glsl: one flock, or this work group's in an all-flocks pass).
float nnRadius() {
#if ENSEMBLE
    if (allFlocks()) return FLOCK_NN_RADIUS(g_flock);
#endif
    return u_nn_radius;
}
float groupRadius() {
#if ENSEMBLE
    if (allFlocks()) return FLOCK_GROUP_RADIUS(g_flock);
#endif
    return u_group_radius;
}

// Every other boid in the cells around boid i at p that can be within sqrt(reach2) of it, in the
// grid's order, handed to visitCandidate with its squared minimum-image distance.
void walkCells(uint i, vec3 p, float reach2, inout WalkState w) {
    uvec3 c = cellOf(p);
    AxisCells ax = axisCells(c.x, CELLS_PER_AXIS.x), ay = axisCells(c.y, CELLS_PER_AXIS.y);
    AxisCells az = DIMS == 3 ? axisCells(c.z, CELLS_PER_AXIS.z) : AxisCells(0, 1, 1);
    CellCull cull = cellCull(p, c);
    reach2 *= 1.0 + 2.0 * CULL_SLACK;
    for (int iz = 0; iz < az.count; ++iz) {
        float gz2 = DIMS == 3 ? axisGap2(cull, 2, az.first + iz - int(c.z)) : 0.0;
        for (int iy = 0; iy < ay.count; ++iy) {
            float rem2 = reach2 - gz2 - axisGap2(cull, 1, ay.first + iy - int(c.y));
            if (!(rem2 > 0.0)) continue;
            uint row = FIRST_CELL + (listedCell(az, iz) * CELLS_PER_AXIS.y + listedCell(ay, iy)) * CELLS_PER_AXIS.x;
            ivec4 runs = xRuns(narrowedX(ax, cull, c.x, rem2));
            for (int r = 0; r < 2; ++r) {
                ivec2 run = r == 0 ? runs.xy : runs.zw;
                if (run.x > run.y) continue;
                uint end = cellEnd(row + uint(run.y));
                for (uint j = cellStart(row + uint(run.x)); j < end; ++j) {
                    if (j == i) continue;
                    vec3 d = offsetBetween(p, posAt(j));
                    visitCandidate(w, j, dot(d, d));
                }
            }
        }
    }
}

#endif
