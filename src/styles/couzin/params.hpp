// The couzin style's parameters, the struct Params holds as its member `couzin`; its keys and registry
// row: params.cpp, its CPU rules cpu.{hpp,cpp}, its GPU twin couzin.glsl, all in this folder. The
// line below registers the style (CMake reads it into MURMUR_STYLES: enumerator, its number in
// files and presets, which never changes, and the member).
// murmur-style: X(Couzin, 6, couzin)
#pragma once

namespace murmur {

// Couzin style (Couzin et al. 2002): zones of repulsion (separation.radius), orientation (out to
// alignment.radius) and attraction (out to cohesion.radius), a blind angle (fov_deg), a desired
// direction turned by Gaussian noise, then approached at most turn_rate per second, at the
// constant speed max_speed.
struct CouzinParams {
    float turn_rate = 40.0f;          // degrees/s: theta, the most a boid turns per second
    float noise = 0.05f;              // radians: sigma, the s.d. of the desired direction's angular noise
    float orientation_width = 2.0f;   // units: delta r_o, the zone of orientation beyond repulsion's
    float attraction_width = 14.0f;   // units: delta r_a, the zone of attraction beyond orientation's
    bool operator==(const CouzinParams&) const = default;
};

}  // namespace murmur
