// Pair correlations of a flock's state (docs/research.md, "Correlations"): the connected velocity
// correlation C(r) of Cavagna et al. (2010, PNAS 107:11865) and its first zero, the correlation
// length xi, and the pair distribution g(r). From the positions and velocities alone (a downloaded
// flock), over every pair within r_max (the minimum image in wrap bounds), in double: O(N^2).
#pragma once

#include "model/boid.hpp"
#include "model/params.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace murmur {

struct Correlations {
    std::vector<double> r;            // each bin's centre: bins of equal width over [0, r_max)
    std::vector<double> velocity;     // C(r): mean u_i . u_j over the bin's pairs, over mean |u|^2 (u = v - mean v); NaN: no
                                      // pair, or fluctuations not resolved (correlationsResolved)
    std::vector<double> g;            // g(r): the bin's pairs over those of an ideal gas at the box's density
    std::vector<std::uint64_t> pairs; // pairs in each bin
    double xi = 0.0;                  // C's first zero (linear between the bins either side); NaN when C never falls to 0
};

inline constexpr std::uint32_t kMaxCorrelationBins = 1024;  // MAX_CORR_BINS in shaders/layout.glsl
inline constexpr std::uint32_t kMaxCorrelationBoids = 1u << 24;  // the GPU's per-work-group pair counts stay within 32 bits

// What the correlations are made from, per bin of the pair distance: the sum of u_i . u_j over
// mean |u|^2 and the pairs; and mean |u|^2 itself. The CPU sums in double (measurePairSums), the
// GPU in fixed point without reading the flock back (CorrelationPass); correlationsOf finishes both.
struct PairSums {
    std::vector<double> uu;            // per bin: sum over its pairs of u_i . u_j / mean |u|^2
    std::vector<std::uint64_t> pairs;  // per bin: its pairs
    double u2 = 0.0;                   // mean |u|^2 (u = v - mean v)
    double v2 = 0.0;                   // mean |v|^2: what u2 is resolved against
};

// Whether the sums resolve the velocities' fluctuations: mean |u|^2 above kUnresolvedFluctuation
// of mean |v|^2 (u's rms above 1e-5 of the speed's). Below it a flock moves as one, and what is
// left of u is rounding (the GPU's float mean is off by about 1e-7 of the speed where the CPU's
// double is exact), so C is undefined (NaN) on both backends rather than noise on one.
inline constexpr double kUnresolvedFluctuation = 1e-10;
inline bool correlationsResolved(const PairSums& s) { return s.u2 > kUnresolvedFluctuation * s.v2; }

// Why these bins and r_max do not suit p (bins in [1, kMaxCorrelationBins]; r_max above 0, at
// most half the world in wrap bounds; at most kMaxCorrelationBoids boids), if they do not.
std::optional<std::string> correlationProblem(const Params& p, std::uint32_t bins, double r_max);
// The r_max measured to: r_max itself, or half the world's edge for 0.
double correlationReach(const Params& p, double r_max);
// The sums over every pair within r_max (correlationReach's), in double: O(N^2).
PairSums measurePairSums(const Flock& flock, const Params& p, std::uint32_t bins, double r_max);
// The correlations of n boids from their sums.
Correlations correlationsOf(const PairSums& sums, const Params& p, std::size_t n, double r_max);
// The flock's correlations on the CPU: correlationsOf(measurePairSums(...)).
Correlations measureCorrelations(const Flock& flock, const Params& p, std::uint32_t bins, double r_max = 0.0);

}  // namespace murmur
