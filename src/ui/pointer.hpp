// The mouse as gestures on the world: drags pan or orbit, the wheel zooms, a click without a drag
// picks. Events are taken in the order they came, so a press and release within one frame is
// still a click, and a gesture that starts over the panel never reaches the world. No window.
#pragma once

#include <glm/glm.hpp>

#include <functional>
#include <optional>
#include <vector>

namespace murmur::ui {

struct PointerEvent {
    enum Kind { Press, Release, Scroll } kind;
    int button = 0;     // 0 left, 1 right, 2 middle
    glm::dvec2 at{0.0};  // window units, origin top left
    double scroll = 0;   // wheel steps (Scroll)
    bool on_ui = false;  // Dear ImGui wanted the mouse when it came (a popup, a widget held)
};

struct Gestures {
    glm::dvec2 drag{0.0};           // pointer motion while a world drag is held, window units
    int drag_button = -1;           // the button holding it (-1: none)
    double zoom = 0;                // wheel steps over the world
    std::optional<glm::dvec2> click;  // a left press and release within 3 units, in the world
};

class PointerTracker {
public:
    // events: this frame's, in order; cursor: where the pointer is now; in_world: whether a point
    // is on the world (not the panel, inside the world's rectangle).
    Gestures update(const std::vector<PointerEvent>& events, glm::dvec2 cursor,
                    const std::function<bool(glm::dvec2)>& in_world);

private:
    int held_ = -1;  // the button of a drag that began on the world
    glm::dvec2 press_at_{0.0}, last_{0.0};
};

}  // namespace murmur::ui
