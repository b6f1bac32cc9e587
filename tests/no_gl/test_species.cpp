// Species and predators, by hand (docs/model.md, "Species and predators"): alignment and cohesion
// within a species, separation from all, prey fleeing predators, predators chasing the nearest
// prey they see (ties by id), spawn shares, and per-species validation. quietParams(): 2D, 100
// units, no rule active, dt 0.1, max_speed 10. Tolerance kVecTol = 1e-5 (test_util.hpp).
#include "model/param_table.hpp"
#include "model/spawn.hpp"
#include "test_util.hpp"

#include <gtest/gtest.h>

#include <glm/geometric.hpp>

using namespace murmur;
using namespace murmur::test;

namespace {
// Two species with the same (quiet) rules; species 1 copies species 0's block.
Params twoSpecies() {
    Params p = quietParams();
    p.species_count = 2;
    p.species[1] = p.rulesOf(0);
    return p;
}
Boid of(std::uint32_t id, std::uint32_t species, glm::vec3 at, glm::vec3 v = glm::vec3(0.0f)) {
    Boid b = boid(id, at, v);
    b.species = species;
    return b;
}
}  // namespace

TEST(Species, AlignmentAndCohesionStayWithinASpecies) {
    Params p = twoSpecies();
    p.species[0].alignment = {5.0f, 1.0f};
    p.species[1].alignment = {5.0f, 1.0f};
    // B moves (0,3) two units from A. Same species: A steers to setMag((0,3),10) = (0,10): v' = (0,1).
    Flock out = stepOnce({of(0, 0, {50, 50, 0}), of(1, 0, {52, 50, 0}, {0, 3, 0})}, p);
    expectVec(out[0].v, {0, 1, 0}, "same species");
    // Different species: no alignment at all.
    out = stepOnce({of(0, 0, {50, 50, 0}), of(1, 1, {52, 50, 0}, {0, 3, 0})}, p);
    expectVec(out[0].v, {0, 0, 0}, "other species");
}

TEST(Species, SeparationActsBetweenAllSpecies) {
    Params p = twoSpecies();
    p.species[0].separation = {5.0f, 1.0f};
    // As SteeringRules.SeparationPushesApart: A's v' = (-1, 0), whatever B's species.
    const Flock out = stepOnce({of(0, 0, {50, 50, 0}), of(1, 1, {53, 50, 0})}, p);
    expectVec(out[0].v, {-1, 0, 0}, "A");
    expectVec(out[1].v, {0, 0, 0}, "B: species 1 has separation off");
}

TEST(Species, PreyFleePredatorsWithinTheirFleeRadius) {
    Params p = twoSpecies();
    p.roles[1].predator = true;
    p.roles[1].chase = 0.0f;
    p.roles[0].flee = {5.0f, 1.0f};
    // Prey A, predator B 3 units away: flee = -d/|d|^2 = (-1/3, 0); steer (-10,0); v' = (-1,0).
    // Prey C 7 units from B: outside the flee radius.
    const Flock out = stepOnce({of(0, 0, {50, 50, 0}), of(1, 1, {53, 50, 0}), of(2, 0, {60, 50, 0})}, p);
    expectVec(out[0].v, {-1, 0, 0}, "inside the flee radius");
    expectVec(out[2].v, {0, 0, 0}, "outside it");
    p.style = Style::Offset;  // offset style: -mean d * weight = (-3, 0)
    const Flock off = stepOnce({of(0, 0, {50, 50, 0}), of(1, 1, {53, 50, 0}), of(2, 0, {60, 50, 0})}, p);
    expectVec(off[0].v, {-3, 0, 0}, "offset style");
}

TEST(Species, PredatorsChaseTheNearestPreyTheySeeTiesById) {
    Params p = twoSpecies();
    p.roles[1].predator = true;
    p.roles[1].chase = 1.0f;
    p.species[1].cohesion = {10.0f, 0.0f};  // the chase radius; no cohesion among predators
    // Predator A (id 0) at (50,50); prey at (53,50) id 2 and (50,47) id 1, both 3 away: the tie
    // goes to id 1, so A steers to setMag((0,-3),10) = (0,-10): v' = (0,-1).
    Flock out = stepOnce({of(0, 1, {50, 50, 0}), of(2, 0, {53, 50, 0}), of(1, 0, {50, 47, 0})}, p);
    expectVec(out[0].v, {0, -1, 0}, "tie to the lower id");
    // A nearer prey wins; one behind a 90 degree view is unseen.
    p.species[1].fov_deg = 90.0f;
    out = stepOnce({of(0, 1, {50, 50, 0}, {1, 0, 0}), of(1, 0, {46, 50, 0}), of(2, 0, {56, 50, 0})}, p);
    // v = (1,0); target (6,0): steer = (10,0) - (1,0) = (9,0); v' = (1,0) + 0.9 = (1.9, 0).
    expectVec(out[0].v, {1.9f, 0, 0}, "the prey ahead, not the nearer one behind");
}

TEST(Species, SpawnSplitsIdsByShareAndUsesEachSpeciesSpeeds) {
    Params p;
    p.boids = 100;
    p.species_count = 3;
    p.roles[0].share = 1.0f;
    p.roles[1].share = 2.0f;
    p.roles[2].share = 1.0f;
    p.species[1].min_speed = 20.0f;
    p.species[1].max_speed = 30.0f;
    const Flock f = spawn(p);
    std::uint32_t counts[3] = {0, 0, 0};
    for (const Boid& b : f) {
        ASSERT_LT(b.species, 3u);
        ++counts[b.species];
        if (b.species == 1) {
            EXPECT_GE(glm::length(b.v), 20.0f * (1 - 1e-5f));
            EXPECT_LE(glm::length(b.v), 30.0f * (1 + 1e-5f));
        }
    }
    EXPECT_EQ(counts[0], 25u);
    EXPECT_EQ(counts[1], 50u);
    EXPECT_EQ(counts[2], 25u);
    EXPECT_EQ(f[24].species, 0u);
    EXPECT_EQ(f[25].species, 1u);
}

TEST(Species, EachSpeciesIsValidatedWithItsKey) {
    Params p;
    p.species_count = 2;
    p.species[1].min_speed = 50.0f;  // above its max_speed 10
    p.roles[1].flee.radius = 200.0f;       // above half the 300-unit world in wrap mode
    const std::string all = describe(validate(p));
    EXPECT_NE(all.find("species1.min_speed"), std::string::npos) << all;
    EXPECT_NE(all.find("species1.flee.radius"), std::string::npos) << all;
    p.species_count = 1;  // unused species are not checked
    EXPECT_TRUE(validate(p).empty()) << describe(validate(p));
    ASSERT_NE(findParam("species3.cohesion.weight"), nullptr);
    ASSERT_NE(findParam("species0.predator"), nullptr);
    EXPECT_EQ(findParam("species0.cohesion.weight"), nullptr) << "species 0 flies the top-level keys";
}
