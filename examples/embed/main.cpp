// Embedding murmur: this program owns the window and the GL context; murmur steps a flock in that
// context (the flock is told how to find GL's functions) and hands out the GL names of its state,
// which this program draws as points with a shader of its own, with no copy.
// Usage: embed [FRAMES] [OUT.ppm]  (FRAMES 0: until the window is closed; OUT: the last frame)
#include <murmur/murmur.hpp>

#define GL_GLEXT_PROTOTYPES
#include <GL/glcorearb.h>
#include <GLFW/glfw3.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

const char* kVertex = R"(#version 450
layout(location = 0) in vec4 position;  // murmur's: xyz, the id's bits in w
uniform float u_world;
void main() {
    gl_Position = vec4(position.xy / u_world * 2.0 - 1.0, 0.0, 1.0);
    gl_PointSize = 3.0;
})";

const char* kFragment = R"(#version 450
out vec4 colour;
void main() { colour = vec4(1.0, 0.85, 0.4, 1.0); })";

GLuint compile(GLenum kind, const char* text) {
    GLuint s = glCreateShader(kind);
    glShaderSource(s, 1, &text, nullptr);
    glCompileShader(s);
    return s;
}

void writePpm(const char* path, int w, int h) {
    std::vector<unsigned char> rgb(std::size_t(w) * h * 3);
    glReadPixels(0, 0, w, h, GL_RGB, GL_UNSIGNED_BYTE, rgb.data());
    FILE* f = std::fopen(path, "wb");
    if (!f) return;
    std::fprintf(f, "P6 %d %d 255\n", w, h);
    for (int y = h - 1; y >= 0; --y) std::fwrite(rgb.data() + std::size_t(y) * w * 3, 1, std::size_t(w) * 3, f);
    std::fclose(f);
}

}  // namespace

int main(int argc, char** argv) {
    const int frames = argc > 1 ? std::atoi(argv[1]) : 0;
    if (!glfwInit()) return 1;
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 5);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    GLFWwindow* window = glfwCreateWindow(512, 512, "murmur, embedded", nullptr, nullptr);
    if (!window) return 1;
    glfwMakeContextCurrent(window);
    try {
        murmur::api::Flock flock({.preset = "default", .boids = 2000, .gl_loader = glfwGetProcAddress});
        const float world = std::stof(flock.get("world_size"));
        GLuint program = glCreateProgram();
        glAttachShader(program, compile(GL_VERTEX_SHADER, kVertex));
        glAttachShader(program, compile(GL_FRAGMENT_SHADER, kFragment));
        glLinkProgram(program);
        GLuint vao = 0;
        glCreateVertexArrays(1, &vao);
        glEnable(GL_PROGRAM_POINT_SIZE);
        int frame = 0;
        while (!glfwWindowShouldClose(window) && (frames == 0 || frame < frames)) {
            flock.step(1);
            const murmur::api::GlBuffers b = flock.glBuffers();
            glVertexArrayVertexBuffer(vao, 0, b.positions, 0, 16);  // murmur's buffer, drawn as it is
            glEnableVertexArrayAttrib(vao, 0);
            glVertexArrayAttribFormat(vao, 0, 4, GL_FLOAT, GL_FALSE, 0);
            glVertexArrayAttribBinding(vao, 0, 0);
            int w = 0, h = 0;
            glfwGetFramebufferSize(window, &w, &h);
            glViewport(0, 0, w, h);
            glClearColor(0.05f, 0.07f, 0.12f, 1.0f);
            glClear(GL_COLOR_BUFFER_BIT);
            glUseProgram(program);
            glUniform1f(glGetUniformLocation(program, "u_world"), world);
            glBindVertexArray(vao);
            glDrawArrays(GL_POINTS, 0, GLsizei(b.count));
            if (argc > 2 && frame + 1 == frames) writePpm(argv[2], w, h);
            glfwSwapBuffers(window);
            glfwPollEvents();
            ++frame;
        }
        std::printf("embed: %d frames, %u boids, step %llu, polarization %.3f\n", frame, flock.size(),
                    static_cast<unsigned long long>(flock.stepCount()), flock.orderParameters().at("polarization"));
    } catch (const murmur::api::Error& e) {
        std::fprintf(stderr, "embed: %s\n", e.what());
        return 2;
    }
    glfwDestroyWindow(window);
    glfwTerminate();
    return 0;
}
