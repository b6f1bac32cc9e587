// The Graded style's model module: its registry row (keys, ranges and help, the shared keys
// it ignores, its values for the GPU, its hooks). Its parameters: graded.hpp; its rules:
// src/styles/graded/cpu.cpp and src/styles/graded/graded.glsl.
#include "styles/graded/params.hpp"

#include "model/style_row.hpp"

namespace murmur {

template <>
StyleInfo styleRowOf<Style::Graded>() {
    return {.style = Style::Graded, .name = "graded",
                 .summary = "separation growing as distance shrinks, cohesion a spring, alignment steered",
                 .glsl = "styles/graded/graded.glsl", .prefix = ""};
}

}  // namespace murmur
