// What the window and the headless screenshot draw, for either backend: the GPU pipeline lends
// its storage buffers; the CPU reference's flock is copied into buffers each frame. Also finds
// a boid by id (visual debug) and picks the boid under the pointer.
#pragma once

#include "model/simulation.hpp"
#include "gl/framebuffer.hpp"
#include "render/camera.hpp"
#include "render/flock_renderer.hpp"
#include "render/flock_view.hpp"
#include "render/overlay.hpp"

#include <optional>
#include <string>
#include <vector>

namespace murmur::gpu {
class GpuSimulation;
}

namespace murmur {

class FlockDisplay {
public:
    // gpu: the same object as sim when the backend is the GPU pipeline, else null.
    FlockDisplay(Simulation& sim, gpu::GpuSimulation* gpu) : sim_(sim), gpu_(gpu) {}

    // The buffers to draw this frame (the CPU backend uploads its current flock).
    render::FlockView view();
    std::optional<render::Selection> find(std::uint32_t id);
    // The id of the boid drawn within a few pixels of `pixel`, if any (downloads the flock).
    std::optional<std::uint32_t> pick(const render::Camera& camera, glm::vec2 viewport, glm::vec2 pixel);

private:
    Simulation& sim_;
    gpu::GpuSimulation* gpu_;
    render::HostFlock host_;
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
