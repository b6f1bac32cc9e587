// Hand-computed cases of the graded style (the default): separation growing as distance shrinks,
// cohesion a spring, alignment steered, wander. Arithmetic in the comments; float tolerance
// kVecTol = 1e-5 (units or units/s, test_util.hpp). tests/gl/test_hand_cases.cpp runs the same
// states through the GPU pipeline against the same expectations.
#include "cpu/cpu_simulation.hpp"
#include "graded_cases.hpp"
#include "model/rng.hpp"
#include "test_util.hpp"

#include <gtest/gtest.h>

using namespace murmur;
using namespace murmur::test;

TEST(GradedRules, EveryCaseByHandOnTheCpu) {
    for (const HandCase& c : gradedCases()) {
        SCOPED_TRACE(c.name);
        const Flock out = stepOnce(c.start, c.params);
        for (const Expected& e : c.expected) {
            expectVec(out[e.id].v, e.v, "velocity");
            expectVec(out[e.id].p, e.p, "position");
        }
    }
}

TEST(GradedRules, IsTheDefaultStyle) { EXPECT_EQ(Params{}.style, Style::Graded); }

TEST(GradedRules, WanderIsTheHashOfSeedIdAndStep) {
    // The jitter is exact: 2 * (h >> 8) / 2^24 - 1 for h = eventHash(seed_lo ^ salt, id, step).
    const std::uint32_t h = eventHash(7u ^ kWanderSalt[1], 3u, 5u);
    EXPECT_EQ(wanderJitter(7u, 3u, 5u, 1), 2.0f * (float(h >> 8) / 16777216.0f) - 1.0f);
    EXPECT_NE(wanderJitter(7u, 3u, 5u, 0), wanderJitter(7u, 3u, 6u, 0)) << "a new push every step";
    EXPECT_NE(wanderJitter(7u, 3u, 5u, 0), wanderJitter(7u, 4u, 5u, 0)) << "each boid its own";
    EXPECT_NE(wanderJitter(7u, 3u, 5u, 0), wanderJitter(7u, 3u, 5u, 1)) << "each axis its own";
}
