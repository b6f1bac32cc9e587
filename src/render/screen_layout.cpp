// The world's rectangle beside the panel; see screen_layout.hpp.
#include "render/screen_layout.hpp"

#include <algorithm>

namespace murmur::render {

ScreenRect worldRect(glm::ivec2 framebuffer, const std::optional<ScreenRect>& panel) {
    const ScreenRect whole{0, 0, framebuffer.x, framebuffer.y};
    if (!panel || panel->w <= 0 || panel->h <= 0 || !panel->overlaps(whole)) return whole;
    const int left = std::clamp(panel->x, 0, framebuffer.x);
    const int right = std::clamp(panel->x + panel->w, 0, framebuffer.x);
    const int right_w = framebuffer.x - right;
    if (std::max(left, right_w) < kMinWorldPx) return whole;
    return left > right_w ? ScreenRect{0, 0, left, framebuffer.y} : ScreenRect{right, 0, right_w, framebuffer.y};
}

ScreenRect belowBand(const ScreenRect& world, int band_px) {
    const int band = std::clamp(band_px, 0, world.h / 2);
    return {world.x, world.y, world.w, world.h - band};  // origin bottom left: the top is y + h
}

}  // namespace murmur::render
