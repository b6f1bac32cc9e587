// Steering style (src/styles/steering/cpu.cpp): the same functions, in the same order.
// SEP_UNIT (0|1, its switch): steering.separation = unit.

void addNeighbour(SpeciesBlock S, Self self, uint j, uint jid, vec3 d, float d2, inout NeighbourSums s) {
    if (d2 < COUNTED_R2(S)) ++s.neighbours;  // the flee radius alone does not make a neighbour
    if (d2 < SEP_R2(S)) {  // separation: from every species; coincident boids give no direction
        ++s.n_sep;
#if SEP_UNIT
        if (d2 > 0.0) s.sep -= d / sqrt(d2);
#else
        if (d2 > 0.0) s.sep -= d / d2;
#endif
    }
    addAlignmentAndCohesion(S, sameSpecies(self, j), j, d, d2, s);  // within the species
    addPredatorOrPrey(S, j, jid, d, d2, s, false);
}

// The new velocity (steer: Boid::steer, not kept by this style).
vec3 integrate(SpeciesBlock S, Self self, NeighbourSums s, inout vec4 steer) {
    vec3 v = self.v;
    vec3 a = vec3(0.0);
    if (s.n_sep > 0u) a += W_SEP(S) * steerTowards(S, s.sep, v);
    if (s.n_ali > 0u) a += W_ALI(S) * steerTowards(S, s.ali / float(s.n_ali), v);
    if (s.n_coh > 0u) a += COHESION_SIGN * W_COH(S) * steerTowards(S, s.coh / float(s.n_coh), v);
    return steeredVelocity(S, self, s, a);
}
