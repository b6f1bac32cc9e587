// The periodic images each boid crossed (Boid::image; wrap bounds): counted by image_count.comp
// after a step of the passes, or by the step itself where it has the old position at hand (the
// sequential order, flock_steps.comp).
#ifndef MURMUR_IMAGES_GLSL
#define MURMUR_IMAGES_GLSL

#if BOUNDS_WRAP
// By id, from the boid's flock's first slot: xyz whole boxes, w unused. Written only by the
// invocation that steps the boid (or compares it).
layout(std430, binding = BIND_IMAGES) buffer Images { ivec4 images[]; };
#endif

// Adds the images a boid crossed moving from p to np (imagesCrossed in src/cpu/flock_rules.cpp):
// minus the whole boxes the minimum image takes off the move, on each wrapped axis (0 on an
// unused axis: 1/L is 0 there).
void countImages(uint id, vec3 p, vec3 np) {
#if BOUNDS_WRAP
    vec3 boxes = floor((np - p) * P.inv_world.xyz + 0.5);
    ivec3 crossed = -ivec3(mix(vec3(0.0), boxes, lessThan(abs(boxes), vec3(1e6))));  // a non-finite move crosses nothing
    if (crossed != ivec3(0)) images[FIRST_SLOT + id].xyz += crossed;
#endif
}

#endif
