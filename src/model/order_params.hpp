// Order parameters: how a flock flies, as numbers (docs/model.md, "Order parameters"). Both
// backends report the same set: the CPU reference computes them plainly (cpu/order_params.hpp),
// the GPU pipeline by reductions on the device (shaders/flock_measure.comp, GpuSimulation::measure).
#pragma once

#include "model/params.hpp"

#include <glm/vec3.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace murmur {

// Bins of the nearest-neighbour histogram over [0, nn_radius); one more bin holds the boids with
// no other boid within nn_radius.
inline constexpr std::uint32_t kNnBins = 32;
// A group is a connected component of at least this many boids (smaller ones are stragglers).
inline constexpr std::uint32_t kMinGroupSize = 5;

// The largest groups reported one by one (by size, then by lowest id).
inline constexpr std::uint32_t kLargestGroups = 4;

// The radii the measures use, from the flock's parameters.
struct MeasureRadii {
    float nn = 0.0f;     // nearest-neighbour search: the largest rule radius of species 0
    float group = 0.0f;  // boids closer than this are linked into one group: the alignment radius
};
MeasureRadii measureRadiiOf(const Params& p);

// One group's own figures.
struct GroupFigures {
    std::uint32_t boids = 0;      // 0: fewer groups than kLargestGroups
    std::uint32_t first_id = 0;   // its lowest id
    double polarization = 0.0;    // |mean unit velocity| of its boids
    double milling = 0.0;         // |mean r̂ × v̂| about its centre
    glm::dvec3 centre{0.0};       // the mean of its positions (unwrapped from its first boid),
                                  // folded into the world in wrap mode (z 0 in 2D)
};

struct OrderParams {
    std::uint32_t boids = 0;
    double polarization = 0.0;        // |mean of unit velocities| over moving boids, in [0, 1]
    double mean_speed = 0.0;          // units/s
    double mean_neighbours = 0.0;     // as counted in the last step (0 before the first)
    double nn_mean = 0.0;             // mean nearest-neighbour distance, a boid with none within nn counts as nn
    double nn_median = 0.0;           // from the histogram, interpolated within its bin
    std::array<std::uint32_t, kNnBins + 1> nn_histogram{};  // last bin: none within the radius
    float nn_radius = 0.0f;
    // Groups: connected components at the group radius (wrap-aware) of >= kMinGroupSize boids.
    std::uint32_t groups = 0;
    double largest_group_share = 0.0;  // the largest group's boids / all boids
    double grouped_share = 0.0;        // boids in some group / all boids
    double group_polarization = 0.0;   // per group |mean unit velocity|, weighted by group size
    double milling = 0.0;              // per group |mean of r̂ × v̂| about its centre, weighted by size
    std::array<GroupFigures, kLargestGroups> largest_groups{};  // the largest first
};

// Every flock-wide figure by name (the library's order-parameter keys, the sweep's columns),
// written once. The sweep's eight come first, in its CSV's column order (kSweptFigures).
struct OrderFigure {
    const char* name;
    double (*get)(const OrderParams&);
};
inline constexpr OrderFigure kOrderFigures[] = {
    {"polarization", [](const OrderParams& o) { return o.polarization; }},
    {"group_polarization", [](const OrderParams& o) { return o.group_polarization; }},
    {"milling", [](const OrderParams& o) { return o.milling; }},
    {"groups", [](const OrderParams& o) { return double(o.groups); }},
    {"largest_group_share", [](const OrderParams& o) { return o.largest_group_share; }},
    {"nn_mean", [](const OrderParams& o) { return o.nn_mean; }},
    {"mean_neighbours", [](const OrderParams& o) { return o.mean_neighbours; }},
    {"mean_speed", [](const OrderParams& o) { return o.mean_speed; }},
    {"boids", [](const OrderParams& o) { return double(o.boids); }},
    {"grouped_share", [](const OrderParams& o) { return o.grouped_share; }},
    {"nn_median", [](const OrderParams& o) { return o.nn_median; }},
};
inline constexpr std::size_t kSweptFigures = 8;

// A group's centre folded into [0, L) on each used axis in wrap mode (unchanged in soft mode).
glm::dvec3 foldCentre(glm::dvec3 centre, const Params& params);

// Orders groups as largest_groups lists them: more boids first, then the lower first id.
bool listedBefore(const GroupFigures& a, const GroupFigures& b);

// The median of a nearest-neighbour histogram over [0, radius) (last bin: at the radius).
double histogramMedian(const std::array<std::uint32_t, kNnBins + 1>& histogram, float radius);

// A listed group's figures by name, in this order: columns groupK_<field> (K = 1 the largest)
// of the CSV and keys of the library's order parameters.
inline constexpr const char* kGroupFigureFields[] = {"boids", "first_id", "polarization", "milling", "x", "y", "z"};
double groupFigure(const GroupFigures& g, std::size_t field);

// CSV: the column names after "step,time", and one row's values in the same order.
// When the step is too coarse for the flock's spacing: at least two boids, and a boid moves
// farther in a step (mean speed x dt) than the mean nearest-neighbour distance. The warning with
// its numbers and the largest dt that would resolve it, or none. (A D'Orsogna flock collapsed to
// nearest distances of 0.001 at speed 1.36 and dt 0.05 reads as a mill it is not.)
std::optional<std::string> stepResolutionWarning(std::uint32_t boids, double mean_speed, double nn_mean, double dt);

std::string orderParamsHeader();
std::string orderParamsRow(const OrderParams& o);

}  // namespace murmur
