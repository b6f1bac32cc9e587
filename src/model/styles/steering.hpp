// The steering style's parameters: the struct Params holds as its member of this style (the one
// line registering the style, MURMUR_STYLES in model/params.hpp, names it). Its keys and registry
// row: steering.cpp.
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
