// The gloss style's parameters, the struct Params holds as its member `gloss`; its keys and registry
// row: params.cpp, its CPU rules cpu.{hpp,cpp}, its GPU twin gloss.glsl, all in this folder. The
// line below registers the style (CMake reads it into MURMUR_STYLES: enumerator, its number in
// files and presets, which never changes, and the member).
// murmur-style: X(Gloss, 4, gloss)
#pragma once

namespace murmur {

// Gloss style: the Haskell post's normalised rules and a view cone from the acceleration. Its
// values are the shared rules': none of its own.
struct GlossParams {
    bool operator==(const GlossParams&) const = default;
};

}  // namespace murmur
