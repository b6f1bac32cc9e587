// The CPU reference of the flock model: single-threaded, synchronous (reads step t, writes
// step t+1 into a second buffer), with a uniform-grid or brute-force neighbour search.
#pragma once

#include "cpu/flock_rules.hpp"
#include "cpu/grid.hpp"
#include "model/simulation.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace murmur {

enum class NeighbourSearch { Grid, BruteForce };

// Memory the CPU backend needs, over-estimated: per boid the spawned flock, two state buffers, a
// download, its neighbour count, the grid's order and the order parameters' scratch; per cell the
// grid's count and start.
inline constexpr std::uint64_t kCpuBytesPerBoid = 256;
std::uint64_t cpuBytesNeeded(const Params& params);
// Memory the kernel says is available to a new allocation (MemAvailable), 0 if it does not say.
std::uint64_t availableMemoryBytes();
// Why this flock will not fit the CPU backend with `available` bytes (the figures and the
// largest count that fits), or nothing if it fits or `available` is unknown (0).
std::optional<std::string> cpuMemoryProblem(const Params& params, std::uint64_t available);

class CpuSimulation final : public Simulation {
public:
    explicit CpuSimulation(NeighbourSearch search = NeighbourSearch::Grid) : search_(search) {}

    void upload(const Flock& flock, const Params& params) override;
    void setParams(const Params& params) override;
    void step(int steps = 1) override;
    std::uint32_t stepCount() const override { return step_count_; }
    void setStepCount(std::uint32_t steps) override { step_count_ = steps; }
    Flock download() override { return current_; }
    std::vector<std::uint32_t> neighbourCounts() override;
    OrderParams measure() override;
    void checkpoint() override { saved_ = {current_, step_count_, neighbours_}; }
    void rollback() override {
        current_ = saved_.state;
        step_count_ = saved_.step_count;
        neighbours_ = saved_.neighbours;
        setInterrupted(false);
    }
    bool allFinite() override;
    std::string name() const override;

    // Boids examined per boid in the last step (grid: cells around it; brute force: N - 1).
    double meanCandidates() const { return mean_candidates_; }

    // An interrupt's check (Simulation::setInterrupt) is called every kCheckEvery boids of a step.
    static constexpr std::size_t kCheckEvery = 1024;

private:
    // The order a step visits the boids: storage order, or id order for the sequential update.
    std::vector<std::size_t> visitOrder(bool by_id) const;

    NeighbourSearch search_;
    Params params_;
    Flock current_, next_;
    std::vector<std::uint32_t> neighbours_;
    std::uint32_t step_count_ = 0;  // steps since upload
    struct Checkpoint {
        Flock state;
        std::uint32_t step_count = 0;
        std::vector<std::uint32_t> neighbours;  // the last step's counts, as the state's
    };
    Checkpoint saved_;  // checkpoint()'s
    UniformGrid grid_;
    double mean_candidates_ = 0.0;
};

}  // namespace murmur
