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

Rescaled keepDensity(const Params& from, std::uint32_t boids, int dims) {
    Rescaled out;
    Params& p = out.params;
    p = from;
    p.boids = boids;
    p.dims = dims;
    if (boids == 0 || from.boids == 0) {
        out.summary = std::to_string(boids) + " boids in a " + std::to_string(int(from.world_size)) + "-unit world";
        return out;
    }
    // Expected neighbours within the largest rule radius r: boids * ball(r) / L^dims.
    const double r = std::max(1e-3, double(from.rulesOf(0).ruleRadius()));
    const double neighbours = double(from.boids) * ballVolume(r, from.dims) / std::pow(double(from.world_size), from.dims);
    double L = std::pow(double(boids) * ballVolume(r, dims) / neighbours, 1.0 / dims);
    const double smallest = 2.0 * double(from.largestRadius());
    if (L < smallest) {
        L = smallest;
        out.kept = false;
    }
    L = std::min(L, 1e6);
    const float s = float(L / double(from.world_size));
    p.world_size = float(L);
    p.margin = std::min(from.margin * s, p.world_size / 2);
    scaleVec(p.attractor.at, s);
    scaleVec(p.repeller.at, s);
    scaleVec(p.leader_at, s);
    for (Obstacle& o : p.obstacles) {
        scaleVec(o.at, s);
        o.radius = std::min(o.radius, p.world_size / 2);
    }
    p.perch_ground *= s;
    p.dc.height *= s;
    char text[192];
    std::snprintf(text, sizeof text, "%u boids in a %.4g-unit world (%s)", boids, L,
                  out.kept ? "density of the preset kept" : "the smallest world its radii allow: denser than the preset");
    out.summary = text;
    return out;
}

double candidatePairsPerStep(const Params& p) {
    const GridSpec g = makeGridSpec(p);
    double searched = 1.0;
    for (int a = 0; a < p.dims; ++a) searched *= std::min(3.0, double(g.cells[a]));
    const double n = double(p.boids);
    return n * n * searched / double(g.total());
}

std::string describeCost(double pairs) {
    char text[128];
    std::snprintf(text, sizeof text, "about %.2g candidate pairs per step (at most %.0e)", pairs, kMaxCandidatePairs);
    return text;
}

}  // namespace murmur
