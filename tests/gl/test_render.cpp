// Offscreen render tests on whatever GL the machine has (llvmpipe in CI): crafted flocks drawn
// into a framebuffer give lit pixels where the boids are, nose first along their velocity, and
// background elsewhere, in 2D and 3D; the pipeline's own buffers draw the same as a CPU copy;
// visual debug finds a boid by id on the GPU.
#include "gl/framebuffer.hpp"
#include "gpu/gpu_simulation.hpp"
#include "render/flock_renderer.hpp"
#include "render/flock_view.hpp"
#include "render/palette.hpp"
#include "io/preset_json.hpp"
#include "model/spawn.hpp"

#include "gl_env.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace murmur;

namespace {

constexpr int kW = 240, kH = 200;

Boid makeBoid(std::uint32_t id, glm::vec3 p, glm::vec3 v) {
    Boid b;
    b.id = id;
    b.p = p;
    b.v = v;
    return b;
}

struct Frame {
    std::vector<std::uint8_t> rgba;
    render::Camera camera;
    render::DrawSettings settings;
    // Lit: differs from the background by more than 24 levels in some channel (anti-aliasing
    // is off, so a pixel is either the boid's shaded colour or the clear colour).
    bool lit(glm::vec2 px) const {
        const int x = int(px.x), y = int(px.y);
        if (x < 0 || y < 0 || x >= kW || y >= kH) return false;
        const std::uint8_t* c = &rgba[(std::size_t(y) * kW + std::size_t(x)) * 4];
        for (int k = 0; k < 3; ++k)
            if (std::abs(int(c[k]) - int(settings.background[k] * 255.0f + 0.5f)) > 24) return true;
        return false;
    }
    glm::vec2 at(glm::vec3 world) const {
        glm::vec2 px;
        EXPECT_TRUE(camera.toPixel(world, {float(kW), float(kH)}, px));
        return px;
    }
    std::size_t litCount() const {
        std::size_t n = 0;
        for (int y = 0; y < kH; ++y)
            for (int x = 0; x < kW; ++x) n += lit({float(x) + 0.5f, float(y) + 0.5f});
        return n;
    }
};

Frame draw(const render::FlockView& view, const Params& p, float size_scale,
           const std::optional<render::Selection>& selection = std::nullopt, float time = 0.0f,
           render::ColourBy colour = render::ColourBy::Species) {
    Frame f;
    f.camera.reset(p);
    f.settings.show_bounds = false;
    f.settings.size_scale = size_scale;
    f.settings.min_px = 0.0f;
    f.settings.colour_by = colour;
    f.settings.time = time;
    gl::Framebuffer target(kW, kH);
    target.bind();
    render::FlockRenderer renderer{gl::ShaderLibrary{}};
    renderer.draw(view, p, f.camera, {kW, kH}, f.settings, selection);
    f.rgba = target.readRgba();
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    return f;
}

Params world(int dims) {
    Params p;
    p.dims = dims;
    p.world_size = 100.0f;
    return p;
}

}  // namespace

TEST(Render, TwoDBoidsAreLitWhereTheyAreAndPointAlongTheirVelocity) {
    MURMUR_REQUIRE_GL();
    const Params p = world(2);
    const float size = render::boidSize(p) * 10.0f;  // 20 units: about 40 px
    const Flock flock = {makeBoid(0, {50, 50, 0}, {3, 0, 0}), makeBoid(1, {20, 78, 0}, {0, -4, 0})};
    render::HostFlock host;
    host.update(flock, {});
    const Frame f = draw(host.view(), p, 10.0f);
    // Boid 0 heads +x: its body (-0.3 of its length behind the centre, 0.2 to the side) is lit,
    // while beside the narrow nose (+0.45 ahead, 0.2 to the side) is background.
    EXPECT_TRUE(f.lit(f.at({50, 50, 0})));
    EXPECT_TRUE(f.lit(f.at({50 + 0.2f * size, 50, 0})));
    EXPECT_TRUE(f.lit(f.at({50 - 0.3f * size, 50 + 0.2f * size, 0})));
    EXPECT_FALSE(f.lit(f.at({50 + 0.45f * size, 50 + 0.2f * size, 0})));
    EXPECT_FALSE(f.lit(f.at({50 - 0.6f * size, 50, 0}))) << "behind the tail";
    // Boid 1 heads -y: the same test turned a quarter.
    EXPECT_TRUE(f.lit(f.at({20, 78, 0})));
    EXPECT_TRUE(f.lit(f.at({20 + 0.2f * size, 78 + 0.3f * size, 0})));
    EXPECT_FALSE(f.lit(f.at({20 + 0.2f * size, 78 - 0.45f * size, 0})));
    // Everywhere else is background: the two triangles cover 0.32 of size^2 each, in pixels.
    const float px_per_unit = f.at({51, 50, 0}).x - f.at({50, 50, 0}).x;
    const float triangle_px = 0.32f * size * size * px_per_unit * px_per_unit;
    EXPECT_NEAR(double(f.litCount()), 2.0 * triangle_px, 0.15 * 2.0 * triangle_px);
    EXPECT_FALSE(f.lit(f.at({80, 20, 0})));
    EXPECT_NO_GL_ERRORS();
}

TEST(Render, ThreeDBoidIsLitAtItsProjectionWithDepth) {
    MURMUR_REQUIRE_GL();
    const Params p = world(3);
    const Flock flock = {makeBoid(0, {50, 50, 50}, {2, 0, 0}), makeBoid(1, {10, 90, 10}, {0, 0, 2})};
    render::HostFlock host;
    host.update(flock, {});
    const Frame f = draw(host.view(), p, 8.0f);
    EXPECT_TRUE(f.lit(f.at({50, 50, 50})));
    EXPECT_TRUE(f.lit(f.at({10, 90, 10})));
    EXPECT_FALSE(f.lit(f.at({90, 10, 90})));
    EXPECT_FALSE(f.lit(f.at({50, 50, 50}) + glm::vec2(60, 0)));
    EXPECT_GT(f.litCount(), 50u);
    EXPECT_LT(f.litCount(), std::size_t(kW * kH / 8));
    // A second boid hidden right behind the first (from the eye) changes nothing in front.
    const glm::vec3 behind = glm::vec3(50) + 30.0f * glm::normalize(glm::vec3(50) - f.camera.eye());
    Boid hidden = makeBoid(2, behind, {2, 0, 0});
    hidden.species = 1;  // another colour, drawn after boid 0
    render::HostFlock two;
    two.update({flock[0], hidden}, {});
    const Frame g = draw(two.view(), p, 8.0f);
    const glm::vec2 c = f.at({50, 50, 50});
    const std::size_t i = (std::size_t(c.y) * kW + std::size_t(c.x)) * 4;
    for (int k = 0; k < 3; ++k) EXPECT_EQ(g.rgba[i + std::size_t(k)], f.rgba[i + std::size_t(k)]) << "channel " << k;
    EXPECT_NO_GL_ERRORS();
}

TEST(Render, PipelineBuffersDrawTheSameAsACpuCopy) {
    MURMUR_REQUIRE_GL();
    Params p = world(2);
    Flock flock;
    for (std::uint32_t i = 0; i < 40; ++i)
        flock.push_back(makeBoid(i, {5.0f + 2.3f * float(i), 10.0f + 2.0f * float(i % 7) * 6.0f, 0}, {1, float(i % 5) - 2.0f, 0}));
    gpu::GpuSimulation sim;
    sim.upload(flock, p);
    const Frame a = draw({sim.positions().id(), sim.velocities().id(), sim.neighbours().id(), sim.boids()}, p, 2.0f);
    render::HostFlock host;
    host.update(flock, {});
    const Frame b = draw(host.view(), p, 2.0f);
    EXPECT_EQ(a.rgba, b.rgba);
    EXPECT_GT(a.litCount(), 40u);
    EXPECT_NO_GL_ERRORS();
}

TEST(Render, GpuFindsABoidByIdForVisualDebug) {
    MURMUR_REQUIRE_GL();
    Params p = world(3);
    Flock flock;
    for (std::uint32_t i = 0; i < 1000; ++i)
        flock.push_back(makeBoid(i, {float(i % 10) * 9.5f, float(i / 10 % 10) * 9.5f, float(i / 100) * 9.5f}, {1, 0, 0}));
    gpu::GpuSimulation sim;
    sim.upload(flock, p);
    sim.step(2);
    const Flock now = sim.download();
    const auto counts = sim.neighbourCounts();
    const Boid* b = nullptr;
    for (const Boid& x : now)
        if (x.id == 617) b = &x;
    ASSERT_NE(b, nullptr);
    const auto found = sim.find(617);
    ASSERT_TRUE(found);
    EXPECT_EQ(found->boid.p, b->p);
    EXPECT_EQ(found->boid.v, b->v);
    EXPECT_EQ(found->neighbours, counts[617]);
    EXPECT_FALSE(sim.find(5000));
    EXPECT_NO_GL_ERRORS();
}

TEST(Render, VisualDebugDrawsTheSelectedBoidsRadiiAndView) {
    MURMUR_REQUIRE_GL();
    Params p = world(2);
    p.species[0].separation.radius = 8;
    p.species[0].cohesion.radius = 30;
    p.species[0].alignment.radius = 20;
    p.species[0].fov_deg = 180;
    const Flock flock = {makeBoid(4, {50, 50, 0}, {0, 3, 0})};
    render::HostFlock host;
    host.update(flock, {});
    const Frame plain = draw(host.view(), p, 1.0f);
    const Frame debug = draw(host.view(), p, 1.0f, render::Selection{4, {50, 50, 0}, {0, 3, 0}, 0});
    // Each radius is a circle: a point on it straight below the boid (off the view's arc).
    for (float r : {8.0f, 20.0f, 30.0f}) {
        bool any = false;  // lines are one pixel wide: look in a 3x3 block around the point
        const glm::vec2 c = debug.at({50, 50 - r, 0});
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) any = any || debug.lit(c + glm::vec2(dx, dy));
        EXPECT_TRUE(any) << "radius " << r;
        EXPECT_FALSE(plain.lit(c)) << "radius " << r;
    }
    EXPECT_GT(debug.litCount(), plain.litCount() + 300);
    EXPECT_NO_GL_ERRORS();
}

TEST(Render, DecarpentierBirdsBeatTheirWingsIn3D) {
    MURMUR_REQUIRE_GL();
    Params p = world(3);
    Flock flock;
    for (std::uint32_t i = 0; i < 12; ++i)
        flock.push_back(makeBoid(i, {20.0f + 6.0f * float(i % 4), 40.0f + 8.0f * float(i / 4), 50.0f}, {3, 0.5f, 0}));
    render::HostFlock host;
    host.update(flock, {});
    p.style = Style::Decarpentier;
    const Frame a = draw(host.view(), p, 6.0f, std::nullopt, 0.0f), b = draw(host.view(), p, 6.0f, std::nullopt, 0.13f);
    EXPECT_NE(a.rgba, b.rgba) << "wings move over time";
    p.style = Style::Steering;
    const Frame c = draw(host.view(), p, 6.0f, std::nullopt, 0.0f), d = draw(host.view(), p, 6.0f, std::nullopt, 0.13f);
    EXPECT_EQ(c.rgba, d.rgba) << "other styles draw rigid darts";
    EXPECT_NO_GL_ERRORS();
}

TEST(Render, PredatorsAreDrawnLargerInTheirOwnColour) {
    MURMUR_REQUIRE_GL();
    Params p = world(2);
    p.species_count = 2;
    p.roles[1].predator = true;
    Boid prey = makeBoid(0, {30, 50, 0}, {1, 0, 0}), hunter = makeBoid(1, {70, 50, 0}, {1, 0, 0});
    hunter.species = 1;
    render::HostFlock host;
    host.update({prey, hunter}, {});
    const Frame f = draw(host.view(), p, 4.0f);
    auto litNear = [&](glm::vec3 at, float radius_units) {
        std::size_t n = 0;
        const glm::vec2 c = f.at(at);
        const float r = f.at(at + glm::vec3(radius_units, 0, 0)).x - c.x;
        for (int y = int(c.y - r); y <= int(c.y + r); ++y)
            for (int x = int(c.x - r); x <= int(c.x + r); ++x) n += f.lit({float(x) + 0.5f, float(y) + 0.5f});
        return n;
    };
    const std::size_t prey_px = litNear(prey.p, 15.0f), hunter_px = litNear(hunter.p, 15.0f);
    EXPECT_GT(hunter_px, 3 * prey_px) << "2.2x longer: about 4.8x the area";
    const glm::vec2 c = f.at(hunter.p);
    const std::uint8_t* px = &f.rgba[(std::size_t(c.y) * kW + std::size_t(c.x)) * 4];
    EXPECT_GT(int(px[0]), 200) << "predators are red";
    EXPECT_LT(int(px[1]), 100);
    EXPECT_NO_GL_ERRORS();
}

// The legend's colours are the ones drawn: one boid per species (and a predator), per heading and
// per speed, each boid's centre pixel within 2 of 255 levels per channel of the palette (2D
// boids are flat-shaded; the tolerance covers the 8-bit rounding).
TEST(Render, BoidsAreDrawnInThePalettesColours) {
    MURMUR_REQUIRE_GL();
    Params p = world(2);
    p.species_count = 3;
    p.roles[2].predator = true;
    const auto expectColour = [](const Frame& f, glm::vec3 world_at, glm::vec3 want, const char* what) {
        const glm::vec2 px = f.at(world_at);
        const std::uint8_t* c = &f.rgba[(std::size_t(px.y) * kW + std::size_t(px.x)) * 4];
        for (int k = 0; k < 3; ++k) EXPECT_NEAR(int(c[k]), int(want[k] * 255.0f + 0.5f), 2) << what << " channel " << k;
    };
    Flock flock;
    for (std::uint32_t s = 0; s < 3; ++s) {
        Boid b = makeBoid(s, {20.0f + 30.0f * float(s), 50, 0}, {5, 0, 0});
        b.species = s;
        flock.push_back(b);
    }
    render::HostFlock host;
    host.update(flock, {});
    Frame f = draw(host.view(), p, 6.0f);
    expectColour(f, {20, 50, 0}, render::speciesColour(0, false), "species 0");
    expectColour(f, {50, 50, 0}, render::speciesColour(1, false), "species 1");
    expectColour(f, {80, 50, 0}, render::speciesColour(2, true), "predator");

    // Heading and speed: boids flying at 0, 90 and 200 degrees, at 2, 5 and 10 units/s.
    Params q = world(2);
    q.species[0].max_speed = 10.0f;
    const float angles[3] = {0.0f, 1.5707963f, 3.4906585f}, speeds[3] = {2.0f, 5.0f, 10.0f};
    Flock heading;
    for (int k = 0; k < 3; ++k)
        heading.push_back(makeBoid(std::uint32_t(k), {20.0f + 30.0f * float(k), 50, 0},
                                   speeds[k] * glm::vec3(std::cos(angles[k]), std::sin(angles[k]), 0)));
    host.update(heading, {});
    for (render::ColourBy mode : {render::ColourBy::Heading, render::ColourBy::Speed}) {
        Frame g;
        g.camera.reset(q);
        g.settings.show_bounds = false;
        g.settings.size_scale = 6.0f;
        g.settings.colour_by = mode;
        gl::Framebuffer target(kW, kH);
        target.bind();
        render::FlockRenderer renderer{gl::ShaderLibrary{}};
        renderer.draw(host.view(), q, g.camera, {kW, kH}, g.settings, std::nullopt);
        g.rgba = target.readRgba();
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        for (int k = 0; k < 3; ++k) {
            // The boid's centre: a little behind the nose, on its axis (the dart's centroid).
            const glm::vec3 centre(20.0f + 30.0f * float(k), 50, 0);
            float a = angles[k];
            if (a > 3.14159265f) a -= 6.2831853f;  // atan's range
            expectColour(g, centre, mode == render::ColourBy::Heading ? render::headingColour(a) : render::rampColour(speeds[k] / 10.0f),
                         mode == render::ColourBy::Heading ? "heading" : "speed");
        }
    }
}

// The draw key: points draw a square of about the mesh's area at each boid, in its colour; auto
// takes meshes for a few large boids and points for a crowd whose meshes would cover the image
// twice over, or for boids under 3 pixels.
TEST(Render, PointsDrawEachBoidAsASquareOfItsMeshsAreaAndAutoChoosesByCrowding) {
    MURMUR_REQUIRE_GL();
    Params p = world(2);
    p.draw = 2;  // points
    const Flock flock = {makeBoid(0, {50, 50, 0}, {3, 0, 0}), makeBoid(1, {20, 78, 0}, {0, -4, 0})};
    render::HostFlock host;
    host.update(flock, {});
    const Frame f = draw(host.view(), p, 10.0f);
    const float size = render::boidSize(p) * 10.0f;
    const float px_per_unit = f.at({51, 50, 0}).x - f.at({50, 50, 0}).x;
    const float side = 0.57f * size * px_per_unit;  // boid.vert: a square of side 0.57 L
    EXPECT_TRUE(f.lit(f.at({50, 50, 0})));
    EXPECT_TRUE(f.lit(f.at({20, 78, 0})));
    EXPECT_FALSE(f.lit(f.at({50 + 0.5f * size, 50, 0}))) << "no nose: a square, not the mesh";
    // Two squares (rasterised to whole pixels: within 2 px of the side).
    EXPECT_NEAR(double(f.litCount()), 2.0 * double(side) * double(side), 2.0 * 4.0 * double(side));

    // Auto: two boids 20 units long (about 40 px) are meshes; a million boids of 3.35 px over a
    // 400x400 image cover it 20 times: splats (their density is what can be seen); one boid under
    // 3 px: points.
    using render::DrawMode;
    p.draw = 0;
    EXPECT_EQ(render::drawMode(p, 40.0f, 2, 400 * 400), DrawMode::Meshes);
    EXPECT_EQ(render::drawMode(p, 3.35f, 1000000, 400 * 400), DrawMode::Splats);
    EXPECT_TRUE(render::drawsPoints(p, 3.35f, 1000000, 400 * 400)) << "splats are a point a boid";
    EXPECT_EQ(render::drawMode(p, 3.35f, 10000, 400 * 400), DrawMode::Meshes) << "0.2 of the image covered: meshes";
    EXPECT_EQ(render::drawMode(p, 2.9f, 1, 400 * 400), DrawMode::Points);
    EXPECT_EQ(render::drawMode(p, 0.5f, 2000000, 400 * 400), DrawMode::Points) << "0.9 of the image covered: points";
    p.draw = 1;
    EXPECT_EQ(render::drawMode(p, 0.5f, 100000000, 400 * 400), DrawMode::Meshes) << "meshes asked for: always meshes";
    p.draw = 3;
    EXPECT_EQ(render::drawMode(p, 40.0f, 2, 400 * 400), DrawMode::Splats) << "splats asked for: always splats";
    EXPECT_NO_GL_ERRORS();
}

// Density splats: each pixel shows the mean colour of the boids drawn on it (here by heading),
// opaque as 1 - exp(-kSplatGain * count) over the background: twelve boids on one spot all but
// opaque in their heading's colour, one alone faint (its colour at 0.39 over the background),
// six flying east and six west on another spot the mean of the two headings' colours.
TEST(Render, SplatsShowEachPixelsMeanColourOpaqueWithItsCount) {
    MURMUR_REQUIRE_GL();
    Params p = world(2);
    p.draw = 3;  // splats
    Flock flock;
    for (std::uint32_t k = 0; k < 12; ++k) flock.push_back(makeBoid(k, {50, 50, 0}, {3, 0, 0}));
    flock.push_back(makeBoid(12, {20, 78, 0}, {3, 0, 0}));
    for (std::uint32_t k = 0; k < 12; ++k) flock.push_back(makeBoid(13 + k, {80, 20, 0}, {k % 2 ? -3.0f : 3.0f, 0, 0}));
    render::HostFlock host;
    host.update(flock, {});
    Frame f;
    f.camera.reset(p);
    f.settings.show_bounds = false;
    f.settings.size_scale = 10.0f;
    f.settings.colour_by = render::ColourBy::Heading;
    gl::Framebuffer target(kW, kH);
    target.bind();
    render::FlockRenderer renderer{gl::ShaderLibrary{}};
    renderer.draw(host.view(), p, f.camera, {kW, kH}, f.settings, std::nullopt);
    EXPECT_EQ(renderer.lastCounts().mode, render::DrawMode::Splats);
    f.rgba = target.readRgba();
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    const auto expectColour = [&](glm::vec3 world_at, glm::vec3 want, float count, const char* what) {
        const float a = 1.0f - std::exp(-render::kSplatGain * count);
        const glm::vec3 shown = f.settings.background * (1.0f - a) + want * a;
        const glm::vec2 px = f.at(world_at);
        const std::uint8_t* c = &f.rgba[(std::size_t(px.y) * kW + std::size_t(px.x)) * 4];
        for (int k = 0; k < 3; ++k)  // 8-bit output, half-float sums: within 3 levels
            EXPECT_NEAR(int(c[k]), int(shown[k] * 255.0f + 0.5f), 3) << what << " channel " << k;
    };
    const glm::vec3 east = render::headingColour(0.0f), west = render::headingColour(3.14159265f);
    expectColour({50, 50, 0}, east, 12.0f, "twelve boids flying east");
    expectColour({20, 78, 0}, east, 1.0f, "one boid alone");
    expectColour({80, 20, 0}, 0.5f * (east + west), 12.0f, "six east and six west");
    const glm::vec2 dense = f.at({50, 50, 0});
    EXPECT_EQ(int(f.rgba[(std::size_t(dense.y) * kW + std::size_t(dense.x)) * 4 + 3]), 255) << "the picture stays opaque";
    EXPECT_NO_GL_ERRORS();
}

// Splats sum four floats a pixel: a 16384 x 8200 area would need a 2.1 GB sum texture, past what
// drivers give (12000 x 12000 failed: "sum target ... is incomplete", GL_OUT_OF_MEMORY). Past 2^26
// pixels one sum pixel covers 2 x 2 screen pixels: the clump still shows its colour, opaque.
TEST(Render, SplatsAtAVeryLargeSizeShowTheirBoids) {
    MURMUR_REQUIRE_GL();
    constexpr int kBigW = 16384, kBigH = 8200;
    Params p = world(2);
    p.draw = 3;  // splats
    Flock flock;
    for (std::uint32_t k = 0; k < 12; ++k) flock.push_back(makeBoid(k, {50, 50, 0}, {3, 0, 0}));
    render::HostFlock host;
    host.update(flock, {});
    render::Camera camera;
    camera.reset(p);
    render::DrawSettings settings;
    settings.show_bounds = false;
    settings.size_scale = 10.0f;
    settings.colour_by = render::ColourBy::Heading;
    gl::Framebuffer target(kBigW, kBigH);
    target.bind();
    render::FlockRenderer renderer{gl::ShaderLibrary{}};
    ASSERT_NO_THROW(renderer.draw(host.view(), p, camera, {kBigW, kBigH}, settings, std::nullopt));
    EXPECT_EQ(renderer.lastCounts().mode, render::DrawMode::Splats);
    const std::vector<std::uint8_t> rgba = target.readRgba();
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    const glm::vec3 east = render::headingColour(0.0f);
    const std::uint8_t* c = &rgba[(std::size_t(kBigH / 2) * kBigW + std::size_t(kBigW / 2)) * 4];  // the world's middle
    const float a = 1.0f - std::exp(-render::kSplatGain * 12.0f);
    for (int k = 0; k < 3; ++k)  // as the small picture's test, within 3 levels
        EXPECT_NEAR(int(c[k]), int((settings.background[k] * (1.0f - a) + east[k] * a) * 255.0f + 0.5f), 3) << "channel " << k;
    EXPECT_NO_GL_ERRORS();
}

// Flat darts (the draw key's flat, auto for 3D darts under 12 pixels): one triangle a boid, the
// largest of the dart's outline as seen from the eye, shaded as its faces would be on average.
// One boid about 60 pixels long in nine headings: side on, across the view, climbing, diving, 45
// degrees off the view in the wings' plane, and end on (toward the eye and away, exactly and 10
// degrees off), where the outline is the tail's diamond. The flat dart's lit pixels and the
// four-sided dart's overlap (intersection over union) in at least 80 % side on (the triangle
// leaves out a sliver of the tail; 83 to 100 % here), 65 % at 45 degrees in the wings' plane (70 %
// here) and 55 % end on (the largest triangle of a diamond is 0.6 of it; 58 to 61 % here), and
// their mean colours agree within 8 levels a channel. Auto: flat between 3 and 12 pixels in 3D
// only; 2D triangles stay meshes.
TEST(Render, FlatDartsKeepMostOfTheDartsOutlineAndItsShadeAndAutoTakesThemForSmallDarts) {
    MURMUR_REQUIRE_GL();
    Params p = world(3);
    render::Camera camera;
    camera.reset(p);
    const glm::vec3 view = glm::normalize(glm::vec3(50) - camera.eye());  // the test's camera, at the boid
    const glm::vec3 wings_45 = glm::normalize(view + glm::normalize(glm::cross(view, glm::vec3(0, 1, 0))));
    const glm::vec3 off_10 = glm::normalize(view + 0.18f * glm::normalize(glm::cross(view, glm::vec3(0, 1, 0))));
    struct Case {
        glm::vec3 v;
        double overlap;
    };
    const Case cases[] = {{{2, 0, 0}, 0.8},  {{0, 0, 2}, 0.8},        {{0, 0, -2}, 0.8},      {{1, 1.2f, 0.5f}, 0.8}, {{-0.6f, -1.5f, 1}, 0.8},
                          {wings_45, 0.65},   {2.0f * view, 0.55},     {-2.0f * view, 0.55},   {2.0f * off_10, 0.55}};
    for (const Case& c : cases) {
        render::HostFlock host;
        host.update({makeBoid(0, {50, 50, 50}, c.v)}, {});
        p.draw = 1;  // meshes
        const Frame mesh = draw(host.view(), p, 20.0f);
        p.draw = 4;  // flat
        const Frame flat = draw(host.view(), p, 20.0f);
        std::size_t both = 0, either = 0, n_mesh = 0, n_flat = 0;
        glm::dvec3 sum_mesh(0.0), sum_flat(0.0);
        for (int y = 0; y < kH; ++y)
            for (int x = 0; x < kW; ++x) {
                const glm::vec2 px(float(x) + 0.5f, float(y) + 0.5f);
                const bool a = mesh.lit(px), b = flat.lit(px);
                both += a && b;
                either += a || b;
                const std::size_t i = (std::size_t(y) * kW + std::size_t(x)) * 4;
                for (int k = 0; k < 3; ++k) {
                    if (a) sum_mesh[k] += mesh.rgba[i + std::size_t(k)];
                    if (b) sum_flat[k] += flat.rgba[i + std::size_t(k)];
                }
                n_mesh += a;
                n_flat += b;
            }
        const std::string heading = "heading " + std::to_string(c.v.x) + "," + std::to_string(c.v.y) + "," + std::to_string(c.v.z);
        ASSERT_GT(n_mesh, 100u) << heading;
        ASSERT_GT(n_flat, 0u) << heading;
        EXPECT_GE(double(both), c.overlap * double(either)) << heading << ": " << both << " of " << either;
        for (int k = 0; k < 3; ++k)
            EXPECT_NEAR(sum_flat[k] / double(n_flat), sum_mesh[k] / double(n_mesh), 8.0) << heading << " channel " << k;
    }
    using render::DrawMode;
    p.draw = 0;
    EXPECT_EQ(render::drawMode(p, 10.0f, 1000, 400 * 400), DrawMode::Flat);
    EXPECT_EQ(render::drawMode(p, 12.5f, 100, 400 * 400), DrawMode::Meshes);
    EXPECT_EQ(render::drawMode(p, 2.5f, 1000, 400 * 400), DrawMode::Points);
    const render::OnScreen small{10.0f, 400 * 400, 1000};
    EXPECT_EQ(render::drawCounts(p, small, 1000).vertices, 3000u) << "a triangle a boid";
    EXPECT_FALSE(render::drawsPoints(p, 10.0f, 1000, 400 * 400));
    EXPECT_NEAR(render::drawCounts(p, small, 1000).fragments_estimate, 1000 * render::kMeshArea * 100.0, 1e-6)
        << "the dart's outline, not a point's square";
    p.dims = 2;
    EXPECT_EQ(render::drawMode(p, 10.0f, 1000, 400 * 400), DrawMode::Meshes) << "2D: already a triangle a boid";
    p.draw = 4;
    EXPECT_EQ(render::drawMode(p, 10.0f, 1000, 400 * 400), DrawMode::Meshes);
    EXPECT_NO_GL_ERRORS();
}

namespace {

// The draw key's auto as a 400x400 view with `camera` sees the flock of positions xyz.
render::DrawMode autoMode(const Params& p, const std::vector<float>& xyz, const render::Camera& camera) {
    const glm::mat4 proj = camera.projection(1.0f);
    const float px_per_clip = 400.0f * proj[1][1] / 2.0f;
    const render::DrawSettings s;
    const render::OnScreen seen = render::onScreen(p, render::extentOf(p, xyz), proj * camera.view(), px_per_clip, s, 400 * 400);
    return render::drawMode(p, seen.boid_px, seen.boids, seen.pixels);
}

std::vector<float> positionsOf(const Flock& flock) {
    std::vector<float> xyz;
    for (const Boid& b : flock) xyz.insert(xyz.end(), {b.p.x, b.p.y, b.p.z});
    return xyz;
}

}  // namespace

// Auto judges the flock where it is on screen, not the world box: a small flock in a big world
// (100 boids in a ball of radius 10 in a 300 world, as the couzin presets spawn), framed and then
// zoomed in, is drawn as meshes (the box's nearest corner, behind the eye, chose splats before);
// one boid alone is a mesh; a million boids filling a 100 box seen whole are splats. extentOf
// recovers a uniform ball's radius within 5 %; each couzin preset, framed as the headless
// screenshot frames it, draws meshes.
TEST(Render, AutoDrawJudgesTheFlockOnScreenNotTheWorldBox) {
    using render::DrawMode;
    Params p;
    p.dims = 3;
    p.world_size = 300.0f;
    p.boids = 100;
    p.spawn_radius = 10.0f;
    p.species[0].separation.radius = 1.0f;
    const std::vector<float> small = positionsOf(spawn(p));
    EXPECT_NEAR(render::extentOf(p, small).radius, 10.0f, 0.5f);
    render::Camera camera;
    camera.frameFlock(p, small, render::CameraMode::Follow);
    EXPECT_EQ(autoMode(p, small, camera), DrawMode::Meshes) << "framed";
    camera.zoom(8.0f);
    EXPECT_EQ(autoMode(p, small, camera), DrawMode::Meshes) << "zoomed in";
    const std::vector<float> one(small.begin(), small.begin() + 3);  // no spread: the disc is a boid's own
    EXPECT_EQ(autoMode(p, one, camera), DrawMode::Meshes) << "one boid";
    Params big;
    big.dims = 3;
    big.world_size = 100.0f;
    big.boids = 1000000;
    render::Camera whole;
    whole.reset(big);
    const glm::mat4 proj = whole.projection(1.0f);
    const render::OnScreen seen = render::onScreen(big, render::boxExtent(big, big.boids), proj * whole.view(), 200.0f * proj[1][1],
                                                   render::DrawSettings{}, 400 * 400);
    EXPECT_EQ(render::drawMode(big, seen.boid_px, seen.boids, seen.pixels), DrawMode::Splats) << seen.boid_px << " px";
    for (const char* name : {"couzin-swarm", "couzin-torus", "couzin-dynamic", "couzin-parallel"}) {
        const Params c = loadPresetFile(resolvePreset(name), Params{});
        const std::vector<float> xyz = positionsOf(spawn(c));
        render::Camera framed;
        framed.frameFlock(c, xyz, render::cameraModeOf(c));
        const DrawMode mode = autoMode(c, xyz, framed);
        EXPECT_TRUE(mode == DrawMode::Meshes || mode == DrawMode::Flat) << name << ": " << render::drawModeName(mode);
    }
}

namespace {

// A pixel's luminance (Rec. 709 weights, 0-255).
double luminance(const Frame& f, glm::vec2 px) {
    const std::uint8_t* c = &f.rgba[(std::size_t(px.y) * kW + std::size_t(px.x)) * 4];
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
}

}  // namespace

// The colour key's dusk: a sky, blue overhead and warm at the horizon (2D: the image's top is
// bluer than its foot); dark birds over it, darker where two share a pixel than where one is
// (each 0.9 opaque in 2D: 1 - 0.1^2 against 0.9 of the way from sky to the birds' colour, within
// 3 levels); in 3D a starling seen with its wings face on darkens the sky about 0.9 / 0.3 = 3
// times as much as one banked 90 degrees from that, seen edge on (points of one size, so only
// the opacity differs; face on at least 0.6 of the way from the sky to the birds' colour, the
// ratio within 0.25 and 0.45, fog included).
TEST(Render, DuskDrawsASkyAndDarkBirdsDarkerWhereDenserAndWithTheirWingsFaceOn) {
    MURMUR_REQUIRE_GL();
    Params p = world(2);
    p.draw = 2;  // points: one square a boid, so only the opacity differs
    render::HostFlock host;
    host.update({}, {});
    const Frame sky = draw(host.view(), p, 10.0f, std::nullopt, 0.0f, render::ColourBy::Dusk);
    const std::uint8_t* top = &sky.rgba[(std::size_t(kH - 2) * kW + kW / 2) * 4];
    const std::uint8_t* foot = &sky.rgba[(std::size_t(1) * kW + kW / 2) * 4];
    EXPECT_GT(int(top[2]), int(top[0])) << "blue overhead";
    EXPECT_GT(int(foot[0]), int(foot[2])) << "warm at the horizon";
    host.update({makeBoid(0, {30, 50, 0}, {3, 0, 0}), makeBoid(1, {70, 50, 0}, {3, 0, 0}), makeBoid(2, {70, 50, 0}, {0, 3, 0})}, {});
    const Frame birds = draw(host.view(), p, 10.0f, std::nullopt, 0.0f, render::ColourBy::Dusk);
    const glm::vec2 one = birds.at({30, 50, 0}), two = birds.at({70, 50, 0});
    const double dark = 0.2126 * 0.03 * 255 + 0.7152 * 0.03 * 255 + 0.0722 * 0.05 * 255;  // boid.vert's dusk colour
    EXPECT_NEAR(luminance(birds, one), luminance(sky, one) + 0.9 * (dark - luminance(sky, one)), 3.0);
    EXPECT_NEAR(luminance(birds, two), luminance(sky, two) + 0.99 * (dark - luminance(sky, two)), 3.0);

    Params q = world(3);
    q.style = Style::Starling;
    q.draw = 2;
    render::Camera camera;
    camera.reset(q);
    Flock flock;
    const glm::vec3 at[2] = {{45, 50, 50}, {55, 50, 50}};
    for (int k = 0; k < 2; ++k) {
        const glm::vec3 to_eye = glm::normalize(camera.eye() - at[k]);
        const glm::vec3 f = glm::normalize(glm::cross(to_eye, glm::vec3(0, 1, 0)));
        const glm::vec3 side = glm::normalize(glm::cross(f, glm::vec3(0, 1, 0))), up = glm::cross(side, f);
        Boid b = makeBoid(std::uint32_t(k), at[k], 10.0f * f);
        b.steer.x = std::atan2(glm::dot(to_eye, side), glm::dot(to_eye, up)) + (k == 1 ? 1.5707963f : 0.0f);
        flock.push_back(b);
    }
    host.update({}, {});
    const Frame sky3 = draw(host.view(), q, 10.0f, std::nullopt, 0.0f, render::ColourBy::Dusk);
    host.update(flock, {});
    const Frame seen = draw(host.view(), q, 10.0f, std::nullopt, 0.0f, render::ColourBy::Dusk);
    const glm::vec2 face = seen.at(at[0]), edge = seen.at(at[1]);
    const double face_dark = luminance(sky3, face) - luminance(seen, face), edge_dark = luminance(sky3, edge) - luminance(seen, edge);
    EXPECT_GT(face_dark, 0.6 * (luminance(sky3, face) - dark)) << "face on: about 0.9 of the way to the birds' colour, less the fog";
    EXPECT_GT(edge_dark / face_dark, 0.25) << face_dark << " " << edge_dark;
    EXPECT_LT(edge_dark / face_dark, 0.45) << face_dark << " " << edge_dark;
    EXPECT_NO_GL_ERRORS();
}
