#include "gpu/binning_pass.hpp"

#include "gpu/dispatch.hpp"

#include <array>

namespace murmur::gpu {
namespace {
constexpr GLenum kSsbo = GL_SHADER_STORAGE_BUFFER;
}

std::vector<std::string> BinningPass::shaderFiles() {
    return {"grid_count.comp", "grid_scatter.comp", "grid_order.comp", "grid_order_large.comp", "grid_scan.comp"};
}

void BinningPass::setPrograms(std::span<gl::Program> built) {
    count_ = std::move(built[0]);
    scatter_ = std::move(built[1]);
    order_ = std::move(built[2]);
    order_large_ = std::move(built[3]);
    scan_ = GridScan(std::move(built[4]));
}

void BinningPass::count(FlockState& s) {
    s.counts[1 - s.current].clearToZero();
    s.bind();
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    count_.use();
    dispatchGroups(groupsFor(s.n, STEP_GROUP_SIZE));
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    s.current = 1 - s.current;
    s.markCounted();
}

void BinningPass::bin(FlockState& s, PassClock* clock) {
    const auto done = [clock](int pass) {
        if (clock) clock->done(pass);
    };
    if (s.sorted()) {  // a sample binned this very state: the sorted copy and cells stand
        s.bind();
        for (int pass = 0; pass < 3; ++pass) done(pass);
        return;
    }
    if (!s.counted()) count(s);
    done(0);
    scan_.run(s.counts[s.current], s.cell_start, s.cell_total, &s.counts[1 - s.current]);
    done(1);
    s.bind();  // the scan rebinds its own slots
    scatter_.use();
    dispatchGroups(groupsFor(s.n, STEP_GROUP_SIZE));
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    orderCells(s);
    // The steer and measure passes read the sorted copy and the cells through buffer textures.
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT);
    s.markSorted();
    done(2);
}

// Id order within each cell (reproducible sums): grid_order.comp sorts the small cells and lists
// the cells of more than ORDER_SMALL_CELL boids, which an indirect dispatch of
// grid_order_large.comp then sorts, one work group each (no work group when there is none).
void BinningPass::orderCells(FlockState& s) {
    const std::size_t list_bytes = 16 + 4 * (std::size_t(s.n) / ORDER_SMALL_CELL + 1);
    if (large_cells_.size() < list_bytes) large_cells_ = gl::Buffer(list_bytes);
    const std::array<std::uint32_t, 4> none{0u, 1u, 1u, 0u};
    large_cells_.upload(none.data(), sizeof none);
    large_cells_.bindBase(kSsbo, BIND_LARGE_CELLS);
    order_.use();
    dispatchGroups(groupsFor(s.cell_total, STEP_GROUP_SIZE));
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT);
    order_large_.use();
    dispatchIndirect(large_cells_.id(), 0);
}

}  // namespace murmur::gpu
