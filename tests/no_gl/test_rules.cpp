// Hand-computed cases of each rule, both styles, soft bounds, wrap and field of view. Expected
// vectors are worked out in the comments; float tolerance kVecTol = 1e-5 (units or units/s, test_util.hpp).
#include "cpu/cpu_simulation.hpp"
#include "is_neighbour.hpp"
#include "model/spawn.hpp"
#include "test_util.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>

using namespace murmur;
using namespace murmur::test;


TEST(SteeringRules, SeparationPushesApart) {
    Params p = quietParams();
    p.species[0].separation = {5.0f, 1.0f};
    // A at (50,50), B at (53,50), both at rest. For A: d = (3,0), S = -d/|d|^2 = (-1/3, 0),
    // setMag(S, 10) = (-10, 0), steer = (-10,0) - v = (-10,0) (below max_force 100).
    // v' = 0 + (-10,0)*0.1 = (-1,0); p' = (50,50) + (-1,0)*0.1 = (49.9, 50). B mirrors A.
    const Flock out = stepOnce({boid(0, {50, 50, 0}), boid(1, {53, 50, 0})}, p);
    expectVec(out[0].v, {-1, 0, 0}, "A velocity");
    expectVec(out[0].p, {49.9f, 50, 0}, "A position");
    expectVec(out[1].v, {1, 0, 0}, "B velocity");
    expectVec(out[1].p, {53.1f, 50, 0}, "B position");
}

TEST(SteeringRules, MaxForceClampsEachRule) {
    Params p = quietParams();
    p.species[0].separation = {5.0f, 1.0f};
    p.species[0].max_force = 4.0f;
    // As above, but steer (-10,0) is limited to length 4: v' = (-4,0)*0.1 = (-0.4, 0).
    const Flock out = stepOnce({boid(0, {50, 50, 0}), boid(1, {53, 50, 0})}, p);
    expectVec(out[0].v, {-0.4f, 0, 0}, "A velocity");
}

TEST(SteeringRules, AlignmentSteersToMeanVelocity) {
    Params p = quietParams();
    p.species[0].alignment = {5.0f, 0.5f};
    // A (50,50) v=(1,0); B (52,50) v=(0,3); C (50,53) v=(4,3). Mean of B and C: (2,3), length
    // sqrt(13); setMag to 10: (20,30)/sqrt(13) = (5.547002, 8.320503); minus v_A: (4.547002,
    // 8.320503), length 9.48 < 100. a = 0.5 * that; v' = (1,0) + a*0.1 = (1.2273501, 0.4160251).
    const Flock out = stepOnce({boid(0, {50, 50, 0}, {1, 0, 0}), boid(1, {52, 50, 0}, {0, 3, 0}),
                                boid(2, {50, 53, 0}, {4, 3, 0})},
                               p);
    expectVec(out[0].v, {1.2273501f, 0.4160251f, 0}, "A velocity");
}

TEST(SteeringRules, CohesionSteersToCentre) {
    Params p = quietParams();
    p.species[0].cohesion = {10.0f, 1.0f};
    p.species[0].max_force = 5.0f;
    // A (10,10) at rest; B (14,10), C (10,16). Mean offset ((4,0)+(0,6))/2 = (2,3); setMag 10:
    // (5.547002, 8.320503); limit to 5: (2.773501, 4.1602515); v' = 0.1 * that.
    const Flock out = stepOnce({boid(0, {10, 10, 0}), boid(1, {14, 10, 0}, {1, 0, 0}), boid(2, {10, 16, 0}, {1, 0, 0})}, p);
    expectVec(out[0].v, {0.2773501f, 0.41602515f, 0}, "A velocity");
}

TEST(SteeringRules, SpeedIsClampedToRange) {
    Params p = quietParams();
    p.species[0].min_speed = 2.0f;
    p.species[0].max_speed = 3.0f;
    // No neighbours: v' = v, then clamped. (0.5,0) -> (2,0); (0,6) -> (0,3); (0,0) stays at rest.
    const Flock out = stepOnce({boid(0, {10, 10, 0}, {0.5f, 0, 0}), boid(1, {40, 40, 0}, {0, 6, 0}), boid(2, {70, 70, 0})}, p);
    expectVec(out[0].v, {2, 0, 0}, "slow boid");
    expectVec(out[1].v, {0, 3, 0}, "fast boid");
    expectVec(out[2].v, {0, 0, 0}, "boid at rest");
}

TEST(OffsetRules, ParkerOffsetsSum) {
    Params p = quietParams();
    p.style = Style::Offset;
    p.species[0].separation = {5.0f, 0.125f};  // Parker: average, divided by 8
    p.species[0].alignment = {10.0f, 0.25f};   // divided by 4
    p.species[0].cohesion = {10.0f, 0.01f};    // 1% toward the centre
    p.species[0].max_speed = 5.0f;
    p.dt = 1.0f;
    // A (50,50) v=(1,0); B (52,50) v=(3,0). For A, d = (2,0):
    //   cohesion (2,0)*0.01 = (0.02,0); separation -(2,0)*0.125 = (-0.25,0);
    //   alignment ((3,0)-(1,0))*0.25 = (0.5,0). dv = (0.27,0): v' = (1.27,0), p' = (51.27,50).
    // For B, d = (-2,0): dv = (-0.02 + 0.25 - 0.5, 0) = (-0.27,0): v' = (2.73,0), p' = (54.73,50).
    const Flock out = stepOnce({boid(0, {50, 50, 0}, {1, 0, 0}), boid(1, {52, 50, 0}, {3, 0, 0})}, p);
    expectVec(out[0].v, {1.27f, 0, 0}, "A velocity");
    expectVec(out[0].p, {51.27f, 50, 0}, "A position");
    expectVec(out[1].v, {2.73f, 0, 0}, "B velocity");
    expectVec(out[1].p, {54.73f, 50, 0}, "B position");
}

TEST(Bounds, SoftWallsPushInProportionToDepth) {
    Params p = quietParams();
    p.bounds = Bounds::Soft;
    p.margin = 10.0f;
    p.turn = 20.0f;
    // x = 5: depth 5 into the 10-unit margin, a.x = 20*5/10 = 10, v' = (1,0).
    // x = -5 (outside the box): depth 15, a.x = 30, v' = (3,0); never clamped back into the box.
    // (95, 98): a = (-10, -16), v' = (-1, -1.6). Centre: no push.
    const Flock out = stepOnce({boid(0, {5, 50, 0}), boid(1, {-5, 50, 0}), boid(2, {95, 98, 0}), boid(3, {50, 50, 0})}, p);
    expectVec(out[0].v, {1, 0, 0}, "inside margin");
    expectVec(out[1].v, {3, 0, 0}, "outside the box");
    expectVec(out[1].p, {-4.7f, 50, 0}, "outside the box, position");
    expectVec(out[2].v, {-1, -1.6f, 0}, "corner");
    expectVec(out[3].v, {0, 0, 0}, "centre");
}

TEST(Wrap, MinimumImageAcrossEachEdgeAndCorner) {
    const RuleContext ctx2(quietParams());
    expectVec(offsetBetween(ctx2, {1, 50, 0}, {99, 50, 0}), {-2, 0, 0}, "x edge");
    expectVec(offsetBetween(ctx2, {50, 99, 0}, {50, 1, 0}), {0, 2, 0}, "y edge");
    expectVec(offsetBetween(ctx2, {1, 1, 0}, {99, 99, 0}), {-2, -2, 0}, "corner");
    expectVec(offsetBetween(ctx2, {20, 20, 0}, {30, 25, 0}), {10, 5, 0}, "no wrap inside");
    Params p3 = quietParams();
    p3.dims = 3;
    const RuleContext ctx3(p3);
    expectVec(offsetBetween(ctx3, {1, 1, 1}, {99, 99, 99}), {-2, -2, -2}, "3D corner");
    expectVec(offsetBetween(ctx3, {50, 50, 98.5f}, {50, 50, 0.5f}), {0, 0, 2}, "z edge");
    // Soft bounds: plain difference.
    Params soft = quietParams();
    soft.bounds = Bounds::Soft;
    expectVec(offsetBetween(RuleContext(soft), {1, 50, 0}, {99, 50, 0}), {98, 0, 0}, "soft");
}

TEST(Wrap, SeparationActsAcrossTheEdge) {
    Params p = quietParams();
    p.species[0].separation = {5.0f, 1.0f};
    // A at x=1, B at x=99: B is 2 units to A's left through the edge, so A is pushed +x and B -x.
    // A: d = (-2,0), S = (0.5,0), steer (10,0), v' = (1,0), p' = (1.1,50).
    // B: v' = (-1,0), p' = 98.9. And a boid leaving through x=0 reappears near x=100.
    const Flock out = stepOnce({boid(0, {1, 50, 0}), boid(1, {99, 50, 0}), boid(2, {0.05f, 20, 0}, {-1, 0, 0})}, p);
    expectVec(out[0].v, {1, 0, 0}, "A velocity");
    expectVec(out[0].p, {1.1f, 50, 0}, "A position");
    expectVec(out[1].p, {98.9f, 50, 0}, "B position");
    EXPECT_NEAR(out[2].p.x, 99.95f, 1e-4f);  // 0.05 - 0.1 = -0.05 -> 99.95 (float tolerance 1e-4)
}

// Periodic images by hand (2D, wrap, L 100, dt 0.1, no rule on, max speed 10): a boid moves v dt,
// folds back into the box, and its image counts the boxes it crossed.
TEST(Wrap, ImagesCountTheBoxesEachBoidCrossedByHand) {
    Params p = quietParams();
    Flock start = {boid(0, {99.5f, 50, 0}, {10, 0, 0}), boid(1, {0.5f, 0.2f, 0}, {-8, -5, 0}), boid(2, {50, 50, 0}, {3, 4, 0}),
                   boid(3, {99.9f, 99.9f, 0}, {0, 5, 0})};
    start[3].image = {2, -3, 0};  // carried from an earlier state
    const Flock one = stepOnce(start, p);
    // 0: 99.5 + 1 = 100.5 -> 0.5, (1, 0). 1: 0.5 - 0.8 = -0.3 -> 99.7 and 0.2 - 0.5 = -0.3 -> 99.7,
    // (-1, -1). 2: (50.3, 50.4) inside, (0, 0). 3: 99.9 + 0.5 = 100.4 -> 0.4, (2, -3) + (0, 1).
    EXPECT_EQ(one[0].image, glm::ivec3(1, 0, 0));
    EXPECT_EQ(one[1].image, glm::ivec3(-1, -1, 0));
    EXPECT_EQ(one[2].image, glm::ivec3(0, 0, 0));
    EXPECT_EQ(one[3].image, glm::ivec3(2, -2, 0));
    expectVec(one[0].p, {0.5f, 50, 0}, "0's position", 1e-4f);  // float tolerance 1e-4 at 100
    expectVec(one[1].p, {99.7f, 99.7f, 0}, "1's position", 1e-4f);
    // 250 steps of boid 0 alone: 250 units at 1 a step from 99.5 is 349.5, three boxes on at 49.5.
    const Flock run = stepMany({start[0]}, p, 250);
    EXPECT_EQ(run[0].image, glm::ivec3(3, 0, 0));
    EXPECT_NEAR(run[0].p.x, 49.5f, 1e-3f);  // 250 additions of 1 (tolerance 1e-3)
    // 3D: z across the low end, 0.1 - 0.2 = -0.1 -> 99.9, (0, 0, -1).
    p.dims = 3;
    EXPECT_EQ(stepOnce({boid(0, {10, 10, 0.1f}, {0, 0, -2})}, p)[0].image, glm::ivec3(0, 0, -1));
    // A move that is not finite crosses nothing (a flock gone non-finite ends its run; UBSan saw
    // the int conversion of NaN here).
    EXPECT_EQ(imagesCrossed(RuleContext(p), {10, 10, 10}, {std::nanf(""), 10, INFINITY}), glm::ivec3(0));
    // Soft bounds fold nothing: no image.
    p.bounds = Bounds::Soft;
    EXPECT_EQ(stepOnce({boid(0, {99.5f, 50, 50}, {10, 0, 0})}, p)[0].image, glm::ivec3(0, 0, 0));
}

// A ballistic flock (no force: weights 0) in a 3D box of 50 for 200 steps of 0.1 at up to 10
// units/s (up to four boxes): held position + image x L is where each boid went, p0 + 20 v,
// within 0.01 (float rounding over 200 steps; a wrong image is 50 off). Large (the GPU's passes)
// and small (its steps in one work group: at most 256 boids and 5 cells an axis).
TEST(Wrap, HeldPositionPlusImagesIsWhereABallisticBoidWent) {
    for (const auto& [boids, radius] : {std::pair{4000u, 2.0f}, std::pair{200u, 20.0f}}) {
        SCOPED_TRACE(std::to_string(boids) + " boids");
        Params p = quietParams();
        p.dims = 3;
        p.world_size = 50.0f;
        p.boids = boids;
        p.species[0].alignment = {radius, 0.0f};  // sets the grid; pulls nothing
        Flock start = spawn(p);
        for (Boid& b : start) b.v = glm::normalize(glm::vec3(b.p.y - 25.0f, 25.0f - b.p.z, b.p.x - 24.0f) + 0.01f) * 9.5f;
        const Flock end = stepMany(start, p, 200, NeighbourSearch::Grid);
        double worst = 0.0;
        int far = 0;
        for (std::size_t i = 0; i < end.size(); ++i)
            for (int k = 0; k < 3; ++k) {
                const double went = double(start[i].p[k]) + 200.0 * double(p.dt) * double(start[i].v[k]);
                worst = std::max(worst, std::abs(double(end[i].p[k]) + 50.0 * end[i].image[k] - went));
                far += std::abs(end[i].image[k]) >= 2;
            }
        EXPECT_LT(worst, 0.01);
        EXPECT_GT(far, int(boids) / 4) << "most boids crossed two boxes or more on some axis";
    }
}

TEST(FieldOfView, ConeAndDegenerateCases) {
    Params p = quietParams();
    p.species[0].cohesion = {10.0f, 1.0f};
    p.species[0].fov_deg = 90.0f;  // +-45 degrees around the heading
    const RuleContext ctx(p);
    const Boid a = boid(0, {50, 50, 0}, {1, 0, 0});
    EXPECT_TRUE(isNeighbour(ctx, a, boid(1, {52, 50, 0})));             // straight ahead
    EXPECT_TRUE(isNeighbour(ctx, a, boid(1, {51, 50.9f, 0})));          // 42 degrees off
    EXPECT_FALSE(isNeighbour(ctx, a, boid(1, {51, 51.1f, 0})));         // 47.7 degrees off
    EXPECT_FALSE(isNeighbour(ctx, a, boid(1, {48, 50, 0})));            // behind
    EXPECT_TRUE(isNeighbour(ctx, boid(0, {50, 50, 0}), boid(1, {48, 50, 0})));  // at rest: sees all
    EXPECT_TRUE(isNeighbour(ctx, a, boid(1, {50, 50, 0})));             // coincident: at the eye
    p.species[0].fov_deg = 360.0f;
    EXPECT_TRUE(isNeighbour(RuleContext(p), a, boid(1, {48, 50, 0})));  // 360: sees behind
    p.species[0].fov_deg = 270.0f;
    EXPECT_TRUE(isNeighbour(RuleContext(p), a, boid(1, {50, 52, 0})));   // 90 off: inside 135
    EXPECT_FALSE(isNeighbour(RuleContext(p), a, boid(1, {48, 50.1f, 0})));  // ~177 off
    p.species[0].fov_deg = 0.0f;  // a zero-width cone: only what lies exactly ahead
    EXPECT_TRUE(isNeighbour(RuleContext(p), a, boid(1, {52, 50, 0})));
    EXPECT_FALSE(isNeighbour(RuleContext(p), a, boid(1, {52, 50.01f, 0})));
}
