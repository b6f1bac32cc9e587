// Comparing GPU states to the bit: how many boids' positions or velocities differ in any bit
// between two flocks in id order (byId in model/boid.hpp).
#pragma once

#include "model/boid.hpp"

#include <cstddef>
#include <cstring>

namespace murmur {

inline std::size_t differingBits(const Flock& a, const Flock& b) {
    if (a.size() != b.size()) return a.size() > b.size() ? a.size() : b.size();
    std::size_t differ = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        differ += std::memcmp(&a[i].p, &b[i].p, sizeof a[i].p) != 0 || std::memcmp(&a[i].v, &b[i].v, sizeof a[i].v) != 0;
    return differ;
}

}  // namespace murmur
