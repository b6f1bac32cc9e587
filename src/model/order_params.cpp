// Shared pieces of the order parameters: radii, the histogram median and the CSV columns.
#include "model/order_params.hpp"

#include "model/styles.hpp"

#include <algorithm>

#include <cmath>
#include <cstdio>

namespace murmur {

bool listedBefore(const GroupFigures& a, const GroupFigures& b) {
    return a.boids > b.boids || (a.boids == b.boids && a.first_id < b.first_id);
}

MeasureRadii measureRadiiOf(const Params& p) {
    MeasureRadii r;
    r.nn = p.rulesOf(0).ruleRadius();
    r.group = p.species[0].alignment.radius > 0.0f ? p.species[0].alignment.radius : r.nn;
    if (const auto group = styleInfo(p.style).group_radius) r.group = group(p, r.nn, r.group);
    if (p.group_radius > 0.0f) r.group = p.group_radius;  // the key chooses
    return r;
}

double histogramMedian(const std::array<std::uint32_t, kNnBins + 1>& histogram, float radius) {
    std::uint64_t total = 0;
    for (std::uint32_t c : histogram) total += c;
    if (total == 0) return 0.0;
    const double half = double(total) / 2.0, width = double(radius) / kNnBins;
    double below = 0.0;
    for (std::uint32_t b = 0; b < kNnBins; ++b) {
        if (below + histogram[b] >= half && histogram[b] > 0) return width * (b + (half - below) / histogram[b]);
        below += histogram[b];
    }
    return radius;  // half or more have no neighbour within the radius
}

glm::dvec3 foldCentre(glm::dvec3 centre, const Params& params) {
    if (params.bounds != Bounds::Wrap) return centre;
    const double L = params.world_size;
    for (int a = 0; a < params.dims; ++a) {
        centre[a] -= L * std::floor(centre[a] / L);
        if (centre[a] >= L) centre[a] = 0.0;
    }
    return centre;
}

double groupFigure(const GroupFigures& g, std::size_t field) {
    switch (field) {
        case 0: return double(g.boids);
        case 1: return double(g.first_id);
        case 2: return g.polarization;
        case 3: return g.milling;
        default: return g.centre[int(field - 4) % 3];
    }
}

std::string orderParamsHeader() {
    std::string header = "boids,polarization,group_polarization,milling,groups,largest_group_share,grouped_share,"
                         "nn_mean,nn_median,mean_neighbours,mean_speed";
    for (std::uint32_t k = 1; k <= kLargestGroups; ++k)
        for (const char* field : kGroupFigureFields) header += ",group" + std::to_string(k) + "_" + field;
    return header;
}

std::optional<std::string> stepResolutionWarning(std::uint32_t boids, double mean_speed, double nn_mean, double dt) {
    const double stride = mean_speed * dt;
    if (boids < 2 || !(stride > nn_mean) || !(dt > 0.0)) return std::nullopt;
    char text[320];
    std::snprintf(text, sizeof text,
                  "the step may not resolve the motion: a boid moves %.3g units a step (mean speed %.3g x dt %.3g), farther "
                  "than the mean nearest-neighbour distance %.3g; figures measured at this dt may be artefacts (dt at most "
                  "%.3g resolves it)",
                  stride, mean_speed, dt, nn_mean, nn_mean / mean_speed);
    return std::string(text);
}

std::string orderParamsRow(const OrderParams& o) {
    char line[512];
    std::snprintf(line, sizeof line, "%u,%.6f,%.6f,%.6f,%u,%.6f,%.6f,%.6g,%.6g,%.6g,%.6g", o.boids, o.polarization,
                  o.group_polarization, o.milling, o.groups, o.largest_group_share, o.grouped_share, o.nn_mean,
                  o.nn_median, o.mean_neighbours, o.mean_speed);
    std::string row = line;
    for (const GroupFigures& g : o.largest_groups) {
        std::snprintf(line, sizeof line, ",%u,%u,%.6f,%.6f,%.6g,%.6g,%.6g", g.boids, g.first_id, g.polarization, g.milling,
                      g.centre.x, g.centre.y, g.centre.z);
        row += line;
    }
    return row;
}

}  // namespace murmur
