// Density is the invariant: a preset's world_size and boid count define how crowded the flock
// is, and a new boid count (or dims) keeps that crowding by resizing the world (docs/model.md,
// "Density"). Used by the command line, the panel's Apply and the renderer-dependent default.
#pragma once

#include "model/params.hpp"

#include <cstdint>
#include <string>

namespace murmur {

struct Rescaled {
    Params params;
    bool kept = true;     // false: the world was held within [2 x the largest radius, kMaxWorldSize]
    std::string summary;  // "20000 boids in a 632-unit world (density of the preset kept)"
};

// The largest world_size the parameter table allows.
inline constexpr double kMaxWorldSize = 100000.0;

// The density to keep: a count in a world of some dims (a preset's, or the user's last world).
struct DensityRef {
    std::uint32_t boids = 0;
    float world_size = 0.0f;
    int dims = 2;
};
struct WorldSize {
    float edge = 0.0f;
    bool kept = true;
};
// The world edge that gives `boids` in `dims` the expected neighbour count of `ref` within
// rule_radius, held within [2 x largest_radius, kMaxWorldSize].
WorldSize worldForDensity(const DensityRef& ref, float rule_radius, float largest_radius, std::uint32_t boids, int dims);
// `from` in a world of edge `edge`: positions in the world and the margin scaled with it.
Params withWorld(const Params& from, float edge);

// `from` with `boids` boids in `dims` dimensions and the same expected neighbour count: with the
// same dims the world edge scales by (boids / from.boids)^(1/dims); a dims change keeps
// boids x (volume of a ball of the largest rule radius) / world volume. Positions in the world
// (obstacle centres, goals, the led boid's place, the ground, the preferred height, the spawn
// ball, the starlings' roost) and the
// soft-walls margin scale with it; radii, speeds and forces do not.
Rescaled keepDensity(const Params& from, std::uint32_t boids, int dims);

// Candidate pairs a step examines with the flock spread evenly: N x the boids in the cells
// around each boid (N^2 x cells searched / cells). A clumped flock examines more.
double candidatePairsPerStep(const Params& p);
// Above this a step is too slow for any GPU to stay interactive: the panel refuses the edit.
inline constexpr double kMaxCandidatePairs = 1e9;
// Above this a step takes long enough (about a second on a software renderer) that the window
// slices it to stay responsive, and does not measure the flock (a neighbour search of its own).
inline constexpr double kSlowStepPairs = 1e8;
// "about 2.3e+09 candidate pairs per step (at most 1e+09)"
std::string describeCost(double pairs);

}  // namespace murmur
