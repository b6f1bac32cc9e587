// One headless EGL context shared by every GL test of a process (a GoogleTest environment).
// A GL test with no context FAILS, unless MURMUR_ALLOW_NO_GL=1 says the user opted out; then it
// is reported as skipped, never as passed.
#pragma once

#include "gl/debug.hpp"
#include "gl/egl_context.hpp"
#include "gl/gl.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <string>

namespace murmur::test {

class GlEnvironment : public ::testing::Environment {
public:
    void SetUp() override {
        try {
            context_ = std::make_unique<gl::HeadlessContext>(/*debug=*/true);
            gl::enableDebugOutput();
        } catch (const std::exception& e) {
            error_ = e.what();
        }
        // MURMUR_EXPECT_RENDERER=zink (scripts/test.sh's second driver): any other renderer fails
        // every GL test rather than passing them on the wrong driver.
        const char* want = std::getenv("MURMUR_EXPECT_RENDERER");
        if (context_ && want && *want && gl::rendererString().rfind(want, 0) != 0) {
            error_ = "renderer '" + gl::rendererString() + "' does not start with MURMUR_EXPECT_RENDERER='" + want + "'";
            context_.reset();
        }
    }
    // The context is left to the process's exit, not destroyed here: Mesa 22.3's zink over
    // lavapipe aborted once in this teardown ("free(): invalid pointer", after the test had
    // passed; one of about 1,100 test processes in the zink stage). Contexts made and destroyed
    // within a test (the command line run in-process, the public API's) still exercise
    // HeadlessContext's destructor on both drivers.
    void TearDown() override {
        if (context_) glFinish();  // nothing in flight when the process ends
        (void)context_.release();
    }
    static bool ready() { return instance().context_ != nullptr; }
    static const std::string& error() { return instance().error_; }
    static GlEnvironment& instance() {
        static GlEnvironment* env = static_cast<GlEnvironment*>(::testing::AddGlobalTestEnvironment(new GlEnvironment));
        return *env;
    }

private:
    std::unique_ptr<gl::HeadlessContext> context_;
    std::string error_;
};

inline bool allowNoGl() {
    const char* v = std::getenv("MURMUR_ALLOW_NO_GL");
    return v && std::string(v) == "1";
}

}  // namespace murmur::test

// First line of every GL test: fails without a context (skips only if the user opted out).
#define MURMUR_REQUIRE_GL()                                                                          \
    do {                                                                                             \
        if (!::murmur::test::GlEnvironment::ready()) {                                               \
            if (::murmur::test::allowNoGl())                                                         \
                GTEST_SKIP() << "no GL context (MURMUR_ALLOW_NO_GL=1): " << ::murmur::test::GlEnvironment::error(); \
            FAIL() << "no GL context: " << ::murmur::test::GlEnvironment::error()                   \
                   << "\n(set MURMUR_ALLOW_NO_GL=1 to skip GL tests on purpose)";                    \
        }                                                                                            \
    } while (0)

// After GL work: no debug-output errors and no glGetError.
#define EXPECT_NO_GL_ERRORS() EXPECT_EQ(::murmur::gl::takeErrorCount(), 0u) << "GL errors (see stderr)"
