// The vicsek style's parameters, the struct Params holds as its member `vicsek`; its keys and registry
// row: params.cpp, its CPU rules cpu.{hpp,cpp}, its GPU twin vicsek.glsl, all in this folder. The
// line below registers the style (CMake reads it into MURMUR_STYLES: enumerator, its number in
// files and presets, which never changes, and the member).
// murmur-style: X(Vicsek, 5, vicsek)
#pragma once

namespace murmur {

// Vicsek style: each step a boid takes the mean heading within the alignment radius (itself
// included), turned by a random angle uniform in [-noise/2, noise/2] (3D: a direction uniform in
// the cone of half-angle noise/2), at the constant speed max_speed. Vectorial ("extrinsic")
// noise instead (Gregoire & Chate 2004): the heading of the sum of the unit headings (n of them,
// itself included) plus noise x n x a random unit vector.
struct VicsekParams {
    float noise = 0.5f;       // eta: radians (angular), or the noise's share of each heading (vectorial)
    bool vectorial = false;   // the noise's kind: angular (Vicsek 1995) or vectorial
    bool operator==(const VicsekParams&) const = default;
};

}  // namespace murmur
