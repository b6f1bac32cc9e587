#version 430
// Boid shading: flat colour in 2D; in 3D a two-sided Lambert term from a fixed sun plus ambient;
// the dusk look (u_dusk) unlit, with boid.vert's opacity (blended dark over the sky).
// Defines: DIMS (2|3), SPLATS (0|1: unlit, for density splats), FLAT (0|1: shaded by boid.vert).
#ifndef SPLATS
#define SPLATS 0
#endif
#ifndef FLAT
#define FLAT 0
#endif
in vec3 v_colour;
in vec3 v_normal;
in float v_alpha;
uniform int u_dusk;
out vec4 o_colour;

void main() {
#if SPLATS  // summed additively into a float target (splat_tone.frag shows the sums): a count of its opacity each
    o_colour = vec4(v_colour * v_alpha, v_alpha);
#elif DIMS == 2 || FLAT
    o_colour = vec4(v_colour, v_alpha);
#else
    if (u_dusk != 0) {
        o_colour = vec4(v_colour, v_alpha);
        return;
    }
    const vec3 sun = normalize(vec3(0.4, 0.8, 0.3));
    float lambert = abs(dot(normalize(v_normal), sun));
    o_colour = vec4(v_colour * (0.35 + 0.65 * lambert), 1.0);
#endif
}
