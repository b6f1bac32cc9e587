// Helpers every pass shares: the parameter block, the flat invocation index across split
// dispatches, and a point's grid cell. Variant defines (injected): DIMS (2|3), BOUNDS_WRAP (0|1), BOUNDS_OPEN (0|1: open sky),
// STYLE_GLSL (the style's shader, "styles/<name>/<name>.glsl") and its traits from the style registry:
// STORED_STEER (0|1: Boid::steer kept from step to step), OWN_SEARCH (0|1: a neighbour search of
// its own), AMORTISED_STEERING (0|1); NEIGHBOUR_CAP (0|1), PERCHING (0|1), MULTI_SPECIES (0|1:
// species_count > 1), UPDATE_SEQUENTIAL (0|1), INTEGRATE_EXPLICIT (0|1), SPEED_LIMIT (0|1),
// VIEW_CONE (0|1: some species in use sees less than 360 degrees through a velocity cone);
// OBSTACLES (0|1: the flock, or some flock of an ensemble, has obstacles); ADAPTIVE_REACH (0|1:
// topological.count > 0, each boid's own search radius in steer.w, STORED_STEER on);
// ENSEMBLE (0|1: several flocks in the same buffers, GpuSimulation::uploadEnsemble).
#include "layout.glsl"

#if ENSEMBLE
// An ensemble: the flocks lie one after another in the state buffers (flock k's slots from its
// first slot on, in the sorted copy too) and in the cell array (its cells from FIRST_CELL on),
// each with its own parameter block, grid and world. A boid pass first selects its boid's flock;
// P is then that flock's block, and a boid's neighbours are all of its flock.
layout(std430, binding = BIND_FLOCK_PARAMS) readonly buffer FlockParams { SimParams flock_params[]; };
// ensemble_totals: x boids of all flocks, y cells of all flocks, z flocks, w the step index
// (the flocks step together); then each flock's first slot, ascending; then each flock's
// first work group in such a pass (its groups counted as alone, one after another); then each
// flock's nearest-neighbour and group radii (float bits, GpuSimulation::measureFlocks).
layout(std430, binding = BIND_FLOCK_TABLE) readonly buffer FlockTable {
    uvec4 ensemble_totals;
    uint flock_first_slot[];
};
uint g_flock = 0u;
#define P (flock_params[g_flock])
#define TOTAL_BOIDS (ensemble_totals.x)
#define TOTAL_CELLS (ensemble_totals.y)
#define FIRST_SLOT (flock_first_slot[g_flock])
#define FLOCK_COUNT (ensemble_totals.z)
#define FLOCK_FIRST_GROUP(k) (flock_first_slot[FLOCK_COUNT + (k)])
#define FLOCK_NN_RADIUS(k) (uintBitsToFloat(flock_first_slot[2u * FLOCK_COUNT + 2u * (k)]))
#define FLOCK_GROUP_RADIUS(k) (uintBitsToFloat(flock_first_slot[2u * FLOCK_COUNT + 2u * (k) + 1u]))

// The flock slot i belongs to: the last whose first slot is at most i.
void selectFlockOfSlot(uint i) {
    uint lo = 0u, hi = ensemble_totals.z - 1u;
    while (lo < hi) {
        uint mid = (lo + hi + 1u) / 2u;
        if (flock_first_slot[mid] <= i) lo = mid; else hi = mid - 1u;
    }
    g_flock = lo;
}
#else
layout(std140, binding = BIND_PARAMS) uniform ParamsBlock { SimParams P; };
#define TOTAL_BOIDS BOIDS
#define TOTAL_CELLS CELL_TOTAL
#define FIRST_SLOT 0u
void selectFlockOfSlot(uint i) {}
#endif

// Named reads of the parameter block (layout.glsl), so no swizzle means one thing in one block and
// another in the next: shaders read SimParams and SpeciesBlock through these alone (checked by
// tests/param_block_check.py).
#define CELLS_PER_AXIS (P.cells.xyz)
#define CELL_TOTAL (P.cells.w)
#define BOIDS (P.counts.x)
// The obstacle loops run k from 0 to OBSTACLE_LOOP_END and skip k >= OBSTACLE_COUNT.
#if !OBSTACLES
// No obstacles anywhere: the loops compile away. In an ensemble the count is read per boid, and
// llvmpipe paid about a tenth of a 256-flock step for loops that ran zero times.
#define OBSTACLE_COUNT 0u
#define OBSTACLE_LOOP_END 0u
#elif ENSEMBLE
// To a bound the same for every invocation: bounded by each flock's own count (lanes of two
// flocks in one SIMD vector looping different numbers of times), lavapipe under zink (Mesa 22.3)
// stepped the boids of the vector that spans two flocks with the other flock's parameters.
#define OBSTACLE_COUNT (P.counts.y)
#define OBSTACLE_LOOP_END uint(MAX_OBSTACLES)
#else
#define OBSTACLE_COUNT (P.counts.y)
#define OBSTACLE_LOOP_END OBSTACLE_COUNT
#endif
#define NEIGHBOUR_CAP_K (P.counts.z)
#define FIRST_CELL (P.counts.w)  // the flock's first cell in the cell array (0 alone)
#define DT (P.step.x)
#define INV_DT (P.step.y)
#define WALL_MARGIN (P.step.z)
#define WALL_PUSH (P.step.w)
#define WIND (P.wind.xyz)
#define COHESION_SIGN (P.wind.w)
#define ATTRACTOR_AT (P.attractor.xyz)
#define ATTRACTOR_WEIGHT (P.attractor.w)
#define REPELLER_AT (P.repeller.xyz)
#define REPELLER_WEIGHT (P.repeller.w)
#define REPELLER_R2 (P.influence.x)
#define TRAP_AT (P.trap.xyz)
#define TRAP_K (P.trap.w)
#define OBSTACLE_MARGIN (P.influence.y)
#define OBSTACLE_PUSH (P.influence.z)
#define WANDER (P.influence.w)
#define LEADER_AT (P.leader.xyz)
#define LEADER_ON (P.leader.w)
// STEPS_DONE: steps this dispatch has already taken (flock_steps.comp takes many; 0 elsewhere).
#ifndef STEPS_DONE
#define STEPS_DONE 0u
#endif
#if ENSEMBLE
#define STEP_INDEX (ensemble_totals.w + STEPS_DONE)  // every flock's: one word uploaded a step, not a block a flock
#else
#define STEP_INDEX (P.events.x + STEPS_DONE)
#endif
#define SEED_LO (P.events.y)
#define STEPS_PER_STEER (P.events.z)
#define PERCH_GROUND (P.perch.x)
#define PERCH_MIN (P.perch.y)
#define PERCH_MAX (P.perch.z)
#define TOPO_COUNT (P.topology.x)
#define TOPO_MAX_R (P.topology.y)
#define TOPO_RATE (P.topology.z)
#define TOPO_EXPONENT (P.topology.w)
// One species' block, s = S or P.species[k].
#define SEP_R2(s) ((s).radii2.x)
#define ALI_R2(s) ((s).radii2.y)
#define COH_R2(s) ((s).radii2.z)
#define LOOK_R2(s) ((s).radii2.w)
#define REACH_R2(s) ((s).counted.y)  // a style's own reach (its cut-off), squared
#define W_SEP(s) ((s).weights.x)
#define W_ALI(s) ((s).weights.y)
#define W_COH(s) ((s).weights.z)
#define CHASE(s) ((s).weights.w)
#define MIN_SPEED(s) ((s).motion.x)
#define MAX_SPEED(s) ((s).motion.y)
#define MAX_FORCE(s) ((s).motion.z)
#define COS_HALF_FOV(s) ((s).motion.w)
#define FLEE_R2(s) ((s).role.x)
#define W_FLEE(s) ((s).role.y)
#define PREDATOR_FLAG(s) ((s).role.z)
#define VIEW_CONE_FLAG(s) ((s).role.w)
#define COUNTED_R2(s) ((s).counted.x)
#define SEP_RADIUS(s) ((s).graded.x)
#define INV_COH_RADIUS(s) ((s).graded.y)
#define DC_ACCEL_FORWARD(s) ((s).dc_motion.x)
#define DC_BRAKE(s) ((s).dc_motion.y)
#define DC_ACCEL_SIDE(s) ((s).dc_motion.z)
#define DC_ACCEL_UP(s) ((s).dc_motion.w)
#define DC_PREFERRED_DISTANCE(s) ((s).dc_shape.x)
#define DC_SMOOTHING(s) ((s).dc_shape.y)

// Flat index of this work group, for dispatches split into rows of MAX_DISPATCH_X groups
// (dispatchGroups in src/gpu/dispatch.hpp; a last row's padding groups come after the count).
uint flatGroup() { return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x; }

// Flat index of this invocation, for dispatches split into rows.
uint flatIndex(uint group_size) { return flatGroup() * group_size + gl_LocalInvocationID.x; }

// |v| without overflow: length() squares the components, past float's range above about 1.8e19
// (a flock with no speed limit gets there). Below that, length() itself, bit for bit.
float safeLength(vec3 v) {
    float m = max(max(abs(v.x), abs(v.y)), abs(v.z));
    return m > 1e18 ? m * length(v / m) : length(v);
}

// A cell coordinate folded into [0, n): foldedCell in src/model/grid_spec.cpp (the division may
// round here; the fix-up after it gives the exact remainder on both backends).
float foldedCell(float x, float inv_cell, uint n) {
    float cells = float(n), f = floor(x * inv_cell);
    float m = f - cells * floor(f / cells);
    if (m < 0.0) m += cells;
    if (m >= cells) m -= cells;
    return m;
}

// Cell coordinate of a position: wrap mode bins the folded position; soft mode clamps boids
// outside the box into the edge cells; open sky folds the cell coordinate (GridSpec::open).
uvec3 cellOf(vec3 p) {
    uvec3 c = uvec3(0u);
    for (int k = 0; k < DIMS; ++k) {
#if BOUNDS_OPEN
        c[k] = uint(clamp(foldedCell(p[k], P.inv_cell[k], P.cells[k]), 0.0, float(P.cells[k] - 1u)));
        continue;
#endif
        float x = p[k];
#if BOUNDS_WRAP
        x -= P.world[k] * floor(x * P.inv_world[k]);
#endif
        float f = floor(x * P.inv_cell[k]);
        c[k] = uint(clamp(f, 0.0, float(P.cells[k] - 1u)));
    }
    return c;
}

uint cellIndex(uvec3 c) { return FIRST_CELL + (c.z * P.cells.y + c.y) * P.cells.x + c.x; }

// Minimum-image offset from one point to another (offsetBetween in src/cpu/flock_rules.cpp).
vec3 offsetBetween(vec3 from, vec3 to) {
    vec3 d = to - from;
#if BOUNDS_WRAP
    for (int k = 0; k < DIMS; ++k) d[k] -= P.world[k] * floor(d[k] * P.inv_world[k] + 0.5);
#endif
    return d;
}

// The cells around one boid's, as neighbourCells in src/model/grid_spec.cpp lists them, without
// arrays (a dynamically indexed local array costs every SIMD lane a scattered load in software
// drivers and registers or scratch on GPUs): on each axis the distinct cells among
// c-GRID_REACH .. c+GRID_REACH in that order, wrapped or clipped. An axis' list is `count` cells
// from `first` (wrapped modulo n); on x it is one run of consecutive cells, or two where it
// crosses the wrap, high end first (rows are stored x fastest, so a run is one range of the
// sorted boids).
struct AxisCells {
    int first;  // the first listed cell, before wrapping (negative: across the low end)
    int count;  // distinct cells listed
    int n;      // cells on the axis
};

AxisCells axisCells(uint c, uint n) {
#if BOUNDS_WRAP || BOUNDS_OPEN
    if (n <= uint(GRID_SPAN)) return AxisCells(0, int(n), int(n));
    return AxisCells(int(c) - GRID_REACH, GRID_SPAN, int(n));
#else
    int lo = max(int(c) - GRID_REACH, 0), hi = min(int(c) + GRID_REACH, int(n) - 1);
    return AxisCells(lo, hi - lo + 1, int(n));
#endif
}

// The o-th listed cell (o < count).
uint listedCell(AxisCells a, int o) { return uint((a.first + o + a.n) % a.n); }

// The x list as runs of consecutive cells: .xy the first run, .zw the second (an empty run: x > y).
ivec4 xRuns(AxisCells a) {
    if (a.count <= 0) return ivec4(1, 0, 1, 0);
    int last = a.first + a.count - 1;
    if (a.first < 0) return ivec4(a.first + a.n, a.n - 1, 0, last);
    if (last >= a.n) return ivec4(a.first, a.n - 1, 0, last - a.n);
    return ivec4(a.first, last, 1, 0);
}

// Row culling (flock_steer.comp's gather): which listed cells can hold a boid within sqrt(r2) of
// p. Cells are slabs [k h, (k+1) h) on each axis; a cell `o` cells from p's own lies at least
// gapToCell(f, o, h) away along that axis, f being p's offset within its own cell. Skipping the
// rows and x cells beyond the radius leaves the candidates that can be neighbours in the same
// order, so the sums are those of the full 5x5x5 walk to the bit. The reach is widened by
// CULL_SLACK of a cell plus a few ulps of the world, so rounding in the binning never drops a
// neighbour. A wrapped axis of at most GRID_SPAN cells lists every cell once, whatever the
// image: no culling there.
#define CULL_SLACK 1e-3

float gapToCell(float f, int o, float h) {
    if (o > 0) return float(o) * h - f;
    if (o < 0) return f - float(o + 1) * h;
    return 0.0;
}

struct CellCull {
    vec3 f;      // p's offset within its cell on each axis
    vec3 h;      // cell edge on each axis
    bvec3 on;    // whether the axis culls (a wrapped axis of at most GRID_SPAN cells does not)
    float slack; // absolute widening, units
};

CellCull cellCull(vec3 p, uvec3 c) {
    CellCull k;
    k.f = vec3(0.0);
    k.h = vec3(0.0);
    k.on = bvec3(false);
    float world = 0.0;
    for (int a = 0; a < DIMS; ++a) {
        float x = p[a];
#if BOUNDS_OPEN
        k.h[a] = 1.0 / P.inv_cell[a];
        k.f[a] = x - floor(x * P.inv_cell[a]) * k.h[a];
        k.on[a] = P.cells[a] > uint(GRID_SPAN);
        world = max(world, k.h[a] * float(P.cells[a]) + abs(x));
        continue;
#endif
#if BOUNDS_WRAP
        x -= P.world[a] * floor(x * P.inv_world[a]);
        k.on[a] = P.cells[a] > uint(GRID_SPAN);
#else
        k.on[a] = true;
#endif
        k.h[a] = P.world[a] / float(P.cells[a]);
        k.f[a] = x - float(c[a]) * k.h[a];
        world = max(world, P.world[a] + abs(x));
    }
    k.slack = CULL_SLACK * max(k.h.x, max(k.h.y, k.h.z)) + 4e-7 * world;
    return k;
}

// Squared gap along axis a to the listed cell `cell` (p's own: c).
float axisGap2(CellCull k, int a, int o) {
    if (!k.on[a]) return 0.0;
    float g = max(gapToCell(k.f[a], o, k.h[a]) - k.slack, 0.0);
    return g * g;
}

// The listed x cells within reach given what the row's y and z gaps leave (rem2 = r2 - gy2 - gz2,
// > 0): the list narrowed to offsets o_lo .. o_hi around c. The own cell (offset 0) always stays:
// with soft walls a boid past the wall is binned into the edge cell, which then holds every boid
// on that side, so its reach may lie wholly outside the cell's nominal slab (f < 0 or f >= h).
AxisCells narrowedX(AxisCells a, CellCull k, uint c, float rem2) {
    if (!k.on.x) return a;
    float ext = sqrt(rem2) + k.slack;
    int lo = clamp(int(floor((k.f.x - ext) / k.h.x)), -GRID_REACH, 0);
    int hi = clamp(int(ceil((k.f.x + ext) / k.h.x)) - 1, 0, GRID_REACH);
    int first = max(int(c) + lo, a.first), last = min(int(c) + hi, a.first + a.count - 1);
    return AxisCells(first, max(last - first + 1, 0), a.n);
}
