// Ensembles: K flocks in one set of buffers (GpuSimulation::uploadEnsemble). Flock k's boids are
// slots [first_slot, first_slot + boids) of the state and of its sorted copy, its cells
// [first_cell, first_cell + its grid's cells) of the cell array; its parameter block is element k
// of flock_params_, with its first cell in counts.w (FIRST_CELL). The scan, scatter and order
// passes run over every flock's boids and cells at once; the boid passes select each boid's flock
// (common.glsl), so a flock steps with its own block, grid and neighbours exactly as alone.
#include "gpu/gpu_simulation.hpp"

#include "gpu/dispatch.hpp"
#include "model/order_params.hpp"
#include "model/rng.hpp"
#include "model/styles.hpp"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstring>
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
        return std::string(styleInfo(p.style).name) + ", " + std::to_string(p.dims) + "D, " + (p.bounds == Bounds::Wrap ? "wrap" : "soft");
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
    for (std::size_t k = 0; k < flocks.size(); ++k) {
        sized[k].boids = std::uint32_t(flocks[k].size());
        checkCapacity(sized[k]);
        all.insert(all.end(), flocks[k].begin(), flocks[k].end());
    }
    Params whole = params[0];
    whole.boids = std::uint32_t(all.size());
    checkCapacity(whole);
    uploadState(all);
    ensemble_.assign(flocks.size(), EnsembleFlock{});
    layOutEnsemble(sized);
}

void GpuSimulation::setEnsembleParams(const std::vector<Params>& params) {
    if (ensemble_.empty()) throw std::logic_error("setEnsembleParams: not an ensemble (uploadEnsemble first)");
    requireOneVariant(ensemble_.size(), params);
    settleNextStepSample();
    std::vector<Params> sized = params;
    for (std::size_t k = 0; k < sized.size(); ++k) {
        sized[k].boids = ensemble_[k].boids;
        checkCapacity(sized[k]);
    }
    layOutEnsemble(sized);
}

// Each flock's grid and its cells after the flocks' before it, the programs, the cell buffers,
// the blocks (each flock's first cell in counts.w) and the table; the next step counts afresh.
void GpuSimulation::layOutEnsemble(const std::vector<Params>& params) {
    std::uint32_t slots = 0, cells = 0, groups = 0;
    for (std::size_t k = 0; k < params.size(); ++k) {
        EnsembleFlock& f = ensemble_[k];
        f.params = params[k];
        f.boids = params[k].boids;
        f.grid = makeGridSpec(f.params);
        f.first_slot = slots;
        f.first_cell = cells;
        f.first_group = groups;
        const MeasureRadii radii = measureRadiiOf(f.params);
        f.groups_on_gpu = radii.group > 0.0f && radii.group <= f.params.largestRadius();
        slots += f.boids;
        cells += f.grid.total();
        groups += groupsFor(f.boids, STEP_GROUP_SIZE);
    }
    ensemble_groups_ = groups;
    if (GridScan::outCount(cells) > gl::maxBufferTexels())
        throw CapacityError("the ensemble's " + std::to_string(cells) + " cells do not fit a buffer texture of " +
                            std::to_string(gl::maxBufferTexels()) + " texels");
    buildVariant(ensembleVariantParams(params));
    allocateCells(cells);
    allocateOptionalState(params[0]);
    viewSortedState();
    binned_ = false;
    sorted_fresh_ = false;
    params_ = params[0];
    params_.boids = slots;
    grid_ = ensemble_[0].grid;
    std::vector<SimParams> blocks;
    // The table (common.glsl): totals, first slots, first groups, then each flock's measure radii.
    std::vector<std::uint32_t> table = {slots, cells, std::uint32_t(ensemble_.size()), step_count_};
    for (const EnsembleFlock& f : ensemble_) {
        blocks.push_back(packParams(f.params, f.grid, f.boids));
        blocks.back().counts.w = f.first_cell;
        blocks.back().events.x = step_count_;
        table.push_back(f.first_slot);
    }
    for (const EnsembleFlock& f : ensemble_) table.push_back(f.first_group);
    for (const EnsembleFlock& f : ensemble_) {
        const MeasureRadii radii = measureRadiiOf(f.params);
        table.push_back(std::bit_cast<std::uint32_t>(radii.nn));
        table.push_back(std::bit_cast<std::uint32_t>(f.groups_on_gpu ? radii.group : 0.0f));
    }
    flock_params_ = gl::Buffer(blocks.size() * sizeof(SimParams), blocks.data());
    flock_table_ = gl::Buffer(table.size() * 4, table.data());
}

// The step index: one flock's into its uniform block (16 bytes), an ensemble's into the flock
// table (4 bytes, whatever K: every flock steps together, common.glsl's STEP_INDEX).
void GpuSimulation::uploadStepEvents() {
    if (ensemble_.empty()) {
        const glm::uvec4 events{step_count_, seedLow(params_.seed), params_.stepsPerSteer(), 0u};
        params_ubo_.upload(&events, sizeof events, offsetof(SimParams, events));
        return;
    }
    flock_table_.upload(&step_count_, sizeof step_count_, 3 * sizeof(std::uint32_t));
}

// Flock k of the ensemble, or null for flock 0 of one flock; std::out_of_range past the last.
const GpuSimulation::EnsembleFlock* GpuSimulation::ensembleFlock(std::uint32_t k) const {
    if (k >= flockCount()) throw std::out_of_range("flock " + std::to_string(k) + " of " + std::to_string(flockCount()));
    return ensemble_.empty() ? nullptr : &ensemble_[k];
}

Flock GpuSimulation::downloadFlock(std::uint32_t k) {
    const EnsembleFlock* f = ensembleFlock(k);
    return f ? downloadSlots(f->first_slot, f->boids) : download();
}

}  // namespace murmur::gpu
