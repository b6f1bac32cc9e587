// The GPU pipeline's ensemble: GpuSimulation::uploadEnsemble behind the Ensemble interface (one
// set of buffers; each step's dispatches step every flock). Needs a current GL 4.5 context.
#pragma once

#include "gpu/gpu_simulation.hpp"
#include "model/ensemble.hpp"

namespace murmur::gpu {

class GpuEnsemble final : public Ensemble {
public:
    explicit GpuEnsemble(gl::ShaderLibrary shaders = gl::ShaderLibrary{}) : sim_(std::move(shaders)) {}
    void upload(const std::vector<Flock>& flocks, const std::vector<Params>& params) override {
        sim_.uploadEnsemble(flocks, params);
    }
    void step(int steps = 1) override { sim_.step(steps); }
    std::uint32_t flocks() const override { return sim_.flockCount(); }
    Flock download(std::uint32_t k) override { return sim_.downloadFlock(k); }
    OrderParams measure(std::uint32_t k) override { return sim_.measureFlock(k); }
    std::vector<OrderParams> measureAll() override { return sim_.measureFlocks(); }
    void setParams(const std::vector<Params>& params) override { sim_.setEnsembleParams(params); }
    void setStepCount(std::uint32_t steps) override { sim_.setStepCount(steps); }
    void checkpoint() override { sim_.checkpoint(); }
    void rollback() override { sim_.rollback(); }
    bool allFinite() override { return sim_.allFinite(); }
    std::string name() const override { return "gpu"; }
    GpuSimulation& pipeline() { return sim_; }

private:
    GpuSimulation sim_;
};

}  // namespace murmur::gpu
