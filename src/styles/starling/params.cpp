// The starling style's model module: its registry row (keys, ranges and help, the shared keys it
// ignores, its values for the GPU, its check). Its parameters: params.hpp; its rules:
// src/styles/starling/cpu.cpp and src/styles/starling/starling.glsl.
#include "styles/starling/params.hpp"

#include "model/style_row.hpp"

#include <cmath>

namespace murmur {

float starlingCosHalfBlind(const Params& p) { return std::cos(p.starling.blind_angle * 0.5f * 0.017453292f); }

namespace {

// Separation fades from the core to separation.radius: the core must lie within it.
void starlingCheck(const Params& p, std::vector<ParamProblem>& problems) {
    const float r_sep = p.rulesOf(0).separation.radius;
    if (!(p.starling.core < r_sep))
        problems.push_back({"starling.core", numberText(p.starling.core) + " m is not below separation.radius (" + numberText(r_sep) +
                                                 "); valid range [0, separation.radius)"});
}

}  // namespace

template <>
StyleInfo styleRowOf<Style::Starling>() {
    return {.style = Style::Starling, .name = "starling",
            .summary = "StarDisplay's starlings (Hildenbrandt et al. 2010), in metres and seconds: separation from a hard core, "
                       "cohesion by centrality squared, alignment, a rear blind angle, a roost, cruise speed, banked flight",
            .glsl = "styles/starling/starling.glsl", .prefix = "starling.",
            .traits = {.keeps_steer = true, .leaves_reach = true, .reformulable = false, .wings_flap = true, .banks = true,
                       .kept_state = {"bank", "centrality", "sideways_force", nullptr}},
            .keys = {
                {"starling.mass", ParamKind::Float, "kg", 0.001, 100, {}, "starling: a bird's mass", MURMUR_FLOAT(starling.mass)},
                {"starling.cruise_speed", ParamKind::Float, "m/s", 0.1, 1000, {},
                 "starling: v0, where lift equals weight and thrust equals drag; speed control pulls toward it",
                 MURMUR_FLOAT(starling.cruise_speed)},
                {"starling.speed_time", ParamKind::Float, "s", 0.01, 1000, {},
                 "starling: tau, the speed control's force is mass x (v0 - speed) / tau along the heading", MURMUR_FLOAT(starling.speed_time)},
                {"starling.lift_drag", ParamKind::Float, "", 0.1, 100, {}, "starling: lift-to-drag ratio C_L/C_D (drag = lift / this)",
                 MURMUR_FLOAT(starling.lift_drag)},
                {"starling.roll_rate", ParamKind::Float, "1/s", 0, 1000, {},
                 "starling: the bank moves toward the bank whose lift gives the sideways force wanted at this rate",
                 MURMUR_FLOAT(starling.roll_rate)},
                {"starling.core", ParamKind::Float, "m", 0, 1000, {},
                 "starling: separation at full weight within this distance, fading smoothly to 0 at separation.radius",
                 MURMUR_FLOAT(starling.core)},
                {"starling.blind_angle", ParamKind::Float, "degrees", 0, 360, {},
                 "starling: the rear cone (full width) that cohesion and alignment do not see", MURMUR_FLOAT(starling.blind_angle)},
                {"starling.max_social", ParamKind::Float, "N", 0, 1000, {}, "starling: the summed social force is clipped to this",
                 MURMUR_FLOAT(starling.max_social)},
                {"starling.roost_radius", ParamKind::Float, "m", 0, 1e6, {},
                 "starling: beyond this horizontal distance from the world box's centre a bird turns back sideways",
                 MURMUR_FLOAT(starling.roost_radius)},
                {"starling.roost_weight", ParamKind::Float, "N/m", 0, 100, {},
                 "starling: the sideways turn back per metre beyond roost_radius (more when heading outward)",
                 MURMUR_FLOAT(starling.roost_weight)},
                {"starling.altitude_weight", ParamKind::Float, "N/m", 0, 100, {},
                 "starling: the vertical spring toward the height of the world box's centre (3D)", MURMUR_FLOAT(starling.altitude_weight)},
            },
            .ignored_keys = {"max_force", "scatter", "predator", "chase", "flee.radius", "flee.weight"},  // no predators yet
            .slots = {{"SL_MASS", MURMUR_SLOT(starling.mass)}, {"SL_CRUISE", MURMUR_SLOT(starling.cruise_speed)},
                      {"SL_SPEED_TIME", MURMUR_SLOT(starling.speed_time)}, {"SL_LIFT_DRAG", MURMUR_SLOT(starling.lift_drag)},
                      {"SL_ROLL_RATE", MURMUR_SLOT(starling.roll_rate)}, {"SL_CORE", MURMUR_SLOT(starling.core)},
                      {"SL_COS_HALF_BLIND", starlingCosHalfBlind}, {"SL_MAX_SOCIAL", MURMUR_SLOT(starling.max_social)},
                      {"SL_ROOST_RADIUS", MURMUR_SLOT(starling.roost_radius)}, {"SL_ROOST_WEIGHT", MURMUR_SLOT(starling.roost_weight)},
                      {"SL_ALTITUDE_WEIGHT", MURMUR_SLOT(starling.altitude_weight)}},
            .check = starlingCheck};
}

}  // namespace murmur
