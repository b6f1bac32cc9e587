// Deterministic spawn: the flock for (params.seed, params.boids, params) is the same bytes on every
// machine and backend. Uses only +, -, *, / and sqrt, which IEEE 754 rounds exactly everywhere.
#pragma once

#include "model/boid.hpp"
#include "model/params.hpp"

namespace murmur {

Flock spawn(const Params& params);

}  // namespace murmur
