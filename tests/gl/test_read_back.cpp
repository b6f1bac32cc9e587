// Reading results back never reads a compute buffer directly: every read copies into a host-side
// read buffer on the GPU and reads that after a fence. On NVIDIA a glGetNamedBufferSubData on a
// compute buffer made the driver move the buffer to host memory (and say so, once a sample). The
// spy below counts the calls the whole sample path, a download and the id-ordered arrays make.
#include "gl/buffer.hpp"
#include "gpu/gpu_simulation.hpp"
#include "model/spawn.hpp"

#include "gl_env.hpp"

#include <gtest/gtest.h>

#include <cstring>

using namespace murmur;

namespace {

int g_direct_reads = 0;
int g_copies = 0;
PFNGLGETNAMEDBUFFERSUBDATAPROC g_real_get = nullptr;
PFNGLCOPYNAMEDBUFFERSUBDATAPROC g_real_copy = nullptr;

void GLAD_API_PTR countingGet(GLuint buffer, GLintptr offset, GLsizeiptr size, void* data) {
    ++g_direct_reads;
    g_real_get(buffer, offset, size, data);
}
void GLAD_API_PTR countingCopy(GLuint from, GLuint to, GLintptr a, GLintptr b, GLsizeiptr size) {
    ++g_copies;
    g_real_copy(from, to, a, b, size);
}

// Swaps glad's entry points for counting ones for a scope.
struct ReadSpy {
    ReadSpy() {
        g_direct_reads = g_copies = 0;
        g_real_get = glad_glGetNamedBufferSubData;
        g_real_copy = glad_glCopyNamedBufferSubData;
        glad_glGetNamedBufferSubData = countingGet;
        glad_glCopyNamedBufferSubData = countingCopy;
    }
    ~ReadSpy() {
        glad_glGetNamedBufferSubData = g_real_get;
        glad_glCopyNamedBufferSubData = g_real_copy;
    }
};

}  // namespace

TEST(ReadBack, TheSampleAndEveryDownloadCopyIntoAReadBufferNeverReadAComputeBuffer) {
    MURMUR_REQUIRE_GL();
    Params p;
    p.boids = 500;
    p.world_size = 120.0f;
    gpu::GpuSimulation sim;
    sim.upload(spawn(p), p);
    sim.step(3);
    const std::uint64_t before = gl::bytesReadBack();
    {
        ReadSpy spy;
        const OrderParams o = sim.measure();  // the whole sample: sums, histogram, groups
        EXPECT_EQ(o.boids, 500u);
        EXPECT_GT(o.mean_speed, 0.0);
        const Flock flock = sim.download();
        ASSERT_EQ(flock.size(), 500u);
        std::vector<float> xyz(1500), vel(1500);
        sim.readXyzById(xyz.data(), vel.data());
        float sum = 0.0f;
        for (float x : xyz) sum += std::abs(x);
        EXPECT_GT(sum, 0.0f);
        EXPECT_EQ(g_direct_reads, 0) << "glGetNamedBufferSubData read a compute buffer";
        EXPECT_GT(g_copies, 0) << "the reads went through no copy";
    }
    EXPECT_GT(gl::bytesReadBack(), before + 500u * 16u);
    EXPECT_NO_GL_ERRORS();
}

// A read buffer reads the bytes asked for, from the offset asked for, and grows for a larger read.
TEST(ReadBack, ABufferReadsBackTheBytesAtAnOffsetAndGrows) {
    MURMUR_REQUIRE_GL();
    std::vector<std::uint32_t> words(4096);
    for (std::size_t i = 0; i < words.size(); ++i) words[i] = std::uint32_t(i * 2654435761u);
    gl::Buffer buffer(words.size() * 4, words.data());
    EXPECT_EQ(buffer.read<std::uint32_t>(3, 10), (std::vector<std::uint32_t>{words[10], words[11], words[12]}));
    EXPECT_EQ(buffer.read<std::uint32_t>(4096), words);
    EXPECT_EQ(buffer.read<std::uint32_t>(1, 4095).front(), words[4095]);
    EXPECT_NO_GL_ERRORS();
}
