// The dorsogna style's parameters, the struct Params holds as its member `dorsogna`; its keys and registry
// row: params.cpp, its CPU rules cpu.{hpp,cpp}, its GPU twin dorsogna.glsl, all in this folder. The
// line below registers the style (CMake reads it into MURMUR_STYLES: enumerator, its number in
// files and presets, which never changes, and the member).
// murmur-style: X(DOrsogna, 8, dorsogna)
#pragma once

namespace murmur {

// D'Orsogna style (D'Orsogna, Chuang, Bertozzi & Chayes 2006): self-propelled particles of unit
// mass with a Morse pair potential, dv_i/dt = (alpha - beta |v_i|^2) v_i - grad_i U,
// U = sum_j C_r e^(-r_ij / l_r) - C_a e^(-r_ij / l_a), over every boid within the cut-off.
struct DOrsognaParams {
    float propulsion = 1.0f;        // 1/s: alpha, the self-propulsion
    float friction = 0.5f;          // s/units^2: beta, the Rayleigh friction (an isolated boid's speed tends to sqrt(alpha/beta))
    float attraction = 0.5f;        // units^2/s^2: C_a, the attraction's strength
    float attraction_range = 2.0f;  // units: l_a, its range
    float repulsion = 1.0f;         // units^2/s^2: C_r, the repulsion's strength
    float repulsion_range = 0.5f;   // units: l_r, its range
    float cutoff = 8.0f;            // units: pairs farther apart do not interact
    float noise = 0.0f;             // units^2/s^3: D, white noise on the velocity (each step + sqrt(2 D dt) g, g standard normal per axis)
    // The force's two slopes at r = 0 (C/l) and the inverse ranges, computed once here for both
    // backends (a shader's division of two values it reads may round differently).
    float attractionSlope() const { return attraction / attraction_range; }
    float repulsionSlope() const { return repulsion / repulsion_range; }
    float inverseAttractionRange() const { return 1.0f / attraction_range; }
    float inverseRepulsionRange() const { return 1.0f / repulsion_range; }
    // The noise's standard deviation a step on each axis, sqrt(2 D dt), in double rounded once
    // (params.cpp: a mutant of it rebuilds one file).
    float noiseStep(float dt) const;
    bool operator==(const DOrsognaParams&) const = default;
};

}  // namespace murmur
