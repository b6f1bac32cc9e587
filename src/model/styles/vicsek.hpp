// The vicsek style's parameters: the struct Params holds as its member of this style (the one
// line registering the style, MURMUR_STYLES in model/params.hpp, names it). Its keys and registry
// row: vicsek.cpp.
#pragma once

namespace murmur {

// Vicsek style: each step a boid takes the mean heading within the alignment radius (itself
// included), turned by a random angle uniform in [-noise/2, noise/2] (3D: a direction uniform in
// the cone of half-angle noise/2), at the constant speed max_speed.
struct VicsekParams {
    float noise = 0.5f;  // radians: eta, the width of the angular noise
    bool operator==(const VicsekParams&) const = default;
};

}  // namespace murmur
