// Buffer layouts, binding slots and the parameter block, shared by C++ (src/gpu/layout.hpp
// includes this file) and GLSL (#include "layout.glsl"). std140/std430 with vec4-sized fields
// only, so both sides agree without padding rules; C++ checks sizes with static_assert.
#ifndef MURMUR_LAYOUT_GLSL
#define MURMUR_LAYOUT_GLSL

// Storage and uniform binding slots.
#define BIND_PARAMS 0       // uniform SimParams
#define BIND_POS 0          // uvec4 pos[]: xyz position (float bits), w = id: read and written as uints only
#define BIND_VEL 1          // uvec4 vel[]: xyz velocity (float bits), w = species
#define BIND_SORTED_POS 2   // scatter output / steer input, cell order
#define BIND_SORTED_VEL 3
#define BIND_CELL_COUNT 4   // uint per cell: boids in it (the state the step starts from)
#define BIND_CELL_START 5   // grid_scan.comp's output: starts within blocks, the total, a finished-group count, block starts (grid_cells.glsl)
#define BIND_BOID_BIN 6     // uvec2 per boid: its cell, its rank within the cell (grid_bin.glsl)
#define BIND_SLOT_OF_ID 7   // uint per id: its slot (sequential order only)
#define BIND_NEIGHBOURS 8   // uint per boid slot: neighbour count of the last step
#define BIND_SCAN_IN 9      // grid_scan.comp: input, output, and a buffer it zeroes (or none)
#define BIND_SCAN_OUT 10
#define BIND_SCAN_CLEAR 11
#define BIND_LARGE_CELLS 9    // grid_order.comp's list of large cells (the scan's input slot: the scan has run)
#define BIND_PICKED 12      // boid_pick.comp output: PickedBoid (one boid found by id)
#define BIND_NEIGHBOURS_BY_ID 12  // neighbour_ids.comp output: uint per id (the pick's slot; never in one pass)
#define BIND_XYZ_BY_ID 12   // state_by_id.comp output: positions, 3 floats per id (the same)
#define BIND_VEL_XYZ_BY_ID 13  // and velocities (the perch slot: that pass binds no perch times)
#define BIND_CORR_MEAN 12   // correlation_*.comp: the mean velocity and mean |u|^2 (the pick's slot: never in one pass)
#define BIND_CORR_BINS 13   // correlation_pairs.comp: per bin, the sum of u.u / mean |u|^2 and the pairs, each 64-bit (the same)
// The group measures' passes (groups.glsl) reuse the scan's and the pick's slots (never bound in
// the same pass): the union-find parents, the per-root sums, the flock's totals.
#define BIND_GROUP_PARENT 9
#define BIND_GROUP_SUMS 10
#define BIND_GROUP_TOTALS 11
#define GROUP_ROOT 0xFFFFFFFFu  // a root's union-find parent (groups.glsl): a sample clears the parents to it
#define BIND_PERCH 13       // float per boid: seconds left on the ground (PERCHING variant only)
#define BIND_SORTED_PERCH 14
#define BIND_STEER 15       // vec4 per boid: the last steering (xyz) and its neighbour count (w), styles that keep it
#define BIND_SORTED_STEER 16
#define BIND_MEASURE_SUMS 17  // flock_measure.comp: two vec4 of partial sums per work group
#define BIND_MEASURE_HIST 18  // flock_measure.comp: uint[NN_BINS + 1] nearest-neighbour histogram
#define BIND_NEXT_COUNT 19    // uint per cell: boids counted into it for the next step (grid_bin.glsl)
#define BIND_FLOCK_PARAMS 20  // ENSEMBLE: SimParams per flock (common.glsl)
#define BIND_FLOCK_TABLE 21   // ENSEMBLE: the totals, then each flock's first slot (common.glsl)
#define BIND_GROUP_LIST 22    // group_totals.comp: the groups' root slots, each flock's from its first slot
#define BIND_GROUP_LARGEST 23 // group_largest.comp: each flock's largest groups' figures
#define BIND_MEASURE_NEAREST 24 // float per slot: a sampled step's squared nearest distances (flock_steer.comp with MEASURE_IN_STEER, then flock_measure.comp)
#define BIND_GROUP_ROOTS 25   // group_sums.comp lists each root (and sizes group_totals.comp's indirect dispatch)
#define BIND_IMAGES 26        // ivec4 per id: the periodic images each boid crossed (step_boid.glsl, wrap bounds)
#define BIND_COUNT 27         // bindings used: 0 .. BIND_COUNT - 1

// Texture units: the passes after the binning (steer, measure) read the sorted copy and the
// resolved grid through buffer textures over the same buffers (sorted_reads.glsl).
#define TEX_SORTED_POS 0      // RGBA32UI over BIND_SORTED_POS
#define TEX_SORTED_VEL 1      // RGBA32UI over BIND_SORTED_VEL
#define TEX_CELL_START 2      // R32UI over BIND_CELL_START (starts resolved by the order pass)
#define TEX_SORTED_PERCH 3    // R32UI (float bits) over BIND_SORTED_PERCH
#define TEX_COUNT 4           // units used: 0 .. TEX_COUNT - 1

// Image units (flock_steps.comp): the ordered flock of a step, over the sorted copy's buffers, and
// each boid's key, over the binning's buffer (BIND_BOID_BIN).
#define IMAGE_ORDERED_POS 0   // RGBA32UI
#define IMAGE_ORDERED_VEL 1   // RGBA32UI
#define IMAGE_KEYS 2          // RG32UI
#define IMAGE_COUNT 3         // units used: 0 .. IMAGE_COUNT - 1

#define LARGEST_GROUPS 4        // groups listed one by one a flock (kLargestGroups in model/order_params.hpp)
#define GROUP_FIGURE_WORDS 24u  // words a listed group takes in group_largest.comp's output

#define GRID_REACH 2  // cells searched either side of a boid's (kGridReach in model/grid_spec.hpp)
#define GRID_SPAN 5   // 2 * GRID_REACH + 1

#define STEP_GROUP_SIZE 256  // boid passes: invocations per work group
#define TILE_GROUP_SIZE 64   // the tiled steer pass (cell_tiles.glsl): invocations per block of cells
#define TILE_CAPACITY 2000   // ... and the positions its tile stages in shared memory (16 B each, within GL's 32 KiB)
#define SCAN_GROUP_SIZE 256  // scan: invocations per work group ...
#define SCAN_PER_THREAD 4    // ... each scanning this many elements
#define SCAN_BLOCK (SCAN_GROUP_SIZE * SCAN_PER_THREAD)
#define MAX_DISPATCH_X 65535u  // work groups per dispatch row; larger dispatches add rows (y)
#define MAX_OBSTACLES 8       // obstacles in the parameter block
#define MAX_NEIGHBOUR_CAP 32  // largest neighbour_cap
#define MAX_CORR_BINS 1024    // most bins a pair correlation takes (kMaxCorrelationBins in model/correlations.hpp)
#define CORR_FIXED_ONE 65536.0  // correlation_pairs.comp: one mean |u|^2 in its fixed-point sums (2^16)
#define MAX_SPECIES 4         // species blocks in the parameter block
#define MAX_STYLE_VALUES 4    // vec4s of the style's own values in the parameter block
#define GRADED_CORE 9.0        // graded separation stops growing at a tenth of the radius (kGradedCore)
#define GLOSS_CANCEL 1e-4      // gloss: a normalised sum shorter than this share of its scale gives no direction (kGlossCancel)
#define ORDER_SMALL_CELL 128  // grid_order.comp sorts a cell of at most this many boids alone (grid_order_large.comp the rest)
#define NN_BINS 32            // nearest-neighbour histogram bins over [0, radius), plus one: none within it

// One species' rules (Params::species[s], species 0 included). Shaders
// read these blocks, like SimParams, through the named accessors of common.glsl.
struct SpeciesBlock {
    vec4 radii2;   // squared radii: x separation, y alignment, z cohesion, w largest (flee included)
    vec4 weights;  // x separation, y alignment, z cohesion, w chase (predators)
    vec4 motion;   // x min_speed, y max_speed, z max_force, w cos(fov/2)
    vec4 role;     // x flee radius^2, y flee weight, z 1 if predator, w 1 if the field of view applies
    vec4 counted;  // x: squared largest rule radius (neighbours counted within it; flee excluded), y: a style's own reach squared, zw: padding
    vec4 graded;   // graded style: x separation radius, y 1 / cohesion radius (0 when it is 0), zw: padding
    vec4 dc_motion;  // decarpentier: x accel forward, y brake, z accel side, w accel up (units/s^2)
    vec4 dc_shape;   // decarpentier: x preferred distance, y smoothing, zw: padding
};

struct SimParams {
    vec4 world;         // xyz: L on used axes (0 otherwise)
    vec4 inv_world;     // xyz: 1/L on used axes (0 otherwise)
    vec4 inv_cell;      // xyz: cells per unit
    uvec4 cells;        // xyz: cells per axis, w: total cells
    uvec4 counts;       // x: boids, y: obstacles, z: neighbour cap (0: all), w: padding
    vec4 step;          // x: dt, y: 1/dt, z: soft walls' margin, w: their push at one margin
    vec4 wind;          // xyz: wind (units/s^2; 0 on unused axes), w: cohesion sign (-1 scattering)
    vec4 attractor;     // xyz: point, w: weight (0: off)
    vec4 repeller;      // xyz: point, w: weight (0: off)
    vec4 influence;     // x: repeller radius^2, y: obstacle margin, z: obstacle push, w: wander
    vec4 leader;        // xyz: where boid 0 is led, w: 1 if it is led
    vec4 obstacles[MAX_OBSTACLES];  // xyz: centre (z 0 in 2D), w: radius
    SpeciesBlock species[MAX_SPECIES];
    uvec4 events;       // x: steps since upload, y: seed (low 32 bits folded),
                        // z: decarpentier steps per steering update, w: padding
    vec4 perch;         // x: ground level (y), y: shortest rest, z: longest rest (s), w: padding
    vec4 style[MAX_STYLE_VALUES];  // the style's own values: its registry row's slots (StyleSlot), packed and named from one table
    vec4 topology;      // adaptive topological radius: x count (0: off), y max radius, z rate, w 1/dims
    vec4 trap;          // harmonic trap: xyz its centre (Params::trapCentre), w its stiffness (0: off)
};

// One boid found by id (visual debug): p.xyz position, p.w 1 if found; v.xyz velocity;
// info.x neighbour count of the last step.
struct PickedBoid {
    vec4 p;
    vec4 v;
    uvec4 info;
};

#endif
