// Order parameters on the CPU, in double: see docs/model.md ("Order parameters").
#include "cpu/order_params.hpp"

#include "cpu/neighbour_rules.hpp"
#include "cpu/grid.hpp"
#include "model/flock_stats.hpp"

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

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

// Each boid's nearest-neighbour distance within r (infinity when none is nearer), in flock order.
std::vector<float> nearestDistances(const Flock& flock, const Params& params, const RuleContext& ctx, float r) {
    std::vector<float> out(flock.size(), std::numeric_limits<float>::infinity());
    if (!(r > 0.0f) || flock.empty()) return out;
    const UniformGrid grid = gridFor(flock, params, ctx, r);
    for (std::size_t i = 0; i < flock.size(); ++i) {
        float best = r * r;
        grid.forEachCandidate(flock[i].p, [&](std::uint32_t j) {
            if (j == i) return;
            const glm::vec3 d = offsetBetween(ctx, flock[i].p, flock[j].p);
            best = std::min(best, glm::dot(d, d));
        });
        if (best < r * r) out[i] = std::sqrt(best);
    }
    return out;
}

void measureNearestNeighbours(const Flock& flock, const Params& params, const RuleContext& ctx, OrderParams& o) {
    const float r = measureRadiiOf(params).nn;
    o.nn_radius = r;
    if (!(r > 0.0f) || flock.empty()) return;
    double sum = 0.0;
    for (const float dist : nearestDistances(flock, params, ctx, r)) {
        const bool near = std::isfinite(dist);  // else none within r: counted as r, in the last bin
        sum += near ? dist : r;
        ++o.nn_histogram[near ? std::min(std::uint32_t(dist / r * float(kNnBins)), kNnBins - 1) : kNnBins];
    }
    o.nn_mean = sum / double(flock.size());
    o.nn_median = histogramMedian(o.nn_histogram, r);
}

// One group's figures: |sum of unit velocities| and |sum of r̂ × v̂| about its centre over its
// size, with positions unwrapped along the walk that found the group (members[0] its first boid).
// |heading| and |spin| come back too: the flock's sums add them as they are.
GroupFigures groupFigures(const Flock& flock, const std::vector<std::uint32_t>& members,
                          const std::vector<glm::dvec3>& unwrapped, const Params& params, double& heading_len,
                          double& spin_len) {
    glm::dvec3 centre(0.0), heading(0.0);
    for (std::uint32_t i : members) {
        centre += unwrapped[i];
        heading += unitOf(flock[i].v);
    }
    const double n = double(members.size());
    centre /= n;
    glm::dvec3 spin(0.0);
    for (std::uint32_t i : members) {
        const glm::dvec3 r = unwrapped[i] - centre;
        const double len = glm::length(r);
        if (len > 0.0) spin += glm::cross(r / len, unitOf(flock[i].v));
    }
    if (params.dims == 2) spin = glm::dvec3(0.0, 0.0, spin.z);
    heading_len = glm::length(heading);
    spin_len = glm::length(spin);
    GroupFigures g;
    g.boids = std::uint32_t(members.size());
    g.first_id = flock[members[0]].id;
    g.polarization = heading_len / n;
    g.milling = spin_len / n;
    g.centre = foldCentre(centre, params);
    return g;
}

}  // namespace

void measureGroups(const Flock& any_order, const Params& params, OrderParams& o, std::vector<std::int64_t>* labels) {
    // In id order, so the walks (and so the unwrapped positions) do not depend on the backend's order.
    Flock flock = any_order;
    std::sort(flock.begin(), flock.end(), [](const Boid& a, const Boid& b) { return a.id < b.id; });
    o.groups = 0;
    o.largest_group_share = o.grouped_share = o.group_polarization = o.milling = 0.0;
    o.largest_groups = {};
    if (labels) labels->assign(flock.size(), -1);
    const float r = measureRadiiOf(params).group;
    if (!(r > 0.0f) || flock.empty()) return;
    const RuleContext ctx(params);
    const UniformGrid grid = gridFor(flock, params, ctx, r);
    std::vector<bool> seen(flock.size(), false);
    std::vector<glm::dvec3> unwrapped(flock.size());
    std::vector<std::uint32_t> members;
    std::vector<GroupFigures> listed;
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
        if (labels)
            for (std::uint32_t i : members) (*labels)[flock[i].id] = flock[start].id;
        largest = std::max(largest, members.size());
        grouped += members.size();
        double heading_len = 0.0, spin_len = 0.0;
        listed.push_back(groupFigures(flock, members, unwrapped, params, heading_len, spin_len));
        polar_sum += heading_len;
        mill_sum += spin_len;
    }
    const std::size_t shown = std::min<std::size_t>(listed.size(), kLargestGroups);
    std::partial_sort(listed.begin(), listed.begin() + std::ptrdiff_t(shown), listed.end(), listedBefore);
    std::copy(listed.begin(), listed.begin() + std::ptrdiff_t(shown), o.largest_groups.begin());
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

BoidFigures boidFigures(const Flock& flock, const Params& params) {
    const Flock ordered = byId(flock);
    BoidFigures f;
    f.nearest = nearestDistances(ordered, params, RuleContext(params), measureRadiiOf(params).nn);
    OrderParams unused;
    measureGroups(ordered, params, unused, &f.group);
    return f;
}

}  // namespace murmur
