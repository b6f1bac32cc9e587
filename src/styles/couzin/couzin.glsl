// Couzin style (src/styles/couzin/cpu.cpp): the same functions, in the same order.
// Its values (COUZIN_TURN: the most a boid turns in one step, radians; COUZIN_NOISE: sigma, radians)
// are defines made from its registry row's slots (src/styles/couzin/params.cpp, StyleSlot): the packing and
// these reads are declared once.

// couzinUniform in src/model/rng.hpp.
const uint kCouzinSalt[2] = uint[2](COUZIN_SALTS);
float couzinUniform(uint id, int which) {
    return eventUniform(eventHash(SEED_LO ^ kCouzinSalt[which], id, STEP_INDEX));
}

vec3 couzinNoise(Self self, vec3 d) {
    float u0 = couzinUniform(self.id, 0), u1 = couzinUniform(self.id, 1);
    float radius = COUZIN_NOISE * sqrt(-2.0 * log(1.0 - u0)), phi = 6.2831853 * u1;
#if DIMS == 2
    float a = radius * cos(phi), c = cos(a), s = sin(a);
    return vec3(d.x * c - d.y * s, d.x * s + d.y * c, 0.0);
#else
    vec3 e1 = perpendicularTo(d), e2 = cross(d, e1);
    return d * cos(radius) + (e1 * cos(phi) + e2 * sin(phi)) * sin(radius);
#endif
}

// Its own sums (CouzinStyle::Sums): away from those in the zone of repulsion, the unit headings
// in the zone of orientation and the unit directions in the zone of attraction, each with how
// many, and the neighbours counted for the order parameters.
struct CouzinSums {
    vec3 repulsion, orientation, attraction;
    uint n_repulsion, n_orientation, n_attraction, neighbours;
};
#define GATHER_SUMS CouzinSums
CouzinSums noStyleSums() { return CouzinSums(vec3(0.0), vec3(0.0), vec3(0.0), 0u, 0u, 0u, 0u); }

vec3 couzinDesired(CouzinSums s, vec3 own) {
    if (s.n_repulsion > 0u) return unitOr(s.repulsion, own);
    vec3 d_o = unitOr(s.orientation + own, own);
    if (s.n_attraction == 0u) return d_o;
    vec3 d_a = unitOr(s.attraction, own);
    return s.n_orientation > 0u ? unitOr(0.5 * (d_o + d_a), own) : d_a;
}

void addNeighbour(SpeciesBlock S, Self self, uint j, uint jid, vec3 d, float d2, inout CouzinSums s) {
    if (d2 < COUNTED_R2(S)) ++s.neighbours;
    if (d2 < SEP_R2(S)) {  // repulsion: away from each, unit
        ++s.n_repulsion;
        if (d2 > 0.0) s.repulsion -= d / sqrt(d2);
    }
    bool same = sameSpecies(self, j);
    if (same && d2 < ALI_R2(S)) {  // orientation: headings, not velocities
        ++s.n_orientation;
        s.orientation += unitOr(velAt(j), vec3(0.0));
    }
    if (same && d2 < COH_R2(S) && d2 >= ALI_R2(S) && d2 > 0.0) {  // attraction: beyond orientation's zone, unit directions
        ++s.n_attraction;
        s.attraction += d / sqrt(d2);
    }
}

vec3 integrate(SpeciesBlock S, Self self, CouzinSums s, inout vec4 steer) {
    vec3 own = unitOr(self.v, vec3(1.0, 0.0, 0.0));
    vec3 want = couzinNoise(self, couzinDesired(s, own));
    float turn = COUZIN_TURN, cos_angle = dot(own, want);
    if (cos_angle >= cos(turn)) return trapTurn(self, want * MAX_SPEED(S));
    vec3 side = unitOr(want - cos_angle * own, perpendicularTo(own));
    return trapTurn(self, (own * cos(turn) + side * sin(turn)) * MAX_SPEED(S));
}
