// The Offset style's model module: its registry row (keys, ranges and help, the shared keys
// it ignores, its values for the GPU, its hooks). Its parameters: offset.hpp; its rules:
// src/styles/offset/cpu.cpp and src/styles/offset/offset.glsl.
#include "styles/offset/params.hpp"

#include "model/style_row.hpp"

namespace murmur {

template <>
StyleInfo styleRowOf<Style::Offset>() {
    return {.style = Style::Offset, .name = "offset", .summary = "Parker's summed velocity offsets",
                 .glsl = "styles/offset/offset.glsl", .prefix = "offset.", .traits = {.offsets_per_step = true},
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
                 .switches = [](const Params& p) { return ShaderSwitches{{"OFFSET_SUMS", p.offset.sums}, {"OFFSET_LONE", p.offset.lone}}; }};
}

}  // namespace murmur
