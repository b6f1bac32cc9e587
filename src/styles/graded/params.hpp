// The graded style's parameters, the struct Params holds as its member `graded`; its keys and registry
// row: params.cpp, its CPU rules cpu.{hpp,cpp}, its GPU twin graded.glsl, all in this folder. The
// line below registers the style (CMake reads it into MURMUR_STYLES: enumerator, its number in
// files and presets, which never changes, and the member).
// murmur-style: X(Graded, 3, graded)
#pragma once

namespace murmur {

// Graded style: separation growing as distance shrinks, cohesion a spring, alignment steered. Its
// values are the shared rules' (separation, alignment, cohesion, max_force): none of its own.
struct GradedParams {
    bool operator==(const GradedParams&) const = default;
};

}  // namespace murmur
