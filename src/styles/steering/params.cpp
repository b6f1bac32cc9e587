// The Steering style's model module: its registry row (keys, ranges and help, the shared keys
// it ignores, its values for the GPU, its hooks). Its parameters: steering.hpp; its rules:
// src/styles/steering/cpu.cpp and src/styles/steering/steering.glsl.
#include "styles/steering/params.hpp"

#include "model/style_row.hpp"

namespace murmur {

template <>
StyleInfo styleRowOf<Style::Steering>() {
    return {.style = Style::Steering, .name = "steering", .summary = "Reynolds' desired-velocity steering",
                 .glsl = "styles/steering/steering.glsl", .prefix = "steering.", .traits = {},
                 .keys = {
            {"steering.separation", ParamKind::Choice, "", 0, 1, {"inverse_square", "unit"},
             "steering style: each separating neighbour pushes -d/|d|^2 (Reynolds, Shiffman) or the unit vector -d/|d|",
             [](const Params& p) { return double(p.steering.separation); },
             [](Params& p, double v) { p.steering.separation = Falloff(std::uint32_t(v)); }},
                 },
                 .switches = [](const Params& p) { return ShaderSwitches{{"SEP_UNIT", p.steering.separation == Falloff::Unit}}; }};
}

}  // namespace murmur
