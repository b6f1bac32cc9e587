// Window, context and ImGui set-up and tear-down; see app_window.hpp.
#include "app/app_window.hpp"

#include "gl/debug.hpp"
#include "gl/egl_context.hpp"
#include "gl/gl.hpp"

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

namespace murmur {
namespace {

// GLFW's description of its last error (glfwGetError: no callback, no global).
std::string lastGlfwError() {
    const char* text = nullptr;
    glfwGetError(&text);
    return text ? text : "no reason given";
}

GLFWwindow* createWindow(int width, int height) {
    {
        glfwDefaultWindowHints();
        glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
        glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 5);
        glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
        glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
        glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
        if (GLFWwindow* w = glfwCreateWindow(width, height, "murmur", nullptr, nullptr)) return w;
    }
    return nullptr;
}

// Each button and wheel event with where the pointer was: a click shorter than a frame counts.
// Returns that place.
glm::dvec2 recordPointer(GLFWwindow* w, ui::PointerEvent e) {
    glfwGetCursorPos(w, &e.at.x, &e.at.y);
    e.on_ui = ImGui::GetIO().WantCaptureMouse;
    static_cast<Input*>(glfwGetWindowUserPointer(w))->pointer.push_back(e);
    return e.at;
}

Input& inputOf(GLFWwindow* w) { return *static_cast<Input*>(glfwGetWindowUserPointer(w)); }

// Installed after Dear ImGui's backend, replacing its key, character, button and wheel callbacks
// (it keeps focus and cursor-enter): each event is queued for ImGui (ui::ImGuiInput) and the loop.
void installCallbacks(GLFWwindow* window) {
    glfwSetScrollCallback(window, [](GLFWwindow* w, double dx, double dy) {
        recordPointer(w, {ui::PointerEvent::Scroll, 0, {}, dy});
        inputOf(w).imgui.push({ui::InputEvent::Scroll, 0, false, {dx, dy}});
    });
    glfwSetMouseButtonCallback(window, [](GLFWwindow* w, int button, int action, int) {
        const auto kind = action == GLFW_PRESS ? ui::PointerEvent::Press : ui::PointerEvent::Release;
        glm::dvec2 at{0.0};
        if (button <= 2) at = recordPointer(w, {kind, button, {}, 0});
        else glfwGetCursorPos(w, &at.x, &at.y);
        inputOf(w).imgui.push({ui::InputEvent::Button, button, action == GLFW_PRESS, at});
    });
    glfwSetKeyCallback(window, [](GLFWwindow* w, int key, int, int action, int) {
        const ImGuiIO& io = ImGui::GetIO();
        const auto a = ui::actionForKey(key, io.WantTextInput, action != GLFW_RELEASE);
        if (a != ui::Action::None) inputOf(w).actions.push_back(a);
        if (action != GLFW_REPEAT) inputOf(w).imgui.push({ui::InputEvent::Key, key, action == GLFW_PRESS, {}});
    });
    glfwSetCharCallback(window, [](GLFWwindow* w, unsigned int c) { inputOf(w).imgui.push({ui::InputEvent::Char, int(c), false, {}}); });
}

void setUpImGui(GLFWwindow* window) {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini dropped in the working directory
    float xscale = 1, yscale = 1;
    glfwGetWindowContentScale(window, &xscale, &yscale);
    ImGui::StyleColorsDark();
    if (xscale > 1.0f) {
        ImGui::GetStyle().ScaleAllSizes(xscale);
        ImGui::GetIO().FontGlobalScale = xscale;
    }
    ImGui_ImplGlfw_InitForOpenGL(window, true);  // its focus and cursor-enter callbacks; the rest are ours
    ImGui_ImplOpenGL3_Init("#version 430");
    installCallbacks(window);
}

}  // namespace

AppWindow::Glfw::Glfw() {
    gl::workAroundDriverBugs();
    if (glfwInit() != GLFW_TRUE) throw WindowUnavailable("GLFW: " + lastGlfwError());
}

AppWindow::Glfw::~Glfw() { glfwTerminate(); }

AppWindow::AppWindow(int width, int height, bool vsync) {
    window_ = createWindow(width, height);
    if (!window_) throw WindowUnavailable("no OpenGL 4.5 window (murmur uses 4.5's direct state access): " + lastGlfwError());
    glfwMakeContextCurrent(window_);
    if (!gladLoadGL(reinterpret_cast<GLADloadfunc>(glfwGetProcAddress)) || !GLAD_GL_VERSION_4_5) {
        glfwDestroyWindow(window_);
        throw WindowUnavailable("the window's context has no OpenGL 4.5 (murmur uses its direct state access)");
    }
    gl::enableDebugOutput();
    glfwSwapInterval(vsync ? 1 : 0);
    glfwSetWindowUserPointer(window_, &input_);
    setUpImGui(window_);
}

AppWindow::~AppWindow() {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    glfwDestroyWindow(window_);
}

bool AppWindow::shouldClose() const { return glfwWindowShouldClose(window_) != 0; }

void AppWindow::close() { glfwSetWindowShouldClose(window_, GLFW_TRUE); }

void AppWindow::beginImGuiFrame() {
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGuiIO& io = ImGui::GetIO();
    input_.imgui.feed(io);
    io.MouseDoubleClickTime = ui::ImGuiInput::doubleClickTime(io.DeltaTime);
    ImGui::NewFrame();
}

void AppWindow::renderImGui() {
    // The backend saves the current program and restores it after drawing: none, so that a
    // program deleted while current (the engine rebuilds its programs when the variant changes)
    // is never restored by a name that no longer exists.
    glUseProgram(0);
    ImGui::Render();
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

}  // namespace murmur
