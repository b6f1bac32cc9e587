// K independent flocks stepped together: the interface both backends implement. The GPU pipeline
// puts them in one set of buffers and steps all K with the same dispatches
// (gpu::GpuEnsemble); the CPU reference steps each flock in turn (CpuEnsemble). Flock k of an
// ensemble is, to the bit on the same backend, what it would be alone: the same seed, parameters
// and steps give the same state.
#pragma once

#include "model/boid.hpp"
#include "model/order_params.hpp"
#include "model/params.hpp"
#include "model/restorable.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace murmur {

// Also Restorable (model/restorable.hpp), for every flock at once.
class Ensemble : public Restorable {
public:
    // One flock per parameter set (params must be valid; each params.boids is ignored in favour of
    // its flock's size). The flocks must share the shader variant on the GPU (style, dims, bounds
    // and the switches; obstacles may differ) and use the parallel order: otherwise
    // std::invalid_argument names the flock and why.
    virtual void upload(const std::vector<Flock>& flocks, const std::vector<Params>& params) = 0;
    virtual void step(int steps = 1) = 0;
    virtual std::uint32_t flocks() const = 0;
    virtual Flock download(std::uint32_t k) = 0;  // flock k's state, in any order
    virtual OrderParams measure(std::uint32_t k) = 0;  // flock k's order parameters
    // Every flock's, each equal to measure(k)'s (the GPU: in one set of passes).
    virtual std::vector<OrderParams> measureAll() = 0;
    // New parameters for every flock from the next step (the same sizes and, on the GPU, variant,
    // obstacles aside).
    virtual void setParams(const std::vector<Params>& params) = 0;
    virtual void setStepCount(std::uint32_t steps) = 0;  // the step counter (the random draws' step) of every flock
    virtual std::string name() const = 0;
};

}  // namespace murmur
