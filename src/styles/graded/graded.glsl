// Graded style (src/styles/graded/cpu.cpp): the same functions, in the same order.

void addNeighbour(SpeciesBlock S, Self self, uint j, uint jid, vec3 d, float d2, inout NeighbourSums s) {
    if (d2 < COUNTED_R2(S)) ++s.neighbours;  // the flee radius alone does not make a neighbour
    if (d2 < SEP_R2(S)) {  // separation: from every species, -dir * min(r_sep/|d| - 1, GRADED_CORE)
        ++s.n_sep;
        if (d2 > 0.0) s.sep -= d * (min(SEP_RADIUS(S) - sqrt(d2), GRADED_CORE * sqrt(d2)) / d2);
    }
    addAlignmentAndCohesion(S, sameSpecies(self, j), j, d, d2, s);  // within the species
    addPredatorOrPrey(S, j, jid, d, d2, s, false);
}

// Separation growing as the distance shrinks, cohesion a spring, alignment steered.
vec3 integrate(SpeciesBlock S, Self self, NeighbourSums s, inout vec4 steer) {
    vec3 v = self.v;
    vec3 a = vec3(0.0);
    if (s.n_sep > 0u) a += (W_SEP(S) * MAX_FORCE(S)) * s.sep;
    if (s.n_ali > 0u) a += W_ALI(S) * steerTowards(S, s.ali / float(s.n_ali), v);
    if (s.n_coh > 0u) a += (COHESION_SIGN * W_COH(S) * MAX_FORCE(S) * INV_COH_RADIUS(S)) * (s.coh / float(s.n_coh));
    return steeredVelocity(S, self, s, a);
}
