// The cucker_smale style's parameters, the struct Params holds as its member `cucker_smale`; its keys and registry
// row: params.cpp, its CPU rules cpu.{hpp,cpp}, its GPU twin cucker_smale.glsl, all in this folder. The
// line below registers the style (CMake reads it into MURMUR_STYLES: enumerator, its number in
// files and presets, which never changes, and the member).
// murmur-style: X(CuckerSmale, 7, cucker_smale)
#pragma once

namespace murmur {

// Cucker-Smale style (Cucker & Smale 2007): dv_i/dt = (coupling / N) sum_j psi(|x_j - x_i|)
// (v_j - v_i), psi(r) = (1 + r^2)^-beta, over the boids of its species within radius (0: all).
struct CuckerSmaleParams {
    float coupling = 5.0f;  // 1/s: lambda, the coupling strength
    float beta = 0.25f;     // psi's decay exponent (<= 1/2: unconditional flocking, Ha & Liu 2009)
    float radius = 0.0f;    // units: the cut-off (0: every pair, by minimum image in wrap)
    bool operator==(const CuckerSmaleParams&) const = default;
};

}  // namespace murmur
