// The Gloss style's model module: its registry row (keys, ranges and help, the shared keys
// it ignores, its values for the GPU, its hooks). Its parameters: gloss.hpp; its rules:
// src/styles/gloss/cpu.cpp and src/styles/gloss/gloss.glsl.
#include "styles/gloss/params.hpp"

#include "model/style_row.hpp"

namespace murmur {

template <>
StyleInfo styleRowOf<Style::Gloss>() {
    return {.style = Style::Gloss, .name = "gloss",
                 .summary = "the Haskell post's normalised rules and a view cone from the acceleration",
                 .glsl = "styles/gloss/gloss.glsl", .prefix = "", .traits = {.velocity_cone = false, .keeps_steer = true,
                            .kept_state = {"acceleration_x", "acceleration_y", "acceleration_z", "neighbours"}}};
}

}  // namespace murmur
