// Body measures; see body_shape.hpp. The k nearest of each boid come from a grid of cells about
// k + 1 boids each, searched in shells of cells until no cell left can hold a nearer one.
#include "model/body_shape.hpp"

#include <glm/geometric.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace murmur {
namespace {

using Mat3 = std::array<std::array<double, 3>, 3>;

// Eigenvalues (ascending) and unit eigenvectors of a symmetric 3x3 matrix, by Jacobi rotations.
std::pair<glm::dvec3, std::array<glm::dvec3, 3>> symmetricEigen(Mat3 a) {
    Mat3 v{{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
    for (int sweep = 0; sweep < 50; ++sweep) {
        const double off = a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2];
        if (off < 1e-30 * (a[0][0] * a[0][0] + a[1][1] * a[1][1] + a[2][2] * a[2][2]) || off == 0.0) break;
        for (int p = 0; p < 2; ++p)
            for (int q = p + 1; q < 3; ++q) {
                if (a[p][q] == 0.0) continue;
                const double theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
                const double t = (theta >= 0 ? 1.0 : -1.0) / (std::fabs(theta) + std::sqrt(theta * theta + 1.0));
                const double c = 1.0 / std::sqrt(t * t + 1.0), s = t * c;
                for (int k = 0; k < 3; ++k) {  // a <- J^T a J, v <- v J
                    const double akp = a[k][p], akq = a[k][q];
                    a[k][p] = c * akp - s * akq;
                    a[k][q] = s * akp + c * akq;
                }
                for (int k = 0; k < 3; ++k) {
                    const double apk = a[p][k], aqk = a[q][k];
                    a[p][k] = c * apk - s * aqk;
                    a[q][k] = s * apk + c * aqk;
                }
                for (int k = 0; k < 3; ++k) {
                    const double vkp = v[k][p], vkq = v[k][q];
                    v[k][p] = c * vkp - s * vkq;
                    v[k][q] = s * vkp + c * vkq;
                }
            }
    }
    std::array<int, 3> order{0, 1, 2};
    std::sort(order.begin(), order.end(), [&](int x, int y) { return a[x][x] < a[y][y]; });
    glm::dvec3 values;
    std::array<glm::dvec3, 3> vectors;
    for (int i = 0; i < 3; ++i) {
        values[i] = std::max(a[order[i]][order[i]], 0.0);
        vectors[i] = glm::dvec3(v[0][order[i]], v[1][order[i]], v[2][order[i]]);
    }
    return {values, vectors};
}

// Cells of edge h over the flock's bounding box, each boid's index listed by cell.
struct CellList {
    glm::dvec3 lo{0.0};
    double h = 1.0;
    glm::ivec3 n{1};
    std::vector<std::uint32_t> start, boids;

    glm::ivec3 cellOf(const glm::dvec3& p) const {
        glm::ivec3 c;
        for (int a = 0; a < 3; ++a) c[a] = std::clamp(int((p[a] - lo[a]) / h), 0, n[a] - 1);
        return c;
    }
    std::size_t index(glm::ivec3 c) const { return (std::size_t(c.z) * std::size_t(n.y) + std::size_t(c.y)) * std::size_t(n.x) + std::size_t(c.x); }
};

CellList cellList(const Flock& flock, std::uint32_t per_cell) {
    CellList g;
    glm::dvec3 hi(-1e300), lo(1e300);
    for (const Boid& b : flock) {
        lo = glm::min(lo, glm::dvec3(b.p));
        hi = glm::max(hi, glm::dvec3(b.p));
    }
    const glm::dvec3 ext = hi - lo;
    const int dims = ext.z > 0.0 ? 3 : 2;
    const double volume = std::max(dims == 3 ? ext.x * ext.y * ext.z : ext.x * ext.y, 1e-30);
    g.h = std::max(std::pow(volume * per_cell / double(flock.size()), 1.0 / dims), 1e-9);
    for (;;) {  // at most four cells a boid: a flat or thin flock's box would otherwise be mostly empty cells
        for (int a = 0; a < 3; ++a) g.n[a] = int(std::min(ext[a] / g.h, 1e6)) + 1;
        if (double(g.n.x) * g.n.y * g.n.z <= 4.0 * double(flock.size()) + 64.0) break;
        g.h *= 1.25;
    }
    g.lo = lo;
    std::vector<std::uint32_t> count(std::size_t(g.n.x) * g.n.y * g.n.z + 1, 0);
    for (const Boid& b : flock) ++count[g.index(g.cellOf(b.p)) + 1];
    for (std::size_t c = 1; c < count.size(); ++c) count[c] += count[c - 1];
    g.start = count;
    g.boids.resize(flock.size());
    for (std::uint32_t i = 0; i < flock.size(); ++i) g.boids[count[g.index(g.cellOf(flock[i].p))]++] = i;
    return g;
}

// The k nearest other boids of boid i, by (distance^2, index), nearest first.
std::vector<std::pair<double, std::uint32_t>> nearest(const Flock& flock, const CellList& g, std::uint32_t i, std::uint32_t k) {
    std::vector<std::pair<double, std::uint32_t>> best;
    const glm::dvec3 p(flock[i].p);
    const glm::ivec3 c = g.cellOf(p);
    const int most = std::max({g.n.x, g.n.y, g.n.z});
    for (int s = 0; s <= most; ++s) {
        for (int z = c.z - s; z <= c.z + s; ++z)
            for (int y = c.y - s; y <= c.y + s; ++y)
                for (int x = c.x - s; x <= c.x + s; ++x) {
                    if (std::max({std::abs(x - c.x), std::abs(y - c.y), std::abs(z - c.z)}) != s) continue;  // this shell only
                    if (x < 0 || y < 0 || z < 0 || x >= g.n.x || y >= g.n.y || z >= g.n.z) continue;
                    const std::size_t cell = g.index({x, y, z});
                    for (std::uint32_t e = g.start[cell]; e < g.start[cell + 1]; ++e) {
                        const std::uint32_t j = g.boids[e];
                        if (j == i) continue;
                        const glm::dvec3 d = glm::dvec3(flock[j].p) - p;
                        best.emplace_back(glm::dot(d, d), j);
                    }
                }
        std::sort(best.begin(), best.end());
        if (best.size() > k) best.resize(k);
        // Every boid not yet seen is at least s cells (s h) away along some axis.
        if (best.size() == k && best.back().first <= double(s) * g.h * double(s) * g.h) break;
    }
    return best;
}

// Mean of the positions and their covariance.
std::pair<glm::dvec3, Mat3> spreadOf(const Flock& flock) {
    glm::dvec3 centre(0.0);
    for (const Boid& b : flock) centre += glm::dvec3(b.p);
    centre /= double(flock.size());
    Mat3 cov{};
    for (const Boid& b : flock) {
        const glm::dvec3 r = glm::dvec3(b.p) - centre;
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) cov[i][j] += r[i] * r[j] / double(flock.size());
    }
    return {centre, cov};
}

// r1 and the border from each boid's neighbourhood.
void measureNeighbourhoods(const Flock& flock, BodyShape& b) {
    const std::vector<Neighbourhood> all = neighbourhoods(flock);
    if (all.empty()) return;
    double r1 = 0.0, r1_border = 0.0, r1_inner = 0.0;
    std::uint32_t border = 0;
    for (const Neighbourhood& h : all) {
        r1 += h.r1;
        if (h.centrality >= kBorderCentrality) {
            ++border;
            r1_border += h.r1;
        } else {
            r1_inner += h.r1;
        }
    }
    const double n = double(flock.size());
    b.r1 = r1 / n;
    b.border_share = double(border) / n;
    b.r1_border = border ? r1_border / border : 0.0;
    b.r1_interior = border < flock.size() ? r1_inner / (n - border) : 0.0;
}

}  // namespace

std::vector<Neighbourhood> neighbourhoods(const Flock& flock) {
    const std::uint32_t k = kCentralityNeighbours;
    if (flock.size() <= k) return {};
    const CellList g = cellList(flock, k + 1);
    std::vector<Neighbourhood> out(flock.size());
    for (std::uint32_t i = 0; i < flock.size(); ++i) {
        const auto near = nearest(flock, g, i, k);
        glm::dvec3 units(0.0);
        for (const auto& [d2, j] : near)
            if (d2 > 0.0) units += (glm::dvec3(flock[j].p) - glm::dvec3(flock[i].p)) / std::sqrt(d2);
        out[i] = {std::sqrt(near.front().first), glm::length(units) / double(k)};
    }
    return out;
}

BodyShape measureBody(const Flock& flock) {
    BodyShape b;
    b.boids = std::uint32_t(flock.size());
    if (flock.empty()) return b;
    for (const Boid& boid : flock)
        if (!std::isfinite(boid.p.x + boid.p.y + boid.p.z + boid.v.x + boid.v.y + boid.v.z))
            throw std::invalid_argument("body measures: boid " + std::to_string(boid.id) + " is not finite");
    const auto [centre, cov] = spreadOf(flock);
    const auto [values, axes] = symmetricEigen(cov);
    b.centre = centre;
    b.spread = glm::sqrt(values);
    b.thin = axes[0], b.middle = axes[1], b.longest = axes[2];
    b.thin_vs_up = std::fabs(b.thin.y);
    glm::dvec3 heading(0.0);
    for (const Boid& boid : flock) heading += glm::dvec3(boid.v);
    if (const double len = glm::length(heading); len > 0.0)
        for (int a = 0; a < 3; ++a) b.heading_vs_axes[a] = std::fabs(glm::dot(axes[std::size_t(a)], heading / len));
    measureNeighbourhoods(flock, b);
    return b;
}

std::map<std::string, double> bodyFigures(const BodyShape& b) {
    const double thin = b.spread.x;
    return {{"boids", double(b.boids)},
            {"proportion_middle", thin > 0.0 ? b.spread.y / thin : 0.0},
            {"proportion_long", thin > 0.0 ? b.spread.z / thin : 0.0},
            {"thin_vs_up", b.thin_vs_up},
            {"heading_vs_thin", b.heading_vs_axes.x},
            {"heading_vs_middle", b.heading_vs_axes.y},
            {"heading_vs_long", b.heading_vs_axes.z},
            {"r1", b.r1},
            {"r1_border", b.r1_border},
            {"r1_interior", b.r1_interior},
            {"border_share", b.border_share}};
}

}  // namespace murmur
