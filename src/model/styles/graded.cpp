// The Graded style's model module: its registry row (keys, ranges and help, the shared keys
// it ignores, its values for the GPU, its hooks). Its parameters: graded.hpp; its rules:
// src/cpu/styles/graded.cpp and shaders/styles/graded.glsl.
#include "model/styles/graded.hpp"

#include "model/style_row.hpp"

namespace murmur {

template <>
StyleInfo styleRowOf<Style::Graded>() {
    return {.style = Style::Graded, .name = "graded",
                 .summary = "separation growing as distance shrinks, cohesion a spring, alignment steered",
                 .glsl = "styles/graded.glsl", .prefix = ""};
}

}  // namespace murmur
