// The style registry (styles.hpp): one row per style, in the order of the Style enum.
#include "model/styles.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace murmur {
namespace {

#define MURMUR_FLOAT(field) \
    [](const Params& p) { return double(p.field); }, [](Params& p, double v) { p.field = float(v); }
#define MURMUR_SLOT(field) [](const Params& p) { return float(p.field); }

std::string num(double v) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    return buf;
}

// Couzin's zones are given by widths beyond the zone of repulsion.
void couzinZones(const Params& p, SpeciesRules& r) {
    r.alignment.radius = r.separation.radius + p.couzin.orientation_width;
    r.cohesion.radius = r.alignment.radius + p.couzin.attraction_width;
}

void couzinCheck(const Params& p, std::vector<ParamProblem>& problems) {
    const double half = double(p.world_size) / 2.0;
    for (std::uint32_t sp = 0; sp < p.speciesInUse() && p.bounds == Bounds::Wrap; ++sp) {
        const float reach = p.rulesOf(sp).cohesion.radius;
        if (!(double(reach) > half)) continue;
        const std::string prefix = sp == 0 ? "" : "species" + std::to_string(sp) + ".";
        problems.push_back({"couzin.attraction_width", "the zone of attraction reaches " + num(reach) + " (" + prefix +
                                                           "separation.radius + couzin.orientation_width + "
                                                           "couzin.attraction_width), beyond half the world (" + num(half) +
                                                           ") in wrap mode; valid: that sum in [0, world_size/2]"});
    }
}

// Decarpentier's birds heed three neighbours, the farthest beyond far_factor x the closest (about
// the preferred distance): a flock is who is linked within that reach.
float decarpentierGroup(const Params& p, float nn, float group) {
    return p.species[0].dc.preferred_distance > 0.0f ? std::min(nn, p.dc.far_factor * p.species[0].dc.preferred_distance) : group;
}

// Couzin's individuals interact out to the zone of attraction: a group (whose polarization and
// milling are the paper's p_group and m_group) is who is linked within it.
float couzinGroup(const Params&, float nn, float) { return nn; }

// Cucker-Smale looks within its cut-off, or at every pair: a radius beyond any distance in the
// world (minimum image in wrap; in soft bounds boids stay within about a margin of the walls).
void cuckerSmaleRadii(const Params& p, SpeciesRules& r) {
    const float every_pair = 2.0f * p.world_size * std::sqrt(float(p.dims));
    r.separation.radius = r.cohesion.radius = 0.0f;
    r.alignment.radius = p.cucker_smale.radius > 0.0f ? p.cucker_smale.radius : every_pair;
}

void cuckerSmaleCheck(const Params& p, std::vector<ParamProblem>& problems) {
    const double half = double(p.world_size) / 2.0;
    if (p.bounds == Bounds::Wrap && double(p.cucker_smale.radius) > half)
        problems.push_back({"cucker_smale.radius", num(p.cucker_smale.radius) + " exceeds half the world (" + num(half) +
                                                       ") in wrap mode; valid range [0, world_size/2] (0: every pair)"});
}

// A group is who is linked within the cut-off, or within a tenth of the world without one.
float cuckerSmaleGroup(const Params& p, float, float) {
    return p.cucker_smale.radius > 0.0f ? p.cucker_smale.radius : 0.1f * p.world_size;
}

// The influences' keys: goals, wind, wander and scatter, which a style that sets its velocity
// outright (a heading at constant speed) or by its own law does not read.
std::vector<std::string> influenceKeys() {
    return {"wander", "wind.x", "wind.y", "wind.z", "attractor.x", "attractor.y", "attractor.z", "attractor.weight", "repeller.x",
            "repeller.y", "repeller.z", "repeller.weight", "repeller.radius", "scatter"};
}

// `keys` and then every influence key (constant-speed models: no force, limit or influence acts).
std::vector<std::string> withInfluences(std::vector<std::string> keys) {
    for (std::string& k : influenceKeys()) keys.push_back(std::move(k));
    return keys;
}

// Rows name only what differs from StyleInfo's defaults (no keys, no hooks, default traits).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
std::vector<StyleInfo> makeStyles() {
    std::vector<StyleInfo> s;
    s.push_back({.style = Style::Steering, .name = "steering", .summary = "Reynolds' desired-velocity steering",
                 .glsl = "styles/steering.glsl", .prefix = "steering.", .traits = {},
                 .keys = {
            {"steering.separation", ParamKind::Choice, "", 0, 1, {"inverse_square", "unit"},
             "steering style: each separating neighbour pushes -d/|d|^2 (Reynolds, Shiffman) or the unit vector -d/|d|",
             [](const Params& p) { return double(p.steering.separation); },
             [](Params& p, double v) { p.steering.separation = Falloff(std::uint32_t(v)); }},
                 },
                 .switches = [](const Params& p) { return ShaderSwitches{{"SEP_UNIT", p.steering.separation == Falloff::Unit}}; }});
    s.push_back({.style = Style::Offset, .name = "offset", .summary = "Parker's summed velocity offsets",
                 .glsl = "styles/offset.glsl", .prefix = "offset.", .traits = {.offsets_per_step = true},
                 .keys = {
            {"offset.sums", ParamKind::Choice, "", 0, 1, {"off", "on"},
             "offset style: on sums each rule over the neighbours (flock.rb: separation sum(p_i - p_j), alignment sum(v_j), "
             "cohesion sum(p_j - p_i)); off averages them (Parker)",
             [](const Params& p) { return p.offset.sums ? 1.0 : 0.0; }, [](Params& p, double v) { p.offset.sums = v != 0.0; }},
            {"offset.lone", ParamKind::Choice, "", 0, 1, {"off", "on"},
             "offset style: on, a boid with no one to align with adds its own velocity (Parker's Ruby rule 3), so a lone boid "
             "speeds up to max_speed",
             [](const Params& p) { return p.offset.lone ? 1.0 : 0.0; }, [](Params& p, double v) { p.offset.lone = v != 0.0; }},
                 },
                 .ignored_keys = {"max_force"},
                 .switches = [](const Params& p) { return ShaderSwitches{{"OFFSET_SUMS", p.offset.sums}, {"OFFSET_LONE", p.offset.lone}}; }});
    s.push_back({.style = Style::Decarpentier, .name = "decarpentier", .summary = "three neighbours, per-axis clamps",
                 .glsl = "styles/decarpentier.glsl", .prefix = "dc.",
                 .traits = {.keeps_steer = true, .own_search = true, .amortised_steering = true, .wings_flap = true},
                 .keys = {
            {"dc.far_factor", ParamKind::Float, "", 2, 10, {}, "decarpentier: the third neighbour is the nearest beyond this many times the closest distance",
             MURMUR_FLOAT(dc.far_factor)},
            {"dc.preferred_distance", ParamKind::Float, "units", 0, 10000, {}, "decarpentier, species 0 (speciesN.dc.* the others): distance kept from each of the three neighbours",
             MURMUR_FLOAT(species[0].dc.preferred_distance)},
            {"dc.horizontal", ParamKind::Float, "1/s", 0, 100, {}, "decarpentier: preference for level flight (damps vertical velocity)",
             MURMUR_FLOAT(dc.horizontal)},
            {"dc.height", ParamKind::Float, "units", -100000, 100000, {}, "decarpentier: preferred height (y)", MURMUR_FLOAT(dc.height)},
            {"dc.height_weight", ParamKind::Float, "1/s^2", 0, 100, {}, "decarpentier: pull toward the preferred height (0: off)",
             MURMUR_FLOAT(dc.height_weight)},
            {"dc.accel_forward", ParamKind::Float, "units/s^2", 0, 100000, {}, "decarpentier, species 0 (speciesN.dc.* the others): largest speed-up along the heading",
             MURMUR_FLOAT(species[0].dc.accel_forward)},
            {"dc.brake", ParamKind::Float, "units/s^2", 0, 100000, {}, "decarpentier, species 0 (speciesN.dc.* the others): largest slow-down along the heading", MURMUR_FLOAT(species[0].dc.brake)},
            {"dc.accel_side", ParamKind::Float, "units/s^2", 0, 100000, {}, "decarpentier, species 0 (speciesN.dc.* the others): largest sideways (turning) acceleration",
             MURMUR_FLOAT(species[0].dc.accel_side)},
            {"dc.accel_up", ParamKind::Float, "units/s^2", 0, 100000, {}, "decarpentier, species 0 (speciesN.dc.* the others): largest acceleration along the boid's up axis (3D)",
             MURMUR_FLOAT(species[0].dc.accel_up)},
            {"dc.smoothing", ParamKind::Float, "", 0, 0.99, {}, "decarpentier, species 0 (speciesN.dc.* the others): share of the previous speed kept each step (direction unchanged)",
             MURMUR_FLOAT(species[0].dc.smoothing)},
            {"dc.dive", ParamKind::Float, "1/s", 0, 10, {},
             "decarpentier: gravity: each step the new speed is scaled by 1 - dive x heading.y x dt (faster diving, slower climbing)",
             MURMUR_FLOAT(dc.dive)},
            {"dc.vertical_avoid", ParamKind::Float, "", 0, 10, {}, "decarpentier: weight of the vertical (y) part of the avoid term",
             MURMUR_FLOAT(dc.vertical_avoid)},
            {"dc.vertical_distance", ParamKind::Float, "", 0, 10, {},
             "decarpentier: weight of the vertical (y) part of the preferred-distance term", MURMUR_FLOAT(dc.vertical_distance)},
            {"dc.vertical_match", ParamKind::Float, "", 0, 10, {}, "decarpentier: weight of the vertical (y) part of the velocity match",
             MURMUR_FLOAT(dc.vertical_match)},
            {"dc.steer_hz", ParamKind::Float, "1/s", 0, 1000, {},
             "decarpentier: each boid recomputes its steering this often, on its own phase; motion integrates every step (0: steer every step)",
             MURMUR_FLOAT(dc.steer_hz)},
                 },
                 .ignored_keys = {"max_force", "neighbour_cap", "scatter"},
                 .slots = {{"DC_FAR_FACTOR", MURMUR_SLOT(dc.far_factor)}, {"DC_HORIZONTAL", MURMUR_SLOT(dc.horizontal)},
                           {"DC_HEIGHT", MURMUR_SLOT(dc.height)}, {"DC_HEIGHT_WEIGHT", MURMUR_SLOT(dc.height_weight)},
                           {"DC_DIVE", MURMUR_SLOT(dc.dive)}, {"DC_VERTICAL_AVOID", MURMUR_SLOT(dc.vertical_avoid)},
                           {"DC_VERTICAL_DISTANCE", MURMUR_SLOT(dc.vertical_distance)},
                           {"DC_VERTICAL_MATCH", MURMUR_SLOT(dc.vertical_match)}},
                 .group_radius = decarpentierGroup});
    s.push_back({.style = Style::Graded, .name = "graded",
                 .summary = "separation growing as distance shrinks, cohesion a spring, alignment steered",
                 .glsl = "styles/graded.glsl", .prefix = ""});
    s.push_back({.style = Style::Gloss, .name = "gloss",
                 .summary = "the Haskell post's normalised rules and a view cone from the acceleration",
                 .glsl = "styles/gloss.glsl", .prefix = "", .traits = {.velocity_cone = false, .keeps_steer = true}});
    s.push_back({.style = Style::Vicsek, .name = "vicsek",
                 .summary = "Vicsek et al. 1995, the mean heading within alignment.radius plus angular noise, at constant speed max_speed",
                 .glsl = "styles/vicsek.glsl", .prefix = "vicsek.", .traits = {.reformulable = false},
                 .keys = {
            {"vicsek.noise", ParamKind::Float, "radians", 0, 6.2831853, {},
             "vicsek style: eta, the width of the angular noise added to the mean heading each step (2D: uniform in [-eta/2, eta/2])",
             MURMUR_FLOAT(vicsek.noise)},
                 },
                 .ignored_keys = withInfluences({"separation.radius", "separation.weight", "alignment.weight", "cohesion.radius",
                                                 "cohesion.weight", "max_force", "speed_limit", "margin", "turn"}),
                 .slots = {{"VICSEK_NOISE", MURMUR_SLOT(vicsek.noise)}}});  // eta, radians
    s.push_back({.style = Style::Couzin, .name = "couzin",
                 .summary = "Couzin et al. 2002, zones of repulsion (separation.radius), orientation (couzin.orientation_width beyond it) and "
                 "attraction (couzin.attraction_width beyond that), a blind angle, a turning rate and Gaussian noise, at constant "
                 "speed max_speed",
                 .glsl = "styles/couzin.glsl", .prefix = "couzin.", .traits = {.reformulable = false},
                 .keys = {
            {"couzin.turn_rate", ParamKind::Float, "degrees/s", 0, 36000, {},
             "couzin style: theta, the most a boid turns per second towards its desired direction", MURMUR_FLOAT(couzin.turn_rate)},
            {"couzin.noise", ParamKind::Float, "radians", 0, 3.1415927, {},
             "couzin style: sigma, the standard deviation of the Gaussian angular noise on the desired direction",
             MURMUR_FLOAT(couzin.noise)},
            {"couzin.orientation_width", ParamKind::Float, "units", 0, 50000, {},
             "couzin style: delta r_o, the zone of orientation's width beyond the zone of repulsion (separation.radius)",
             MURMUR_FLOAT(couzin.orientation_width)},
            {"couzin.attraction_width", ParamKind::Float, "units", 0, 50000, {},
             "couzin style: delta r_a, the zone of attraction's width beyond the zone of orientation",
             MURMUR_FLOAT(couzin.attraction_width)},
                 },
                 .ignored_keys = withInfluences({"alignment.radius", "cohesion.radius", "separation.weight", "alignment.weight",
                                                 "cohesion.weight", "min_speed", "max_force", "speed_limit"}),
                 // the most a boid turns in one step (radians); sigma (radians)
                 .slots = {{"COUZIN_TURN", [](const Params& p) { return p.couzinTurnPerStep(); }}, {"COUZIN_NOISE", MURMUR_SLOT(couzin.noise)}},
                 .adjust_rules = couzinZones,
                 .check = couzinCheck,
                 .group_radius = couzinGroup});
    s.push_back({.style = Style::CuckerSmale, .name = "cucker_smale",
                 .summary = "Cucker & Smale 2007, each boid's velocity pulled towards every other's of its species by "
                            "cucker_smale.coupling / N x (1 + r^2)^-cucker_smale.beta, within cucker_smale.radius "
                            "(0: every pair); no speed limit, no predators",
                 .glsl = "styles/cucker_smale.glsl", .prefix = "cucker_smale.", .traits = {.reformulable = false},
                 .keys = {
                     {"cucker_smale.coupling", ParamKind::Float, "1/s", 0, 1000, {},
                      "cucker_smale style: lambda, the coupling strength (dv_i/dt = lambda/N sum_j psi (v_j - v_i))",
                      MURMUR_FLOAT(cucker_smale.coupling)},
                     {"cucker_smale.beta", ParamKind::Float, "", 0, 10, {},
                      "cucker_smale style: psi(r) = (1 + r^2)^-beta; beta <= 1/2 flocks from any start (all pairs)",
                      MURMUR_FLOAT(cucker_smale.beta)},
                     {"cucker_smale.radius", ParamKind::Float, "units", 0, 100000, {},
                      "cucker_smale style: only boids within this distance interact (at most world_size/2 in wrap); "
                      "0: every pair",
                      MURMUR_FLOAT(cucker_smale.radius)},
                 },
                 .ignored_keys = {"separation.radius", "separation.weight", "alignment.radius", "alignment.weight", "cohesion.radius",
                                  "cohesion.weight", "min_speed", "max_speed", "max_force", "speed_limit", "predator", "chase",
                                  "flee.radius", "flee.weight", "repeller.x", "repeller.y", "repeller.z", "repeller.weight",
                                  "repeller.radius", "scatter"},
                 .slots = {{"CS_PULL", [](const Params& p) { return p.cuckerSmalePull(); }}, {"CS_BETA", MURMUR_SLOT(cucker_smale.beta)}},
                 .adjust_rules = cuckerSmaleRadii,
                 .check = cuckerSmaleCheck,
                 .group_radius = cuckerSmaleGroup});
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (std::uint32_t(s[i].style) != i) throw std::logic_error("the style registry is out of the Style enum's order");
        if (s[i].slots.size() > kMaxStyleSlots) throw std::logic_error(std::string(s[i].name) + " has more slots than the block holds");
    }
    return s;
}
#pragma GCC diagnostic pop

}  // namespace

std::span<const StyleInfo> styles() {
    static const std::vector<StyleInfo> s = makeStyles();
    return s;
}

const StyleInfo& styleInfo(Style s) {
    const auto all = styles();
    return all[std::min<std::size_t>(std::size_t(s), all.size() - 1)];
}

const StyleInfo* findStyle(std::string_view name) {
    for (const StyleInfo& s : styles())
        if (name == s.name) return &s;
    return nullptr;
}

}  // namespace murmur
