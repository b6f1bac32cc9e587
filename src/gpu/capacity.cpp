#include "gpu/capacity.hpp"

#include "gl/buffer_texture.hpp"
#include "gpu/grid_scan.hpp"
#include "gpu/layout.hpp"
#include "gpu/variant.hpp"
#include "model/styles.hpp"

#include <algorithm>
#include <cstdio>

namespace murmur::gpu {
namespace {

constexpr GLenum kGpuMemoryAvailableNvx = 0x9049;  // GL_NVX_gpu_memory_info, KiB

}  // namespace

bool keepsPerchTimes(const Params& p) { return p.perching; }
bool keepsSteering(const Params& p) { return keepsState(p); }

bool keepsSlotOfId(const Params& p) { return p.update == UpdateOrder::Sequential; }
bool keepsImages(const Params& p) { return p.bounds == Bounds::Wrap; }

std::uint64_t bytesPerBoid(const Params& p) {
    return 4 * 16 + 3 * 4 + (keepsImages(p) ? 16 : 0) + (keepsPerchTimes(p) ? 2 * 4 : 0) + (keepsSteering(p) ? 2 * 16 : 0) + (keepsSlotOfId(p) ? 4 : 0);
}

std::uint32_t neighbourSweeps(const Params& p) { return p.neighbour_cap > 0 || styleInfo(p.style).traits.own_search ? 2u : 1u; }

std::uint32_t sequentialRun(const Params& p, std::uint32_t boids) {
    // Loop iterations per boid stepped: each sweep visits every boid, and a neighbour cap's
    // insertion loop may run up to cap times per visit.
    const std::uint64_t per_boid = std::uint64_t(boids) * neighbourSweeps(p) * (1 + p.neighbour_cap) + 16;
    return std::uint32_t(std::clamp<std::uint64_t>((kLoopBudget - boids) / per_boid, 1, std::max(boids, 1u)));
}

Capacity queryCapacity(const GridSpec& grid) {
    Capacity c;
    GLint64 block = 0;
    glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &block);
    c.max_block_bytes = std::uint64_t(block);
    if (GLAD_GL_NVX_gpu_memory_info) {
        GLint kib = 0;
        glGetIntegerv(kGpuMemoryAvailableNvx, &kib);
        c.available_bytes = std::uint64_t(kib) * 1024;
    }
    c.max_texels = gl::maxBufferTexels();
    c.max_boids = std::min(c.max_block_bytes / 16, c.max_texels);  // the largest array: one vec4 (a texel) per boid
    c.fixed_bytes = std::uint64_t(grid.total()) * 8 + GridScan::outCount(grid.total()) * 4;  // two counts, the scan
    return c;
}

std::optional<std::string> memoryWarning(const Params& params) {
    const Capacity cap = queryCapacity(makeGridSpec(params));
    const std::uint64_t need = std::uint64_t(params.boids) * bytesPerBoid(params) + cap.fixed_bytes;
    if (!cap.available_bytes || need <= cap.available_bytes) return std::nullopt;
    return std::to_string(params.boids) + " boids need " + std::to_string(need >> 20) + " MiB of storage and the driver reports " +
           std::to_string(cap.available_bytes >> 20) +
           " MiB free video memory: continuing (drivers page, and an APU's carve-out is not its limit); expect it to be slow "
           "or to fail if the GPU really is full";
}

void checkGlLimits(const Params& p) {
    auto get = [](GLenum what, GLint index = -1) {
        GLint v = 0;
        if (index < 0) glGetIntegerv(what, &v);
        else glGetIntegeri_v(what, GLuint(index), &v);
        return std::int64_t(v);
    };
    // The most storage blocks in one pass: grid_scatter.comp's 7 (grid_cells.glsl's count block
    // included, though the scatter does not read it: a declared std430 block may count as
    // active), 2 more for perch times and 2 for the stored steering (the steer pass uses 5, 1 and
    // 2, 2 more in a sampled step's variant, and reads TEX_COUNT buffer textures).
    const std::int64_t blocks = 7 + (keepsPerchTimes(p) ? 2 : 0) + (keepsSteering(p) ? 2 : 0);
    // flock_measure.comp: two vec4 and a uint an invocation and the histogram; group_largest.comp:
    // LARGEST_GROUPS candidates of three uints an invocation.
    // The tiled steer pass (MURMUR_GPU_WALK=tiles): TILE_CAPACITY records of 16 bytes and three
    // uints a row of the 5x5 it stages (shaders/cell_tiles.glsl).
    const std::int64_t tiles = tiledWalk(p, false) ? std::int64_t(TILE_CAPACITY) * 16 + std::int64_t(kGridSpan * kGridSpan) * 12 : 0;
    const std::int64_t shared = std::max({std::int64_t(STEP_GROUP_SIZE) * 32 + (NN_BINS + 1) * 4,
                                          std::int64_t(STEP_GROUP_SIZE) * LARGEST_GROUPS * 12, tiles});
    const struct {
        const char* name;
        std::int64_t have, need;
    } limits[] = {
        {"GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS", get(GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS), blocks},
        {"GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS", get(GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS), BIND_COUNT},
        {"GL_MAX_COMPUTE_TEXTURE_IMAGE_UNITS", get(GL_MAX_COMPUTE_TEXTURE_IMAGE_UNITS), TEX_COUNT},
        {"GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS", get(GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS), STEP_GROUP_SIZE},
        {"GL_MAX_COMPUTE_WORK_GROUP_SIZE (x)", get(GL_MAX_COMPUTE_WORK_GROUP_SIZE, 0), std::max(STEP_GROUP_SIZE, SCAN_GROUP_SIZE)},
        {"GL_MAX_COMPUTE_SHARED_MEMORY_SIZE", get(GL_MAX_COMPUTE_SHARED_MEMORY_SIZE), shared},
        {"GL_MAX_COMPUTE_IMAGE_UNIFORMS", get(GL_MAX_COMPUTE_IMAGE_UNIFORMS), IMAGE_COUNT},
    };
    for (const auto& l : limits)
        if (l.have < l.need)
            throw LimitError(std::string("this OpenGL implementation offers ") + l.name + " = " + std::to_string(l.have) +
                             "; murmur's compute passes need " + std::to_string(l.need) +
                             " (use --backend cpu to run the CPU reference)");
}

std::optional<std::string> capacityProblem(const Params& params, const Capacity& cap) {
    if (params.boids > cap.max_boids)
        return std::to_string(params.boids) + " boids do not fit this GPU: it holds at most " + std::to_string(cap.max_boids) +
               " (shader storage blocks up to " + std::to_string(cap.max_block_bytes >> 20) + " MiB, " +
               std::to_string(bytesPerBoid(params)) + " bytes per boid; buffer textures up to " + std::to_string(cap.max_texels) +
               " texels, one per boid); valid range [0, " + std::to_string(cap.max_boids) + "]";
    // The cells' starts are read through a buffer texture too (a few more texels than cells); the
    // grid grows with the boids (up to two cells each), so a count can fit where its grid does not.
    auto gridTexels = [&](std::uint64_t boids) {
        Params q = params;
        q.boids = std::uint32_t(boids);
        return GridScan::outCount(makeGridSpec(q).total());
    };
    if (const std::uint64_t texels = gridTexels(params.boids); texels > cap.max_texels) {
        std::uint64_t fits = 0, over = params.boids;  // the largest count whose grid fits, in [fits, over)
        while (over - fits > 1) {
            const std::uint64_t mid = fits + (over - fits) / 2;
            (gridTexels(mid) <= cap.max_texels ? fits : over) = mid;
        }
        char world[32];
        std::snprintf(world, sizeof world, "%g", double(params.world_size));
        return std::to_string(params.boids) + " boids do not fit this GPU in a world of " + world +
               ": their grid of " + std::to_string(makeGridSpec(params).total()) + " cells needs " + std::to_string(texels) +
               " texels of cell starts, and its buffer textures hold " + std::to_string(cap.max_texels) + "; valid range [0, " +
               std::to_string(fits) + "] in this world with these radii (a smaller world or larger radii take fewer cells)";
    }
    return std::nullopt;
}

void checkCapacity(const Params& params) {
    if (auto why = capacityProblem(params, queryCapacity(makeGridSpec(params)))) throw CapacityError(*why);
}

void checkGridFits(const Params& params, const GridSpec& grid) {
    // A grid read past its buffer texture's end would lose neighbours silently (upload, sweeps and
    // the panel check this first): refused before anything changes.
    if (GridScan::outCount(grid.total()) > gl::maxBufferTexels()) throw CapacityError(*capacityProblem(params, queryCapacity(grid)));
}

}  // namespace murmur::gpu
