// The C++ side of shaders/layout.glsl: the same struct and binding slots, checked for size and
// offsets, plus packing of Params into the GPU parameter block.
#pragma once

#include "model/grid_spec.hpp"
#include "model/order_params.hpp"
#include "model/params.hpp"
#include "model/styles.hpp"

#include <glm/vec4.hpp>

#include <cstddef>
#include <cstdint>

namespace murmur::gpu {

using vec4 = glm::vec4;
using uvec4 = glm::uvec4;
#include "layout.glsl"

static_assert(sizeof(SpeciesBlock) == 8 * 16);
static_assert(sizeof(SimParams) == (15 + MAX_STYLE_VALUES + MAX_OBSTACLES + 8 * MAX_SPECIES) * 16, "SimParams must match layout.glsl");
static_assert(offsetof(SimParams, species) == (11 + MAX_OBSTACLES) * 16);
static_assert(MAX_SPECIES == kMaxSpecies);
static_assert(MAX_STYLE_VALUES * 4 == kMaxStyleSlots, "the style block holds every slot a style may declare");
static_assert(NN_BINS == kNnBins, "the GPU histogram has the CPU's bins");
static_assert(LARGEST_GROUPS == kLargestGroups, "the GPU lists as many groups as the CPU");
static_assert(float(GRADED_CORE) == kGradedCore);
static_assert(float(GLOSS_CANCEL) == kGlossCancel);
static_assert(offsetof(SimParams, events) == (11 + MAX_OBSTACLES + 8 * MAX_SPECIES) * 16);
static_assert(offsetof(SimParams, wind) == 6 * 16);
static_assert(offsetof(SimParams, obstacles) == 11 * 16);
static_assert(MAX_OBSTACLES == kMaxObstacles, "the GPU block holds every obstacle Params allows");
static_assert(offsetof(SimParams, step) == 5 * 16);
static_assert(offsetof(SimParams, cells) == 3 * 16);
static_assert(offsetof(SimParams, counts) == 4 * 16);
static_assert(SCAN_BLOCK == 1024);
static_assert(GRID_REACH == kGridReach && GRID_SPAN == kGridSpan, "both backends search the same cells");
static_assert(sizeof(PickedBoid) == 3 * 16, "PickedBoid must be 3 vec4s, as in layout.glsl");

SimParams packParams(const Params& params, const GridSpec& grid, std::uint32_t boids);

}  // namespace murmur::gpu
