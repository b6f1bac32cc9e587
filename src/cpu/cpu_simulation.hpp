// The CPU reference of the flock model: single-threaded, synchronous (reads step t, writes
// step t+1 into a second buffer), with a uniform-grid or brute-force neighbour search.
#pragma once

#include "cpu/flock_rules.hpp"
#include "cpu/grid.hpp"
#include "model/simulation.hpp"

namespace murmur {

enum class NeighbourSearch { Grid, BruteForce };

class CpuSimulation final : public Simulation {
public:
    explicit CpuSimulation(NeighbourSearch search = NeighbourSearch::Grid) : search_(search) {}

    void upload(const Flock& flock, const Params& params) override;
    void setParams(const Params& params) override;
    void step(int steps = 1) override;
    Flock download() override { return current_; }
    std::vector<std::uint32_t> neighbourCounts() override;
    OrderParams measure() override;
    std::string name() const override;

    // The neighbour sums of every boid of the current state (index = position in download()).
    std::vector<NeighbourSums> sums();
    // Boids examined per boid in the last step (grid: cells around it; brute force: N - 1).
    double meanCandidates() const { return mean_candidates_; }

private:
    void prepareSearch(const RuleContext& ctx);
    NeighbourSums gather(const RuleContext& ctx, std::size_t i, std::uint64_t& candidates) const;
    // The order a step visits the boids: storage order, or id order for the sequential update.
    std::vector<std::size_t> visitOrder(bool by_id) const;

    NeighbourSearch search_;
    Params params_;
    Flock current_, next_;
    std::vector<std::uint32_t> neighbours_;
    std::uint32_t step_count_ = 0;  // steps since upload  // by index into current_ of the previous state
    UniformGrid grid_;
    double mean_candidates_ = 0.0;
};

}  // namespace murmur
