// Gloss style (src/styles/gloss/cpu.cpp): the same functions, in the same order.

// The view: the cone about the last acceleration (self.a); all round without one.
bool glossSees(SpeciesBlock S, Self self, vec3 d, float d2) {
    if (VIEW_CONE_FLAG(S) < 0.5 || !(d2 > 0.0)) return true;
    float a2 = dot(self.a, self.a);
    return !(a2 > 0.0) || dot(self.a, d) >= COS_HALF_FOV(S) * sqrt(a2 * d2);
}

void addNeighbour(SpeciesBlock S, Self self, uint j, uint jid, vec3 d, float d2, inout NeighbourSums s) {
    bool seen = glossSees(S, self, d, d2);  // separation all round; alignment and cohesion in view
    if (d2 < COUNTED_R2(S) && (seen || d2 < SEP_R2(S))) ++s.neighbours;  // the flee radius alone does not make a neighbour
    if (d2 < SEP_R2(S)) {  // separation: from every species, an escape route of length r_sep
        ++s.n_sep;
        if (d2 > 0.0) s.sep -= d * (SEP_RADIUS(S) / sqrt(d2));
    }
    addAlignmentAndCohesion(S, sameSpecies(self, j) && seen, j, d, d2, s);
    addPredatorOrPrey(S, j, jid, d, d2, s, false);
}

// The escape routes' sum normalised; the normalised mean velocity and the centre of those in
// view, the viewer included.
vec3 glossAcceleration(SpeciesBlock S, Self self, NeighbourSums s) {
    vec3 a = vec3(0.0);
    if (s.n_sep > 0u && length(s.sep) > GLOSS_CANCEL * SEP_RADIUS(S)) a += (W_SEP(S) * MAX_FORCE(S)) * setMag(s.sep, 1.0);
    float seen_ali = float(s.n_ali + 1u), seen_coh = float(s.n_coh + 1u);
    vec3 mean_v = (s.ali + self.v) / seen_ali;
    if (length(mean_v) > GLOSS_CANCEL * MAX_SPEED(S)) a += (W_ALI(S) * MAX_FORCE(S)) * setMag(mean_v, 1.0);
    a += (COHESION_SIGN * W_COH(S) * MAX_FORCE(S) * INV_COH_RADIUS(S)) * (s.coh / seen_coh);
    if (s.n_flee > 0u) a += W_FLEE(S) * steerTowards(S, s.flee, self.v);
    if (s.chasing != 0u) a += CHASE(S) * steerTowards(S, s.chase_d, self.v);
    return a + boundsAcceleration(self.p) + influenceAcceleration(S, self);
}

vec3 integrate(SpeciesBlock S, Self self, NeighbourSums s, inout vec4 steer) {
    vec3 a = glossAcceleration(S, self, s);
    steer = vec4(a, float(s.neighbours));  // the view cone's axis next step
    return limitSpeed(S, self.v + a * DT);
}
