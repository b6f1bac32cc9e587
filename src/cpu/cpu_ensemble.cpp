// CpuEnsemble; see cpu_ensemble.hpp.
#include "cpu/cpu_ensemble.hpp"

#include <stdexcept>

namespace murmur {

void CpuEnsemble::upload(const std::vector<Flock>& flocks, const std::vector<Params>& params) {
    if (flocks.empty() || flocks.size() != params.size())
        throw std::invalid_argument("an ensemble needs one parameter set per flock and at least one flock (got " +
                                    std::to_string(flocks.size()) + " flocks, " + std::to_string(params.size()) + " parameter sets)");
    for (std::size_t k = 0; k < params.size(); ++k)
        if (params[k].update == UpdateOrder::Sequential)
            throw std::invalid_argument("flock " + std::to_string(k) + ": an ensemble cannot use the sequential order");
    std::vector<std::unique_ptr<CpuSimulation>> made;
    for (std::size_t k = 0; k < flocks.size(); ++k) {
        made.push_back(std::make_unique<CpuSimulation>());
        made.back()->upload(flocks[k], params[k]);
    }
    flocks_ = std::move(made);
}

void CpuEnsemble::step(int steps) {
    for (auto& f : flocks_) f->step(steps);
}

Flock CpuEnsemble::download(std::uint32_t k) {
    if (k >= flocks_.size()) throw std::out_of_range("flock " + std::to_string(k) + " of " + std::to_string(flocks_.size()));
    return flocks_[k]->download();
}

OrderParams CpuEnsemble::measure(std::uint32_t k) {
    if (k >= flocks_.size()) throw std::out_of_range("flock " + std::to_string(k) + " of " + std::to_string(flocks_.size()));
    return flocks_[k]->measure();
}

std::vector<OrderParams> CpuEnsemble::measureAll() {
    std::vector<OrderParams> out;
    for (auto& f : flocks_) out.push_back(f->measure());
    return out;
}

void CpuEnsemble::setParams(const std::vector<Params>& params) {
    if (params.size() != flocks_.size())
        throw std::invalid_argument("an ensemble of " + std::to_string(flocks_.size()) + " flocks needs as many parameter sets, not " +
                                    std::to_string(params.size()));
    for (std::size_t k = 0; k < params.size(); ++k) flocks_[k]->setParams(params[k]);
}

}  // namespace murmur
