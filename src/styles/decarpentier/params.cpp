// The Decarpentier style's model module: its registry row (keys, ranges and help, the shared keys
// it ignores, its values for the GPU, its hooks). Its parameters: decarpentier.hpp; its rules:
// src/styles/decarpentier/cpu.cpp and src/styles/decarpentier/decarpentier.glsl.
#include "styles/decarpentier/params.hpp"

#include "model/style_row.hpp"

#include <algorithm>
#include <cmath>

namespace murmur {
namespace {

// Decarpentier's birds heed three neighbours, the farthest beyond far_factor x the closest (about
// the preferred distance): a flock is who is linked within that reach.
float decarpentierGroup(const Params& p, float nn, float group) {
    return p.species[0].dc.preferred_distance > 0.0f ? std::min(nn, p.dc.far_factor * p.species[0].dc.preferred_distance) : group;
}

}  // namespace

template <>
StyleInfo styleRowOf<Style::Decarpentier>() {
    return {.style = Style::Decarpentier, .name = "decarpentier", .summary = "three neighbours, per-axis clamps",
                 .glsl = "styles/decarpentier/decarpentier.glsl", .prefix = "dc.",
                 .traits = {.keeps_steer = true, .own_search = true, .amortised_steering = true, .wings_flap = true,
                            .kept_state = {"acceleration_x", "acceleration_y", "acceleration_z", "neighbours"}},
                 .keys = {
            {"dc.far_factor", ParamKind::Float, "", 2, 10, {}, "decarpentier: the third neighbour is the nearest beyond this many times the closest distance",
             MURMUR_FLOAT(dc.far_factor)},
            {"dc.preferred_distance", ParamKind::Float, "units", 0, 10000, {}, "decarpentier, species 0 (speciesN.dc.* the others): distance kept from each of the three neighbours",
             MURMUR_FLOAT(species[0].dc.preferred_distance)},
            {"dc.horizontal", ParamKind::Float, "1/s", 0, 100, {}, "decarpentier: preference for level flight (damps vertical velocity)",
             MURMUR_FLOAT(dc.horizontal)},
            {"dc.height", ParamKind::Float, "units", -100000, 100000, {}, "decarpentier: preferred height (y)", MURMUR_FLOAT(dc.height)},
            {"dc.height_weight", ParamKind::Float, "1/s^2", 0, 100, {}, "decarpentier: pull toward the preferred height (0: off)",
             MURMUR_FLOAT(dc.height_weight)},
            {"dc.accel_forward", ParamKind::Float, "units/s^2", 0, 100000, {}, "decarpentier, species 0 (speciesN.dc.* the others): largest speed-up along the heading",
             MURMUR_FLOAT(species[0].dc.accel_forward)},
            {"dc.brake", ParamKind::Float, "units/s^2", 0, 100000, {}, "decarpentier, species 0 (speciesN.dc.* the others): largest slow-down along the heading", MURMUR_FLOAT(species[0].dc.brake)},
            {"dc.accel_side", ParamKind::Float, "units/s^2", 0, 100000, {}, "decarpentier, species 0 (speciesN.dc.* the others): largest sideways (turning) acceleration",
             MURMUR_FLOAT(species[0].dc.accel_side)},
            {"dc.accel_up", ParamKind::Float, "units/s^2", 0, 100000, {}, "decarpentier, species 0 (speciesN.dc.* the others): largest acceleration along the boid's up axis (3D)",
             MURMUR_FLOAT(species[0].dc.accel_up)},
            {"dc.smoothing", ParamKind::Float, "", 0, 0.99, {}, "decarpentier, species 0 (speciesN.dc.* the others): share of the previous speed kept each step (direction unchanged)",
             MURMUR_FLOAT(species[0].dc.smoothing)},
            {"dc.dive", ParamKind::Float, "1/s", 0, 10, {},
             "decarpentier: gravity: each step the new speed is scaled by 1 - dive x heading.y x dt (faster diving, slower climbing)",
             MURMUR_FLOAT(dc.dive)},
            {"dc.vertical_avoid", ParamKind::Float, "", 0, 10, {}, "decarpentier: weight of the vertical (y) part of the avoid term",
             MURMUR_FLOAT(dc.vertical_avoid)},
            {"dc.vertical_distance", ParamKind::Float, "", 0, 10, {},
             "decarpentier: weight of the vertical (y) part of the preferred-distance term", MURMUR_FLOAT(dc.vertical_distance)},
            {"dc.vertical_match", ParamKind::Float, "", 0, 10, {}, "decarpentier: weight of the vertical (y) part of the velocity match",
             MURMUR_FLOAT(dc.vertical_match)},
            {"dc.steer_hz", ParamKind::Float, "1/s", 0, 1000, {},
             "decarpentier: each boid recomputes its steering this often, on its own phase; motion integrates every step (0: steer every step)",
             MURMUR_FLOAT(dc.steer_hz)},
                 },
                 .ignored_keys = {"max_force", "neighbour_cap", "scatter"},
                 .slots = {{"DC_FAR_FACTOR", MURMUR_SLOT(dc.far_factor)}, {"DC_HORIZONTAL", MURMUR_SLOT(dc.horizontal)},
                           {"DC_HEIGHT", MURMUR_SLOT(dc.height)}, {"DC_HEIGHT_WEIGHT", MURMUR_SLOT(dc.height_weight)},
                           {"DC_DIVE", MURMUR_SLOT(dc.dive)}, {"DC_VERTICAL_AVOID", MURMUR_SLOT(dc.vertical_avoid)},
                           {"DC_VERTICAL_DISTANCE", MURMUR_SLOT(dc.vertical_distance)},
                           {"DC_VERTICAL_MATCH", MURMUR_SLOT(dc.vertical_match)}},
                 .group_radius = decarpentierGroup};
}

}  // namespace murmur
