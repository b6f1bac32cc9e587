// The Cucker-Smale style's model module: its registry row (keys, ranges and help, the shared keys
// it ignores, its values for the GPU, its hooks). Its parameters: cucker_smale.hpp; its rules:
// src/styles/cucker_smale/cpu.cpp and src/styles/cucker_smale/cucker_smale.glsl.
#include "styles/cucker_smale/params.hpp"

#include "model/style_row.hpp"

#include <cmath>

namespace murmur {
namespace {

// Cucker-Smale looks within its cut-off, or at every pair: a radius beyond any distance in the
// world (minimum image in wrap; in soft bounds boids stay within about a margin of the walls).
float cuckerSmaleReach(const Params& p) {
    const float every_pair = 2.0f * p.world_size * std::sqrt(float(p.dims));
    return p.cucker_smale.radius > 0.0f ? p.cucker_smale.radius : every_pair;
}

void cuckerSmaleCheck(const Params& p, std::vector<ParamProblem>& problems) {
    const double half = double(p.world_size) / 2.0;
    if (p.bounds == Bounds::Wrap && double(p.cucker_smale.radius) > half)
        problems.push_back({"cucker_smale.radius", numberText(p.cucker_smale.radius) + " exceeds half the world (" + numberText(half) +
                                                       ") in wrap mode; valid range [0, world_size/2] (0: every pair)"});
}

// A group is who is linked within the cut-off, or within a tenth of the world without one.
float cuckerSmaleGroup(const Params& p, float, float) {
    return p.cucker_smale.radius > 0.0f ? p.cucker_smale.radius : 0.1f * p.world_size;
}

}  // namespace

template <>
StyleInfo styleRowOf<Style::CuckerSmale>() {
    return {.style = Style::CuckerSmale, .name = "cucker_smale",
                 .summary = "Cucker & Smale 2007, each boid's velocity pulled towards every other's of its species by "
                            "cucker_smale.coupling / N x (1 + r^2)^-cucker_smale.beta, within cucker_smale.radius "
                            "(0: every pair); no speed limit, no predators",
                 .glsl = "styles/cucker_smale/cucker_smale.glsl", .prefix = "cucker_smale.", .traits = {.reformulable = false},
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
                 .reach = cuckerSmaleReach,
                 .reach_key = "cucker_smale.radius",
                 .check = cuckerSmaleCheck,
                 .group_radius = cuckerSmaleGroup};
}

}  // namespace murmur
