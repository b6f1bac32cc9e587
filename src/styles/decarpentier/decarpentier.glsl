// Decarpentier style (src/styles/decarpentier/cpu.cpp): the same functions, in the same order.
// Its values (DC_FAR_FACTOR, DC_HORIZONTAL, DC_HEIGHT, DC_HEIGHT_WEIGHT, DC_DIVE and DC_VERTICAL_*)
// are defines made from its registry row's slots (src/styles/decarpentier/params.cpp, StyleSlot): the packing and
// these reads are declared once.

// The three neighbours (ThreeNeighbours): keys (d2, id) and the slot of each; [0] and [1] the two
// nearest, [2] the nearest beyond far_factor x the closest distance. The search of one boid.
struct DcKey {
    uint set;
    float d2;
    uint id, slot;
};
DcKey three[3];

bool before(DcKey key, float d2, uint id) { return key.set == 0u || d2 < key.d2 || (d2 == key.d2 && id < key.id); }

// May the boid in slot j be one of self's three (same species, within the largest rule radius)?
bool isCandidate(SpeciesBlock S, Self self, uint j, float d2) { return speciesAt(j) == self.species_bits && d2 < COUNTED_R2(S); }

void startSearch() {
    for (int k = 0; k < 3; ++k) three[k] = DcKey(0u, 0.0, 0u, 0u);
}

void offerFirst(SpeciesBlock S, Self self, uint j, uint id, float d2) {
    if (!isCandidate(S, self, j, d2)) return;
    if (before(three[0], d2, id)) {
        three[1] = three[0];
        three[0] = DcKey(1u, d2, id, j);
    } else if (before(three[1], d2, id)) {
        three[1] = DcKey(1u, d2, id, j);
    }
}

void offerSecond(SpeciesBlock S, Self self, uint j, uint id, float d2) {
    if (!isCandidate(S, self, j, d2)) return;
    if (three[0].set == 0u || id == three[0].id || (three[1].set != 0u && id == three[1].id)) return;
    float x = DC_FAR_FACTOR;
    if (!(d2 > x * x * three[0].d2)) return;
    if (before(three[2], d2, id)) three[2] = DcKey(1u, d2, id, j);
}

void addNeighbour(SpeciesBlock S, Self self, uint j, uint jid, vec3 d, float d2, inout NeighbourSums s) {
    if (d2 < COUNTED_R2(S)) ++s.neighbours;  // the flee radius alone does not make a neighbour
    if (d2 < SEP_R2(S)) {
        ++s.n_sep;
        // Another species is an object to avoid, -dir/|d| (predators and prey chase and flee instead).
        uint other_sp = min(speciesAt(j), uint(MAX_SPECIES - 1));
        if (speciesAt(j) != self.species_bits && PREDATOR_FLAG(S) < 0.5 && PREDATOR_FLAG(P.species[other_sp]) < 0.5 && d2 > 0.0)
            s.sep -= d / d2;
    }
    addAlignmentAndCohesion(S, sameSpecies(self, j), j, d, d2, s);  // within the species
    addPredatorOrPrey(S, j, jid, d, d2, s, false);
}

// The three neighbours' avoid, preferred-distance and velocity-match terms, flee/chase, level
// flight, height, walls and influences, split into the boid's axes and each clamped.
vec3 decarpentierAcceleration(SpeciesBlock S, Self self, NeighbourSums s) {
    vec3 v = self.v;
    vec3 vertical_avoid = vec3(1.0, DC_VERTICAL_AVOID, 1.0), vertical_distance = vec3(1.0, DC_VERTICAL_DISTANCE, 1.0),
         vertical_match = vec3(1.0, DC_VERTICAL_MATCH, 1.0);
    vec3 a = vec3(0.0);
    for (int k = 0; k < 3; ++k) {
        if (three[k].set == 0u) continue;
        vec3 d = offsetBetween(self.p, posAt(three[k].slot));
        float dist = sqrt(dot(d, d));
        if (!(dist > 0.0)) continue;  // coincident: no direction to go by
        vec3 dir = d / dist;
        a += W_SEP(S) * (-dir / dist) * vertical_avoid;                                      // avoid
        a += W_COH(S) * (dir * (1.0 - DC_PREFERRED_DISTANCE(S) / dist)) * vertical_distance;  // preferred distance
        a += W_ALI(S) * ((velAt(three[k].slot) - v) / sqrt(dist)) * vertical_match;          // velocity match
    }
    a += W_SEP(S) * s.sep;  // the other species within the separation radius: sum of -dir/|d|
    if (s.n_flee > 0u) a += W_FLEE(S) * s.flee;
    if (s.chasing != 0u && s.chase_d2 > 0.0) a += CHASE(S) * (s.chase_d / sqrt(s.chase_d2));
    a.y -= DC_HORIZONTAL * v.y;
    if (DC_HEIGHT_WEIGHT > 0.0) a.y += DC_HEIGHT_WEIGHT * (DC_HEIGHT - self.p.y);
    a += boundsAcceleration(self.p) + influenceAcceleration(S, self);
    float speed = sqrt(dot(v, v));
    vec3 f = speed > 0.0 ? v / speed : vec3(1.0, 0.0, 0.0);
    vec3 side, up = vec3(0.0);
#if DIMS == 2
    side = vec3(-f.y, f.x, 0.0);
#else
    side = cross(f, vec3(0.0, 1.0, 0.0));
    float side_len = sqrt(dot(side, side));
    side = side_len > 1e-6 ? side / side_len : vec3(0.0, 0.0, 1.0);
    up = cross(side, f);
#endif
    float af = min(max(dot(a, f), -DC_BRAKE(S)), DC_ACCEL_FORWARD(S));
    float as_ = min(max(dot(a, side), -DC_ACCEL_SIDE(S)), DC_ACCEL_SIDE(S));
    float au = min(max(dot(a, up), -DC_ACCEL_UP(S)), DC_ACCEL_UP(S));
    return f * af + side * as_ + up * au;
}

// Motion every step: smoothed speed, diving, clamp.
vec3 decarpentierMove(SpeciesBlock S, Self self, vec3 a) {
    float speed = sqrt(dot(self.v, self.v));
    vec3 v1 = self.v + a * DT;
    float s1 = sqrt(dot(v1, v1));
    if (!(s1 > 0.0)) return v1;
    vec3 dir = v1 / s1;
    float new_speed = s1 + (speed - s1) * DC_SMOOTHING(S);
    new_speed *= 1.0 - DC_DIVE * dir.y * DT;  // gravity: faster diving, slower climbing
    new_speed = min(max(new_speed, MIN_SPEED(S)), MAX_SPEED(S));
    return dir * new_speed;
}

// Steering at the boid's rate (steersNow), kept in steer between; motion every step.
vec3 integrate(SpeciesBlock S, Self self, NeighbourSums s, inout vec4 steer) {
    if (steersNow(self)) steer = vec4(decarpentierAcceleration(S, self, s), float(s.neighbours));
    return decarpentierMove(S, self, steer.xyz);
}
