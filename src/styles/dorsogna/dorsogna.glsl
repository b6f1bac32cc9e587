// D'Orsogna style (src/styles/dorsogna/cpu.cpp): the same functions, in the same order.
// Its values (DORSOGNA_ALPHA, DORSOGNA_BETA, the force's slopes C/l and inverse ranges 1/l) are
// defines made from its registry row's slots (src/styles/dorsogna/params.cpp, StyleSlot): the
// packing and these reads are declared once.

float pairForce(float r) {
    return DORSOGNA_ATTRACTION_SLOPE * exp(-r * DORSOGNA_INV_ATTRACTION_RANGE) -
           DORSOGNA_REPULSION_SLOPE * exp(-r * DORSOGNA_INV_REPULSION_RANGE);
}

void addNeighbour(SpeciesBlock S, Self self, uint j, uint jid, vec3 d, float d2, inout NeighbourSums s) {
    if (!(d2 < ALI_R2(S)) || !(d2 > 0.0)) return;
    ++s.neighbours;
    ++s.n_coh;
    float r = sqrt(d2);
    s.coh += (pairForce(r) / r) * d;
}

vec3 integrate(SpeciesBlock S, Self self, NeighbourSums s, inout vec4 steer) {
    vec3 propulsion = (DORSOGNA_ALPHA - DORSOGNA_BETA * dot(self.v, self.v)) * self.v;
    vec3 a = propulsion + s.coh + boundsAcceleration(self.p) + influenceAcceleration(S, self);
    return self.v + a * DT;
}
