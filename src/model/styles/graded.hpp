// The graded style's parameters: the struct Params holds as its member of this style (the one
// line registering the style, MURMUR_STYLES in model/params.hpp, names it). Its keys and registry
// row: graded.cpp.
#pragma once

namespace murmur {

// Graded style: separation growing as distance shrinks, cohesion a spring, alignment steered. Its
// values are the shared rules' (separation, alignment, cohesion, max_force): none of its own.
struct GradedParams {
    bool operator==(const GradedParams&) const = default;
};

}  // namespace murmur
