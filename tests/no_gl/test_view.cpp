// The view without GL: camera framing, pan, zoom and orbit; overlay geometry; picking; PNG
// encoding; the renderer-dependent default count. Pixel tolerances are stated per check.
#include "app/renderer_defaults.hpp"
#include "gl/egl_context.hpp"
#include "render/camera.hpp"
#include "render/overlay.hpp"
#include "render/picking.hpp"
#include "render/screen_layout.hpp"
#include "render/screenshot.hpp"

#include "test_util.hpp"

#include <gtest/gtest.h>
#include <stb_image.h>

#include <algorithm>
#include <cmath>

using namespace murmur;
using render::Camera;

namespace {
constexpr float kPx = 1e-2f;  // pixel tolerance of projections (float math on ~1000 px)
const glm::vec2 kViewport{800.0f, 600.0f};

glm::vec2 px(const Camera& c, glm::vec3 w) {
    glm::vec2 out;
    EXPECT_TRUE(c.toPixel(w, kViewport, out));
    return out;
}
bool inside(glm::vec2 p) { return p.x >= 0 && p.y >= 0 && p.x <= kViewport.x && p.y <= kViewport.y; }
}  // namespace

// A flock over a small part of the world is framed (100 boids in a 20-unit patch of a 300-unit
// world: the couzin presets opened as a speck about 10 px wide); a flock spread over the world
// frames the world, as reset(p) does; a few stragglers do not widen the frame.
TEST(Camera, ResetFramesASmallFlockAndTheWorldForASpreadOne) {
    for (int dims : {2, 3}) {
        SCOPED_TRACE(dims);
        Params p;
        p.dims = dims;
        p.world_size = 300.0f;
        std::vector<float> xyz;
        for (int i = 0; i < 100; ++i) {
            const float a = float(i) * 0.7f;
            xyz.insert(xyz.end(), {200.0f + 10.0f * std::cos(a), 80.0f + 10.0f * std::sin(a), dims == 3 ? 150.0f + float(i % 10) : 0.0f});
        }
        xyz.insert(xyz.end(), {5.0f, 5.0f, 5.0f});  // one straggler far away
        Camera c;
        c.setAspect(kViewport.x / kViewport.y);
        c.reset(p, xyz);
        const glm::vec2 view = kViewport;
        const glm::vec2 a = px(c, {190.0f, 70.0f, dims == 3 ? 150.0f : 0.0f}), b = px(c, {210.0f, 90.0f, dims == 3 ? 150.0f : 0.0f});
        EXPECT_LT(std::max(a.x, b.x), view.x);
        EXPECT_GT(std::min(a.x, b.x), 0.0f);
        Camera world;
        world.setAspect(kViewport.x / kViewport.y);
        world.reset(p);
        const float whole = std::abs(px(world, {210.0f, 90.0f, dims == 3 ? 150.0f : 0.0f}).x - px(world, {190.0f, 70.0f, dims == 3 ? 150.0f : 0.0f}).x);
        EXPECT_GT(std::abs(b.x - a.x), 4.0f * whole) << "the patch is not framed: " << std::abs(b.x - a.x) << " px against " << whole;
        EXPECT_GT(std::abs(b.x - a.x), (dims == 2 ? 0.4f : 0.2f) * view.x);
        std::vector<float> spread;
        for (int i = 0; i < 100; ++i) spread.insert(spread.end(), {3.0f * float(i), float((i * 37) % 300), dims == 3 ? float((i * 53) % 300) : 0.0f});
        c.reset(p, spread);
        for (const glm::vec3 corner : {glm::vec3(0.0f), glm::vec3(300.0f, 300.0f, 0.0f)}) {
            EXPECT_NEAR(px(c, corner).x, px(world, corner).x, kPx);
            EXPECT_NEAR(px(c, corner).y, px(world, corner).y, kPx);
        }
    }
}

// Follow and ground frame a flock wherever it is and however large: 200 birds in a 40-unit ball
// 500 units out of a 60-unit world (world mode would frame the world, the flock off screen).
// Follow: the flock mid-view (its box's centre: within 2 % of the view of the ball's) and its ball
// over a third of the view's height; ground: the eye on the ground (y = 0, within 0.01), looking
// up at the flock mid-view, the ball over a fifth of the height. Auto is follow in open sky and
// world in wrap.
TEST(Camera, FollowAndGroundFrameAFlockFarOutsideTheWorld) {
    Params p;
    p.dims = 3;
    p.world_size = 60.0f;
    p.bounds = Bounds::Open;
    const glm::vec3 centre(560.0f, 120.0f, -300.0f);
    std::vector<float> xyz;
    for (int i = 0; i < 200; ++i) {
        const float a = float(i) * 0.7f, b = float(i) * 1.3f;
        const glm::vec3 at = centre + 20.0f * glm::vec3(std::cos(a) * std::sin(b), std::cos(b), std::sin(a) * std::sin(b));
        xyz.insert(xyz.end(), {at.x, at.y, at.z});
    }
    EXPECT_EQ(render::cameraModeOf(p), render::CameraMode::Follow);
    Params wrap = p;
    wrap.bounds = Bounds::Wrap;
    EXPECT_EQ(render::cameraModeOf(wrap), render::CameraMode::World);
    for (render::CameraMode mode : {render::CameraMode::Follow, render::CameraMode::Ground}) {
        SCOPED_TRACE(int(mode));
        Camera c;
        c.setAspect(kViewport.x / kViewport.y);
        c.frameFlock(p, xyz, mode);
        const glm::vec2 mid = px(c, centre);
        EXPECT_NEAR(mid.x, kViewport.x / 2, 0.02f * kViewport.x);
        EXPECT_NEAR(mid.y, kViewport.y / 2, 0.02f * kViewport.y);
        float up = 0.0f;  // the ball's radius on screen, along the axis least foreshortened
        for (const glm::vec3 r : {glm::vec3(20.0f, 0.0f, 0.0f), glm::vec3(0.0f, 20.0f, 0.0f), glm::vec3(0.0f, 0.0f, 20.0f)})
            up = std::max(up, glm::length(px(c, centre + r) - mid));
        EXPECT_GT(up, kViewport.y / (mode == render::CameraMode::Ground ? 10.0f : 6.0f)) << "the ball's radius on screen";
        if (mode == render::CameraMode::Ground) {
            EXPECT_NEAR(c.eye().y, 0.0f, 1e-2f) << "on the ground";
            EXPECT_LT(c.eye().y, centre.y);
        }
    }
}

// Tracking moves the view toward a moving flock by 1 - exp(-t / 0.7 s) of the way: with the
// framed extent unchanged (60 units: the world's), after 0.7 s the view has moved 63 % of the way
// (within 1 unit of 100), after 10 s all of it (within 0.01); world mode does not move it.
TEST(Camera, TrackApproachesTheFlockSmoothly) {
    Params p;
    p.dims = 3;
    p.world_size = 60.0f;
    Camera c;
    c.setAspect(kViewport.x / kViewport.y);
    c.reset(p);
    const glm::vec3 start = c.eye();
    c.track({130.0f, 30.0f, 30.0f}, 20.0f, render::CameraMode::World, 1.0f);
    EXPECT_EQ(c.eye(), start);
    const float extent = 60.0f / 1.1f;  // framed with a 10 % margin: 60, the distance holds
    c.track({130.0f, 30.0f, 30.0f}, extent, render::CameraMode::Follow, 0.7f);
    EXPECT_NEAR(c.eye().x - start.x, 0.632f * 100.0f, 1.0f);
    c.track({130.0f, 30.0f, 30.0f}, extent, render::CameraMode::Follow, 10.0f);
    EXPECT_NEAR(c.eye().x - start.x, 100.0f, 1e-2f);
}

TEST(Camera, Reset2DCentresTheWorldAndShowsAllOfIt) {
    Params p;
    p.world_size = 100;
    Camera c;
    c.reset(p);
    const glm::vec2 centre = px(c, {50, 50, 0});
    EXPECT_NEAR(centre.x, 400.0f, kPx);
    EXPECT_NEAR(centre.y, 300.0f, kPx);
    for (glm::vec3 corner : {glm::vec3(0, 0, 0), glm::vec3(100, 0, 0), glm::vec3(0, 100, 0), glm::vec3(100, 100, 0)})
        EXPECT_TRUE(inside(px(c, corner))) << corner.x << "," << corner.y;
    // +x is right and +y is up on screen.
    EXPECT_GT(px(c, {60, 50, 0}).x, centre.x + 1);
    EXPECT_GT(px(c, {50, 60, 0}).y, centre.y + 1);
}

TEST(Camera, PanMovesTheWorldWithThePointerAndZoomMagnifies) {
    Params p;
    p.world_size = 100;
    Camera c;
    c.reset(p);
    const glm::vec2 before = px(c, {50, 50, 0});
    c.pan(100, 40, kViewport.y);  // pointer right 100 px, down 40 px (window y grows down)
    const glm::vec2 after = px(c, {50, 50, 0});
    EXPECT_NEAR(after.x - before.x, 100.0f, kPx);
    EXPECT_NEAR(after.y - before.y, -40.0f, kPx);
    c.reset(p);
    const float span = px(c, {60, 50, 0}).x - px(c, {50, 50, 0}).x;
    c.zoom(1);
    EXPECT_NEAR(px(c, {60, 50, 0}).x - px(c, {50, 50, 0}).x, span / 0.88f, 1e-3f * span);
}

TEST(Camera, Reset3DShowsTheWholeCubeAndOrbitKeepsTheTarget) {
    Params p;
    p.dims = 3;
    p.world_size = 100;
    Camera c;
    c.reset(p);
    for (int k = 0; k < 8; ++k) {
        const glm::vec3 corner((k & 1) ? 100 : 0, (k & 2) ? 100 : 0, (k & 4) ? 100 : 0);
        EXPECT_TRUE(inside(px(c, corner))) << k;
    }
    const glm::vec3 eye = c.eye();
    c.orbit(120, -30);
    EXPECT_GT(glm::length(c.eye() - eye), 1.0f);
    EXPECT_NEAR(glm::length(c.eye() - glm::vec3(50)), glm::length(eye - glm::vec3(50)), 1e-3f);
    const glm::vec2 centre = px(c, {50, 50, 50});
    EXPECT_NEAR(centre.x, 400.0f, kPx);
    EXPECT_NEAR(centre.y, 300.0f, kPx);
    glm::vec2 ignored;
    EXPECT_FALSE(c.toPixel(c.eye() + (c.eye() - glm::vec3(50)), kViewport, ignored)) << "behind the eye";
}

TEST(Camera, PointerToWorldInvertsTheProjection) {
    Params p;
    p.world_size = 100;
    Camera c;
    c.reset(p);
    c.pan(37, -12, kViewport.y);
    const glm::vec3 w = c.pointerToWorld(px(c, {30, 70, 0}), kViewport);
    EXPECT_NEAR(w.x, 30.0f, 1e-3f);
    EXPECT_NEAR(w.y, 70.0f, 1e-3f);
    EXPECT_EQ(w.z, 0.0f);
    p.dims = 3;
    c.reset(p);
    c.orbit(50, 20);
    // The orbit target (the cube's centre) projects to the viewport centre and back.
    const glm::vec3 t = c.pointerToWorld(kViewport / 2.0f, kViewport);
    EXPECT_NEAR(glm::length(t - glm::vec3(50)), 0.0f, 1e-2f);
    // A pixel off centre lands on the plane through the target facing the eye.
    const glm::vec3 q = c.pointerToWorld(kViewport / 2.0f + glm::vec2(100, 50), kViewport);
    EXPECT_NEAR(glm::dot(q - glm::vec3(50), glm::normalize(c.eye() - glm::vec3(50))), 0.0f, 1e-2f);
    const glm::vec2 back = px(c, q);
    EXPECT_NEAR(back.x, 500.0f, 0.05f);
    EXPECT_NEAR(back.y, 350.0f, 0.05f);
}

TEST(Overlay, BoundsAreARectangleIn2DAndTwelveEdgesIn3D) {
    Params p;
    p.world_size = 10;
    EXPECT_EQ(render::boundsLines(p).size(), 8u);
    p.dims = 3;
    const auto box = render::boundsLines(p);
    ASSERT_EQ(box.size(), 24u);
    for (std::size_t i = 0; i < box.size(); i += 2)  // every edge is axis-aligned and 10 long
        EXPECT_NEAR(glm::length(box[i + 1].pos - box[i].pos), 10.0f, 1e-5f);
}

TEST(Overlay, ObstaclesAreCirclesOfTheirRadiusAndGoalsAreMarked) {
    Params p;
    p.obstacles = {{{40, 60, 0}, 7}};
    const auto lines = render::influenceLines(p);
    ASSERT_FALSE(lines.empty());
    for (const auto& v : lines) EXPECT_NEAR(glm::length(v.pos - glm::vec3(40, 60, 0)), 7.0f, 1e-4f);
    p.attractor = {{10, 10, 0}, 1.0f, 0};
    EXPECT_EQ(render::influenceLines(p).size(), lines.size() + 4) << "a 2D cross is two segments";
}

TEST(Overlay, SelectionDrawsEachRadiusAroundTheBoidAndTheViewEdges) {
    Params p;
    p.species[0].separation.radius = 3;
    p.species[0].alignment.radius = 7;
    p.species[0].cohesion.radius = 11;
    p.species[0].fov_deg = 180;
    Camera c;
    c.reset(p);
    render::Selection s{5, {50, 50, 0}, {0, 2, 0}, 4};
    const auto lines = render::selectionLines(p, s, c);
    int at[3] = {0, 0, 0};
    bool edge_left = false, edge_right = false;
    for (const auto& v : lines) {
        const float d = glm::length(v.pos - s.p);
        for (int k = 0; k < 3; ++k)
            if (std::abs(d - std::array{3.0f, 7.0f, 11.0f}[std::size_t(k)]) < 1e-4f) ++at[k];
        // fov 180 heading +y: the two edges end at (50 -+ 11, 50)
        if (glm::length(v.pos - glm::vec3(39, 50, 0)) < 1e-3f) edge_left = true;
        if (glm::length(v.pos - glm::vec3(61, 50, 0)) < 1e-3f) edge_right = true;
    }
    EXPECT_GE(at[0], 64);
    EXPECT_GE(at[1], 64);
    EXPECT_GE(at[2], 64);
    EXPECT_TRUE(edge_left && edge_right);
}

// A style with a reach of its own (D'Orsogna's cut-off, 9 here) has one circle at it, none at
// the species' radii it ignores (3, 7 and 11 set as above).
TEST(Overlay, SelectionDrawsAStylesOwnReachAndNotTheRadiiItIgnores) {
    Params p;
    p.style = Style::DOrsogna;
    p.dorsogna.cutoff = 9;
    p.species[0].separation.radius = 3;
    p.species[0].alignment.radius = 7;
    p.species[0].cohesion.radius = 11;
    Camera c;
    c.reset(p);
    const render::Selection s{5, {50, 50, 0}, {0, 2, 0}, 4};
    int at_reach = 0, at_ignored = 0;
    for (const auto& v : render::selectionLines(p, s, c)) {
        const float d = glm::length(v.pos - s.p);
        if (std::abs(d - 9.0f) < 1e-4f) ++at_reach;
        for (float r : {3.0f, 7.0f, 11.0f})
            if (std::abs(d - r) < 1e-4f) ++at_ignored;
    }
    EXPECT_GE(at_reach, 64);
    EXPECT_EQ(at_ignored, 0);
}

TEST(Picking, PicksTheNearestBoidOnScreenWithinTheRadius) {
    Params p;
    p.world_size = 100;
    Camera c;
    c.reset(p);
    const Flock flock = {test::boid(7, {20, 20, 0}), test::boid(9, {22, 20, 0}), test::boid(11, {80, 80, 0})};
    const glm::vec2 at9 = px(c, {22, 20, 0});
    auto hit = render::pickBoid(flock, c, kViewport, at9 + glm::vec2(1, 0));
    ASSERT_TRUE(hit);
    EXPECT_EQ(flock[*hit].id, 9u);
    EXPECT_FALSE(render::pickBoid(flock, c, kViewport, px(c, {50, 50, 0}))) << "nothing within 12 px of the centre";
}

TEST(Picking, InThreeDTheNearerOfTwoBoidsWithinAPixelWinsAndTiesGoToTheLowestId) {
    Params p;
    p.dims = 3;
    p.world_size = 100;
    Camera c;
    c.reset(p);
    const glm::vec3 eye = c.eye(), target{50, 50, 50};
    const glm::vec3 toward = glm::normalize(target - eye);
    // Two boids on the line of sight through the target, one 20 units nearer the eye; the
    // pointer half a pixel off the far one's projection, so the near one is a little further on
    // screen but within a pixel of it.
    const glm::vec3 far_p = target, near_p = target - 20.0f * toward;
    const Flock flock = {test::boid(4, far_p), test::boid(8, near_p)};
    const glm::vec2 at = px(c, far_p) + glm::vec2(0.5f, 0.0f);
    auto hit = render::pickBoid(flock, c, kViewport, at);
    ASSERT_TRUE(hit);
    EXPECT_EQ(flock[*hit].id, 8u) << "the nearer to the eye";
    const Flock same = {test::boid(9, far_p), test::boid(5, far_p), test::boid(7, far_p)};
    hit = render::pickBoid(same, c, kViewport, px(c, far_p));
    ASSERT_TRUE(hit);
    EXPECT_EQ(same[*hit].id, 5u) << "three at one point: the lowest id";
}

TEST(Screenshot, PngIsUprightAndLossless) {
    // 3x2 image in GL order (bottom row first): bottom row red, top row blue.
    std::vector<std::uint8_t> rgba;
    for (int y = 0; y < 2; ++y)
        for (int x = 0; x < 3; ++x) {
            const std::uint8_t r = y == 0 ? 255 : 0, b = y == 1 ? 255 : 0;
            rgba.insert(rgba.end(), {r, std::uint8_t(x * 40), b, 255});
        }
    const std::string png = render::encodePng(3, 2, rgba);
    int w = 0, h = 0, n = 0;
    unsigned char* img = stbi_load_from_memory(reinterpret_cast<const unsigned char*>(png.data()), int(png.size()), &w, &h, &n, 4);
    ASSERT_NE(img, nullptr);
    EXPECT_EQ(w, 3);
    EXPECT_EQ(h, 2);
    EXPECT_EQ(img[0], 0);      // PNG's first row is the top: blue
    EXPECT_EQ(img[2], 255);
    EXPECT_EQ(img[12], 255);   // second row: red
    EXPECT_EQ(img[4 + 1], 40); // green carries x
    stbi_image_free(img);
    EXPECT_THROW(render::encodePng(4, 2, rgba), std::runtime_error);
}

TEST(RendererDefaults, SoftwareRenderersGetFewerBoidsAtTheSameDensity) {
    EXPECT_TRUE(gl::isSoftwareRenderer("llvmpipe (LLVM 15.0.6, 256 bits)"));
    EXPECT_TRUE(gl::isSoftwareRenderer("SwiftShader Device (Subzero)"));
    EXPECT_FALSE(gl::isSoftwareRenderer("NVIDIA H100 80GB HBM3/PCIe/SSE2"));
    Params p;  // 2000 boids in 300 units (2D)
    std::string why;
    const Params soft = rendererDefaults(p, true, 100000000, why);
    EXPECT_EQ(soft.boids, kSoftwareDefaultBoids);
    EXPECT_NE(why.find("software"), std::string::npos);
    const Params hard = rendererDefaults(p, false, 100000000, why);
    EXPECT_EQ(hard.boids, kHardwareDefaultBoids);
    const double density = p.boids / double(p.world_size * p.world_size);
    EXPECT_NEAR(hard.boids / double(hard.world_size * hard.world_size), density, 1e-4 * density);
    EXPECT_EQ(rendererDefaults(p, false, 300000, why).boids, 300000u);
    EXPECT_NE(why.find("capped"), std::string::npos);
    p.dims = 3;
    p.world_size = 60.0f;
    const Params hard3 = rendererDefaults(p, false, 100000000, why);
    EXPECT_NEAR(hard3.boids / std::pow(double(hard3.world_size), 3.0), p.boids / std::pow(60.0, 3.0), 1e-4 * p.boids / std::pow(60.0, 3.0));
    EXPECT_TRUE(validate(hard3).empty());
}

// The world's rectangle never lies under the panel, whatever the window and panel: the wider free
// strip is used, and only when no strip is kMinWorldPx wide does the world take the whole window.
// The status line and the legend have a band above the world: the world is drawn below it.
TEST(ScreenLayout, TheOverlayBandIsTakenFromTheWorldsTop) {
    const render::ScreenRect world{435, 0, 845, 720};
    const render::ScreenRect below = render::belowBand(world, 60);
    EXPECT_EQ(below.x, 435);
    EXPECT_EQ(below.y, 0) << "origin bottom left: the band comes off the top";
    EXPECT_EQ(below.w, 845);
    EXPECT_EQ(below.h, 660);
    EXPECT_EQ(render::belowBand(world, 5000).h, 360) << "at most half the world";
    EXPECT_EQ(render::belowBand(world, -3).h, 720);
}

TEST(ScreenLayout, TheWorldIsNeverUnderThePanel) {
    using render::ScreenRect;
    EXPECT_EQ(render::worldRect({1280, 720}, std::nullopt).w, 1280);
    const ScreenRect docked = render::worldRect({1280, 720}, ScreenRect{10, 0, 425, 710});
    EXPECT_EQ(docked.x, 435);
    EXPECT_EQ(docked.w, 1280 - 435);
    EXPECT_EQ(docked.h, 720);
    for (int w : {320, 640, 800, 1280, 1920, 3840})
        for (int h : {240, 500, 720, 2160})
            for (int px : {-100, 0, 10, 200, 500, 900, 1500})
                for (int pw : {200, 425, 850}) {
                    const ScreenRect panel{px, 20, pw, h - 40};
                    const ScreenRect r = render::worldRect({w, h}, panel);
                    SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h) + " panel at " + std::to_string(px) + " width " + std::to_string(pw));
                    EXPECT_GT(r.w, 0);
                    EXPECT_EQ(r.h, h);
                    EXPECT_GE(r.x, 0);
                    EXPECT_LE(r.x + r.w, w);
                    const int left = std::clamp(px, 0, w), right = w - std::clamp(px + pw, 0, w);
                    if (std::max(left, right) >= render::kMinWorldPx) {
                        EXPECT_FALSE(r.overlaps(panel));
                        EXPECT_EQ(r.w, std::max(left, right));
                    } else {
                        EXPECT_EQ(r.w, w) << "no strip wide enough: the whole window";
                    }
                }
}

// Framed in a rectangle of any aspect, the whole world is inside it, and it stays framed as the
// aspect changes until the user pans or zooms.
TEST(Camera, TheWorldStaysFramedInAnyAspectUntilTheUserMovesIt) {
    for (int dims : {2, 3}) {
        Params p;
        p.dims = dims;
        p.world_size = 100;
        Camera c;
        c.reset(p);
        for (glm::vec2 view : {glm::vec2(845, 720), glm::vec2(375, 500), glm::vec2(200, 900), glm::vec2(1600, 300)}) {
            c.setAspect(view.x / view.y);
            EXPECT_TRUE(c.framed());
            for (int k = 0; k < (dims == 3 ? 8 : 4); ++k) {
                const glm::vec3 corner((k & 1) ? 100 : 0, (k & 2) ? 100 : 0, (k & 4) ? 100 : 0);
                glm::vec2 at;
                ASSERT_TRUE(c.toPixel(corner, view, at));
                EXPECT_TRUE(at.x >= 0 && at.y >= 0 && at.x <= view.x && at.y <= view.y)
                    << dims << "D corner " << k << " at " << at.x << "," << at.y << " in " << view.x << "x" << view.y;
            }
        }
        c.zoom(3);
        EXPECT_FALSE(c.framed());
        glm::vec2 before, after;
        ASSERT_TRUE(c.toPixel(glm::vec3(10, 20, 0), glm::vec2(500, 500), before));
        c.setAspect(0.3f);
        ASSERT_TRUE(c.toPixel(glm::vec3(10, 20, 0), glm::vec2(500, 500), after));
        EXPECT_EQ(before, after) << "a zoomed view keeps its zoom";
        c.reset(p);
        EXPECT_TRUE(c.framed());
    }
}
