// Helpers every pass shares: the parameter block, the flat invocation index across split
// dispatches, and a point's grid cell. Variant defines (injected): DIMS (2|3), BOUNDS_WRAP (0|1),
// STYLE_OFFSET (0|1), STYLE_DC (0|1: decarpentier), NEIGHBOUR_CAP (0|1), PERCHING (0|1),
// MULTI_SPECIES (0|1: species_count > 1).
#include "layout.glsl"

layout(std140, binding = BIND_PARAMS) uniform ParamsBlock { SimParams P; };

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

// The distinct cells among c-1, c, c+1 on one axis (wrapped or clipped).
int neighbourCells(uint c, uint n, out uint cells[3]) {
    cells[0] = cells[1] = cells[2] = 0u;
#if BOUNDS_WRAP
    if (n <= 3u) {
        for (uint i = 0u; i < n; ++i) cells[i] = i;
        return int(n);
    }
    cells[0] = (c + n - 1u) % n;
    cells[1] = c;
    cells[2] = (c + 1u) % n;
    return 3;
#else
    int k = 0;
    if (c > 0u) cells[k++] = c - 1u;
    cells[k++] = c;
    if (c + 1u < n) cells[k++] = c + 1u;
    return k;
#endif
}
