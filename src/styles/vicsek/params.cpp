// The Vicsek style's model module: its registry row (keys, ranges and help, the shared keys
// it ignores, its values for the GPU, its hooks). Its parameters: vicsek.hpp; its rules:
// src/styles/vicsek/cpu.cpp and src/styles/vicsek/vicsek.glsl.
#include "styles/vicsek/params.hpp"

#include "model/style_row.hpp"

namespace murmur {
namespace {

// The alignment radius is its one radius: the separation and cohesion radii (keys it ignores) are
// 0, so they neither widen the search nor count neighbours.
void vicsekRadius(const Params&, SpeciesRules& r) { r.separation.radius = r.cohesion.radius = 0.0f; }

}  // namespace

template <>
StyleInfo styleRowOf<Style::Vicsek>() {
    return {.style = Style::Vicsek, .name = "vicsek",
                 .summary = "Vicsek et al. 1995, the mean heading within alignment.radius plus angular noise, at constant speed max_speed",
                 .glsl = "styles/vicsek/vicsek.glsl", .prefix = "vicsek.", .traits = {.reformulable = false, .trap_turns = true},
                 .keys = {
            {"vicsek.noise", ParamKind::Float, "radians", 0, 6.2831853, {},
             "vicsek style: eta, the width of the angular noise added to the mean heading each step (2D: uniform in [-eta/2, eta/2])",
             MURMUR_FLOAT(vicsek.noise)},
            {"vicsek.noise_kind", ParamKind::Choice, "", 0, 1, {"angular", "vectorial"},
             "vicsek style: angular turns the mean heading by the noise (Vicsek et al. 1995); vectorial adds noise x n x a "
             "random unit vector to the sum of the n unit headings before its direction is taken (Gregoire & Chate 2004)",
             [](const Params& p) { return p.vicsek.vectorial ? 1.0 : 0.0; }, [](Params& p, double v) { p.vicsek.vectorial = v != 0.0; }},
                 },
                 .ignored_keys = withInfluences({"separation.radius", "separation.weight", "alignment.weight", "cohesion.radius",
                                                 "cohesion.weight", "max_force", "speed_limit", "margin", "turn", "predator",
                                                 "chase", "flee.radius", "flee.weight"}),  // no predators
                 .slots = {{"VICSEK_NOISE", MURMUR_SLOT(vicsek.noise)},
                           {"VICSEK_VECTORIAL", [](const Params& p) { return p.vicsek.vectorial ? 1.0f : 0.0f; }}},
                 .adjust_rules = vicsekRadius};
}

}  // namespace murmur
