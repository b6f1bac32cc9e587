// D'Orsogna style (docs/model.md, "D'Orsogna style"): a two-boid step by hand, the cut-off, the
// self-propulsion's fixed point |v| = sqrt(alpha/beta) of an isolated boid, and the pair forces'
// symmetry (without propulsion the mean velocity is conserved). Built into both test binaries:
// these run on the CPU reference and, as OnGpu.*, through the GPU pipeline.
#include "model/rng.hpp"
#include "model/spawn.hpp"
#include "test_util.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace murmur;
using namespace murmur::test;

namespace {

// 2D wrap world of 100, the paper's alpha 1, beta 0.5, C_a 0.5, l_a 2, C_r 1, l_r 0.5, cut-off 8.
Params dorsognaParams(int dims, std::uint32_t boids) {
    Params p = quietParams();
    p.style = Style::DOrsogna;
    p.dims = dims;
    p.boids = boids;
    p.dt = 0.1f;
    p.dorsogna = DOrsognaParams{};
    return p;
}

// The hand cases' pair, one step: boid 0 at (50, 50) with v (1, 0), boid 1 one unit along x at
// (51, 50) with v (0, 1).
Flock stepPair(const Params& p) { return stepOnce({boid(0, {50, 50, 0}, {1, 0, 0}), boid(1, {51, 50, 0}, {0, 1, 0})}, p); }

}  // namespace

TEST(DOrsogna, TwoBoidsByHand) {
    // One unit apart on x: the pair force is (C_a/l_a) e^(-1/l_a) - (C_r/l_r) e^(-1/l_r)
    // = 0.25 e^-0.5 - 2 e^-2 = 0.15163266 - 0.27067057 = -0.11903791 (repulsion, along the offset).
    // Boid 0 at (50, 50), v (1, 0): propulsion (1 - 0.5 x 1) v = (0.5, 0); force -0.11903791 (1, 0);
    // a0 = (0.38096209, 0), v0' = v0 + 0.1 a0 = (1.03809621, 0), p0' = p0 + 0.1 v0' = (50.10380962, 50).
    // Boid 1 at (51, 50), v (0, 1): propulsion (0, 0.5); force -0.11903791 (-1, 0) = (0.11903791, 0);
    // v1' = (0.01190379, 1.05), p1' = (51.00119038, 50.105).
    const Params p = dorsognaParams(2, 2);
    const Flock out = stepPair(p);
    expectVec(out[0].v, {1.03809621f, 0, 0}, "v0");
    expectVec(out[1].v, {0.01190379f, 1.05f, 0}, "v1");
    expectVec(out[0].p, {50.10380962f, 50, 0}, "p0");
    expectVec(out[1].p, {51.00119038f, 50.105f, 0}, "p1");
}

TEST(DOrsogna, AStrongerRepulsionByHand) {
    // The first case with C_r 2, so that C_r / l_r (4) differs from 1 / l_r (2), two slots the
    // defaults make equal: the force is 0.25 e^-0.5 - 4 e^-2 = 0.15163266 - 0.54134113 = -0.38970847.
    // v0' = (1 + 0.1 (0.5 - 0.38970847), 0) = (1.01102915, 0); v1' = (0.03897085, 1.05).
    Params p = dorsognaParams(2, 2);
    p.dorsogna.repulsion = 2.0f;
    const Flock out = stepPair(p);
    expectVec(out[0].v, {1.01102915f, 0, 0}, "v0");
    expectVec(out[1].v, {0.03897085f, 1.05f, 0}, "v1");
}

TEST(DOrsogna, TheCutOffLeavesFartherBoidsOut) {
    // The same pair with a cut-off of 0.9: no force, the propulsion alone. v0' = (1.05, 0), v1' = (0, 1.05).
    Params p = dorsognaParams(2, 2);
    p.dorsogna.cutoff = 0.9f;
    const Flock out = stepPair(p);
    expectVec(out[0].v, {1.05f, 0, 0}, "v0");
    expectVec(out[1].v, {0, 1.05f, 0}, "v1");
    // The cut-off is the style's own reach: the species' rule radii (keys it ignores), however
    // large, bring no one in; nor does a cut-off past them leave anyone out.
    p.species[0].separation.radius = p.species[0].alignment.radius = p.species[0].cohesion.radius = 40.0f;
    expectVec(stepPair(p)[0].v, {1.05f, 0, 0}, "v0 beside wide species radii");
    EXPECT_EQ(p.largestRadius(), 0.9f) << "the search reaches as far as the cut-off, not the species' radii";
    p.species[0].separation.radius = p.species[0].alignment.radius = p.species[0].cohesion.radius = 0.5f;
    p.dorsogna.cutoff = 8.0f;
    expectVec(stepPair(p)[0].v, {1.03809621f, 0, 0}, "v0 beside narrow species radii");
}

TEST(DOrsogna, AnIsolatedBoidTendsToSpeedSqrtAlphaOverBeta) {
    // d|v|/dt = (alpha - beta |v|^2) |v|: from slower and from faster the speed settles at
    // sqrt(alpha/beta), whatever its heading, in 2D and 3D (alpha 1, beta 0.5: sqrt 2; alpha 2,
    // beta 0.125: 4, where beta differs from 1 / l_a, the slot beside it). Near the fixed speed the
    // time constant is 1 / (2 alpha): 400 steps of 0.05 s (20 s, 40 or more of them) bring it within
    // 1e-4; the heading never turns.
    for (int dims : {2, 3})
        for (const auto& [alpha, beta] : {std::pair{1.0f, 0.5f}, std::pair{2.0f, 0.125f}})
            for (const glm::vec3 v0 : {glm::vec3(0.2f, 0.1f, 0.0f), glm::vec3(-3.0f, 4.0f, dims == 3 ? 2.0f : 0.0f)}) {
                Params p = dorsognaParams(dims, 1);
                p.dt = 0.05f;
                p.dorsogna.propulsion = alpha;
                p.dorsogna.friction = beta;
                const Flock out = stepMany({boid(0, {50, 50, dims == 3 ? 50.0f : 0.0f}, v0)}, p, 400);
                const float want = std::sqrt(alpha / beta);
                EXPECT_NEAR(glm::length(out[0].v), want, 1e-4f) << dims << "D, alpha " << alpha << ", beta " << beta;
                EXPECT_NEAR(glm::dot(glm::normalize(out[0].v), glm::normalize(v0)), 1.0f, 1e-5f) << "the heading stays";
            }
}

TEST(DOrsogna, WithoutPropulsionTheMeanVelocityIsConserved) {
    // The pair forces are equal and opposite, so with alpha = beta = 0 nothing else acts (wrap
    // bounds, no wander) and the mean velocity holds: 200 boids, 500 steps of 0.05 s, within 1e-4
    // units/s, where a force taken from one side only moves it by far more.
    for (int dims : {2, 3}) {
        Params p = dorsognaParams(dims, 200);
        p.world_size = 40.0f;
        p.dt = 0.05f;
        p.dorsogna.propulsion = p.dorsogna.friction = 0.0f;
        const Flock start = spawn(p);
        const Flock end = stepMany(start, p, 500, NeighbourSearch::Grid);
        const float moved = glm::length(meanVelocity(end) - meanVelocity(start));
        EXPECT_LT(moved, 1e-4f) << dims << "D: the mean velocity moved by " << moved;
    }
}

// The noise by hand: a boid alone without propulsion or friction (alpha = beta = 0), D 2, dt 0.1:
// v' = v + sqrt(2 x 2 x 0.1) g, g the step's standard normals by Box-Muller over its four uniforms
// (dorsognaUniform of the seed, the id and the step): x and y from the first pair, z from the
// second. Tolerance 1e-5 units/s (float against double). Without D the boid keeps its velocity.
TEST(DOrsogna, TheNoiseIsAGaussianKickOfSqrt2DdtByHand) {
    for (int dims : {2, 3}) {
        SCOPED_TRACE(std::to_string(dims) + "D");
        Params p = dorsognaParams(dims, 1);
        p.dorsogna.propulsion = 0.0f;
        p.dorsogna.friction = 0.0f;
        p.dorsogna.noise = 2.0f;
        p.seed = 11;
        double u[4];
        for (int k = 0; k < 4; ++k) u[k] = dorsognaUniform(seedLow(11), 0, 0, k);
        const double r01 = std::sqrt(-2.0 * std::log(1.0 - u[0])), r23 = std::sqrt(-2.0 * std::log(1.0 - u[2]));
        const glm::dvec3 g(r01 * std::cos(6.283185307 * u[1]), r01 * std::sin(6.283185307 * u[1]),
                           dims == 3 ? r23 * std::cos(6.283185307 * u[3]) : 0.0);
        const glm::vec3 want = glm::vec3(glm::dvec3(1, 2, 0) + std::sqrt(0.4) * g);
        expectVec(stepOnce({boid(0, {50, 50, 0}, {1, 2, 0})}, p)[0].v, want, "kicked");
        EXPECT_GT(glm::length(want - glm::vec3(1, 2, 0)), 0.05f) << "a kick that shows";
        p.dorsogna.noise = 0.0f;
        expectVec(stepOnce({boid(0, {50, 50, 0}, {1, 2, 0})}, p)[0].v, {1, 2, 0}, "no noise");
    }
}
