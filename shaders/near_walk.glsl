// What a sample's first walk finds for one boid, flock_measure.comp's walk or a sampled step's
// steer pass (flock_steer.comp with MEASURE_IN_STEER) alike, so that both find the same: the
// squared distance to the nearest other boid within the nearest-neighbour radius (that radius
// squared when none is nearer) and the first two boids closer than the group radius (NO_SLOT:
// none), in the order the walk hands them over; then the boid linked to both (Afforest's first
// round). The including file includes groups.glsl and measure_radii.glsl first.
#ifndef MURMUR_NEAR_WALK_GLSL
#define MURMUR_NEAR_WALK_GLSL

struct NearWalk {
    float best;
    float link2;
    uint first, second;
};

NearWalk startNear() {
    float r = nnRadius(), link = groupRadius();
    return NearWalk(r * r, link * link, NO_SLOT, NO_SLOT);
}

// How far the walk must reach, squared.
float nearReach2(NearWalk m) { return max(m.best, m.link2); }

void visitNear(inout NearWalk m, uint j, float d2) {
    m.best = min(m.best, d2);
    if (d2 < m.link2) {
        if (m.first == NO_SLOT) m.first = j;
        else if (m.second == NO_SLOT) m.second = j;
    }
}

// Boid i linked to the two boids the walk found (in a flock that is mostly one group, most of
// that group is one tree by then, and group_links.comp walks again only for the boids outside the
// tree group_giant.comp finds most often among its samples).
void linkNear(uint i, NearWalk m) {
    uint root = i;
    if (m.first != NO_SLOT) root = unite(root, m.first);
    if (m.second != NO_SLOT) unite(root, m.second);
}

#endif
