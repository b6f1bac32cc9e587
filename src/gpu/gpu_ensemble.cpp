// Ensembles: K flocks in one set of buffers (GpuSimulation::uploadEnsemble), laid out by the flock
// state (flock_state.cpp); here the checks that they can share one set of programs.
#include "gpu/gpu_simulation.hpp"

#include "model/styles.hpp"

#include <algorithm>
#include <cstddef>
#include <stdexcept>

namespace murmur::gpu {

namespace {

// The switches two variants set differently ("DIMS 3 vs 2"), in the defines' order.
std::string differences(const Params& a, const Params& b) {
    const auto da = variantDefines(a, true), db = variantDefines(b, true);
    std::string out;
    for (std::size_t i = 0; i < std::min(da.size(), db.size()); ++i)
        if (da[i].name == db[i].name && da[i].value != db[i].value)
            out += (out.empty() ? "" : ", ") + da[i].name + " " + da[i].value + " vs " + db[i].value;
    return out;
}

// In the user's words first: the style and dims each flock has, then the switches that differ.
std::string variantMismatch(std::size_t k, const Params& flock, const Params& first) {
    const auto described = [](const Params& p) {
        return std::string(styleInfo(p.style).name) + ", " + std::to_string(p.dims) + "D, " + boundsName(p.bounds);
    };
    return "flock " + std::to_string(k) + " (" + described(flock) + ") cannot step with flock 0 (" + described(first) +
           ") on the GPU: the flocks of a GPU ensemble share style, dims, bounds and switches; make separate flocks or "
           "ensembles, or use the CPU backend. Differing switches: " + differences(flock, first);
}

void requireOneVariant(std::size_t flocks, const std::vector<Params>& params) {
    if (flocks == 0 || flocks != params.size())
        throw std::invalid_argument("an ensemble needs one parameter set per flock and at least one flock (got " +
                                    std::to_string(flocks) + " flocks, " + std::to_string(params.size()) + " parameter sets)");
    // Obstacles aside (ensembleVariantParams compiles them in for all when one flock has some).
    const auto withoutObstacles = [](Params p) {
        p.obstacles.clear();
        return p;
    };
    const Params first = withoutObstacles(params[0]);
    const std::string variant = variantOf(first, true);
    for (std::size_t k = 0; k < params.size(); ++k) {
        if (params[k].update == UpdateOrder::Sequential)
            throw std::invalid_argument("flock " + std::to_string(k) + ": an ensemble cannot use the sequential order");
        const Params flock = withoutObstacles(params[k]);
        if (variantOf(flock, true) != variant) throw std::invalid_argument(variantMismatch(k, flock, first));
    }
}

}  // namespace

void GpuSimulation::uploadEnsemble(const std::vector<Flock>& flocks, const std::vector<Params>& params) {
    requireOneVariant(flocks.size(), params);
    settleNextStepSample();
    std::vector<Params> sized = params;
    Flock all;
    std::vector<std::uint32_t> sizes;
    for (std::size_t k = 0; k < flocks.size(); ++k) {
        sized[k].boids = std::uint32_t(flocks[k].size());
        sizes.push_back(sized[k].boids);
        checkCapacity(sized[k]);
        all.insert(all.end(), flocks[k].begin(), flocks[k].end());
    }
    Params whole = params[0];
    whole.boids = std::uint32_t(all.size());
    checkCapacity(whole);
    state_.upload(all, sizes);
    setInterrupted(false);
    state_.ensemble.assign(flocks.size(), EnsembleFlock{});
    layOutEnsemble(sized);
}

void GpuSimulation::setEnsembleParams(const std::vector<Params>& params) {
    if (!state_.isEnsemble()) throw std::logic_error("setEnsembleParams: not an ensemble (uploadEnsemble first)");
    requireOneVariant(state_.ensemble.size(), params);
    settleNextStepSample();
    std::vector<Params> sized = params;
    for (std::size_t k = 0; k < sized.size(); ++k) {
        sized[k].boids = state_.ensemble[k].boids;
        checkCapacity(sized[k]);
    }
    layOutEnsemble(sized);
}

// Each flock's grid and its cells after the flocks' before it, the programs, then the cell
// buffers, the blocks and the table; the next step counts afresh.
void GpuSimulation::layOutEnsemble(const std::vector<Params>& params) {
    const std::uint32_t cells = state_.layOutFlocks(params);
    if (GridScan::outCount(cells) > gl::maxBufferTexels())
        throw CapacityError("the ensemble's " + std::to_string(cells) + " cells do not fit a buffer texture of " +
                            std::to_string(gl::maxBufferTexels()) + " texels");
    buildVariant(ensembleVariantParams(params));
    state_.layOutBlocks();
}

}  // namespace murmur::gpu
