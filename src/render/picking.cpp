// Picking; see picking.hpp.
#include "render/picking.hpp"

#include <limits>

namespace murmur::render {

std::optional<std::size_t> pickBoid(const Flock& flock, const Camera& camera, glm::vec2 viewport, glm::vec2 pixel,
                                    float max_px) {
    std::optional<std::size_t> best;
    float best_px = max_px, best_depth = std::numeric_limits<float>::max();
    const glm::vec3 eye = camera.eye();
    for (std::size_t i = 0; i < flock.size(); ++i) {
        glm::vec2 at;
        if (!camera.toPixel(flock[i].p, viewport, at)) continue;
        const float px = glm::length(at - pixel);
        if (px > max_px) continue;
        const float depth = camera.dims() == 3 ? glm::length(flock[i].p - eye) : 0.0f;
        // Nearer on screen wins; in 3D, within a pixel of each other, the nearer to the eye wins.
        const bool better = !best || (camera.dims() == 2 ? px < best_px
                                                          : px < best_px - 1.0f || (px <= best_px + 1.0f && depth < best_depth));
        if (better) {
            best = i;
            best_px = px;
            best_depth = depth;
        }
    }
    return best;
}

}  // namespace murmur::render
