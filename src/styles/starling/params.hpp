// The starling style's parameters, the struct Params holds as its member `starling`; its keys and
// registry row: params.cpp, its CPU rules cpu.{hpp,cpp}, its GPU twin starling.glsl, all in this
// folder. The line below registers the style (CMake reads it into MURMUR_STYLES: enumerator, its
// number in files and presets, which never changes, and the member).
// murmur-style: X(Starling, 9, starling)
#pragma once

namespace murmur {

// Starling style (docs/model.md): StarDisplay's rules (Hildenbrandt, Carere & Hemelrijk 2010;
// values after Hemelrijk & Hildenbrandt 2011, Table 1), in metres, seconds, kilograms and newtons.
// The social forces are the shared keys' weights (separation, alignment, cohesion: newtons); the
// neighbours are the adaptive topological radius' (topological.*). What is the style's own:
struct StarlingParams {
    float mass = 0.08f;            // kg
    float cruise_speed = 10.0f;    // m/s: v0, where lift equals weight and thrust equals drag
    float speed_time = 1.0f;       // s: tau, speed control m (v0 - |v|) / tau along the heading
    float lift_drag = 3.3f;        // C_L / C_D: drag is lift over this
    float roll_rate = 10.0f;       // 1/s: the bank moves toward the wanted bank at this rate
    float core = 0.2f;             // m: separation at full weight within this; fading to separation.radius
    float blind_angle = 90.0f;     // degrees: the rear cone (its full width) unseen by cohesion and alignment
    float max_social = 1.0f;       // N: the summed social force clipped to this
    float roost_radius = 150.0f;   // m: beyond this (horizontally from the world box's centre) a bird turns back
    float roost_weight = 0.01f;    // N/m: the sideways turn back per metre beyond roost_radius
    float altitude_weight = 0.01f; // N/m: the spring toward the height of the world box's centre
    bool operator==(const StarlingParams&) const = default;
};

// cos(blind_angle / 2): a neighbour behind the bird (dot of heading and unit offset below minus
// this) is blind to cohesion and alignment. One float for both backends.
struct Params;
float starlingCosHalfBlind(const Params& p);

}  // namespace murmur
