// What the window's keyboard and mouse say to Dear ImGui, queued as it happens and handed over
// between frames. Debian's Dear ImGui 1.86 reads key and button state once per frame, so a press
// and release within one frame would be lost (at 4 frames/s a quick click or key press often is),
// and state changed in the middle of a frame trips its modifier check (a step sliced across a frame
// polls events). The queue takes events at any time and feeds them only in feed(), before
// ImGui::NewFrame(), at most one change per key or button a frame: a press is seen for a frame,
// its release on the next. No GLFW or GL here: tests drive it with synthetic events.
#pragma once

#include <glm/glm.hpp>

#include <array>
#include <cstdint>
#include <deque>

struct ImGuiIO;

namespace murmur::ui {

struct InputEvent {
    enum Kind : std::uint8_t { Key, Button, Char, Scroll } kind;
    int code = 0;        // Key: GLFW key code; Button: 0 left, 1 right, 2 middle; Char: the code point
    bool down = false;   // Key, Button: pressed (true) or released
    glm::dvec2 at{0.0};  // Button: where the pointer was, window units; Scroll: the wheel's x and y
};

class ImGuiInput {
public:
    void push(const InputEvent& e) { queue_.push_back(e); }
    // Hands the queued events to io, in order, until one would change a key or button already
    // changed this frame (it waits for the next frame); the rest of the queue waits with it, so
    // text keeps its order. Sets io's buttons, keys and modifiers from the state so far. Call
    // after the platform backend's NewFrame (which reads live button state) and before
    // ImGui::NewFrame().
    void feed(ImGuiIO& io);
    std::size_t pending() const { return queue_.size(); }
    // Seconds within which two clicks are one double click, at this frame time: a double click
    // whose clicks are fed in separate frames is still one at 2 frames/s.
    static float doubleClickTime(float frame_seconds);

private:
    static constexpr int kKeys = 512, kButtons = 5;
    std::deque<InputEvent> queue_;
    std::array<bool, kKeys> keys_{};
    std::array<bool, kButtons> buttons_{};
};

}  // namespace murmur::ui
