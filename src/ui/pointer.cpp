// Pointer events to gestures; see pointer.hpp.
#include "ui/pointer.hpp"

namespace murmur::ui {

Gestures PointerTracker::update(const std::vector<PointerEvent>& events, glm::dvec2 cursor,
                                const std::function<bool(glm::dvec2)>& in_world) {
    Gestures g;
    for (const PointerEvent& e : events) {
        switch (e.kind) {
        case PointerEvent::Scroll:
            if (!e.on_ui && in_world(e.at)) g.zoom += e.scroll;
            break;
        case PointerEvent::Press:
            if (held_ < 0 && !e.on_ui && in_world(e.at)) {
                held_ = e.button;
                press_at_ = last_ = e.at;
            }
            break;
        case PointerEvent::Release:
            if (e.button != held_) break;
            g.drag += e.at - last_;
            g.drag_button = held_;
            if (held_ == 0 && glm::length(e.at - press_at_) < 3.0) g.click = e.at;
            held_ = -1;
            break;
        }
    }
    if (held_ >= 0) {
        g.drag += cursor - last_;
        g.drag_button = held_;
        last_ = cursor;
    }
    return g;
}

}  // namespace murmur::ui
