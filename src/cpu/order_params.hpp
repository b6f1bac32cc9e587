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

// Only the group measures (groups, shares, polarization within groups, milling) into `into`;
// with `labels`, each boid's group by id: the group's first (lowest) id, -1 outside a group.
void measureGroups(const Flock& flock, const Params& params, OrderParams& into, std::vector<std::int64_t>* labels = nullptr);

// Each boid's own figures, in id order (ids 0 .. N-1): its nearest neighbour's distance within
// the nn radius (infinity when none is that near; nn_mean counts the radius) and its group's first id
// (groupK_first_id of the order parameters; -1 outside groups of kMinGroupSize or more).
struct BoidFigures {
    std::vector<float> nearest;
    std::vector<std::int64_t> group;
};
BoidFigures boidFigures(const Flock& flock, const Params& params);

}  // namespace murmur
