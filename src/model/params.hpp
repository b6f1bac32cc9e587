// The one parameter struct of the flock model (see docs/model.md). The CLI, presets, panel and
// GPU parameter block all read and write this; units and valid ranges live in param_table.cpp.
#pragma once

#include <cstddef>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace murmur {

enum class Bounds : std::uint32_t { Wrap = 0, Soft = 1 };
// The rule sets, one X(Name, value) each: a row of the style registry (model/styles.cpp) and a
// module per backend (src/cpu/styles/, shaders/styles/). Values are stored in sweep files and
// presets by name, the enum by number: append only.
#define MURMUR_STYLES(X) \
    X(Steering, 0)       \
    X(Offset, 1)         \
    X(Decarpentier, 2)   \
    X(Graded, 3)         \
    X(Gloss, 4)          \
    X(Vicsek, 5)         \
    X(Couzin, 6)         \
    X(CuckerSmale, 7)

#define MURMUR_STYLE_ENUM(name, value) name = value,
enum class Style : std::uint32_t { MURMUR_STYLES(MURMUR_STYLE_ENUM) };
#undef MURMUR_STYLE_ENUM
#define MURMUR_STYLE_COUNT(name, value) +1
inline constexpr std::size_t kStyleCount = 0 MURMUR_STYLES(MURMUR_STYLE_COUNT);
#undef MURMUR_STYLE_COUNT

// How a step visits the flock: all boids from the same state (parallel), or one after another
// in id order, each seeing the boids before it already moved (sequential, in place).
enum class UpdateOrder : std::uint32_t { Parallel = 0, Sequential = 1 };
// Semi-implicit Euler moves with the new velocity; explicit Euler with the old one.
enum class Integrator : std::uint32_t { SemiImplicit = 0, Explicit = 1 };
// Steering style: each separating neighbour's push, -d/|d|^2 or the unit vector -d/|d|.
enum class Falloff : std::uint32_t { InverseSquare = 0, Unit = 1 };

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
    // The largest of the three rule radii: neighbours are counted within it.
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

struct Params {
    int dims = 2;                    // 2 or 3
    float world_size = 300.0f;       // units, edge of the square/cube world [0, L)
    Bounds bounds = Bounds::Wrap;    // wrap (periodic) or soft (turned back near walls)
    float margin = 10.0f;            // units, soft bounds: depth of the turning band
    float turn = 20.0f;              // units/s^2, soft bounds: push at one margin's depth
    Style style = Style::Graded;     // the rule set (--list-params lists the styles); graded by default
    // How the step is formulated (docs/model.md, "Formulations"): the sources differ in these.
    UpdateOrder update = UpdateOrder::Parallel;
    Integrator integrator = Integrator::SemiImplicit;
    bool speed_limit = true;         // speeds clamped into [min_speed, max_speed] (not decarpentier's own clamp)
    // Offset style: how Parker's rules are formulated.
    struct Offset {
        bool sums = false;  // rules summed over neighbours (flock.rb), not averaged (Parker)
        bool lone = false;  // a boid with no one to align with adds its own velocity (Parker's Ruby)
        bool operator==(const Offset&) const = default;
    } offset;
    // Steering style: each separating neighbour's push.
    struct Steering {
        Falloff separation = Falloff::InverseSquare;
        bool operator==(const Steering&) const = default;
    } steering;
    // The rules and motion of each species ([0]: the keys separation.radius, ..., max_force;
    // [1..3]: speciesN.separation.radius, ...). Species 0's defaults are the default flock's.
    std::array<SpeciesRules, kMaxSpecies> species{
        SpeciesRules{{5.5f, 1.5f}, {10.0f, 1.0f}, {6.0f, 1.0f}, 360.0f, 2.0f, 10.0f, 20.0f}, SpeciesRules{}, SpeciesRules{},
        SpeciesRules{}};
    float dt = 1.0f / 30.0f;         // s per step
    // The world around the flock (docs/model.md, "Influences").
    Vec3f wind;                      // units/s^2, added to every boid's acceleration
    // Vicsek style: each step a boid takes the mean heading within the alignment radius (itself
    // included), turned by a random angle uniform in [-noise/2, noise/2] (3D: a direction uniform
    // in the cone of half-angle noise/2), at the constant speed max_speed.
    struct Vicsek {
        float noise = 0.5f;  // radians: eta, the width of the angular noise
        bool operator==(const Vicsek&) const = default;
    } vicsek;
    // Couzin style (Couzin et al. 2002): zones of repulsion (separation.radius), orientation (out
    // to alignment.radius) and attraction (out to cohesion.radius), a blind angle (fov_deg), a
    // desired direction turned by Gaussian noise, then approached at most turn_rate per second, at
    // the constant speed max_speed.
    struct Couzin {
        float turn_rate = 40.0f;          // degrees/s: theta, the most a boid turns per second
        float noise = 0.05f;              // radians: sigma, the s.d. of the desired direction's angular noise
        float orientation_width = 2.0f;   // units: delta r_o, the zone of orientation beyond repulsion's
        float attraction_width = 14.0f;   // units: delta r_a, the zone of attraction beyond orientation's
        bool operator==(const Couzin&) const = default;
    } couzin;
    // Cucker-Smale style (Cucker & Smale 2007): dv_i/dt = (coupling / N) sum_j psi(|x_j - x_i|)
    // (v_j - v_i), psi(r) = (1 + r^2)^-beta, over the boids of its species within radius (0: all).
    struct CuckerSmale {
        float coupling = 5.0f;  // 1/s: lambda, the coupling strength
        float beta = 0.25f;     // psi's decay exponent (<= 1/2: unconditional flocking, Ha & Liu 2009)
        float radius = 0.0f;    // units: the cut-off (0: every pair, by minimum image in wrap)
        bool operator==(const CuckerSmale&) const = default;
    } cucker_smale;
    // Spawn: boids uniformly in a ball (2D: a disc) of this radius at the world's centre; 0: the
    // whole world.
    float spawn_radius = 0.0f;       // units
    float wander = 30.0f;            // units/s^2: each step a random push in [-1, 1]^dims times this, per boid
    Goal attractor;                  // tend to a place
    Goal repeller;                   // flee a place within its radius
    bool scatter = false;            // the startled flock: cohesion turns negative while on
    std::uint32_t neighbour_cap = 0; // consider only the k nearest neighbours (0: all)
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
    // 3 neighbours). A preset carries it (predators open coloured by species); no step reads it.
    std::uint32_t colour = 1;
    // View, not model: how boids are drawn (0 auto: points where the meshes would be under 3
    // pixels or cover the image twice over, render::drawsPoints; 1 meshes; 2 points). No step reads it.
    std::uint32_t draw = 0;
    float obstacle_margin = 5.0f;    // units: band around an obstacle where boids are pushed out
    float obstacle_push = 40.0f;     // units/s^2: push at the obstacle's surface, fading to 0 at the band's edge
    // Decarpentier style (docs/model.md): three neighbours, per-axis clamps, smoothed speed.
    // How each species manoeuvres is SpeciesRules::dc.
    struct Decarpentier {
        float far_factor = 3.0f;          // the third neighbour: the nearest beyond this x the closest distance
        float horizontal = 0.5f;          // 1/s: damping of vertical velocity (prefer level flight)
        float height = 0.0f;              // units: preferred height (y) ...
        float height_weight = 0.0f;       // 1/s^2: ... and its pull (0: off)
        float dive = 0.5f;                // 1/s: gravity, the new speed scaled by (1 - dive x heading.y x dt)
        // The vertical (y) part of each neighbour term is weighted apart from the horizontal.
        float vertical_avoid = 1.0f;      // avoid
        float vertical_distance = 1.0f;   // preferred distance
        float vertical_match = 1.0f;      // velocity match
        float steer_hz = 10.0f;           // steering recomputed this often per boid (0: every step)
        bool operator==(const Decarpentier&) const = default;
    } dc;
    // Species: alignment and cohesion act within a species, separation between all.
    std::uint32_t species_count = 1;               // 1..kMaxSpecies
    std::array<SpeciesRole, kMaxSpecies> roles{};  // per species
    std::uint64_t seed = 1;          // spawn seed
    std::uint32_t boids = 2000;      // count

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
    // cos(fov_deg / 2), computed in double and rounded once, so every backend gets the same float.
    float cosHalfFov() const;
    // Decarpentier style: steps between a boid's steering updates (round(1 / (steer_hz * dt)),
    // at least 1; 1 when steer_hz is 0 or another style).
    std::uint32_t stepsPerSteer() const;
    // World extent per axis: (L, L, L) in 3D, (L, L, 0) in 2D.
    float extent(int axis) const { return axis < dims ? world_size : 0.0f; }
    bool operator==(const Params&) const = default;
};

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
