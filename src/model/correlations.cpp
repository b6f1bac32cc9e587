// Pair correlations; see correlations.hpp.
#include "model/correlations.hpp"

#include "model/number_text.hpp"

#include <glm/geometric.hpp>

#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>

namespace murmur {
namespace {

// The offset from a to b: the minimum image on each used axis in wrap bounds.
glm::dvec3 offsetOf(const Params& p, glm::dvec3 a, glm::dvec3 b) {
    glm::dvec3 d = b - a;
    if (p.bounds == Bounds::Wrap)
        for (int k = 0; k < p.dims; ++k) d[k] -= double(p.world_size) * std::floor(d[k] / double(p.world_size) + 0.5);
    return d;
}

// The volume (2D: area) of the shell between r0 and r1.
double shellVolume(int dims, double r0, double r1) {
    if (dims == 2) return std::numbers::pi * (r1 * r1 - r0 * r0);
    return 4.0 / 3.0 * std::numbers::pi * (r1 * r1 * r1 - r0 * r0 * r0);
}

// C's first zero: between the last bin with C > 0 before it and the first with C <= 0.
double firstZero(const Correlations& c) {
    double r_last = 0.0, c_last = std::numeric_limits<double>::quiet_NaN();
    for (std::size_t b = 0; b < c.r.size(); ++b) {
        if (std::isnan(c.velocity[b])) continue;
        if (c.velocity[b] <= 0.0) return std::isnan(c_last) ? c.r[b] : r_last + (c.r[b] - r_last) * c_last / (c_last - c.velocity[b]);
        r_last = c.r[b];
        c_last = c.velocity[b];
    }
    return std::numeric_limits<double>::quiet_NaN();
}

}  // namespace

std::optional<std::string> correlationProblem(const Params& p, std::uint32_t bins, double r_max) {
    if (bins < 1 || bins > kMaxCorrelationBins) return "bins = " + std::to_string(bins) + ": valid: [1, " + std::to_string(kMaxCorrelationBins) + "]";
    if (p.boids > kMaxCorrelationBoids)  // a GPU work group's 32-bit pair count per bin holds 256 N pairs
        return "a flock of " + std::to_string(p.boids) + " boids: valid: at most " + std::to_string(kMaxCorrelationBoids) + " (and O(N^2) pairs)";
    const double half = 0.5 * double(p.world_size);
    if (!(r_max >= 0.0) || !std::isfinite(r_max)) return "r_max = " + numberText(r_max) + ": valid: above 0 (0: half the world)";
    if (p.bounds == Bounds::Wrap && r_max > half)
        return "r_max = " + numberText(r_max) + " is past half the world (" + numberText(half) + "), where the minimum image ends; valid: (0, " +
               numberText(half) + "]";
    return std::nullopt;
}

double correlationReach(const Params& p, double r_max) { return r_max > 0.0 ? r_max : 0.5 * double(p.world_size); }

PairSums measurePairSums(const Flock& flock, const Params& p, std::uint32_t bins, double r_max) {
    if (bins < 1 || bins > kMaxCorrelationBins) throw std::invalid_argument("measurePairSums: bins outside [1, kMaxCorrelationBins]");
    r_max = correlationReach(p, r_max);
    const std::size_t n = flock.size();
    glm::dvec3 mean(0.0);
    for (const Boid& b : flock) mean += glm::dvec3(b.v);
    if (n > 0) mean /= double(n);
    PairSums s;
    for (const Boid& b : flock) {
        s.u2 += glm::dot(glm::dvec3(b.v) - mean, glm::dvec3(b.v) - mean);
        s.v2 += glm::dot(glm::dvec3(b.v), glm::dvec3(b.v));
    }
    s.u2 = n > 0 ? s.u2 / double(n) : 0.0;
    s.v2 = n > 0 ? s.v2 / double(n) : 0.0;
    s.uu.assign(bins, 0.0);
    s.pairs.assign(bins, 0);
    const double width = r_max / double(bins);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j) {
            const double r = glm::length(offsetOf(p, glm::dvec3(flock[i].p), glm::dvec3(flock[j].p)));
            if (!(r < r_max)) continue;
            const auto b = std::min<std::size_t>(std::size_t(r / width), bins - 1);
            s.uu[b] += glm::dot(glm::dvec3(flock[i].v) - mean, glm::dvec3(flock[j].v) - mean);
            ++s.pairs[b];
        }
    if (s.u2 > 0.0)
        for (double& uu : s.uu) uu /= s.u2;
    return s;
}

Correlations correlationsOf(const PairSums& sums, const Params& p, std::size_t n, double r_max) {
    r_max = correlationReach(p, r_max);
    Correlations c;
    c.pairs = sums.pairs;
    const std::size_t bins = sums.pairs.size();
    const double width = r_max / double(bins);
    const bool resolved = correlationsResolved(sums);  // so u2 > 0 too (u2 <= v2)
    const double box = std::pow(double(p.world_size), double(p.dims)), all_pairs = 0.5 * double(n) * double(n > 0 ? n - 1 : 0);
    for (std::size_t b = 0; b < bins; ++b) {
        c.r.push_back((double(b) + 0.5) * width);
        const double pairs = double(sums.pairs[b]);
        c.velocity.push_back(pairs > 0.0 && resolved ? sums.uu[b] / pairs : std::numeric_limits<double>::quiet_NaN());
        const double ideal = all_pairs * shellVolume(p.dims, double(b) * width, double(b + 1) * width) / box;
        c.g.push_back(ideal > 0.0 ? pairs / ideal : 0.0);
    }
    c.xi = firstZero(c);
    return c;
}

Correlations measureCorrelations(const Flock& flock, const Params& p, std::uint32_t bins, double r_max) {
    return correlationsOf(measurePairSums(flock, p, bins, r_max), p, flock.size(), r_max);
}

}  // namespace murmur
