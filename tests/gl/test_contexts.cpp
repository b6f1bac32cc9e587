// Several murmur contexts in one process: making and ending one never ends another, and the
// context that was current before a context was made is current again after it ends. On the EGL
// device platform (NVIDIA) a display is one per device and eglTerminate ends every context on
// it; on Mesa's surfaceless platform an ended context left none current. Both broke the process's
// own context after a command-line run in-process. And a GPU flock of the public API answers only
// on the thread that made it (its context is current there).
#include "murmur/murmur.hpp"

#include "app/cli.hpp"
#include "gl/egl_context.hpp"
#include "gl/framebuffer.hpp"
#include "gpu/gpu_simulation.hpp"
#include "model/spawn.hpp"
#include "render/flock_renderer.hpp"
#include "render/flock_view.hpp"

#include "gl_env.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <sstream>
#include <string>
#include <thread>

using namespace murmur;

namespace {

GLint64 maxStorageBlock() {
    GLint64 v = 0;
    glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &v);
    return v;
}

// Steps 40 boids 5 steps in the current context: the flock moved and stayed finite.
void expectStepsHere() {
    Params p;
    p.boids = 40;
    p.world_size = 60.0f;
    gpu::GpuSimulation sim;
    const Flock start = spawn(p);
    sim.upload(start, p);
    sim.step(5);
    const Flock end = byId(sim.download());
    ASSERT_EQ(end.size(), start.size());
    float moved = 0.0f;
    for (std::size_t i = 0; i < end.size(); ++i) {
        ASSERT_TRUE(std::isfinite(end[i].p.x + end[i].p.y + end[i].v.x + end[i].v.y)) << "boid " << i;
        moved += std::abs(end[i].p.x - start[i].p.x) + std::abs(end[i].p.y - start[i].p.y);
    }
    EXPECT_GT(moved, 0.0f);
}

// Draws one large boid at the centre of a 64x64 frame in the current context: its centre pixel
// differs from the background.
void expectDrawsHere() {
    Params p;
    p.world_size = 100.0f;
    Boid b;
    b.p = {50, 50, 0};
    b.v = {3, 0, 0};
    render::HostFlock host;
    host.update({b}, {});
    render::Camera camera;
    camera.reset(p);
    render::DrawSettings settings;
    settings.show_bounds = false;
    settings.size_scale = 10.0f;
    gl::Framebuffer target(64, 64);  // throws if the framebuffer is incomplete
    target.bind();
    render::FlockRenderer renderer{gl::ShaderLibrary{}};
    renderer.draw(host.view(), p, camera, {64, 64}, settings, std::nullopt);
    const std::vector<std::uint8_t> rgba = target.readRgba();
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    const std::uint8_t* c = &rgba[(32u * 64u + 32u) * 4u];
    int diff = 0;
    for (int k = 0; k < 3; ++k)
        diff = std::max(diff, std::abs(int(c[k]) - int(settings.background[k] * 255.0f + 0.5f)));
    EXPECT_GT(diff, 24) << "the boid's centre pixel is background";
}

void expectWorkingHere(const char* when) {
    SCOPED_TRACE(when);
    EXPECT_GT(maxStorageBlock(), 0) << "no current context: GL_MAX_SHADER_STORAGE_BLOCK_SIZE reads 0";
    expectStepsHere();
    expectDrawsHere();
    EXPECT_NO_GL_ERRORS();
}

}  // namespace

TEST(Contexts, EndingASecondContextLeavesTheFirstCurrentAndWorking) {
    MURMUR_REQUIRE_GL();
    expectWorkingHere("before");
    {
        gl::HeadlessContext second;
        EXPECT_TRUE(second.isCurrent());
        expectWorkingHere("in the second");
    }
    expectWorkingHere("after the second ended");
}

TEST(Contexts, ContextsEndedOutOfOrderLeaveTheOthersWorking) {
    MURMUR_REQUIRE_GL();
    auto b = std::make_unique<gl::HeadlessContext>();
    auto c = std::make_unique<gl::HeadlessContext>();  // current now; b's before it
    b.reset();                                         // not current: ends b only, c stays current
    EXPECT_TRUE(c->isCurrent());
    expectWorkingHere("in c after b ended");
    c.reset();  // c's previous, b, is gone: b's previous, the test's own, is current again
    expectWorkingHere("in the first after b and c ended");
}

// The command line run in-process (murmur's own context, made and ended) hands the caller's
// context back: the scene of the first NVIDIA run, where every GL test after a CliGpu test failed.
TEST(Contexts, ACommandLineRunInProcessLeavesTheCallersContextWorking) {
    MURMUR_REQUIRE_GL();
    std::vector<const char*> args = {"murmur", "--headless", "--steps", "2", "--boids", "200"};
    std::ostringstream out, err;
    ASSERT_EQ(runCli(int(args.size()), args.data(), out, err), 0) << err.str();
    expectWorkingHere("after the command line");
}

// A GPU flock made with murmur's own context answers on its thread only: elsewhere a clear error,
// never a silent no-op (a step that moved nothing, zero positions). A flock made on another thread
// gets a context there and works there.
TEST(Contexts, AGpuFlockAnswersOnlyOnTheThreadThatMadeIt) {
    MURMUR_REQUIRE_GL();
    api::FlockOptions o;
    o.boids = 200;
    o.seed = 3;
    api::Flock flock(o);  // murmur's own context: no gl_loader
    flock.step(1);
    std::string message;
    std::thread other([&] {
        try {
            flock.step(5);
        } catch (const api::Error& e) {
            message = e.what();
        }
    });
    other.join();
    EXPECT_NE(message.find("belongs to the thread that made it"), std::string::npos) << message;
    EXPECT_EQ(flock.stepCount(), 1u) << "the refused step counted";

    std::vector<float> made_there;
    std::string error_there;
    std::thread maker([&] {
        try {
            api::Flock there(o);
            there.step(2);
            made_there = there.positions();
        } catch (const std::exception& e) {
            error_there = e.what();
        }
    });
    maker.join();
    ASSERT_EQ(error_there, "");
    ASSERT_EQ(made_there.size(), 600u);
    float sum = 0.0f;
    for (float x : made_there) sum += std::abs(x);
    EXPECT_GT(sum, 0.0f) << "a flock made on another thread read zeros";
    flock.step(1);
    EXPECT_EQ(flock.stepCount(), 2u);
    expectWorkingHere("after a flock on another thread");

    // A flock ended on another thread leaves its GL objects (names are per context: deleting them
    // there could delete that thread's own flock's buffers where the names coincide). Here both
    // threads' flocks work on afterwards; on Mesa the names seldom coincide, so this holds the
    // outcome, not the mechanism (a deletion in the wrong context was not seen to fail it).
    auto doomed = std::make_unique<api::Flock>(o);
    std::string ender_error;
    float ender_sum = 0.0f;
    std::thread ender([&] {
        try {
            api::Flock local(o);  // that thread's context, current there
            local.step(1);
            doomed.reset();
            local.step(2);
            for (float x : local.positions()) ender_sum += std::abs(x);
        } catch (const std::exception& e) {
            ender_error = e.what();
        }
    });
    ender.join();
    EXPECT_EQ(ender_error, "");
    EXPECT_GT(ender_sum, 0.0f) << "the other thread's flock lost its buffers";
    const std::vector<float> before = flock.positions();
    flock.step(2);
    EXPECT_EQ(flock.stepCount(), 4u);
    EXPECT_NE(flock.positions(), before);
    expectWorkingHere("after a flock ended on another thread");
}
