// Validation of a whole Params: each key's own range (from the table) and the rules that tie
// fields together (radii within half the world in wrap mode, min_speed <= max_speed, ...).
#include "model/params.hpp"

#include "model/number_text.hpp"

#include "model/param_table.hpp"
#include "model/styles.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace murmur {

float SpeciesRules::ruleRadius() const { return std::max({separation.radius, alignment.radius, cohesion.radius, reach}); }

float Params::lookRadius(std::uint32_t s) const {
    return std::max(rulesOf(s).ruleRadius(), roles[std::min(s, kMaxSpecies - 1)].flee.radius);
}

SpeciesRules Params::rulesOf(std::uint32_t s) const {
    SpeciesRules r = species[s < kMaxSpecies ? s : kMaxSpecies - 1];
    const StyleInfo& info = styleInfo(style);
    if (info.reach) {
        r.separation.radius = r.alignment.radius = r.cohesion.radius = 0.0f;
        r.reach = info.reach(*this);
    }
    if (info.adjust_rules) info.adjust_rules(*this, r);
    return r;
}

float Params::couzinTurnPerStep() const { return couzin.turn_rate * (3.14159265f / 180.0f) * dt; }
float Params::cuckerSmalePull() const { return cucker_smale.coupling / float(boids); }
Vec3f Params::trapCentre() const {
    const float c = 0.5f * world_size;
    return {c + trap.offset.x, c + trap.offset.y, dims == 3 ? c + trap.offset.z : 0.0f};
}

std::uint32_t Params::speciesInUse() const { return std::max(1u, std::min(species_count, kMaxSpecies)); }

float Params::largestRadius() const {
    float r = 0.0f;
    for (std::uint32_t s = 0; s < speciesInUse(); ++s) r = std::max(r, lookRadius(s));
    return r;
}

const char* boundsName(Bounds b) { return b == Bounds::Wrap ? "wrap" : b == Bounds::Soft ? "soft" : "open"; }

float cosHalfFovOf(float fov_deg) { return float(std::cos(double(fov_deg) * 0.5 * 3.14159265358979323846 / 180.0)); }

float Params::cosHalfFov() const { return cosHalfFovOf(species[0].fov_deg); }

std::uint32_t Params::stepsPerSteer() const {
    if (!styleInfo(style).traits.amortised_steering || !(dc.steer_hz > 0.0f)) return 1;
    const double steps = std::round(1.0 / (double(dc.steer_hz) * double(dt)));
    return std::uint32_t(std::clamp(steps, 1.0, 1e6));
}

namespace {

// Each key against its own range, through the table so ranges live in one place.
void checkKeyRanges(const Params& p, std::vector<ParamProblem>& problems) {
    for (const ParamInfo& info : paramTable()) {
        Params scratch = p;
        if (auto err = setFromNumber(info, info.get(p), scratch); err && info.kind != ParamKind::Choice)
            problems.push_back({info.key, *err});
        if (info.kind == ParamKind::Choice && info.get(p) > info.max)
            problems.push_back({info.key, "invalid choice; expected " + rangeText(info)});
    }
}

// Species 0's radii (those its style reads) and the group measures' within half the world in
// wrap mode.
void checkWrapRadii(const Params& p, std::vector<ParamProblem>& problems) {
    const double half = double(p.world_size) / 2.0;
    const std::vector<std::string>& ignored = styleInfo(p.style).ignored_keys;
    if (p.bounds == Bounds::Wrap) {
        for (auto [key, rule] : {std::pair{"separation.radius", p.species[0].separation},
                                 std::pair{"alignment.radius", p.species[0].alignment},
                                 std::pair{"cohesion.radius", p.species[0].cohesion}})
            if (double(rule.radius) > half && std::find(ignored.begin(), ignored.end(), key) == ignored.end())
                problems.push_back({key, numberText(rule.radius) + " exceeds half the world (" + numberText(half) +
                                             ") in wrap mode; valid range [0, world_size/2]"});
        if (double(p.group_radius) > half)
            problems.push_back({"group_radius", numberText(p.group_radius) + " exceeds half the world (" + numberText(half) +
                                                    ") in wrap mode; valid range [0, world_size/2]"});
    }
}

// The spawn ball and the soft walls' margin within half the world.
void checkSpawnAndMargin(const Params& p, std::vector<ParamProblem>& problems) {
    const double half = double(p.world_size) / 2.0;
    if (double(p.spawn_radius) > half)
        problems.push_back({"spawn.radius", numberText(p.spawn_radius) + " exceeds half the world (" + numberText(half) +
                                                "); valid range [0, world_size/2]"});
    if (p.bounds == Bounds::Soft && double(p.margin) > half)
        problems.push_back({"margin", numberText(p.margin) + " exceeds half the world (" + numberText(half) +
                                          "); valid range [0, world_size/2]"});
}

void checkObstacles(const Params& p, std::vector<ParamProblem>& problems) {
    const double half = double(p.world_size) / 2.0;
    if (p.obstacles.size() > kMaxObstacles)
        problems.push_back({"obstacles", std::to_string(p.obstacles.size()) + " obstacles; valid range [0, " +
                                             std::to_string(kMaxObstacles) + "]"});
    for (std::size_t k = 0; k < p.obstacles.size(); ++k) {
        const Obstacle& o = p.obstacles[k];
        const std::string field = "obstacles[" + std::to_string(k) + "]";
        if (!(o.radius > 0.0f) || double(o.radius) > half)
            problems.push_back({field + ".radius", numberText(o.radius) + " is out of range (0, world_size/2] = (0, " + numberText(half) + "]"});
        const float centre[3] = {o.at.x, o.at.y, o.at.z};
        if (std::any_of(std::begin(centre), std::end(centre),
                        [&](float c) { return !std::isfinite(c) || c < 0.0f || c > p.world_size; }))
            problems.push_back({field, "centre (" + numberText(o.at.x) + ", " + numberText(o.at.y) + ", " + numberText(o.at.z) +
                                               ") must lie in the world [0, world_size]"});
    }
}

// Each species in use: speeds in order; in wrap, the keys as set within half the world (a style's
// own radii, as rulesOf gives them, are its check's to judge).
void checkSpecies(const Params& p, std::vector<ParamProblem>& problems) {
    const double half = double(p.world_size) / 2.0;
    const std::uint32_t used = std::min(p.species_count, kMaxSpecies);
    for (std::uint32_t s = 0; s < used; ++s) {
        const SpeciesRules k = p.rulesOf(s);
        const std::string prefix = s == 0 ? "" : "species" + std::to_string(s) + ".";
        if (k.min_speed > k.max_speed)
            problems.push_back({prefix + "min_speed", numberText(k.min_speed) + " exceeds " + prefix + "max_speed (" +
                                                          numberText(k.max_speed) + "); valid range [0, max_speed]"});
        if (p.bounds != Bounds::Wrap) continue;
        const SpeciesRules& set = p.species[s];
        const std::pair<std::string, float> radii[] = {{"separation.radius", set.separation.radius},
                                                       {"alignment.radius", set.alignment.radius},
                                                       {"cohesion.radius", set.cohesion.radius}};
        for (const auto& [key, r] : radii)
            if (s > 0 && double(r) > half)
                problems.push_back({prefix + key, numberText(r) + " exceeds half the world (" + numberText(half) +
                                                      ") in wrap mode; valid range [0, world_size/2]"});
        if (double(p.roles[s].flee.radius) > half)
            problems.push_back({"species" + std::to_string(s) + ".flee.radius",
                                numberText(p.roles[s].flee.radius) + " exceeds half the world (" + numberText(half) +
                                    ") in wrap mode; valid range [0, world_size/2]"});
    }
}

// A trap integrated as an acceleration (every style that the trap does not just turn) overshoots
// its centre by more than it started from once k dt^2 reaches 4 (semi-implicit Euler's bound for
// an oscillator, omega dt < 2): the flock flies apart, and a style with no speed limit goes
// non-finite.
void checkTrap(const Params& p, std::vector<ParamProblem>& problems) {
    const double k = double(p.trap.stiffness), dt = double(p.dt);
    if (styleInfo(p.style).traits.trap_turns || !(k * dt * dt >= 4.0)) return;
    const auto shortest = [](float v) {  // the float as set: dt 0.05, not 0.0500000007
        char text[32];
        return std::string(text, std::to_chars(text, text + sizeof text, v).ptr);
    };
    problems.push_back({"trap.stiffness", shortest(p.trap.stiffness) + " with dt " + shortest(p.dt) + " gives k dt^2 = " +
                                              numberText(float(k * dt * dt)) + ", at or past 4, where each step overshoots the trap's centre "
                                              "and the flock flies apart; valid range [0, 4/dt^2) = [0, " + numberText(float(4.0 / (dt * dt))) +
                                              ") (or a smaller dt)"});
}

// The adaptive radius lives in the per-boid slot (Boid::steer) that styles keeping their steering
// hold it in: one or the other.
void checkTopological(const Params& p, std::vector<ParamProblem>& problems) {
    if (p.topological.on() && !styleInfo(p.style).traits.takesAdaptiveRadius())
        problems.push_back({"topological.count", numberText(p.topological.count) + " with the " + styleInfo(p.style).name +
                                                     " style, which keeps its steering in the per-boid slot the adaptive radius "
                                                     "uses; valid range 0 with this style"});
}

}  // namespace

std::vector<ParamProblem> validate(const Params& p) {
    std::vector<ParamProblem> problems;
    checkKeyRanges(p, problems);
    checkWrapRadii(p, problems);
    if (const auto check = styleInfo(p.style).check) check(p, problems);
    checkSpawnAndMargin(p, problems);
    checkObstacles(p, problems);
    if (p.perch_min > p.perch_max)
        problems.push_back({"perch.min_time", numberText(p.perch_min) + " exceeds perch.max_time (" + numberText(p.perch_max) +
                                                  "); valid range [0, perch.max_time]"});
    checkSpecies(p, problems);
    checkTopological(p, problems);
    checkTrap(p, problems);
    if (p.update == UpdateOrder::Sequential && p.boids > kMaxSequentialBoids)
        problems.push_back({"update", "sequential with " + std::to_string(p.boids) + " boids: the sequential order walks the flock "
                                      "one boid at a time (n^2 pairs a step on one GPU thread); valid for boids in [0, " +
                                      std::to_string(kMaxSequentialBoids) + "], or use update=parallel"});
    double shares = 0.0;
    for (std::uint32_t s = 0; s < std::min(p.species_count, kMaxSpecies); ++s) shares += double(p.roles[s].share);
    if (!(shares > 0.0))
        problems.push_back({"species0.share", "the shares of the species in use sum to 0; at least one must be above 0"});
    return problems;
}

std::string describe(const std::vector<ParamProblem>& problems) {
    std::string s;
    for (const ParamProblem& pr : problems) s += (s.empty() ? "" : "\n") + pr.field + ": " + pr.message;
    return s;
}

}  // namespace murmur
