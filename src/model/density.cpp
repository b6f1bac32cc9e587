// World size from the density of a preset; see density.hpp.
#include "model/density.hpp"

#include "model/grid_spec.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace murmur {
namespace {

// Volume (3D) or area (2D) of a ball of radius r.
double ballVolume(double r, int dims) { return dims == 3 ? 4.0 / 3.0 * M_PI * r * r * r : M_PI * r * r; }

void scaleVec(Vec3f& v, float s) { v = {v.x * s, v.y * s, v.z * s}; }

}  // namespace

WorldSize worldForDensity(const DensityRef& ref, float rule_radius, float largest_radius, std::uint32_t boids, int dims) {
    WorldSize w;
    if (boids == 0 || ref.boids == 0) {
        w.edge = ref.world_size;
        return w;
    }
    // Expected neighbours within the largest rule radius r: boids * ball(r) / L^dims.
    const double r = std::max(1e-3, double(rule_radius));
    const double neighbours = double(ref.boids) * ballVolume(r, ref.dims) / std::pow(double(ref.world_size), ref.dims);
    double L = std::pow(double(boids) * ballVolume(r, dims) / neighbours, 1.0 / dims);
    const double smallest = 2.0 * double(largest_radius), largest = kMaxWorldSize;
    if (L < smallest || L > largest) {
        L = std::clamp(L, smallest, largest);
        w.kept = false;
    }
    w.edge = float(L);
    return w;
}

Params withWorld(const Params& from, float edge) {
    Params p = from;
    const float s = edge / from.world_size;
    p.world_size = edge;
    p.margin = std::min(from.margin * s, edge / 2);
    scaleVec(p.attractor.at, s);
    scaleVec(p.repeller.at, s);
    scaleVec(p.leader_at, s);
    // Centres scale; radii stay (model.md, "Density"): an obstacle too large for the new world is
    // refused by validation, as --set world_size is, never shrunk or left to fill the world.
    for (Obstacle& o : p.obstacles) scaleVec(o.at, s);
    p.perch_ground *= s;
    p.dc.height *= s;
    p.spawn_radius *= s;              // the spawn ball keeps its density
    p.starling.roost_radius *= s;     // and the starlings' roost its size against the flock
    return p;
}

Rescaled keepDensity(const Params& from, std::uint32_t boids, int dims) {
    const DensityRef ref{from.boids, from.world_size, from.dims};
    const WorldSize w = worldForDensity(ref, from.rulesOf(0).ruleRadius(), from.largestRadius(), boids, dims);
    Rescaled out;
    out.params = withWorld(from, w.edge);
    out.params.boids = boids;
    out.params.dims = dims;
    out.kept = w.kept;
    char text[192];
    std::snprintf(text, sizeof text, "%u boids in a %.4g-unit world (%s)", boids, double(w.edge),
                  w.kept ? "density of the preset kept" : "the nearest world the ranges allow: not the preset's density");
    out.summary = text;
    return out;
}

double candidatePairsPerStep(const Params& p) {
    const GridSpec g = makeGridSpec(p);
    double searched = 1.0;
    for (int a = 0; a < p.dims; ++a) searched *= std::min(double(kGridSpan), double(g.cells[a]));
    const double n = double(p.boids);
    return n * n * searched / double(g.total());
}

std::string describeCost(double pairs) {
    char text[128];
    std::snprintf(text, sizeof text, "about %.2g candidate pairs per step (at most %.0e)", pairs, kMaxCandidatePairs);
    return text;
}

}  // namespace murmur
