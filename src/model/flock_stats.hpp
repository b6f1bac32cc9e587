// Summary figures of a flock: polarization (|mean of unit velocities|, 1 = all aligned) and
// mean neighbour count.
#pragma once

#include "model/boid.hpp"

#include <cstdint>
#include <vector>

namespace murmur {

double polarization(const Flock& flock);  // boids at rest are left out; 0 for an empty flock
double meanOf(const std::vector<std::uint32_t>& values);

}  // namespace murmur
