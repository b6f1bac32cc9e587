// The keyboard shortcuts, as a table from key to action (no window needed to test them).
#pragma once

#include <array>

namespace murmur::ui {

enum class Action { None, TogglePause, Step, Reset, ToggleDebug, Screenshot, TogglePanel, ResetView, Quit };

struct KeyBinding {
    int key;              // GLFW_KEY_*
    Action action;
    const char* key_name;
    const char* what;
};

// Space pause, S step, R reset, D visual debug, F12 screenshot, H panel, C/Home view, Esc quit.
const std::array<KeyBinding, 9>& keyBindings();

// The action for a key press. text_input: an ImGui text field has focus, and then no key is a
// shortcut (the panel never steals a key being typed).
Action actionForKey(int glfw_key, bool text_input);

}  // namespace murmur::ui
