// The hand-computed graded-style cases (tests/cpu/graded_cases.hpp) through the GPU pipeline:
// the GPU held to the same arithmetic as the CPU reference, independently of parity.
#include "cpu/graded_cases.hpp"
#include "gpu/gpu_simulation.hpp"

#include "gl_env.hpp"

#include <gtest/gtest.h>

using namespace murmur;
using namespace murmur::test;

TEST(GpuHandCases, GradedStyleByHand) {
    MURMUR_REQUIRE_GL();
    gpu::GpuSimulation gpu;
    for (const HandCase& c : gradedCases()) {
        SCOPED_TRACE(c.name);
        gpu.upload(c.start, c.params);
        gpu.step(1);
        Flock by_id(c.start.size());
        for (const Boid& b : gpu.download()) by_id.at(b.id) = b;
        for (const Expected& e : c.expected) {
            expectVec(by_id[e.id].v, e.v, "velocity");
            expectVec(by_id[e.id].p, e.p, "position");
        }
    }
    EXPECT_NO_GL_ERRORS();
}
