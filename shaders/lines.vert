#version 430
// Coloured line overlay (world bounds, the selected boid's radii and field of view): one vertex
// buffer of (xyz, rgba) vertices.
layout(location = 0) in vec3 a_pos;
layout(location = 1) in vec4 a_colour;
uniform mat4 u_view_proj;
out vec4 v_colour;

void main() {
    gl_Position = u_view_proj * vec4(a_pos, 1.0);
    v_colour = a_colour;
}
