// The Couzin style's model module: its registry row (keys, ranges and help, the shared keys
// it ignores, its values for the GPU, its hooks). Its parameters: couzin.hpp; its rules:
// src/styles/couzin/cpu.cpp and src/styles/couzin/couzin.glsl.
#include "styles/couzin/params.hpp"

#include "model/style_row.hpp"

namespace murmur {
namespace {

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
        problems.push_back({"couzin.attraction_width", "the zone of attraction reaches " + numberText(reach) + " (" + prefix +
                                                           "separation.radius + couzin.orientation_width + "
                                                           "couzin.attraction_width), beyond half the world (" + numberText(half) +
                                                           ") in wrap mode; valid: that sum in [0, world_size/2]"});
    }
}

// Couzin's individuals interact out to the zone of attraction: a group (whose polarization and
// milling are the paper's p_group and m_group) is who is linked within it.
float couzinGroup(const Params&, float nn, float) { return nn; }

}  // namespace

template <>
StyleInfo styleRowOf<Style::Couzin>() {
    return {.style = Style::Couzin, .name = "couzin",
                 .summary = "Couzin et al. 2002, zones of repulsion (separation.radius), orientation (couzin.orientation_width beyond it) and "
                 "attraction (couzin.attraction_width beyond that), a blind angle, a turning rate and Gaussian noise, at constant "
                 "speed max_speed",
                 .glsl = "styles/couzin/couzin.glsl", .prefix = "couzin.", .traits = {.reformulable = false, .trap_turns = true},
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
                                                 "cohesion.weight", "min_speed", "max_force", "speed_limit", "predator", "chase",
                                                 "flee.radius", "flee.weight"}),  // no predators
                 // the most a boid turns in one step (radians); sigma (radians)
                 .slots = {{"COUZIN_TURN", [](const Params& p) { return p.couzinTurnPerStep(); }}, {"COUZIN_NOISE", MURMUR_SLOT(couzin.noise)}},
                 .adjust_rules = couzinZones,
                 .check = couzinCheck,
                 .group_radius = couzinGroup};
}

}  // namespace murmur
