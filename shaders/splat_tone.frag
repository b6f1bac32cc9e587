#version 430
// Density splats, tone-mapped: each pixel's boids were summed additively (boid.frag with SPLATS:
// rgb their colours, a their count); it shows their mean colour (by heading, as the draw's colour
// key says) with an opacity that grows with the count, 1 - exp(-gain * count), over the
// background. Dense bands and clumps show bright, a lone boid faint, and nothing saturates
// before a few boids share a pixel.
layout(binding = 0) uniform sampler2D u_sums;
uniform ivec2 u_origin;  // the area's lower-left pixel in the framebuffer (the sums' pixel 0, 0)
uniform float u_gain;
uniform int u_scale;     // screen pixels a side of one sums pixel (1, or more past the sums' size cap)
out vec4 o_colour;

void main() {
    vec4 sum = texelFetch(u_sums, (ivec2(gl_FragCoord.xy) - u_origin) / u_scale, 0);
    if (sum.a <= 0.0) discard;
    o_colour = vec4(sum.rgb / sum.a, 1.0 - exp(-u_gain * sum.a));
}
