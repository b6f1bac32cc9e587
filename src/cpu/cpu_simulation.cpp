// CPU reference step: bin (counting sort), gather neighbour sums, integrate into the other buffer.
#include "cpu/cpu_simulation.hpp"

#include "cpu/order_params.hpp"
#include "model/grid_spec.hpp"

#include <glm/geometric.hpp>

#include <algorithm>
#include <fstream>
#include <optional>
#include <utility>

namespace murmur {

std::uint64_t cpuBytesNeeded(const Params& params) {
    return std::uint64_t(params.boids) * kCpuBytesPerBoid + std::uint64_t(makeGridSpec(params).total()) * 8;
}

std::uint64_t availableMemoryBytes() {
    std::ifstream in("/proc/meminfo");
    std::string key, unit;
    std::uint64_t kib = 0;
    while (in >> key >> kib) {
        std::getline(in, unit);
        if (key == "MemAvailable:") return kib * 1024;
    }
    return 0;
}

std::optional<std::string> cpuMemoryProblem(const Params& params, std::uint64_t available) {
    const std::uint64_t need = cpuBytesNeeded(params);
    if (available == 0 || need <= available) return std::nullopt;
    const std::uint64_t fits = available / (kCpuBytesPerBoid + 16);
    return std::to_string(params.boids) + " boids need about " + std::to_string(need >> 20) +
           " MiB on the CPU backend and this machine has " + std::to_string(available >> 20) +
           " MiB available; valid range here about [0, " + std::to_string(fits) + "]";
}

void CpuSimulation::upload(const Flock& flock, const Params& params) {
    params_ = params;
    params_.boids = std::uint32_t(flock.size());
    current_ = flock;
    step_count_ = 0;
    interrupted_ = false;
    next_.resize(flock.size());
    neighbours_.assign(flock.size(), 0u);
}

void CpuSimulation::setParams(const Params& params) {
    params_ = params;
    params_.boids = std::uint32_t(current_.size());
}

void CpuSimulation::prepareSearch(const RuleContext& ctx) {
    if (search_ == NeighbourSearch::Grid && ctx.p.update == UpdateOrder::Parallel) grid_.build(makeGridSpec(params_), current_, ctx.L);
}

NeighbourSums CpuSimulation::gather(const RuleContext& ctx, std::size_t i, std::uint64_t& candidates) const {
    NeighbourSums sum;
    // The sequential order moves boids during the step, so it looks through them all.
    const bool grid = search_ == NeighbourSearch::Grid && ctx.p.update == UpdateOrder::Parallel;
    auto forEach = [&](auto&& visit) {
        if (grid) grid_.forEachCandidate(current_[i].p, visit);
        else
            for (std::uint32_t j = 0; j < current_.size(); ++j) visit(j);
    };
    // With a neighbour cap, a first sweep finds the k nearest; the second sums only those. The
    // decarpentier style finds its two nearest in the first sweep and its third in the second.
    std::optional<NearestK> cap;
    const bool dc = ctx.style == Style::Decarpentier;
    ThreeNeighbours three;
    if (ctx.p.neighbour_cap > 0) cap.emplace(ctx.p.neighbour_cap);
    if (cap || dc) {
        forEach([&](std::uint32_t j) {
            glm::vec3 d;
            float d2;
            if (j == i || !isNeighbourOf(ctx, current_[i], current_[j], d, d2)) return;
            if (cap) cap->offer(d2, current_[j].id);
            if (dc && isDcCandidate(ctx, current_[i], current_[j], d2)) three.offerNear(d2, current_[j].id, j);
        });
    }
    forEach([&](std::uint32_t j) {
        ++candidates;
        glm::vec3 d;
        float d2;
        if (j == i || !isNeighbourOf(ctx, current_[i], current_[j], d, d2)) return;
        addNeighbour(ctx, current_[i], current_[j], d, d2, sum, cap ? &*cap : nullptr);
        if (dc && isDcCandidate(ctx, current_[i], current_[j], d2)) three.offerFar(d2, current_[j].id, j, ctx.p.dc.far_factor);
    });
    if (dc) {
        sum.dc_n = three.count();
        for (std::uint32_t k = 0; k < sum.dc_n; ++k) {
            const Boid& other = current_[three.slot(k)];
            sum.dc_d[k] = offsetBetween(ctx, current_[i].p, other.p);
            sum.dc_d2[k] = glm::dot(sum.dc_d[k], sum.dc_d[k]);
            sum.dc_v[k] = other.v;
        }
    }
    return sum;
}

std::vector<NeighbourSums> CpuSimulation::sums() {
    const RuleContext ctx(params_);
    prepareSearch(ctx);
    std::vector<NeighbourSums> out(current_.size());
    std::uint64_t candidates = 0;
    for (std::size_t i = 0; i < current_.size(); ++i) out[i] = gather(ctx, i, candidates);
    return out;
}

void CpuSimulation::step(int steps) {
    RuleContext ctx(params_);
    const std::size_t n = current_.size();
    for (int s = 0; s < steps && !interrupted_; ++s) {
        ctx.step = step_count_++;
        std::uint64_t candidates = 0;
        prepareSearch(ctx);
        const bool in_place = ctx.p.update == UpdateOrder::Sequential;
        std::size_t visited = 0;
        for (std::size_t i : visitOrder(in_place)) {
            if (interrupt_ && ++visited % kCheckEvery == 0 && interrupt_()) {
                interrupted_ = true;
                --step_count_;  // the step did not happen whole: the count stays the last whole step's
                return;
            }
            // A boid resting on the ground looks at no one (its neighbour count is 0).
            const bool resting = ctx.perching && current_[i].perch > 0.0f;
            // Decarpentier boids between steering steps reuse their last steering: no search.
            const bool coasting = ctx.style == Style::Decarpentier && !steersNow(ctx, current_[i]);
            const NeighbourSums sum = resting || coasting ? NeighbourSums{} : gather(ctx, i, candidates);
            neighbours_[i] = coasting && !resting ? std::uint32_t(current_[i].steer.w) : sum.neighbours;
            // Sequential: the boid moves at once, and the boids after it see it moved.
            (in_place ? current_[i] : next_[i]) = integrate(ctx, current_[i], sum);
        }
        if (!in_place) std::swap(current_, next_);
        mean_candidates_ = n ? double(candidates) / double(n) : 0.0;
    }
}

std::vector<std::size_t> CpuSimulation::visitOrder(bool by_id) const {
    std::vector<std::size_t> order(current_.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    if (by_id) std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return current_[a].id < current_[b].id; });
    return order;
}

std::vector<std::uint32_t> CpuSimulation::neighbourCounts() {
    std::vector<std::uint32_t> by_id(current_.size(), 0u);
    for (std::size_t i = 0; i < current_.size(); ++i)
        if (current_[i].id < by_id.size()) by_id[current_[i].id] = neighbours_[i];
    return by_id;
}

OrderParams CpuSimulation::measure() { return measureFlock(current_, params_, neighbourCounts()); }

std::string CpuSimulation::name() const {
    return search_ == NeighbourSearch::Grid ? "cpu (grid)" : "cpu (brute force)";
}

}  // namespace murmur
