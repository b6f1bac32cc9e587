// The offset style's parameters, the struct Params holds as its member `offset`; its keys and registry
// row: params.cpp, its CPU rules cpu.{hpp,cpp}, its GPU twin offset.glsl, all in this folder. The
// line below registers the style (CMake reads it into MURMUR_STYLES: enumerator, its number in
// files and presets, which never changes, and the member).
// murmur-style: X(Offset, 1, offset)
#pragma once

namespace murmur {

// Offset style: how Parker's rules are formulated.
struct OffsetParams {
    bool sums = false;  // rules summed over neighbours (flock.rb), not averaged (Parker)
    bool lone = false;  // a boid with no one to align with adds its own velocity (Parker's Ruby)
    bool operator==(const OffsetParams&) const = default;
};

}  // namespace murmur
