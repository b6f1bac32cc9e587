#version 430
// Boid shading: flat colour in 2D; in 3D a two-sided Lambert term from a fixed sun plus ambient.
// Defines: DIMS (2|3).
in vec3 v_colour;
in vec3 v_normal;
out vec4 o_colour;

void main() {
#if DIMS == 2
    o_colour = vec4(v_colour, 1.0);
#else
    const vec3 sun = normalize(vec3(0.4, 0.8, 0.3));
    float lambert = abs(dot(normalize(v_normal), sun));
    o_colour = vec4(v_colour * (0.35 + 0.65 * lambert), 1.0);
#endif
}
