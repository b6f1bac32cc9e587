// The steering style's parameters, the struct Params holds as its member `steering`; its keys and registry
// row: params.cpp, its CPU rules cpu.{hpp,cpp}, its GPU twin steering.glsl, all in this folder. The
// line below registers the style (CMake reads it into MURMUR_STYLES: enumerator, its number in
// files and presets, which never changes, and the member).
// murmur-style: X(Steering, 0, steering)
#pragma once

#include <cstdint>

namespace murmur {

// Steering style: each separating neighbour's push, -d/|d|^2 or the unit vector -d/|d|.
enum class Falloff : std::uint32_t { InverseSquare = 0, Unit = 1 };

// Steering style (Reynolds' desired-velocity steering): each separating neighbour's push.
struct SteeringParams {
    Falloff separation = Falloff::InverseSquare;
    bool operator==(const SteeringParams&) const = default;
};

}  // namespace murmur
