// Order parameters on the CPU, in double: see docs/model.md ("Order parameters").
#include "cpu/order_params.hpp"

#include "cpu/flock_rules.hpp"
#include "cpu/grid.hpp"
#include "model/flock_stats.hpp"

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>

namespace murmur {
namespace {

glm::dvec3 unitOf(glm::vec3 v) {
    const double len = std::sqrt(double(v.x) * v.x + double(v.y) * v.y + double(v.z) * v.z);
    return len > 0.0 ? glm::dvec3(v) / len : glm::dvec3(0.0);
}

UniformGrid gridFor(const Flock& flock, const Params& params, const RuleContext& ctx, float radius) {
    UniformGrid grid;
    grid.build(makeGridSpec(params, radius), flock, ctx.L);
    return grid;
}

void measureNearestNeighbours(const Flock& flock, const Params& params, const RuleContext& ctx, OrderParams& o) {
    const float r = measureRadiiOf(params).nn;
    o.nn_radius = r;
    if (!(r > 0.0f) || flock.empty()) return;
    const UniformGrid grid = gridFor(flock, params, ctx, r);
    double sum = 0.0;
    for (std::size_t i = 0; i < flock.size(); ++i) {
        float best = r * r;
        grid.forEachCandidate(flock[i].p, [&](std::uint32_t j) {
            if (j == i) return;
            const glm::vec3 d = offsetBetween(ctx, flock[i].p, flock[j].p);
            best = std::min(best, glm::dot(d, d));
        });
        if (best < r * r) {
            const float dist = std::sqrt(best);
            sum += dist;
            ++o.nn_histogram[std::min(std::uint32_t(dist / r * float(kNnBins)), kNnBins - 1)];
        } else {
            sum += r;
            ++o.nn_histogram[kNnBins];
        }
    }
    o.nn_mean = sum / double(flock.size());
    o.nn_median = histogramMedian(o.nn_histogram, r);
}

// One group's share of the sums: |sum of unit velocities| and |sum of r̂ × v̂| about its centre,
// with positions unwrapped along the walk that found the group.
void addGroup(const Flock& flock, const std::vector<std::uint32_t>& members, const std::vector<glm::dvec3>& unwrapped,
              int dims, double& polar_sum, double& mill_sum) {
    glm::dvec3 centre(0.0), heading(0.0);
    for (std::uint32_t i : members) {
        centre += unwrapped[i];
        heading += unitOf(flock[i].v);
    }
    centre /= double(members.size());
    glm::dvec3 spin(0.0);
    for (std::uint32_t i : members) {
        const glm::dvec3 r = unwrapped[i] - centre;
        const double len = glm::length(r);
        if (len > 0.0) spin += glm::cross(r / len, unitOf(flock[i].v));
    }
    if (dims == 2) spin = glm::dvec3(0.0, 0.0, spin.z);
    polar_sum += glm::length(heading);
    mill_sum += glm::length(spin);
}

}  // namespace

void measureGroups(const Flock& any_order, const Params& params, OrderParams& o) {
    // In id order, so the walks (and so the unwrapped positions) do not depend on the backend's order.
    Flock flock = any_order;
    std::sort(flock.begin(), flock.end(), [](const Boid& a, const Boid& b) { return a.id < b.id; });
    o.groups = 0;
    o.largest_group_share = o.grouped_share = o.group_polarization = o.milling = 0.0;
    const float r = measureRadiiOf(params).group;
    if (!(r > 0.0f) || flock.empty()) return;
    const RuleContext ctx(params);
    const UniformGrid grid = gridFor(flock, params, ctx, r);
    std::vector<bool> seen(flock.size(), false);
    std::vector<glm::dvec3> unwrapped(flock.size());
    std::vector<std::uint32_t> members;
    std::size_t largest = 0, grouped = 0;
    double polar_sum = 0.0, mill_sum = 0.0;
    for (std::uint32_t start = 0; start < flock.size(); ++start) {
        if (seen[start]) continue;
        // Breadth-first over links shorter than r; each boid's unwrapped position is the group's
        // first boid's (its lowest id) plus the minimum-image offset between them, as the GPU
        // takes it (groups.glsl).
        members.assign(1, start);
        seen[start] = true;
        unwrapped[start] = glm::dvec3(flock[start].p);
        for (std::size_t head = 0; head < members.size(); ++head) {
            const std::uint32_t a = members[head];
            grid.forEachCandidate(flock[a].p, [&](std::uint32_t j) {
                if (seen[j]) return;
                const glm::vec3 d = offsetBetween(ctx, flock[a].p, flock[j].p);
                if (!(glm::dot(d, d) < r * r)) return;
                seen[j] = true;
                unwrapped[j] = unwrapped[start] + glm::dvec3(offsetBetween(ctx, flock[start].p, flock[j].p));
                members.push_back(j);
            });
        }
        if (members.size() < kMinGroupSize) continue;
        ++o.groups;
        largest = std::max(largest, members.size());
        grouped += members.size();
        addGroup(flock, members, unwrapped, params.dims, polar_sum, mill_sum);
    }
    const double n = double(flock.size());
    o.largest_group_share = double(largest) / n;
    o.grouped_share = double(grouped) / n;
    if (grouped > 0) {
        o.group_polarization = polar_sum / double(grouped);
        o.milling = mill_sum / double(grouped);
    }
}

OrderParams measureFlock(const Flock& flock, const Params& params, const std::vector<std::uint32_t>& neighbours_by_id) {
    OrderParams o;
    o.boids = std::uint32_t(flock.size());
    o.polarization = polarization(flock);
    double speed = 0.0;
    for (const Boid& b : flock) speed += glm::length(glm::dvec3(b.v));
    o.mean_speed = flock.empty() ? 0.0 : speed / double(flock.size());
    o.mean_neighbours = meanOf(neighbours_by_id);
    const RuleContext ctx(params);
    measureNearestNeighbours(flock, params, ctx, o);
    measureGroups(flock, params, o);
    return o;
}

}  // namespace murmur
