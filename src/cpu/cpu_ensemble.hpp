// The CPU reference's ensemble: each flock a CpuSimulation, stepped in turn (it is the
// reference: nothing is shared between the flocks).
#pragma once

#include "cpu/cpu_simulation.hpp"
#include "model/ensemble.hpp"

#include <memory>

namespace murmur {

class CpuEnsemble final : public Ensemble {
public:
    void upload(const std::vector<Flock>& flocks, const std::vector<Params>& params) override;
    void step(int steps = 1) override;
    std::uint32_t flocks() const override { return std::uint32_t(flocks_.size()); }
    Flock download(std::uint32_t k) override;
    OrderParams measure(std::uint32_t k) override;
    std::vector<OrderParams> measureAll() override;
    void setParams(const std::vector<Params>& params) override;
    void setStepCount(std::uint32_t steps) override {
        for (auto& f : flocks_) f->setStepCount(steps);
    }
    void checkpoint() override {
        for (auto& f : flocks_) f->checkpoint();
    }
    void rollback() override {
        for (auto& f : flocks_) f->rollback();
    }
    bool allFinite() override {
        for (auto& f : flocks_)
            if (!f->allFinite()) return false;
        return true;
    }
    std::string name() const override { return "cpu"; }

private:
    std::vector<std::unique_ptr<CpuSimulation>> flocks_;
};

}  // namespace murmur
