// The D'Orsogna style's model module: its registry row (keys, ranges and help, the shared keys
// it ignores, its values for the GPU, its hooks). Its parameters: dorsogna.hpp; its rules:
// src/styles/dorsogna/cpu.cpp and src/styles/dorsogna/dorsogna.glsl.
#include "styles/dorsogna/params.hpp"

#include "model/style_row.hpp"

#include <cmath>

namespace murmur {
namespace {

// Every boid within the cut-off acts on every other, whatever its species.
float dorsognaReach(const Params& p) { return p.dorsogna.cutoff; }

void dorsognaCheck(const Params& p, std::vector<ParamProblem>& problems) {
    const double half = double(p.world_size) / 2.0;
    if (p.bounds == Bounds::Wrap && double(p.dorsogna.cutoff) > half)
        problems.push_back({"dorsogna.cutoff", numberText(p.dorsogna.cutoff) + " exceeds half the world (" + numberText(half) +
                                                   ") in wrap mode; valid range [0.01, world_size/2]"});
}

// A mill or a clump is who is linked within the attraction's range.
float dorsognaGroup(const Params& p, float, float) { return p.dorsogna.attraction_range; }

}  // namespace

float DOrsognaParams::noiseStep(float dt) const { return float(std::sqrt(2.0 * double(noise) * double(dt))); }

template <>
StyleInfo styleRowOf<Style::DOrsogna>() {
    return {.style = Style::DOrsogna, .name = "dorsogna",
            .summary = "D'Orsogna et al. 2006, self-propulsion alpha v - beta |v|^2 v and a Morse potential (repulsion C_r e^-r/l_r, "
                       "attraction C_a e^-r/l_a) between every pair within dorsogna.cutoff: mills, double mills, clumps",
            .glsl = "styles/dorsogna/dorsogna.glsl", .prefix = "dorsogna.", .traits = {.velocity_cone = false, .reformulable = false},
            .keys = {
                {"dorsogna.propulsion", ParamKind::Float, "1/s", 0, 100, {},
                 "dorsogna style: alpha, the self-propulsion (dv/dt gains alpha v)",
                 MURMUR_FLOAT(dorsogna.propulsion)},
                {"dorsogna.friction", ParamKind::Float, "s/units^2", 0, 100, {},
                 "dorsogna style: beta, the friction (dv/dt loses beta |v|^2 v); alone a boid's speed tends to "
                 "sqrt(alpha/beta)",
                 MURMUR_FLOAT(dorsogna.friction)},
                {"dorsogna.attraction", ParamKind::Float, "units^2/s^2", 0, 10000, {},
                 "dorsogna style: C_a, the attraction's strength",
                 MURMUR_FLOAT(dorsogna.attraction)},
                {"dorsogna.attraction_range", ParamKind::Float, "units", 0.01, 10000, {},
                 "dorsogna style: l_a, the attraction's range",
                 MURMUR_FLOAT(dorsogna.attraction_range)},
                {"dorsogna.repulsion", ParamKind::Float, "units^2/s^2", 0, 10000, {},
                 "dorsogna style: C_r, the repulsion's strength",
                 MURMUR_FLOAT(dorsogna.repulsion)},
                {"dorsogna.repulsion_range", ParamKind::Float, "units", 0.01, 10000, {},
                 "dorsogna style: l_r, the repulsion's range",
                 MURMUR_FLOAT(dorsogna.repulsion_range)},
                {"dorsogna.cutoff", ParamKind::Float, "units", 0.01, 100000, {},
                 "dorsogna style: pairs farther apart than this do not interact (at most world_size/2 in wrap)",
                 MURMUR_FLOAT(dorsogna.cutoff)},
                {"dorsogna.noise", ParamKind::Float, "units^2/s^3", 0, 10000, {},
                 "dorsogna style: D, white noise on the velocity: each step adds sqrt(2 D dt) x a standard normal on each axis "
                 "(Euler-Maruyama); 0: none",
                 MURMUR_FLOAT(dorsogna.noise)},
            },
            .ignored_keys = {"separation.radius", "separation.weight", "alignment.radius", "alignment.weight", "cohesion.radius",
                             "cohesion.weight", "fov_deg", "min_speed", "speed_limit", "predator", "chase", "flee.radius",
                             "flee.weight", "scatter"},  // max_force stays: it clamps the attractor's and repeller's steering
            .slots = {{"DORSOGNA_ALPHA", MURMUR_SLOT(dorsogna.propulsion)},
                      {"DORSOGNA_BETA", MURMUR_SLOT(dorsogna.friction)},
                      {"DORSOGNA_ATTRACTION_SLOPE", [](const Params& p) { return p.dorsogna.attractionSlope(); }},
                      {"DORSOGNA_INV_ATTRACTION_RANGE", [](const Params& p) { return p.dorsogna.inverseAttractionRange(); }},
                      {"DORSOGNA_REPULSION_SLOPE", [](const Params& p) { return p.dorsogna.repulsionSlope(); }},
                      {"DORSOGNA_INV_REPULSION_RANGE", [](const Params& p) { return p.dorsogna.inverseRepulsionRange(); }},
                      {"DORSOGNA_NOISE_STEP", [](const Params& p) { return p.dorsogna.noiseStep(p.dt); }}},
            .reach = dorsognaReach,
            .reach_key = "dorsogna.cutoff",
            .check = dorsognaCheck,
            .group_radius = dorsognaGroup};
}

}  // namespace murmur
