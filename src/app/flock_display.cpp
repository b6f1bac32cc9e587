// FlockDisplay; see flock_display.hpp.
#include "app/flock_display.hpp"

#include "render/picking.hpp"

namespace murmur {

FlockBuffers HostDrawable::buffers() {
    const Flock flock = sim_.download();
    const auto by_id = sim_.neighbourCounts();
    std::vector<std::uint32_t> counts(flock.size(), 0u);
    for (std::size_t i = 0; i < flock.size(); ++i)
        if (flock[i].id < by_id.size()) counts[i] = by_id[flock[i].id];
    host_.update(flock, counts);
    return host_.view();
}

std::optional<FoundBoid> HostDrawable::find(std::uint32_t id) {
    const Flock flock = sim_.download();
    for (const Boid& b : flock)
        if (b.id == id) {
            const auto counts = sim_.neighbourCounts();
            return FoundBoid{b, id < counts.size() ? counts[id] : 0u};
        }
    return std::nullopt;
}

std::optional<std::uint32_t> HostDrawable::pick(const PickQuery& query) {
    const Flock flock = sim_.download();
    const auto index = render::pickBoid(flock, query);
    if (!index) return std::nullopt;
    return flock[*index].id;
}

render::FlockView FlockDisplay::view() { return drawable_.buffers(); }

std::optional<render::Selection> FlockDisplay::find(std::uint32_t id) {
    const auto found = drawable_.find(id);
    if (!found) return std::nullopt;
    return render::Selection{id, found->boid.p, found->boid.v, found->neighbours};
}

std::optional<std::uint32_t> FlockDisplay::pick(const render::Camera& camera, glm::vec2 viewport, glm::vec2 pixel) {
    return drawable_.pick(render::pickQuery(camera, viewport, pixel));
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
