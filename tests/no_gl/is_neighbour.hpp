// A test's neighbour check: the CPU reference's per-pair test plus the counted radius (apart from
// test_util.hpp so that only the tests that use it are rebuilt when the per-pair rules change).
#pragma once

#include "cpu/neighbour_rules.hpp"

namespace murmur::test {

// True if other is within self's largest radius and field of view.
inline bool isNeighbour(const RuleContext& ctx, const Boid& self, const Boid& other) {
    glm::vec3 d;
    float d2;
    return isNeighbourOf(ctx, self, other, d, d2) && d2 < ctx.of(self).r2_counted;
}

}  // namespace murmur::test
