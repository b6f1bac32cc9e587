// What the window and the headless screenshot draw, for either backend: a backend that is
// Drawable (the GPU pipeline) lends its storage buffers and finds and picks boids on the GPU; for
// one that keeps its flock in host memory (the CPU reference), HostDrawable copies the flock
// into buffers each frame and finds and picks over it.
#pragma once

#include "model/drawable.hpp"
#include "model/simulation.hpp"
#include "gl/framebuffer.hpp"
#include "render/camera.hpp"
#include "render/flock_renderer.hpp"
#include "render/flock_view.hpp"
#include "render/overlay.hpp"

#include <optional>
#include <string>
#include <vector>

namespace murmur {

// Drawable over any Simulation, through download() and neighbourCounts().
class HostDrawable final : public Drawable {
public:
    explicit HostDrawable(Simulation& sim) : sim_(sim) {}
    FlockBuffers buffers() override;
    std::optional<FoundBoid> find(std::uint32_t id) override;
    std::optional<std::uint32_t> pick(const PickQuery& query) override;

private:
    Simulation& sim_;
    render::HostFlock host_;
};

class FlockDisplay {
public:
    explicit FlockDisplay(Simulation& sim) : host_(sim), drawable_(sim.drawable() ? *sim.drawable() : host_) {}
    FlockDisplay(const FlockDisplay&) = delete;  // drawable_ may be host_
    FlockDisplay& operator=(const FlockDisplay&) = delete;

    // The buffers to draw this frame.
    render::FlockView view();
    std::optional<render::Selection> find(std::uint32_t id);
    // The id of the boid drawn within a few pixels of `pixel`, if any (render/picking.hpp).
    std::optional<std::uint32_t> pick(const render::Camera& camera, glm::vec2 viewport, glm::vec2 pixel);

private:
    HostDrawable host_;
    Drawable& drawable_;
};

// A framebuffer of a fixed size that the flock is drawn into and read back from: the headless
// screenshot and every recorded frame (whose size must not change as the window does).
class OffscreenFlock {
public:
    OffscreenFlock(int width, int height, const std::string& shader_dir);
    // RGBA8, bottom row first; binds the default framebuffer again afterwards.
    std::vector<std::uint8_t> render(FlockDisplay& display, const Params& p, const render::Camera& camera,
                                     const render::DrawSettings& settings);
    int width() const { return width_; }
    int height() const { return height_; }

private:
    gl::Framebuffer target_;
    render::FlockRenderer renderer_;
    int width_, height_;
};

}  // namespace murmur
