// D'Orsogna style (src/styles/dorsogna/cpu.cpp): the same functions, in the same order.
// Its values (DORSOGNA_ALPHA, DORSOGNA_BETA, the force's slopes C/l and inverse ranges 1/l) are
// defines made from its registry row's slots (src/styles/dorsogna/params.cpp, StyleSlot): the
// packing and these reads are declared once.

float pairForce(float r) {
    return DORSOGNA_ATTRACTION_SLOPE * exp(-r * DORSOGNA_INV_ATTRACTION_RANGE) -
           DORSOGNA_REPULSION_SLOPE * exp(-r * DORSOGNA_INV_REPULSION_RANGE);
}

// Its own sums (DOrsognaStyle::Sums): the pair forces of the boids within the cut-off, and how many.
struct DOrsognaSums {
    vec3 force;
    uint neighbours;
};
#define GATHER_SUMS DOrsognaSums
DOrsognaSums noStyleSums() { return DOrsognaSums(vec3(0.0), 0u); }

void addNeighbour(SpeciesBlock S, Self self, uint j, uint jid, vec3 d, float d2, inout DOrsognaSums s) {
    if (!(d2 < REACH_R2(S)) || !(d2 > 0.0)) return;
    ++s.neighbours;
    float r = sqrt(d2);
    s.force += (pairForce(r) / r) * d;
}

// The step's noise on the velocity (dorsognaKick in cpu.cpp): sqrt(2 D dt) x a standard normal on
// each used axis, Box-Muller over the boid's four uniforms.
const uint kDorsognaSalt[4] = uint[4](DORSOGNA_SALTS);
vec3 dorsognaKick(Self self) {
    if (!(DORSOGNA_NOISE_STEP > 0.0)) return vec3(0.0);
    float u[4];
    for (int k = 0; k < 4; ++k) u[k] = eventUniform(eventHash(SEED_LO ^ kDorsognaSalt[k], self.id, STEP_INDEX));
    float r01 = sqrt(-2.0 * log(1.0 - u[0])), r23 = sqrt(-2.0 * log(1.0 - u[2]));
    float a01 = 6.2831853 * u[1], a23 = 6.2831853 * u[3];
#if DIMS == 3
    vec3 g = vec3(r01 * cos(a01), r01 * sin(a01), r23 * cos(a23));
#else
    vec3 g = vec3(r01 * cos(a01), r01 * sin(a01), 0.0);
#endif
    return DORSOGNA_NOISE_STEP * g;
}

vec3 integrate(SpeciesBlock S, Self self, DOrsognaSums s, inout vec4 steer) {
    vec3 propulsion = (DORSOGNA_ALPHA - DORSOGNA_BETA * dot(self.v, self.v)) * self.v;
    vec3 a = propulsion + s.force + boundsAcceleration(self.p) + influenceAcceleration(S, self);
    return self.v + a * DT + dorsognaKick(self);
}
