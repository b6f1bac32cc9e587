// CPU reference step: bin (counting sort), gather neighbour sums, integrate into the other buffer.
#include "cpu/cpu_simulation.hpp"

#include "cpu/flock_step.hpp"
#include "cpu/order_params.hpp"
#include "model/grid_spec.hpp"

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
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
    setInterrupted(false);
    next_.resize(flock.size());
    neighbours_.assign(flock.size(), 0u);
}

void CpuSimulation::setParams(const Params& params) {
    if (!params_.sameBox(params))
        for (Boid& b : current_) b.image = glm::ivec3(0);
    params_ = params;
    params_.boids = std::uint32_t(current_.size());
}

template <std::size_t... I>
const StyleFunctions& styleFunctionsIn(Style s, std::index_sequence<I...>) {
    static const StyleFunctions table[] = {styleFunctionsOf<Style(I)>()...};
    return table[std::min(std::size_t(s), sizeof...(I) - 1)];
}

// The one place the CPU backend picks a style: once per step, never per boid or pair.
const StyleFunctions& styleFunctions(Style s) { return styleFunctionsIn(s, std::make_index_sequence<kStyleCount>{}); }

void CpuSimulation::step(int steps) {
    RuleContext ctx(params_);
    const std::size_t n = current_.size();
    const auto step_with = styleFunctions(params_.style).step;
    const bool in_place = ctx.p.update == UpdateOrder::Sequential;
    // The sequential order moves boids during the step, so it looks through them all.
    const bool use_grid = search_ == NeighbourSearch::Grid && !in_place;
    for (int s = 0; s < steps && !interrupted(); ++s) {
        ctx.step = step_count_++;
        if (use_grid) grid_.build(makeGridSpec(params_), current_, ctx.L);
        const std::vector<std::size_t> order = visitOrder(in_place);
        FlockStep f{ctx, current_, next_, neighbours_, use_grid ? &grid_ : nullptr, order, in_place, &interruptCheck(), kCheckEvery};
        step_with(f);
        if (f.interrupted) {
            setInterrupted(true);
            --step_count_;  // the step did not happen whole: the count stays the last whole step's
            return;
        }
        if (!in_place) std::swap(current_, next_);
        mean_candidates_ = n ? double(f.candidates) / double(n) : 0.0;
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

bool CpuSimulation::allFinite() {
    for (const Boid& b : current_)
        for (int k = 0; k < 3; ++k)
            if (!std::isfinite(b.p[k]) || !std::isfinite(b.v[k])) return false;
    return true;
}

std::string CpuSimulation::name() const {
    return search_ == NeighbourSearch::Grid ? "cpu (grid)" : "cpu (brute force)";
}

}  // namespace murmur
