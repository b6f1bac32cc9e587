// Shared pieces of the order parameters: radii, the histogram median and the CSV columns.
#include "model/order_params.hpp"

#include "model/styles.hpp"

#include <algorithm>

#include <cstdio>

namespace murmur {

MeasureRadii measureRadiiOf(const Params& p) {
    MeasureRadii r;
    r.nn = p.rulesOf(0).ruleRadius();
    r.group = p.species[0].alignment.radius > 0.0f ? p.species[0].alignment.radius : r.nn;
    if (const auto group = styleInfo(p.style).group_radius) r.group = group(p, r.nn, r.group);
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

std::string orderParamsHeader() {
    return "boids,polarization,group_polarization,milling,groups,largest_group_share,grouped_share,"
           "nn_mean,nn_median,mean_neighbours,mean_speed";
}

std::string orderParamsRow(const OrderParams& o) {
    char line[512];
    std::snprintf(line, sizeof line, "%u,%.6f,%.6f,%.6f,%u,%.6f,%.6f,%.6g,%.6g,%.6g,%.6g", o.boids, o.polarization,
                  o.group_polarization, o.milling, o.groups, o.largest_group_share, o.grouped_share, o.nn_mean,
                  o.nn_median, o.mean_neighbours, o.mean_speed);
    return line;
}

}  // namespace murmur
