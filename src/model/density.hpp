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
    bool kept = true;     // false: the world was held at its smallest (2 x the largest radius)
    std::string summary;  // "20000 boids in a 632-unit world (density of the preset kept)"
};

// `from` with `boids` boids in `dims` dimensions and the same expected neighbour count: with the
// same dims the world edge scales by (boids / from.boids)^(1/dims); a dims change keeps
// boids x (volume of a ball of the largest rule radius) / world volume. Positions in the world
// (obstacle centres, goals, the led boid's place, the ground, the preferred height) and the
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
