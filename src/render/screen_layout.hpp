// Where on the framebuffer the world is drawn: the part the panel leaves free. Pure math in
// framebuffer pixels (origin bottom left), tested without a window.
#pragma once

#include <glm/glm.hpp>

#include <optional>

namespace murmur::render {

struct ScreenRect {
    int x = 0, y = 0, w = 0, h = 0;  // pixels, origin bottom left
    glm::vec2 origin() const { return {float(x), float(y)}; }
    glm::vec2 size() const { return {float(w), float(h)}; }
    float aspect() const { return h > 0 ? float(w) / float(h) : 1.0f; }
    bool contains(glm::vec2 p) const { return p.x >= float(x) && p.y >= float(y) && p.x < float(x + w) && p.y < float(y + h); }
    bool overlaps(const ScreenRect& o) const { return x < o.x + o.w && o.x < x + w && y < o.y + o.h && o.y < y + h; }
};

// Narrower than this, a strip beside the panel is no view: the world takes the whole framebuffer.
inline constexpr int kMinWorldPx = 160;

// The world's rectangle on a framebuffer of `framebuffer` pixels: the wider of the strips left
// and right of the panel (full height), or the whole framebuffer when there is no panel or the
// wider strip is under kMinWorldPx.
ScreenRect worldRect(glm::ivec2 framebuffer, const std::optional<ScreenRect>& panel);

// The world's rectangle less a band of `band_px` along its top, where the status line and the
// legend are drawn, so that they never cover a boid; the band is at most half the rectangle.
ScreenRect belowBand(const ScreenRect& world, int band_px);

}  // namespace murmur::render
