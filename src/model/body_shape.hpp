// The shape of a flock's body, the measures Ballerini et al. (2008, Anim. Behav. 76:201) took of
// starling flocks: its principal axes, how the thinnest lies against gravity and the heading
// against each axis, the nearest-neighbour distance, and which birds are on the border. From the
// positions and velocities alone (a downloaded flock), in double; up is +y (the perching ground's
// axis).
#pragma once

#include "model/boid.hpp"

#include <glm/vec3.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace murmur {

// Centrality over a boid's kCentralityNeighbours nearest: |mean of the unit vectors to them|,
// about 0 deep inside a flock and large on its edge; kBorderCentrality and above is the border
// (Hemelrijk & Hildenbrandt 2011's threshold).
inline constexpr std::uint32_t kCentralityNeighbours = 7;
inline constexpr double kBorderCentrality = 0.35;

struct BodyShape {
    std::uint32_t boids = 0;
    glm::dvec3 centre{0.0};
    // Spread along the principal axes (the square roots of the positions' covariance's
    // eigenvalues), thinnest first, and those axes as unit vectors.
    glm::dvec3 spread{0.0};
    glm::dvec3 thin{0.0}, middle{0.0}, longest{0.0};
    double thin_vs_up = 0.0;          // |cos| of the thin axis against up (+y): 1 when the flock lies flat
    glm::dvec3 heading_vs_axes{0.0};  // |cos| of the mean velocity against the thin, middle and long axes
    double r1 = 0.0;                  // mean distance to the nearest other boid
    double border_share = 0.0;        // boids with centrality >= kBorderCentrality
    double r1_border = 0.0, r1_interior = 0.0;  // mean r1 of the border boids and of the rest (0: none)
};

// Each boid's distance to its nearest other boid and its centrality over its
// kCentralityNeighbours nearest (ties by index), in the flock's order; empty for a flock of
// kCentralityNeighbours boids or fewer.
struct Neighbourhood {
    double r1 = 0.0, centrality = 0.0;
};
std::vector<Neighbourhood> neighbourhoods(const Flock& flock);

// The measures of a flock in 3D (2D: its z is 0 and the thin axis is z). At least
// kCentralityNeighbours + 1 boids; fewer give zeros beyond the axes. Positions as stored (in a
// wrapped world a flock across an edge is measured as it lies). std::invalid_argument, naming the
// boid, when a position or velocity is not finite.
BodyShape measureBody(const Flock& flock);

// The same as named figures: proportions I2/I1 and I3/I1 (the spreads over the thinnest),
// thin_vs_up, heading_vs_thin/middle/long, r1, r1_border, r1_interior, border_share, boids.
std::map<std::string, double> bodyFigures(const BodyShape& b);

}  // namespace murmur
