// Key table; see keys.hpp.
#include "ui/keys.hpp"

#include <GLFW/glfw3.h>

namespace murmur::ui {

std::span<const KeyBinding> keyBindings() {
    static const KeyBinding table[] = {
        {GLFW_KEY_SPACE, Action::TogglePause, "Space", "run / pause"},
        {GLFW_KEY_S, Action::Step, "S", "single step (pauses)"},
        {GLFW_KEY_R, Action::Reset, "R", "reset the flock (same seed)"},
        {GLFW_KEY_D, Action::ToggleDebug, "D", "visual debug: click a boid to see its radii and view"},
        {GLFW_KEY_F12, Action::Screenshot, "F12", "screenshot (PNG in the working directory)"},
        {GLFW_KEY_H, Action::TogglePanel, "H", "hide / show the panel"},
        {GLFW_KEY_C, Action::ResetView, "C", "reset the view"},
        {GLFW_KEY_HOME, Action::ResetView, "Home", "reset the view"},
        {GLFW_KEY_V, Action::NextCamera, "V", "camera: auto, world, follow the flock, from the ground"},
        {GLFW_KEY_ESCAPE, Action::Quit, "Esc", "quit"},
        {GLFW_KEY_X, Action::ScatterOn, "X", "scatter while held (cohesion turns negative)"},
        {GLFW_KEY_EQUAL, Action::RadiusUp, "+", "neighbour radius +5 (alignment and cohesion, or the style's cut-off)"},
        {GLFW_KEY_KP_ADD, Action::RadiusUp, "KP+", "neighbour radius +5"},
        {GLFW_KEY_MINUS, Action::RadiusDown, "-", "neighbour radius -5"},
        {GLFW_KEY_KP_SUBTRACT, Action::RadiusDown, "KP-", "neighbour radius -5"},
    };
    return table;
}

Action actionForKey(int glfw_key, bool text_input, bool pressed) {
    if (!pressed) return glfw_key == GLFW_KEY_X ? Action::ScatterOff : Action::None;
    if (text_input) return Action::None;
    for (const KeyBinding& b : keyBindings())
        if (b.key == glfw_key) return b.action;
    return Action::None;
}

}  // namespace murmur::ui
