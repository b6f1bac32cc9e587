// The one parameter struct of the flock model (see docs/model.md). The CLI, presets, panel and
// GPU parameter block all read and write this; units and valid ranges live in param_table.cpp.
#pragma once

#include <cstddef>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "model/style_params.hpp"  // every style's parameters and MURMUR_STYLES (made by CMake from src/styles/*/params.hpp)

namespace murmur {

// wrap: a periodic world; soft: walls that turn boids back; open: open sky, no walls and no wrap
// (the world box is where the flock spawns; the grid follows the boids wherever they fly).
enum class Bounds : std::uint32_t { Wrap = 0, Soft = 1, Open = 2 };
// The rule sets: MURMUR_STYLES(X), made by CMake, lists X(Name, value, member) for each style's
// folder, src/styles/<name>/ (its params.hpp registers it with one line; NameParams is held in
// Params as `member`). Values are stored in sweep files and presets by name, the enum by number:
// a style's number never changes, a new style takes the next.
#define MURMUR_STYLE_ENUM(name, value, member) name = value,
enum class Style : std::uint32_t { MURMUR_STYLES(MURMUR_STYLE_ENUM) };
#undef MURMUR_STYLE_ENUM
#define MURMUR_STYLE_COUNT(name, value, member) +1
inline constexpr std::size_t kStyleCount = 0 MURMUR_STYLES(MURMUR_STYLE_COUNT);
#undef MURMUR_STYLE_COUNT

// How a step visits the flock: all boids from the same state (parallel), or one after another
// in id order, each seeing the boids before it already moved (sequential, in place).
enum class UpdateOrder : std::uint32_t { Parallel = 0, Sequential = 1 };
// Semi-implicit Euler moves with the new velocity; explicit Euler with the old one.
enum class Integrator : std::uint32_t { SemiImplicit = 0, Explicit = 1 };

// The sequential order walks the flock in one GPU invocation: n^2 pairs per step on one thread.
inline constexpr std::uint32_t kMaxSequentialBoids = 1024;

// Graded separation: each neighbour pushes with -dir * min(r_sep/|d| - 1, kGradedCore), so the
// push grows as the distance shrinks down to a tenth of the radius and no further (the GPU's
// GRADED_CORE in layout.glsl).
inline constexpr float kGradedCore = 9.0f;

// Gloss style normalises sums: a sum shorter than this share of its scale (escape routes: the
// separation radius; velocities: max_speed) has cancelled, and gives no direction rather than
// rounding noise blown up to full length (GLOSS_CANCEL in layout.glsl).
inline constexpr float kGlossCancel = 1e-4f;

struct Rule {
    float radius = 0.0f;  // units; a neighbour j counts when |d| < radius
    float weight = 0.0f;  // dimensionless multiplier of the rule's steer
    bool operator==(const Rule&) const = default;
};

struct Vec3f {
    float x = 0.0f, y = 0.0f, z = 0.0f;
    bool operator==(const Vec3f&) const = default;
};

// A place boids tend to (attractor) or flee (repeller); weight 0 switches it off.
// A harmonic trap (docs/model.md, "Influences"): every boid is pulled toward its centre with the
// acceleration -stiffness x (p - centre), whatever the style (a constant-speed style turns by it).
struct Trap {
    Vec3f offset;             // units: the centre's offset from the world box's centre
    float stiffness = 0.0f;   // 1/s^2 (0: off)
    bool operator==(const Trap&) const = default;
};

struct Goal {
    Vec3f at;             // units
    float weight = 0.0f;  // dimensionless, like the rules' weights
    float radius = 0.0f;  // units: repeller only, it acts within this distance
    bool operator==(const Goal&) const = default;
};

// A sphere (3D) or disc (2D, z ignored) that boids steer around and never end a step inside.
struct Obstacle {
    Vec3f at;
    float radius = 1.0f;
    bool operator==(const Obstacle&) const = default;
};
inline constexpr std::size_t kMaxObstacles = 8;

inline constexpr std::uint32_t kMaxSpecies = 4;

// Decarpentier style: how a species manoeuvres (docs/model.md). The write-up's sparrows turn
// quickly and keep close; its gulls fly smoother, more in step.
struct Manoeuvre {
    float preferred_distance = 2.0f;  // units, kept from each of the three neighbours
    float accel_forward = 10.0f;      // units/s^2, speeding up along the heading
    float brake = 10.0f;              // units/s^2, slowing down
    float accel_side = 20.0f;         // units/s^2, turning
    float accel_up = 10.0f;           // units/s^2, climbing or diving (3D)
    float smoothing = 0.5f;           // [0, 0.99]: share of the previous speed kept each step
    bool operator==(const Manoeuvre&) const = default;
};

// The rules and motion of one species: Params::species holds one block per species, species 0
// (the only one of a one-species flock) included. These defaults are species 1..3's; species 0's
// are the default flock's (Params).
struct SpeciesRules {
    Rule separation{4.0f, 1.5f};
    Rule alignment{10.0f, 1.0f};
    Rule cohesion{10.0f, 1.0f};
    float fov_deg = 270.0f;    // degrees
    float min_speed = 2.0f;    // units/s
    float max_speed = 10.0f;   // units/s
    float max_force = 10.0f;   // units/s^2: steering clamp; graded and gloss: the rules' scale
    Manoeuvre dc{};            // decarpentier style
    float reach = 0.0f;        // a style's own cut-off (StyleInfo::reach), as rulesOf gives it; not a key
    // The largest of the three rule radii and the reach: neighbours are counted within it.
    float ruleRadius() const;
    bool operator==(const SpeciesRules&) const = default;
};

// How a species meets the others (docs/model.md, "Species and predators").
struct SpeciesRole {
    float share = 1.0f;        // relative share of the spawned boids
    bool predator = false;     // chases prey instead of flocking with them
    float chase = 2.0f;        // predator: weight of the steer toward the nearest prey it sees
    Rule flee{0.0f, 0.0f};     // prey: flee predators within radius, with weight
    bool operator==(const SpeciesRole&) const = default;
};

// Topological neighbours by an adaptive radius (docs/model.md, "Topological neighbours"), after
// StarDisplay (Hildenbrandt, Carere & Hemelrijk 2010): each boid keeps its own search radius R
// (Boid::steer.w), moved every step toward the radius that would hold `count` boids, itself
// included; a boid sees no one beyond its R. Off while count is 0.
struct Topological {
    float count = 0.0f;        // n_c: boids wanted within R, the boid itself included (0: off)
    float max_radius = 10.0f;  // units: R's ceiling, and the R of a boid that has none yet
    float rate = 0.1f;         // share of the way R moves each step
    bool on() const { return count > 0.0f; }
    bool operator==(const Topological&) const = default;
};

struct Params {
    int dims = 2;                    // 2 or 3
    float world_size = 300.0f;       // units, edge of the square/cube world [0, L)
    Bounds bounds = Bounds::Wrap;    // wrap (periodic), soft (turned back near walls) or open (open sky)
    float margin = 10.0f;            // units, soft bounds: depth of the turning band
    float turn = 20.0f;              // units/s^2, soft bounds: push at one margin's depth
    Style style = Style::Graded;     // the rule set (--list-params lists the styles); graded by default
    // How the step is formulated (docs/model.md, "Formulations"): the sources differ in these.
    UpdateOrder update = UpdateOrder::Parallel;
    Integrator integrator = Integrator::SemiImplicit;
    bool speed_limit = true;         // speeds clamped into [min_speed, max_speed] (not decarpentier's own clamp)
    // The rules and motion of each species ([0]: the keys separation.radius, ..., max_force;
    // [1..3]: speciesN.separation.radius, ...). Species 0's defaults are the default flock's.
    std::array<SpeciesRules, kMaxSpecies> species{
        SpeciesRules{{5.5f, 1.5f}, {10.0f, 1.0f}, {6.0f, 1.0f}, 360.0f, 2.0f, 10.0f, 20.0f}, SpeciesRules{}, SpeciesRules{},
        SpeciesRules{}};
    float dt = 1.0f / 30.0f;         // s per step
    // The world around the flock (docs/model.md, "Influences").
    Vec3f wind;                      // units/s^2, added to every boid's acceleration
    // Spawn: boids uniformly in a ball (2D: a disc) of this radius at the world's centre; 0: the
    // whole world.
    float spawn_radius = 0.0f;       // units
    float spawn_heading = 0.0f;      // share of each spawned direction along +x (0: random)
    float wander = 30.0f;            // units/s^2: each step a random push in [-1, 1]^dims times this, per boid
    Goal attractor;                  // tend to a place
    Goal repeller;                   // flee a place within its radius
    Trap trap;                       // a harmonic trap (confinement for open or soft bounds)
    bool scatter = false;            // the startled flock: cohesion turns negative while on
    std::uint32_t neighbour_cap = 0; // consider only the k nearest neighbours (0: all)
    Topological topological;         // each boid's own search radius (off by default)
    // Perching: a boid reaching the ground (y = perch_ground, from above) lands, stays a random
    // time in [perch_min, perch_max] seconds with zero velocity, then takes off upward.
    bool perching = false;
    float perch_ground = 0.0f;       // units, on the y axis
    float perch_min = 1.0f;          // s
    float perch_max = 4.0f;          // s
    bool leader = false;             // boid 0 is led to leader_at (the pointer, in the window)
    Vec3f leader_at;                 // units
    std::vector<Obstacle> obstacles; // at most kMaxObstacles
    // View, not model: how the window and screenshots colour boids (0 species, 1 heading, 2 speed,
    // 3 neighbours, 4 dusk: dark birds on a dusk sky). A preset carries it (predators open coloured by species); no step reads it.
    std::uint32_t colour = 1;
    // View, not model: how boids are drawn (0 auto, render::drawMode: splats where the meshes would
    // cover the flock's part of the image twice over, points where a boid at the flock's depth would
    // be under 3 pixels, 3D flat darts under 12;
    // 1 meshes; 2 points; 3 splats; 4 flat). No step reads it.
    std::uint32_t draw = 0;
    // View, not model: where the camera looks (0 auto: follow in open sky, else world; 1 world: the
    // world box; 2 follow: the flock, framed as it moves; 3 ground: the flock from an observer on
    // the ground, looking up). No step reads it.
    std::uint32_t camera = 0;
    // View, not model: a boid's drawn length nose to tail, units (0: automatic, 0.6 separation
    // radii within 0.5 % to 2 % of the world). No step reads it.
    float boid_length = 0.0f;
    // Measures only: the group measures (groups, milling, the largest groups) link boids within this
    // distance (0: the style's own, the alignment radius for most). No step reads it.
    float group_radius = 0.0f;
    float obstacle_margin = 5.0f;    // units: band around an obstacle where boids are pushed out
    float obstacle_push = 40.0f;     // units/s^2: push at the obstacle's surface, fading to 0 at the band's edge
    // Species: alignment and cohesion act within a species, separation between all.
    std::uint32_t species_count = 1;               // 1..kMaxSpecies
    std::array<SpeciesRole, kMaxSpecies> roles{};  // per species
    std::uint64_t seed = 1;          // spawn seed
    std::uint32_t boids = 2000;      // count
    // Each style's own values (its module's NameParams), one member a style.
#define MURMUR_STYLE_MEMBER(name, value, member) name##Params member;
    MURMUR_STYLES(MURMUR_STYLE_MEMBER)
#undef MURMUR_STYLE_MEMBER

    // Species 0 .. speciesInUse() - 1 are the flock's (species_count within [1, kMaxSpecies]).
    std::uint32_t speciesInUse() const;
    // The largest radius any boid looks within (every species in use, flee radii included):
    // the grid's cell edge.
    float largestRadius() const;
    // The rules and motion of species s (the last one for s beyond it). In the Couzin style the
    // zones are given by widths: alignment.radius = separation.radius + couzin.orientation_width
    // and cohesion.radius = that + couzin.attraction_width.
    SpeciesRules rulesOf(std::uint32_t s) const;
    // How far a boid of species s looks: its rule radius or its flee radius, whichever is larger.
    float lookRadius(std::uint32_t s) const;
    // Couzin style: the most a boid turns in one step, radians (turn_rate x dt), as both backends use it.
    float couzinTurnPerStep() const;
    // Cucker-Smale style: lambda / N, computed once here for both backends (a shader's division of
    // two values it reads may round differently from one driver path to the next).
    float cuckerSmalePull() const;
    // The harmonic trap's centre: the world box's centre plus trap.offset (z 0 in 2D), computed
    // here once for both backends.
    Vec3f trapCentre() const;
    // cos(fov_deg / 2), computed in double and rounded once, so every backend gets the same float.
    float cosHalfFov() const;
    // Decarpentier style: steps between a boid's steering updates (round(1 / (steer_hz * dt)),
    // at least 1; 1 when steer_hz is 0 or another style).
    std::uint32_t stepsPerSteer() const;
    // World extent per axis: (L, L, L) in 3D, (L, L, 0) in 2D.
    float extent(int axis) const { return axis < dims ? world_size : 0.0f; }
    // Whether `other` has the same periodic box (world_size and bounds): a flock's image counts
    // start again from 0 when it changes.
    bool sameBox(const Params& other) const { return world_size == other.world_size && bounds == other.bounds; }
    bool operator==(const Params&) const = default;
};

// "wrap", "soft" or "open", as the `bounds` key spells them.
const char* boundsName(Bounds b);

// cos(fov_deg / 2) in double, rounded once (every backend gets the same float).
float cosHalfFovOf(float fov_deg);

struct ParamProblem {
    std::string field;    // key as in presets and --set, e.g. "separation.radius"
    std::string message;  // what is wrong, with the valid range
};

// Every problem with p, each naming its field and valid range. Empty means valid.
std::vector<ParamProblem> validate(const Params& p);

// "field: message" lines joined with newlines.
std::string describe(const std::vector<ParamProblem>& problems);

}  // namespace murmur
