// Vicsek style's vectorial noise (Gregoire & Chate 2004) by hand: the heading of the sum of the n
// unit headings plus noise x n x a random unit vector, the draw the step's own (vicsekUniform of
// the seed, the id and the step). Built into both test binaries: these run on the CPU reference
// and, as OnGpu.*, through the GPU pipeline.
#include "model/rng.hpp"
#include "test_util.hpp"

#include <gtest/gtest.h>

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace murmur;
using namespace murmur::test;

namespace {

// Quiet Vicsek, vectorial noise 0.5, speed 2, alignment radius 5, seed 7.
Params vectorialParams(int dims) {
    Params p = quietParams();
    p.style = Style::Vicsek;
    p.dims = dims;
    p.vicsek = {0.5f, true};
    p.species[0].max_speed = 2.0f;
    p.species[0].alignment = {5.0f, 1.0f};
    p.seed = 7;
    return p;
}

// Boid `id`'s random unit vector at step 0 (2D: at the angle 2 pi u0; 3D: z = 2 u0 - 1, azimuth 2 pi u1).
glm::vec3 xiOf(std::uint32_t id, int dims) {
    const double u0 = vicsekUniform(seedLow(7), id, 0, 0), u1 = vicsekUniform(seedLow(7), id, 0, 1);
    if (dims == 2) return glm::vec3(float(std::cos(6.283185307 * u0)), float(std::sin(6.283185307 * u0)), 0.0f);
    const double z = 2.0 * u0 - 1.0, r = std::sqrt(1.0 - z * z);
    return glm::vec3(float(r * std::cos(6.283185307 * u1)), float(r * std::sin(6.283185307 * u1)), float(z));
}

// The four boids of the cases below: boid 0 heading +x with two neighbours heading +x and +y
// within 2.3 of it, boid 3 56 to 59 from them.
Flock fourBoids() {
    return {boid(0, {50, 50, 0}, {3, 0, 0}), boid(1, {51, 50, 0}, {1, 0, 0}), boid(2, {50, 52, 0}, {0, 4, 0}), boid(3, {10, 10, 0}, {0, 1, 0})};
}

}  // namespace

// Boid 0 heading +x with two neighbours heading +x and +y (n = 3): its new velocity is
// 2 x unit((1, 0) + (1, 0) + (0, 1) + 0.5 x 3 x xi). Boid 3 alone, far off: 2 x unit((0, 1) + 0.5 xi).
// Tolerance 1e-5 (units/s; float against double).
TEST(Vicsek, VectorialNoiseIsAddedToTheSumOfTheHeadingsByHand) {
    for (int dims : {2, 3}) {
        SCOPED_TRACE(std::to_string(dims) + "D");
        const Params p = vectorialParams(dims);
        const Flock out = stepOnce(fourBoids(), p);
        expectVec(out[0].v, 2.0f * glm::normalize(glm::vec3(2, 1, 0) + 1.5f * xiOf(0, dims)), "boid 0");
        expectVec(out[3].v, 2.0f * glm::normalize(glm::vec3(0, 1, 0) + 0.5f * xiOf(3, dims)), "boid 3");
    }
}

// The alignment radius is its one radius: separation and cohesion radii of 60 (keys it ignores)
// count no boid beyond it as a neighbour (boid 3, 56 to 59 from the others, stays alone) and
// change no velocity (tolerance 1e-5: the GPU's grid is sized by the search's reach).
TEST(Vicsek, TheAlignmentRadiusIsItsOneRadius) {
    Params p = vectorialParams(2);
    const auto narrow = backendUnderTest();
    if (!narrow) return;
    narrow->upload(fourBoids(), p);
    narrow->step(1);
    p.species[0].separation.radius = p.species[0].cohesion.radius = 60.0f;
    EXPECT_EQ(p.largestRadius(), 5.0f) << "the search reaches as far as the alignment radius";
    const auto wide = backendUnderTest();
    wide->upload(fourBoids(), p);
    wide->step(1);
    for (Simulation* sim : {narrow.get(), wide.get()}) {
        std::vector<std::uint32_t> counts = sim->neighbourCounts();
        std::sort(counts.begin(), counts.end());
        EXPECT_EQ(counts, (std::vector<std::uint32_t>{0, 2, 2, 2})) << "within the alignment radius alone";
    }
    const Flock a = byId(narrow->download()), b = byId(wide->download());
    for (std::size_t i = 0; i < a.size(); ++i) expectVec(b[i].v, a[i].v, "the same velocities");
}
