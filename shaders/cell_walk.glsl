// The walk over the grid cells around one boid that the steer pass's gather (flock_gather.glsl)
// and the measure passes (measure_walk.glsl) share. The including file defines WalkState and
// visitCandidate(inout WalkState w, uint j) before including this.
#ifndef MURMUR_CELL_WALK_GLSL
#define MURMUR_CELL_WALK_GLSL

// Whether every boid's list of cells around it (axisCells) holds each cell of the grid once, in
// the grid's order: each axis wrapped with at most GRID_SPAN cells, or walled with at most
// GRID_REACH + 1. The same for every boid of a flock.
bool listsEveryCell() {
#if BOUNDS_WRAP || BOUNDS_OPEN
    return all(lessThanEqual(CELLS_PER_AXIS, uvec3(GRID_SPAN)));
#else
    return all(lessThanEqual(CELLS_PER_AXIS, uvec3(GRID_REACH + 1)));
#endif
}

// Every other boid in the cells around boid i at p that can be within sqrt(reach2) of it, handed
// to visitCandidate in the grid's order (the CPU's UniformGrid::forEachCandidate): each row's
// consecutive x cells as one range, rows and x cells out of reach skipped (cellCull: only boids
// that cannot be within reach are left out). Where the lists hold every cell (a small flock in a
// grid of a few cells an axis), that order is the flock's slots in order: one range instead of
// 25 rows (125 in 3D) of two cell reads each; the boids it adds are all out of reach. (One loop
// for both: an early return with a loop of its own made the 68-run sweep's CPU time 1.7x.)
void walkCells(uint i, vec3 p, float reach2, inout WalkState w) {
    uvec3 c = cellOf(p);
    AxisCells ax = axisCells(c.x, CELLS_PER_AXIS.x), ay = axisCells(c.y, CELLS_PER_AXIS.y);
    AxisCells az = DIMS == 3 ? axisCells(c.z, CELLS_PER_AXIS.z) : AxisCells(0, 1, 1);
    bool whole = listsEveryCell();
    CellCull cull = cellCull(p, c);
    reach2 *= 1.0 + 2.0 * CULL_SLACK;
    int rows_z = whole ? 1 : az.count, rows_y = whole ? 1 : ay.count;
    for (int iz = 0; iz < rows_z; ++iz) {
        float gz2 = DIMS == 3 && !whole ? axisGap2(cull, 2, az.first + iz - int(c.z)) : 0.0;
        for (int iy = 0; iy < rows_y; ++iy) {
            float rem2 = reach2 - gz2 - (whole ? 0.0 : axisGap2(cull, 1, ay.first + iy - int(c.y)));
            if (!(rem2 > 0.0)) continue;
#ifdef WALK_ROW
            WALK_ROW(iz * rows_y + iy);  // the tiled steer pass: this row's staged slots (cell_tiles.glsl)
#endif
            uint row = FIRST_CELL;
            ivec4 runs = ivec4(0, int(CELLS_PER_AXIS.x * CELLS_PER_AXIS.y * CELLS_PER_AXIS.z) - 1, 1, 0);
            if (!whole) {
                row += (listedCell(az, iz) * CELLS_PER_AXIS.y + listedCell(ay, iy)) * CELLS_PER_AXIS.x;
                runs = xRuns(narrowedX(ax, cull, c.x, rem2));
            }
            for (int r = 0; r < 2; ++r) {
                ivec2 run = r == 0 ? runs.xy : runs.zw;
                if (run.x > run.y) continue;
                uint end = cellEnd(row + uint(run.y));
                for (uint j = cellStart(row + uint(run.x)); j < end; ++j)
                    if (j != i) visitCandidate(w, j);
            }
        }
    }
}

#endif
