// The GPU flock state (flock_state.hpp): its buffers made, sized, bound, read back and copied.
// Ensembles: K flocks in one set of buffers. Flock k's boids are slots [first_slot, first_slot +
// boids) of the state and of its sorted copy, its cells [first_cell, first_cell + its grid's cells)
// of the cell array; its parameter block is element k of flock_params, with its first cell in
// counts.w (FIRST_CELL). The binning passes run over every flock's boids and cells at once; the
// boid passes select each boid's flock (common.glsl), so a flock steps with its own block, grid and
// neighbours exactly as alone.
#include "gpu/flock_state.hpp"

#include "gpu/capacity.hpp"
#include "gpu/dispatch.hpp"
#include "gpu/grid_scan.hpp"
#include "gpu/layout.hpp"
#include "model/order_params.hpp"
#include "model/rng.hpp"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <stdexcept>
#include <string>

namespace murmur::gpu {
namespace {

constexpr GLenum kSsbo = GL_SHADER_STORAGE_BUFFER;

}  // namespace

FlockState::FlockState() : params_ubo(sizeof(SimParams)) {}

void FlockState::upload(const Flock& flock, const std::vector<std::uint32_t>& flock_sizes) {
    changed();  // before anything else: what follows may throw
    n = std::uint32_t(flock.size());
    std::vector<glm::vec4> p(n), v(n), st(n);
    std::vector<glm::ivec4> img(n, glm::ivec4(0));
    std::vector<float> pt(n);
    bool any_perch = false, any_steer = false, any_image = false;
    std::uint32_t first = 0, end = flock_sizes.empty() ? n : flock_sizes[0];  // the flock slot i is in
    for (std::uint32_t i = 0, k = 0; i < n; ++i) {
        while (i >= end) first = end, end += flock_sizes.at(++k);
        img.at(first + flock[i].id) = glm::ivec4(flock[i].image, 0);
        any_image = any_image || flock[i].image != glm::ivec3(0);
        st[i] = flock[i].steer;
        p[i] = {flock[i].p, std::bit_cast<float>(flock[i].id)};
        v[i] = {flock[i].v, std::bit_cast<float>(flock[i].species)};
        pt[i] = flock[i].perch;
        any_perch = any_perch || pt[i] != 0.0f;
        any_steer = any_steer || st[i] != glm::vec4(0.0f);
    }
    const std::size_t vec_bytes = std::size_t(n) * 16, uint_bytes = std::size_t(n) * 4;
    pos = gl::Buffer(vec_bytes, p.data());
    vel = gl::Buffer(vec_bytes, v.data());
    sorted_pos = gl::Buffer(vec_bytes);
    sorted_vel = gl::Buffer(vec_bytes);
    boid_bin = gl::Buffer(2 * uint_bytes);
    slot_of_id = gl::Buffer(4);  // allocateOptional sizes it for the sequential order
    neighbours = gl::Buffer(uint_bytes);
    // Perch times, steering and image counts are stored only where the variant reads them (or the
    // flock carries some): otherwise a one-element placeholder stays bound, and allocateOptional allocates them
    // (zero) when a variant that reads them comes in.
    perch = any_perch ? gl::Buffer(uint_bytes, pt.data()) : gl::Buffer(4);
    sorted_perch = gl::Buffer(any_perch ? uint_bytes : 4);
    steer = any_steer ? gl::Buffer(vec_bytes, st.data()) : gl::Buffer(16);
    sorted_steer = gl::Buffer(any_steer ? vec_bytes : 16);
    images = any_image ? gl::Buffer(vec_bytes, img.data()) : gl::Buffer(16);
    viewSorted();  // no view of the old buffers outlives them, even if the parameters throw
    step_count = 0;
}

void FlockState::allocateOptional(const Params& p) {
    const std::size_t vec_bytes = std::size_t(n) * 16, uint_bytes = std::size_t(n) * 4;
    if (keepsPerchTimes(p) && perch.size() < uint_bytes) {
        perch = gl::Buffer(uint_bytes);
        sorted_perch = gl::Buffer(uint_bytes);
    }
    if (keepsSlotOfId(p) && slot_of_id.size() < uint_bytes) slot_of_id = gl::Buffer(uint_bytes);
    if (keepsImages(p) && images.size() < vec_bytes) images = gl::Buffer(vec_bytes);
    if (keepsSteering(p) && steer.size() < vec_bytes) {
        steer = gl::Buffer(vec_bytes);
        sorted_steer = gl::Buffer(vec_bytes);
    }
}

void FlockState::allocateCells(std::uint32_t cells) {
    if (cells != cell_total || !cell_start) {
        for (gl::Buffer& c : counts) c = gl::Buffer(std::size_t(cells) * 4);
        cell_start = gl::Buffer(GridScan::outCount(cells) * 4);  // zeroed, as the scan needs
    }
    cell_total = cells;
}

void FlockState::viewSorted() {
    sorted_pos_tex = gl::BufferTexture(sorted_pos, GL_RGBA32UI);
    sorted_vel_tex = gl::BufferTexture(sorted_vel, GL_RGBA32UI);
    sorted_perch_tex = gl::BufferTexture(sorted_perch, GL_R32UI);
    cell_start_tex = gl::BufferTexture(cell_start, GL_R32UI);
    boid_bin_tex = gl::BufferTexture(boid_bin, GL_RG32UI);
}

void FlockState::bind() const {
    params_ubo.bindBase(GL_UNIFORM_BUFFER, BIND_PARAMS);
    pos.bindBase(kSsbo, BIND_POS);
    vel.bindBase(kSsbo, BIND_VEL);
    sorted_pos.bindBase(kSsbo, BIND_SORTED_POS);
    sorted_vel.bindBase(kSsbo, BIND_SORTED_VEL);
    counts[current].bindBase(kSsbo, BIND_CELL_COUNT);
    counts[1 - current].bindBase(kSsbo, BIND_NEXT_COUNT);
    cell_start.bindBase(kSsbo, BIND_CELL_START);
    boid_bin.bindBase(kSsbo, BIND_BOID_BIN);
    slot_of_id.bindBase(kSsbo, BIND_SLOT_OF_ID);
    neighbours.bindBase(kSsbo, BIND_NEIGHBOURS);
    perch.bindBase(kSsbo, BIND_PERCH);
    sorted_perch.bindBase(kSsbo, BIND_SORTED_PERCH);
    steer.bindBase(kSsbo, BIND_STEER);
    sorted_steer.bindBase(kSsbo, BIND_SORTED_STEER);
    images.bindBase(kSsbo, BIND_IMAGES);
    sorted_pos_tex.bindUnit(TEX_SORTED_POS);
    sorted_vel_tex.bindUnit(TEX_SORTED_VEL);
    cell_start_tex.bindUnit(TEX_CELL_START);
    sorted_perch_tex.bindUnit(TEX_SORTED_PERCH);
    if (!ensemble.empty()) {
        flock_params.bindBase(kSsbo, BIND_FLOCK_PARAMS);
        flock_table.bindBase(kSsbo, BIND_FLOCK_TABLE);
    }
}

void FlockState::setParams(const Params& p, const GridSpec& g) {
    allocateCells(g.total());
    grid = g;
    changed();  // the grid, or anything else, may have changed: the next step counts
    allocateOptional(p);
    viewSorted();
    params = p;
    params.boids = n;
    const SimParams packed = packParams(params, grid, n);
    params_ubo.upload(&packed, sizeof packed);
}

std::uint32_t FlockState::layOutFlocks(const std::vector<Params>& sized) {
    ensemble.resize(sized.size());
    std::uint32_t slots = 0, cells = 0, groups = 0;
    for (std::size_t k = 0; k < sized.size(); ++k) {
        EnsembleFlock& f = ensemble[k];
        f.params = sized[k];
        f.boids = sized[k].boids;
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
    ensemble_groups = groups;
    return cells;
}

// The cell buffers, the blocks (each flock's first cell in counts.w) and the table; the next
// step counts afresh.
void FlockState::layOutBlocks() {
    const EnsembleFlock& last = ensemble.back();
    const std::uint32_t slots = last.first_slot + last.boids, cells = last.first_cell + last.grid.total();
    allocateCells(cells);
    allocateOptional(ensemble[0].params);
    viewSorted();
    changed();
    params = ensemble[0].params;
    params.boids = slots;
    grid = ensemble[0].grid;
    std::vector<SimParams> blocks;
    // The table (common.glsl): totals, first slots, first groups, then each flock's measure radii.
    std::vector<std::uint32_t> table = {slots, cells, std::uint32_t(ensemble.size()), step_count};
    for (const EnsembleFlock& f : ensemble) {
        blocks.push_back(packParams(f.params, f.grid, f.boids));
        blocks.back().counts.w = f.first_cell;
        blocks.back().events.x = step_count;
        table.push_back(f.first_slot);
    }
    for (const EnsembleFlock& f : ensemble) table.push_back(f.first_group);
    for (const EnsembleFlock& f : ensemble) {
        const MeasureRadii radii = measureRadiiOf(f.params);
        table.push_back(std::bit_cast<std::uint32_t>(radii.nn));
        table.push_back(std::bit_cast<std::uint32_t>(f.groups_on_gpu ? radii.group : 0.0f));
    }
    flock_params = gl::Buffer(blocks.size() * sizeof(SimParams), blocks.data());
    flock_table = gl::Buffer(table.size() * 4, table.data());
}

// The step index: one flock's into its uniform block (16 bytes), an ensemble's into the flock
// table (4 bytes, whatever K: every flock steps together, common.glsl's STEP_INDEX).
void FlockState::uploadStepEvents() {
    if (ensemble.empty()) {
        const glm::uvec4 events{step_count, seedLow(params.seed), params.stepsPerSteer(), 0u};
        params_ubo.upload(&events, sizeof events, offsetof(SimParams, events));
        return;
    }
    flock_table.upload(&step_count, sizeof step_count, 3 * sizeof(std::uint32_t));
}

// Slots [first, first + count) of the state (an ensemble's flock is such a range).
Flock FlockState::downloadSlots(std::uint32_t first, std::uint32_t count) {
    const auto p = pos.read<glm::vec4>(count, first);
    const auto v = vel.read<glm::vec4>(count, first);
    const bool all_perch = perch.size() >= std::size_t(n) * 4, all_steer = steer.size() >= std::size_t(n) * 16;
    const auto pt = perch.read<float>(all_perch ? count : 0, first);
    const auto st = steer.read<glm::vec4>(all_steer ? count : 0, first);
    const bool all_images = images.size() >= std::size_t(n) * 16;
    const auto img = images.read<glm::ivec4>(all_images ? count : 0, first);  // by id
    Flock out(count);
    for (std::uint32_t i = 0; i < count; ++i) {
        if (all_perch) out[i].perch = pt[i];
        if (all_steer) out[i].steer = st[i];
        out[i].id = std::bit_cast<std::uint32_t>(p[i].w);
        out[i].species = std::bit_cast<std::uint32_t>(v[i].w);
        out[i].p = glm::vec3(p[i]);
        out[i].v = glm::vec3(v[i]);
        if (all_images) out[i].image = glm::ivec3(img.at(out[i].id));
    }
    return out;
}

const EnsembleFlock* FlockState::ensembleFlock(std::uint32_t k) const {
    if (k >= flockCount()) throw std::out_of_range("flock " + std::to_string(k) + " of " + std::to_string(flockCount()));
    return ensemble.empty() ? nullptr : &ensemble[k];
}

Flock FlockState::downloadFlock(std::uint32_t k) {
    const EnsembleFlock* f = ensembleFlock(k);
    return f ? downloadSlots(f->first_slot, f->boids) : downloadSlots(0, n);
}

namespace {
// `copy` sized as `source` (made again when it is not), then source's bytes into it.
void copyInto(gl::Buffer& copy, const gl::Buffer& source) {
    if (copy.size() != source.size()) copy = gl::Buffer(source.size());
    copy.copyFrom(source, source.size());
}

// Back into `state` what fits of it: a buffer made since (a variant that keeps perch times) keeps
// its zeros beyond.
void copyBack(gl::Buffer& state, const gl::Buffer& copy) { state.copyFrom(copy, std::min(state.size(), copy.size())); }
}  // namespace

void StateCopy::save(const FlockState& s) {
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);  // the last pass's writes, before the copies read them
    copyInto(pos, s.pos);
    copyInto(vel, s.vel);
    copyInto(perch, s.perch);
    copyInto(steer, s.steer);
    copyInto(neighbours, s.neighbours);
    copyInto(images, s.images);
    step_count = s.step_count;
}

void StateCopy::restore(FlockState& s) const {
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    copyBack(s.pos, pos);
    copyBack(s.vel, vel);
    copyBack(s.perch, perch);
    copyBack(s.steer, steer);
    copyBack(s.neighbours, neighbours);
    copyBack(s.images, images);
    s.step_count = step_count;
    s.changed();  // the grid and the sorted copy describe the state that went
}

}  // namespace murmur::gpu
