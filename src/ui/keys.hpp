// The keyboard shortcuts, as a table from key to action (no window needed to test them).
#pragma once

#include <span>

namespace murmur::ui {

enum class Action {
    None, TogglePause, Step, Reset, ToggleDebug, Screenshot, TogglePanel, ResetView, Quit,
    ScatterOn, ScatterOff,       // X held: the startled flock
    RadiusUp, RadiusDown,        // +/-: neighbour (alignment and cohesion) radius by 5 units, as in Parker's version
    NextCamera                   // V: the camera's next mode (auto, world, follow, ground)
};

struct KeyBinding {
    int key;              // GLFW_KEY_*
    Action action;
    const char* key_name;
    const char* what;
};

// Space pause, S step, R reset, D visual debug, F12 screenshot, H panel, C/Home view, Esc quit,
// X scatter while held, +/- neighbour radius, V camera.
std::span<const KeyBinding> keyBindings();

// The action for a key press (pressed = true) or release. text_input: an ImGui text field has
// focus, and then no key is a shortcut (the panel never steals a key being typed). Releasing X
// always ends a scatter.
Action actionForKey(int glfw_key, bool text_input, bool pressed = true);

}  // namespace murmur::ui
