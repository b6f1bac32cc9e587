// The sampler's results read back: the walk's sums and histograms, the groups' totals and the
// largest groups, into each flock's OrderParams.
#include "gpu/sampler.hpp"

#include "cpu/order_params.hpp"
#include "gpu/layout.hpp"

#include <glm/geometric.hpp>

#include <algorithm>
#include <cstring>

namespace murmur::gpu {
namespace {

// A fixed-point sum as groups.glsl keeps it (words[0] low, words[1] high: 64-bit two's
// complement, FIXED_SCALE = 2^20 steps a unit), in double; and three of them side by side.
double fixedSum(const std::uint32_t* words) {
    return double(std::int64_t(std::uint64_t(words[1]) << 32 | words[0])) / 1048576.0;
}
glm::dvec3 fixedVec3(const std::uint32_t* words) { return {fixedSum(words), fixedSum(words + 2), fixedSum(words + 4)}; }

}  // namespace

void Sampler::readWalkSums(const FlockState& st) {
    const std::uint32_t flock_count = flocks(st);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    const auto sums = sample_.sums.read<glm::vec4>(2 * std::size_t(flock_count), std::size_t(sample_.groups) * 2);  // the totals only
    const auto histograms = sample_.histogram.read<std::uint32_t>(std::size_t(flock_count) * (NN_BINS + 1));
    for (std::uint32_t f = 0; f < flock_count; ++f) {
        OrderParams& o = resultOf(f);
        const glm::dvec4 heading(sums[2 * f]), other(sums[2 * f + 1]);
        const double n = double(boidsOf(st, f));
        // At most 1, as the CPU's is: float sums of unit vectors may come out a few ulps long.
        o.polarization = heading.w > 0.0 ? std::min(1.0, glm::length(glm::dvec3(heading)) / heading.w) : 0.0;
        o.mean_speed = other.x / n;
        o.mean_neighbours = other.z / n;
        if (o.nn_radius > 0.0f) {
            o.nn_mean = other.y / n;
            const auto first = histograms.begin() + std::ptrdiff_t(f) * (NN_BINS + 1);
            std::copy(first, first + (NN_BINS + 1), o.nn_histogram.begin());
            o.nn_median = histogramMedian(o.nn_histogram, o.nn_radius);
        }
    }
}

void Sampler::readGroupTotals(const FlockState& st) {
    const std::uint32_t flock_count = flocks(st);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    const auto all_totals = sample_.totals.read<std::uint32_t>(std::size_t(flock_count) * 8);
    for (std::uint32_t f = 0; f < flock_count; ++f) {
        if (sample_.all && !st.ensemble[f].groups_on_gpu) continue;  // walked on the CPU, or not measured
        OrderParams& o = resultOf(f);
        const std::uint32_t* totals = all_totals.data() + std::size_t(f) * 8;
        const double n = double(boidsOf(st, f));
        o.groups = totals[0];
        o.grouped_share = double(totals[1]) / n;
        o.largest_group_share = double(totals[2]) / n;
        if (totals[1] > 0) {
            o.group_polarization = std::min(1.0, fixedSum(totals + 4) / double(totals[1]));
            o.milling = std::min(1.0, fixedSum(totals + 6) / double(totals[1]));
        }
    }
    readLargestGroups(st, flock_count);
}

// group_largest.comp's entries: a group's figures from its root's position and fixed-point sums.
void Sampler::readLargestGroups(const FlockState& st, std::uint32_t flock_count) {
    const std::size_t words = std::size_t(kLargestGroups) * GROUP_FIGURE_WORDS;
    const auto all = sample_.largest.read<std::uint32_t>(std::size_t(flock_count) * words);
    for (std::uint32_t f = 0; f < flock_count; ++f) {
        if (sample_.all && !st.ensemble[f].groups_on_gpu) continue;
        const Params& p = sample_.all ? st.ensemble[f].params : sample_.folded;
        for (std::uint32_t k = 0; k < kLargestGroups; ++k) {
            const std::uint32_t* w = all.data() + f * words + k * GROUP_FIGURE_WORDS;
            GroupFigures& g = resultOf(f).largest_groups[k];
            g = GroupFigures{};
            if (w[0] == 0) continue;
            const double n = double(w[0]);
            glm::vec3 root;
            std::memcpy(&root, w + 2, sizeof root);
            g.boids = w[0];
            g.first_id = w[1];
            g.centre = foldCentre(glm::dvec3(root) + fixedVec3(w + 6) / n, p);
            g.polarization = std::min(1.0, glm::length(fixedVec3(w + 12)) / n);  // float terms: at most 1, as on the CPU
            g.milling = std::min(1.0, glm::length(fixedVec3(w + 18)) / n);
        }
    }
}

}  // namespace murmur::gpu
