#include "gpu/correlation_pass.hpp"

#include "gpu/dispatch.hpp"
#include "gpu/layout.hpp"

#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

#include <stdexcept>

namespace murmur::gpu {

static_assert(kMaxCorrelationBins == MAX_CORR_BINS);

namespace {

constexpr GLenum kSsbo = GL_SHADER_STORAGE_BUFFER;

// A bin's two 32-bit words as the 64-bit two's complement integer they hold.
std::int64_t wordsValue(std::uint32_t low, std::uint32_t high) {
    return std::int64_t((std::uint64_t(high) << 32) | std::uint64_t(low));
}

}  // namespace

PairSums CorrelationPass::measure(FlockState& s, const gl::ShaderLibrary& lib, const std::vector<gl::ShaderDefine>& defines,
                                  std::uint32_t flock, std::uint32_t bins, double r_max) {
    if (bins < 1 || bins > kMaxCorrelationBins) throw std::invalid_argument("CorrelationPass: bins outside [1, kMaxCorrelationBins]");
    const EnsembleFlock* f = s.ensembleFlock(flock);
    const std::uint32_t first = f ? f->first_slot : 0, boids = f ? f->boids : s.n;
    if (!mean_) {
        std::vector<gl::Program> built = gl::buildComputes(lib, shaderFiles(), defines);
        mean_ = std::move(built[0]);
        pairs_ = std::move(built[1]);
    }
    if (!mean_u2_) mean_u2_ = gl::Buffer(4 * sizeof(float));
    if (bins_.size() < std::size_t(bins) * 16) bins_ = gl::Buffer(std::size_t(kMaxCorrelationBins) * 16);
    bins_.clearToZero();
    s.bind();
    mean_u2_.bindBase(kSsbo, BIND_CORR_MEAN);
    bins_.bindBase(kSsbo, BIND_CORR_BINS);
    for (const gl::Program* program : {&mean_, &pairs_}) {
        program->use();
        glUniform1ui(program->uniform("u_boids"), boids);
        glUniform1ui(program->uniform("u_first"), first);
        glUniform1ui(program->uniform("u_flock"), flock);
    }
    mean_.use();
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    glDispatchCompute(1, 1, 1);
    pairs_.use();
    glUniform1ui(pairs_.uniform("u_bins"), bins);
    glUniform1f(pairs_.uniform("u_r_max"), float(r_max));
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    dispatchGroups(groupsFor(boids, STEP_GROUP_SIZE));
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    s.bind();  // the pick's slots back to what the other passes expect
    const auto words = bins_.read<std::uint32_t>(std::size_t(bins) * 4);
    PairSums sums;
    const std::vector<float> mean = mean_u2_.read<float>(4);
    sums.u2 = double(mean[3]);
    sums.v2 = glm::dot(glm::dvec3(mean[0], mean[1], mean[2]), glm::dvec3(mean[0], mean[1], mean[2])) + sums.u2;  // mean |v|^2 = |V|^2 + mean |u|^2
    for (std::uint32_t b = 0; b < bins; ++b) {
        sums.uu.push_back(double(wordsValue(words[4 * b], words[4 * b + 1])) / CORR_FIXED_ONE);
        sums.pairs.push_back(std::uint64_t(wordsValue(words[4 * b + 2], words[4 * b + 3])));
    }
    return sums;
}

}  // namespace murmur::gpu
