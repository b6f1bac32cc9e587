// The offset style's parameters: the struct Params holds as its member of this style (the one
// line registering the style, MURMUR_STYLES in model/params.hpp, names it). Its keys and registry
// row: offset.cpp.
#pragma once

namespace murmur {

// Offset style: how Parker's rules are formulated.
struct OffsetParams {
    bool sums = false;  // rules summed over neighbours (flock.rb), not averaged (Parker)
    bool lone = false;  // a boid with no one to align with adds its own velocity (Parker's Ruby)
    bool operator==(const OffsetParams&) const = default;
};

}  // namespace murmur
