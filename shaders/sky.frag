#version 430
// The dusk sky behind the flock (the colour key's dusk): each pixel coloured by the elevation of
// its view ray, deep blue overhead through a pale band to a warm horizon; below it, haze fading to
// dark ground. In 2D (no horizon) the same sky from the image's foot (horizon) to its top.
uniform mat4 u_inv_view_proj;
uniform vec4 u_area;  // the area's lower-left pixel and size in the framebuffer
uniform int u_dims;
out vec4 o_colour;

const vec3 kZenith = vec3(0.13, 0.20, 0.38);
const vec3 kHigh = vec3(0.46, 0.50, 0.66);
const vec3 kHorizon = vec3(0.96, 0.70, 0.52);
const vec3 kHaze = vec3(0.72, 0.56, 0.50);
const vec3 kGround = vec3(0.11, 0.10, 0.11);

vec3 skyAt(float elevation) {  // the sine of the ray's angle above the horizon
    if (elevation < 0.0) return mix(kHaze, kGround, smoothstep(0.0, 0.12, -elevation));
    if (elevation < 0.3) return mix(kHorizon, kHigh, smoothstep(0.0, 0.3, elevation));
    return mix(kHigh, kZenith, smoothstep(0.3, 0.95, elevation));
}

void main() {
    vec2 ndc = 2.0 * (gl_FragCoord.xy - u_area.xy) / u_area.zw - 1.0;
    if (u_dims != 3) {
        o_colour = vec4(skyAt(0.02 + 0.9 * (0.5 * ndc.y + 0.5)), 1.0);
        return;
    }
    vec4 near_ = u_inv_view_proj * vec4(ndc, -1.0, 1.0), far_ = u_inv_view_proj * vec4(ndc, 1.0, 1.0);
    vec3 ray = normalize(far_.xyz / far_.w - near_.xyz / near_.w);
    o_colour = vec4(skyAt(ray.y), 1.0);
}
