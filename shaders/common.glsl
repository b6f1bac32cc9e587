// Helpers every pass shares: the parameter block, the flat invocation index across split
// dispatches, and a point's grid cell. Variant defines (injected): DIMS (2|3), BOUNDS_WRAP (0|1),
// STYLE_OFFSET (0|1), STYLE_DC (0|1: decarpentier), NEIGHBOUR_CAP (0|1), PERCHING (0|1),
// MULTI_SPECIES (0|1: species_count > 1), STYLE_GLOSS (0|1), UPDATE_SEQUENTIAL (0|1),
// INTEGRATE_EXPLICIT (0|1), SPEED_LIMIT (0|1), OFFSET_SUMS (0|1), OFFSET_LONE (0|1), SEP_UNIT (0|1).
#include "layout.glsl"

// Styles that keep each boid's last acceleration (Boid::steer) from one step to the next.
#define STORED_STEER (STYLE_DC || STYLE_GLOSS)

layout(std140, binding = BIND_PARAMS) uniform ParamsBlock { SimParams P; };

// Named reads of the parameter block (layout.glsl), so no swizzle means one thing in one block and
// another in the next: shaders read SimParams and SpeciesBlock through these alone (checked by
// tests/param_block_check.py).
#define CELLS_PER_AXIS (P.cells.xyz)
#define CELL_TOTAL (P.cells.w)
#define BOIDS (P.counts.x)
#define OBSTACLE_COUNT (P.counts.y)
#define NEIGHBOUR_CAP_K (P.counts.z)
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
#define OBSTACLE_MARGIN (P.influence.y)
#define OBSTACLE_PUSH (P.influence.z)
#define WANDER (P.influence.w)
#define LEADER_AT (P.leader.xyz)
#define LEADER_ON (P.leader.w)
#define STEP_INDEX (P.events.x)
#define SEED_LO (P.events.y)
#define STEPS_PER_STEER (P.events.z)
#define PERCH_GROUND (P.perch.x)
#define PERCH_MIN (P.perch.y)
#define PERCH_MAX (P.perch.z)
#define DC_FAR_FACTOR (P.dc0.x)
#define DC_HORIZONTAL (P.dc0.y)
#define DC_HEIGHT (P.dc0.z)
#define DC_HEIGHT_WEIGHT (P.dc0.w)
#define DC_DIVE (P.dc1.x)
#define DC_VERTICAL_AVOID (P.dc1.y)
#define DC_VERTICAL_DISTANCE (P.dc1.z)
#define DC_VERTICAL_MATCH (P.dc1.w)
// One species' block, s = S or P.species[k].
#define SEP_R2(s) ((s).radii2.x)
#define ALI_R2(s) ((s).radii2.y)
#define COH_R2(s) ((s).radii2.z)
#define LOOK_R2(s) ((s).radii2.w)
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
#define VICSEK_NOISE(s) ((s).counted.y)
#define SEP_RADIUS(s) ((s).graded.x)
#define INV_COH_RADIUS(s) ((s).graded.y)
#define DC_ACCEL_FORWARD(s) ((s).dc_motion.x)
#define DC_BRAKE(s) ((s).dc_motion.y)
#define DC_ACCEL_SIDE(s) ((s).dc_motion.z)
#define DC_ACCEL_UP(s) ((s).dc_motion.w)
#define DC_PREFERRED_DISTANCE(s) ((s).dc_shape.x)
#define DC_SMOOTHING(s) ((s).dc_shape.y)

// Flat index of this invocation, for dispatches split into rows of MAX_DISPATCH_X groups.
uint flatIndex(uint group_size) {
    uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    return group * group_size + gl_LocalInvocationID.x;
}

// Cell coordinate of a position: wrap mode bins the folded position; soft mode clamps boids
// outside the box into the edge cells.
uvec3 cellOf(vec3 p) {
    uvec3 c = uvec3(0u);
    for (int k = 0; k < DIMS; ++k) {
        float x = p[k];
#if BOUNDS_WRAP
        x -= P.world[k] * floor(x * P.inv_world[k]);
#endif
        float f = floor(x * P.inv_cell[k]);
        c[k] = uint(clamp(f, 0.0, float(P.cells[k] - 1u)));
    }
    return c;
}

uint cellIndex(uvec3 c) { return (c.z * P.cells.y + c.y) * P.cells.x + c.x; }

// Minimum-image offset from one point to another (offsetBetween in src/cpu/flock_rules.cpp).
vec3 offsetBetween(vec3 from, vec3 to) {
    vec3 d = to - from;
#if BOUNDS_WRAP
    for (int k = 0; k < DIMS; ++k) d[k] -= P.world[k] * floor(d[k] * P.inv_world[k] + 0.5);
#endif
    return d;
}

// The distinct cells among c-GRID_REACH .. c+GRID_REACH on one axis, in that order (wrapped or
// clipped), as neighbourCells in src/model/grid_spec.cpp.
int neighbourCells(uint c, uint n, out uint cells[GRID_SPAN]) {
    for (int k = 0; k < GRID_SPAN; ++k) cells[k] = 0u;
#if BOUNDS_WRAP
    if (n <= uint(GRID_SPAN)) {
        for (uint i = 0u; i < n; ++i) cells[i] = i;
        return int(n);
    }
    for (int o = 0; o < GRID_SPAN; ++o) cells[o] = (c + n + uint(o) - uint(GRID_REACH)) % n;
    return GRID_SPAN;
#else
    int k = 0;
    for (int o = -GRID_REACH; o <= GRID_REACH; ++o) {
        int cc = int(c) + o;
        if (cc >= 0 && cc < int(n)) cells[k++] = uint(cc);
    }
    return k;
#endif
}

// The next run of consecutive cells in an axis' list from index *at: the first and last cell.
// Rows of cells are stored x fastest, so a run of x cells is one range of the sorted boids.
uvec2 nextRun(uint cells[GRID_SPAN], int count, inout int at) {
    uint first = cells[at], last = first;
    while (at + 1 < count && cells[at + 1] == last + 1u) {
        ++at;
        ++last;
    }
    ++at;
    return uvec2(first, last);
}
