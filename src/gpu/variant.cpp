#include "gpu/variant.hpp"

#include "gpu/capacity.hpp"

#include "gpu/layout.hpp"
#include "model/styles.hpp"

#include <cstdlib>
#include <map>
#include <stdexcept>
#include <string>

namespace murmur::gpu {
namespace {

// Does any species in use see through a view cone (fov below 360 degrees)? The same species as
// the grid's reach (Params::largestRadius) counts, and the same rule as the CPU's use_fov: like
// the reach, it assumes no boid's species is species_count or more (spawn, state files and the
// panel, which respawns on a new species_count, keep to that).
bool anyViewCone(const Params& p) {
    for (std::uint32_t s = 0; s < p.speciesInUse(); ++s)
        if (p.rulesOf(s).fov_deg < 360.0f) return true;
    return false;
}

// The neighbour cap's list length (flock_gather.glsl's NearestK, walked with constant indices so
// that it stays in registers): the smallest of 8, 16 and 32 that holds k, so that a small k costs
// a small list; an ensemble's flocks may each have their own k, so its list holds the largest.
// 0: no cap.
std::uint32_t capSlots(const Params& p, bool ensemble) {
    if (p.neighbour_cap == 0) return 0;
    if (ensemble) return MAX_NEIGHBOUR_CAP;
    return p.neighbour_cap <= 8 ? 8 : p.neighbour_cap <= 16 ? 16 : MAX_NEIGHBOUR_CAP;
}

}  // namespace

// overridePath's values, by variable.
std::map<std::string, std::string>& pathOverrides() {
    static std::map<std::string, std::string> overrides;
    return overrides;
}

constexpr PathChoice kReads{"MURMUR_GPU_READS", {"textures", "storage"}, {"buffer textures", "storage buffers"}};
constexpr PathChoice kWalk{"MURMUR_GPU_WALK", {"rows", "tiles"}, {"each boid its rows", "rows staged in shared memory a work group"}};
constexpr PathChoice kPathChoices[] = {kReads, kWalk};

std::span<const PathChoice> pathChoices() { return kPathChoices; }

// One of a choice's two paths from the environment's variable (or its override): false for the
// first (also unset or empty), true for the second; any other value std::invalid_argument naming
// both, with what each means.
bool secondPath(const PathChoice& c) {
    const auto overridden = pathOverrides().find(c.var);
    const char* v = overridden != pathOverrides().end() ? overridden->second.c_str() : std::getenv(c.var);
    const std::string a = c.values[0], b = c.values[1];
    if (!v || !*v || v == a) return false;
    if (v == b) return true;
    throw std::invalid_argument(std::string(c.var) + "='" + std::string(v).substr(0, 40) + "': valid: " + a + " (" + c.means[0] +
                                ", the default) or " + b + " (" + c.means[1] + ")");
}

void overridePath(const std::string& var, const std::string& value) {
    if (value.empty()) pathOverrides().erase(var);
    else pathOverrides()[var] = value;
}

SortedReads sortedReads() {
    return secondPath(kReads) ? SortedReads::Storage : SortedReads::Textures;
}

const char* sortedReadsName(SortedReads reads) { return kReads.values[reads == SortedReads::Storage ? 1 : 0]; }

CellWalk cellWalk() {
    return secondPath(kWalk) ? CellWalk::Tiles : CellWalk::Rows;
}

const char* cellWalkName(CellWalk walk) { return kWalk.values[walk == CellWalk::Tiles ? 1 : 0]; }

bool tiledWalk(const Params& p, bool ensemble) {
    return cellWalk() == CellWalk::Tiles && !ensemble && p.update != UpdateOrder::Sequential;
}

std::string styleSlotRead(std::size_t k) { return "(P.style[" + std::to_string(k / 4) + "]." + "xyzw"[k % 4] + ")"; }

std::vector<gl::ShaderDefine> variantDefines(const Params& p, bool ensemble) {
    const StyleInfo& style = styleInfo(p.style);  // the one place the GPU backend picks a style: its shader
    auto flag = [](bool on) { return std::string(on ? "1" : "0"); };
    std::vector<gl::ShaderDefine> defines = {{"DIMS", std::to_string(p.dims)},
            {"BOUNDS_WRAP", flag(p.bounds == Bounds::Wrap)},
            {"BOUNDS_OPEN", flag(p.bounds == Bounds::Open)},
            {"STYLE_GLSL", std::string("\"") + style.glsl + "\""},
            {"STORED_STEER", flag(keepsSteering(p))},
            {"ADAPTIVE_REACH", flag(p.topological.on())},
            {"OWN_SEARCH", flag(style.traits.own_search)},
            {"AMORTISED_STEERING", flag(style.traits.amortised_steering)},
            {"NEIGHBOUR_CAP", std::to_string(capSlots(p, ensemble))},
            {"PERCHING", flag(p.perching)},
            {"MULTI_SPECIES", flag(p.species_count > 1)},
            {"UPDATE_SEQUENTIAL", flag(p.update == UpdateOrder::Sequential)},
            {"INTEGRATE_EXPLICIT", flag(p.integrator == Integrator::Explicit)},
            {"SPEED_LIMIT", flag(p.speed_limit)},
            {"VIEW_CONE", flag(style.traits.velocity_cone && anyViewCone(p))},
            {"OBSTACLES", flag(!p.obstacles.empty())},
            {"ENSEMBLE", flag(ensemble)},
            {"STORAGE_READS", flag(sortedReads() == SortedReads::Storage)},
            {"TILED_WALK", flag(tiledWalk(p, ensemble))}};
    if (style.switches)
        for (const ShaderSwitch& s : style.switches(p)) defines.push_back({s.name, flag(s.on)});  // the style's own
    for (std::size_t k = 0; k < style.slots.size(); ++k) defines.push_back({style.slots[k].name, styleSlotRead(k)});
    return defines;
}

std::vector<gl::ShaderDefine> variantDefinesWith(const Params& p, bool ensemble, const char* define, const std::string& value) {
    auto defines = variantDefines(p, ensemble);
    defines.push_back({define, value});
    return defines;
}

std::string variantOf(const Params& p, bool ensemble) {
    std::string variant;
    for (const auto& d : variantDefines(p, ensemble)) variant += d.name + "=" + d.value + " ";
    return variant;
}

Params ensembleVariantParams(const std::vector<Params>& flocks) {
    Params p = flocks.at(0);
    for (const Params& f : flocks)
        if (p.obstacles.empty()) p.obstacles = f.obstacles;
    return p;
}

}  // namespace murmur::gpu
