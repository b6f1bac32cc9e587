// The decarpentier style's parameters, the struct Params holds as its member `dc`; its keys and registry
// row: params.cpp, its CPU rules cpu.{hpp,cpp}, its GPU twin decarpentier.glsl, all in this folder. The
// line below registers the style (CMake reads it into MURMUR_STYLES: enumerator, its number in
// files and presets, which never changes, and the member).
// murmur-style: X(Decarpentier, 2, dc)
#pragma once

namespace murmur {

// Decarpentier style (docs/model.md): three neighbours, per-axis clamps, smoothed speed. How each
// species manoeuvres is SpeciesRules::dc (model/params.hpp: per species, beside the shared rules).
struct DecarpentierParams {
    float far_factor = 3.0f;          // the third neighbour: the nearest beyond this x the closest distance
    float horizontal = 0.5f;          // 1/s: damping of vertical velocity (prefer level flight)
    float height = 0.0f;              // units: preferred height (y) ...
    float height_weight = 0.0f;       // 1/s^2: ... and its pull (0: off)
    float dive = 0.5f;                // 1/s: gravity, the new speed scaled by (1 - dive x heading.y x dt)
    // The vertical (y) part of each neighbour term is weighted apart from the horizontal.
    float vertical_avoid = 1.0f;      // avoid
    float vertical_distance = 1.0f;   // preferred distance
    float vertical_match = 1.0f;      // velocity match
    float steer_hz = 10.0f;           // steering recomputed this often per boid (0: every step)
    bool operator==(const DecarpentierParams&) const = default;
};

}  // namespace murmur
