// The tiled steer pass (MURMUR_GPU_WALK=tiles: TILED_WALK in flock_steer.comp, gpu/variant.hpp's
// CellWalk). Its work groups are TILE_GROUP_SIZE consecutive boids of the sorted copy, one boid an
// invocation as in the row walk; boids in cell order share their cell's row (z, y) for runs of
// cells, so most of a group walks the same 5x5 rows (5 in 2D), each over the x cells from two
// before the group's first cell to two after its last. The group first copies those stretches'
// position records from the sorted copy into shared memory (s_tile), row after row in the walk's
// order, each whole row that still fits TILE_CAPACITY; each boid's walk then reads a slot among
// its row's staged ones from the tile and any other (a run across the wrap, a row that did not
// fit, the rows of a boid in another grid row than the one staged) from the sorted copy. The
// records are copies of the same bits read in the same order, so the flock is the row walk's to
// the bit where the compiler builds both walks' arithmetic alike (llvmpipe and zink do:
// GpuRuns.AreReproducibleToTheBit runs both; on a GPU the bundle's check runs it). What the tile
// saves (the bench's counts, 3D at density 1, 10^6 boids): 72 of a boid's 86 candidate position
// reads come from the tile, for 22 loads a boid into it; neighbours' velocities and the rest
// still come from the sorted copy.
#ifndef MURMUR_CELL_TILES_GLSL
#define MURMUR_CELL_TILES_GLSL

#define TILE_ROWS (GRID_SPAN * GRID_SPAN)
shared uvec2 s_row[TILE_ROWS];      // a listed row's staged slots [x, y): empty where not staged
shared uint s_row_base[TILE_ROWS];  // where they start in s_tile

// The stretch a group stages: the grid row (z, y) of its middle boid, x cells [lo, hi].
struct TileSpan {
    uvec3 c;  // the row's y and z; x unused
    uint lo, hi;
};

// The group's boids are slots [first, last]: the middle one's row, from the first boid's cell
// when it is in that row (else the row's start) to the last one's (else the row's end), widened by
// GRID_REACH each side and clipped to the grid.
TileSpan tileSpan(uint first, uint last) {
    uvec3 a = cellOf(posAt(first)), m = cellOf(posAt((first + last) / 2u)), b = cellOf(posAt(last));
    uint lo = a.yz == m.yz ? a.x : 0u, hi = b.yz == m.yz ? b.x : CELLS_PER_AXIS.x - 1u;
    return TileSpan(m, uint(max(int(lo) - GRID_REACH, 0)), min(hi + uint(GRID_REACH), CELLS_PER_AXIS.x - 1u));
}

// Listed row k's staged slots (k below TILE_ROWS). No rows where the walk takes the whole grid as
// one range (listsEveryCell).
void tileRowSlots(TileSpan t, uint k) {
    AxisCells ay = axisCells(t.c.y, CELLS_PER_AXIS.y);
    AxisCells az = DIMS == 3 ? axisCells(t.c.z, CELLS_PER_AXIS.z) : AxisCells(0, 1, 1);
    uint rows = listsEveryCell() ? 0u : uint(az.count * ay.count);
    s_row[k] = uvec2(0u);
    if (k >= rows) return;
    uint yz = listedCell(az, int(k) / ay.count) * CELLS_PER_AXIS.y + listedCell(ay, int(k) % ay.count);
    uint row = FIRST_CELL + yz * CELLS_PER_AXIS.x;
    s_row[k] = uvec2(cellStart(row + t.lo), cellEnd(row + t.hi));
}

// Where each row goes in s_tile, in the walk's order; a row that would overflow is not staged.
void tileRowBases() {
    uint used = 0u;
    for (uint k = 0u; k < uint(TILE_ROWS); ++k) {
        uint count = s_row[k].y - s_row[k].x;
        if (used + count > uint(TILE_CAPACITY)) {
            s_row[k] = uvec2(0u);
            count = 0u;
        }
        s_row_base[k] = used;
        used += count;
    }
}

// The staged rows' records into s_tile, the work group's lanes striding along each row.
void tileCopy(uint lane) {
    for (uint k = 0u; k < uint(TILE_ROWS); ++k)
        for (uint j = s_row[k].x + lane; j < s_row[k].y; j += uint(TILE_GROUP_SIZE))
            s_tile[s_row_base[k] + (j - s_row[k].x)] = sortedPos(j);
}

// The walk enters listed row k (cell_walk.glsl's WALK_ROW): its staged slots read from the tile.
void tileRow(int k) {
    g_tile_first = s_row[k].x;
    g_tile_count = s_row[k].y - s_row[k].x;
    g_tile_base = s_row_base[k];
}

#endif
