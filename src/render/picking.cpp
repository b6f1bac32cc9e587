// Picking; see picking.hpp.
#include "render/picking.hpp"

#include <limits>

namespace murmur::render {

PickQuery pickQuery(const Camera& camera, glm::vec2 viewport, glm::vec2 pixel, float max_px) {
    PickQuery q;
    q.view_projection = camera.viewProjection(viewport.x / viewport.y);
    q.viewport = viewport;
    q.pixel = pixel;
    q.eye = camera.eye();
    q.three_d = camera.dims() == 3;
    q.max_px = max_px;
    return q;
}

std::optional<float> screenDistance(const PickQuery& q, const glm::vec3& p) {
    const glm::vec4 clip = q.view_projection * glm::vec4(p, 1.0f);
    if (clip.w <= 0.0f) return std::nullopt;
    const glm::vec2 at = (glm::vec2(clip) / clip.w * 0.5f + 0.5f) * q.viewport;
    return glm::length(at - q.pixel);
}

std::optional<std::size_t> pickBoid(const Flock& flock, const PickQuery& q) {
    constexpr float kNone = std::numeric_limits<float>::infinity();
    std::vector<float> px(flock.size(), kNone);
    float nearest_px = kNone;
    for (std::size_t i = 0; i < flock.size(); ++i) {
        const auto d = screenDistance(q, flock[i].p);
        if (d && *d <= q.max_px) px[i] = *d;
        nearest_px = std::min(nearest_px, px[i]);
    }
    if (nearest_px == kNone) return std::nullopt;
    const float reach = q.three_d ? nearest_px + 1.0f : nearest_px;
    auto depthOf = [&](std::size_t i) { return q.three_d ? glm::length(flock[i].p - q.eye) : 0.0f; };
    float nearest_depth = kNone;
    for (std::size_t i = 0; i < flock.size(); ++i)
        if (px[i] <= reach) nearest_depth = std::min(nearest_depth, depthOf(i));
    std::optional<std::size_t> best;
    for (std::size_t i = 0; i < flock.size(); ++i)
        if (px[i] <= reach && depthOf(i) == nearest_depth && (!best || flock[i].id < flock[*best].id)) best = i;
    return best;
}

}  // namespace murmur::render
