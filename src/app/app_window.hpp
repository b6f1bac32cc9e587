// The GLFW window, its OpenGL 4.5 context and Dear ImGui on it, created together and destroyed
// together (ImGui first, GLFW last). Keys and the wheel are collected into Input for the loop and
// for Dear ImGui, which sees them only between frames (events may be polled mid-frame).
#pragma once

#include "ui/imgui_input.hpp"
#include "ui/keys.hpp"
#include "ui/pointer.hpp"

#include <stdexcept>
#include <string>
#include <vector>

struct GLFWwindow;

namespace murmur {

// No window could be had (no display, no GL 4.5 context, ...): the caller runs headless.
class WindowUnavailable : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// What the callbacks collect between two frames, in order.
struct Input {
    std::vector<ui::PointerEvent> pointer;  // buttons and wheel, in the order they came
    std::vector<ui::Action> actions;
    ui::ImGuiInput imgui;  // the same events for Dear ImGui, fed between frames
};

class AppWindow {
public:
    // Throws WindowUnavailable naming what is missing.
    AppWindow(int width, int height, bool vsync);
    ~AppWindow();
    AppWindow(const AppWindow&) = delete;
    AppWindow& operator=(const AppWindow&) = delete;

    GLFWwindow* handle() const { return window_; }
    Input& input() { return input_; }
    bool shouldClose() const;
    void close();
    // Dear ImGui's new frame / its draw data rendered into the current framebuffer.
    void beginImGuiFrame();
    void renderImGui();

private:
    struct Glfw {  // glfwInit/glfwTerminate
        Glfw();
        ~Glfw();
    } glfw_;
    GLFWwindow* window_ = nullptr;
    Input input_;
};

}  // namespace murmur
