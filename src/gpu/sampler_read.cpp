// The sampler's results read back: when a sample's passes end, the walk's sums and histograms,
// the groups' totals and the largest groups copied on the GPU into one read-back buffer behind a
// fence (a landing); when taken, parsed into each flock's OrderParams.
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

glm::dvec4 vec4At(const std::uint32_t* words) {
    glm::vec4 v;
    std::memcpy(&v, words, sizeof v);
    return glm::dvec4(v);
}

}  // namespace

// The sample whose passes just ended, landing: its figures copied behind a fence, with what
// parsing them needs from now.
void Sampler::land(const FlockState& st) {
    Sample& s = sample_;
    Landing l;
    const std::uint32_t flock_count = flocks(st);
    l.ticket = s.ticket;
    l.groups = s.group_radius > 0.0f;
    l.results = s.all ? std::move(s.results) : std::vector<OrderParams>{s.result};
    for (std::uint32_t f = 0; f < flock_count; ++f) {
        const Params& p = s.all ? st.ensemble[f].params : s.folded;
        l.boids.push_back(boidsOf(st, f));
        l.groups_on_gpu.push_back(s.all ? char(st.ensemble[f].groups_on_gpu) : char(l.groups));
        l.worlds.push_back({p.bounds, p.world_size, p.dims});
    }
    s.all = false;
    if (s.boids > 0) queueCopies(l);
    landings_.push_back(std::move(l));
}

// Laid end to end: each flock's two vec4 of walk sums (the totals after the work groups'
// partials), its histogram, then, with groups, its eight totals and its largest groups.
void Sampler::queueCopies(Landing& l) {
    const Sample& s = sample_;
    const std::size_t flock_count = l.boids.size();
    const std::size_t sums_bytes = flock_count * 32, histogram_bytes = flock_count * (NN_BINS + 1) * 4;
    const std::size_t totals_bytes = l.groups ? flock_count * 32 : 0;
    const std::size_t largest_bytes = l.groups ? flock_count * kLargestGroups * GROUP_FIGURE_WORDS * 4 : 0;
    l.histogram_at = sums_bytes;
    l.totals_at = l.histogram_at + histogram_bytes;
    l.largest_at = l.totals_at + totals_bytes;
    l.bytes = l.largest_at + largest_bytes;
    std::erase_if(spare_, [&](const gl::ReadBuffer& b) { return b.capacity() < l.bytes; });  // a larger sample now: not again
    if (!spare_.empty()) {
        l.buffer = std::move(spare_.back());
        spare_.pop_back();
    } else {
        l.buffer = gl::ReadBuffer(l.bytes);
    }
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);  // the passes' writes, visible to the copies
    l.buffer.queueCopy(s.sums.id(), std::size_t(s.groups) * 32, 0, sums_bytes);
    l.buffer.queueCopy(s.histogram.id(), 0, l.histogram_at, histogram_bytes);
    if (l.groups) {
        l.buffer.queueCopy(s.totals.id(), 0, l.totals_at, totals_bytes);
        l.buffer.queueCopy(s.largest.id(), 0, l.largest_at, largest_bytes);
    }
    l.buffer.land();
}

std::deque<Sampler::Landing>::const_iterator Sampler::landing(std::uint64_t ticket) const {
    return std::find_if(landings_.begin(), landings_.end(), [ticket](const Landing& l) { return l.ticket == ticket; });
}

bool Sampler::landed(std::uint64_t ticket) const {
    const auto it = landing(ticket);
    return it != landings_.end() && it->buffer.landed();
}

std::vector<OrderParams> Sampler::take(std::uint64_t ticket) {
    const auto it = landing(ticket);
    if (it == landings_.end()) return {};
    Landing l = std::move(landings_[std::size_t(it - landings_.begin())]);
    landings_.erase(it);
    return parse(l);
}

std::vector<OrderParams> Sampler::takeNewest() {
    if (landings_.empty()) return {};
    Landing l = std::move(landings_.back());
    landings_.pop_back();
    return parse(l);
}

// The landing's bytes (waiting for them if they are still on their way) into its results; its
// buffer kept for the next.
std::vector<OrderParams> Sampler::parse(Landing& l) {
    if (l.bytes > 0) {
        std::vector<std::uint32_t> words(l.bytes / 4);
        l.buffer.take(l.bytes, words.data());
        parseWalkSums(l, words);
        if (l.groups) {
            parseGroupTotals(l, words);
            parseLargestGroups(l, words);
        }
        spare_.push_back(std::move(l.buffer));
    }
    return std::move(l.results);
}

void Sampler::parseWalkSums(Landing& l, const std::vector<std::uint32_t>& words) {
    for (std::size_t f = 0; f < l.results.size(); ++f) {
        OrderParams& o = l.results[f];
        const glm::dvec4 heading = vec4At(&words[8 * f]), other = vec4At(&words[8 * f + 4]);
        const double n = double(l.boids[f]);
        // At most 1, as the CPU's is: float sums of unit vectors may come out a few ulps long.
        o.polarization = heading.w > 0.0 ? std::min(1.0, glm::length(glm::dvec3(heading)) / heading.w) : 0.0;
        // A finite flock's speeds can sum past a float's range: their sum over 2^64 then says it.
        o.mean_speed = std::isfinite(other.x) ? other.x / n : std::ldexp(other.w, 64) / n;
        o.mean_neighbours = other.z / n;
        if (o.nn_radius > 0.0f) {
            o.nn_mean = other.y / n;
            const auto first = words.begin() + std::ptrdiff_t(l.histogram_at / 4 + f * (NN_BINS + 1));
            std::copy(first, first + (NN_BINS + 1), o.nn_histogram.begin());
            o.nn_median = histogramMedian(o.nn_histogram, o.nn_radius);
        }
    }
}

void Sampler::parseGroupTotals(Landing& l, const std::vector<std::uint32_t>& words) {
    for (std::size_t f = 0; f < l.results.size(); ++f) {
        if (!l.groups_on_gpu[f]) continue;  // walked on the CPU, or not measured
        OrderParams& o = l.results[f];
        const std::uint32_t* totals = &words[l.totals_at / 4 + f * 8];
        const double n = double(l.boids[f]);
        o.groups = totals[0];
        o.grouped_share = double(totals[1]) / n;
        o.largest_group_share = double(totals[2]) / n;
        if (totals[1] > 0) {
            o.group_polarization = std::min(1.0, fixedSum(totals + 4) / double(totals[1]));
            o.milling = std::min(1.0, fixedSum(totals + 6) / double(totals[1]));
        }
    }
}

// group_largest.comp's entries: a group's figures from its root's position and fixed-point sums.
void Sampler::parseLargestGroups(Landing& l, const std::vector<std::uint32_t>& words) {
    const std::size_t per_flock = std::size_t(kLargestGroups) * GROUP_FIGURE_WORDS;
    for (std::size_t f = 0; f < l.results.size(); ++f) {
        if (!l.groups_on_gpu[f]) continue;
        Params world;
        world.bounds = l.worlds[f].bounds;
        world.world_size = l.worlds[f].size;
        world.dims = l.worlds[f].dims;
        for (std::uint32_t k = 0; k < kLargestGroups; ++k) {
            const std::uint32_t* w = &words[l.largest_at / 4 + f * per_flock + k * GROUP_FIGURE_WORDS];
            GroupFigures& g = l.results[f].largest_groups[k];
            g = GroupFigures{};
            if (w[0] == 0) continue;
            const double n = double(w[0]);
            glm::vec3 root;
            std::memcpy(&root, w + 2, sizeof root);
            g.boids = w[0];
            g.first_id = w[1];
            g.centre = foldCentre(glm::dvec3(root) + fixedVec3(w + 6) / n, world);
            g.polarization = std::min(1.0, glm::length(fixedVec3(w + 12)) / n);  // float terms: at most 1, as on the CPU
            g.milling = std::min(1.0, glm::length(fixedVec3(w + 18)) / n);
        }
    }
}

}  // namespace murmur::gpu
