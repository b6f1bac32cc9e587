// Queued keyboard and mouse input handed to Dear ImGui between frames; see imgui_input.hpp.
#include "ui/imgui_input.hpp"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>

namespace murmur::ui {

void ImGuiInput::feed(ImGuiIO& io) {
    std::array<bool, kKeys> key_changed{};
    std::array<bool, kButtons> button_changed{};
    while (!queue_.empty()) {
        const InputEvent& e = queue_.front();
        if (e.kind == InputEvent::Key && e.code >= 0 && e.code < kKeys) {
            if (keys_[std::size_t(e.code)] != e.down) {
                if (key_changed[std::size_t(e.code)]) break;  // its second change waits for the next frame
                key_changed[std::size_t(e.code)] = true;
                keys_[std::size_t(e.code)] = e.down;
            }
        } else if (e.kind == InputEvent::Button && e.code >= 0 && e.code < kButtons) {
            if (buttons_[std::size_t(e.code)] != e.down) {
                if (button_changed[std::size_t(e.code)]) break;
                button_changed[std::size_t(e.code)] = true;
                buttons_[std::size_t(e.code)] = e.down;
                io.MousePos = ImVec2(float(e.at.x), float(e.at.y));  // the click lands where it was made
            }
        } else if (e.kind == InputEvent::Char) {
            if (e.code > 0 && e.code <= 0x10FFFF) io.AddInputCharacter(unsigned(e.code));
        } else if (e.kind == InputEvent::Scroll) {
            io.MouseWheelH += float(e.at.x);
            io.MouseWheel += float(e.at.y);
        }
        queue_.pop_front();
    }
    for (int k = 0; k < kKeys && k < int(IM_ARRAYSIZE(io.KeysDown)); ++k) io.KeysDown[k] = keys_[std::size_t(k)];
    for (int b = 0; b < kButtons; ++b) io.MouseDown[b] = buttons_[std::size_t(b)];
    io.KeyCtrl = keys_[GLFW_KEY_LEFT_CONTROL] || keys_[GLFW_KEY_RIGHT_CONTROL];
    io.KeyShift = keys_[GLFW_KEY_LEFT_SHIFT] || keys_[GLFW_KEY_RIGHT_SHIFT];
    io.KeyAlt = keys_[GLFW_KEY_LEFT_ALT] || keys_[GLFW_KEY_RIGHT_ALT];
    io.KeySuper = keys_[GLFW_KEY_LEFT_SUPER] || keys_[GLFW_KEY_RIGHT_SUPER];
}

float ImGuiInput::doubleClickTime(float frame_seconds) { return std::max(0.30f, 2.5f * frame_seconds); }

}  // namespace murmur::ui
