// FlockDisplay; see flock_display.hpp.
#include "app/flock_display.hpp"

#include "gpu/gpu_simulation.hpp"
#include "render/picking.hpp"

namespace murmur {

render::FlockView FlockDisplay::view() {
    if (gpu_)
        return {gpu_->positions().id(), gpu_->velocities().id(), gpu_->neighbours().id(), gpu_->boids(),
                gpu_->steering().id()};
    const Flock flock = sim_.download();
    const auto by_id = sim_.neighbourCounts();
    std::vector<std::uint32_t> counts(flock.size(), 0u);
    for (std::size_t i = 0; i < flock.size(); ++i)
        if (flock[i].id < by_id.size()) counts[i] = by_id[flock[i].id];
    host_.update(flock, counts);
    return host_.view();
}

std::optional<render::Selection> FlockDisplay::find(std::uint32_t id) {
    if (gpu_) {
        const auto found = gpu_->find(id);
        if (!found) return std::nullopt;
        return render::Selection{id, found->boid.p, found->boid.v, found->neighbours};
    }
    const Flock flock = sim_.download();
    for (const Boid& b : flock)
        if (b.id == id) {
            const auto counts = sim_.neighbourCounts();
            return render::Selection{id, b.p, b.v, id < counts.size() ? counts[id] : 0u};
        }
    return std::nullopt;
}

std::optional<std::uint32_t> FlockDisplay::pick(const render::Camera& camera, glm::vec2 viewport, glm::vec2 pixel) {
    const Flock flock = sim_.download();
    const auto index = render::pickBoid(flock, camera, viewport, pixel);
    if (!index) return std::nullopt;
    return flock[*index].id;
}

OffscreenFlock::OffscreenFlock(int width, int height, const std::string& shader_dir)
    : target_(width, height), renderer_(gl::ShaderLibrary(shader_dir)), width_(width), height_(height) {}

std::vector<std::uint8_t> OffscreenFlock::render(FlockDisplay& display, const Params& p, const render::Camera& camera,
                                                 const render::DrawSettings& settings) {
    target_.bind();
    renderer_.draw(display.view(), p, camera, {width_, height_}, settings, std::nullopt);
    auto pixels = target_.readRgba();
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    return pixels;
}

}  // namespace murmur
