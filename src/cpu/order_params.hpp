// The order parameters computed plainly on the CPU (the yardstick for the GPU's reductions):
// a uniform grid finds each boid's nearest neighbour, and a breadth-first walk over it the groups.
#pragma once

#include "model/boid.hpp"
#include "model/order_params.hpp"

#include <cstdint>
#include <vector>

namespace murmur {

// neighbours_by_id: each boid's neighbour count from the last step (may be empty: mean 0).
OrderParams measureFlock(const Flock& flock, const Params& params, const std::vector<std::uint32_t>& neighbours_by_id);

// Only the group measures (groups, shares, polarization within groups, milling) into `into`.
void measureGroups(const Flock& flock, const Params& params, OrderParams& into);

}  // namespace murmur
