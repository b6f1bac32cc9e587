#!/usr/bin/env python3
"""The GPU parameter block (shaders/layout.glsl) has no dead fields and no bare swizzles:
- every accessor of common.glsl (BOIDS, DT, SEP_R2(s), ...) is read by some shader;
- no shader reads a named field of SimParams or SpeciesBlock by swizzle (P.step.x, S.motion.w):
  only through the accessors, so a swizzle cannot mean one thing in one block and another in the
  next;
- every member of both structs is read, through an accessor or as a per-axis / per-item array;
- the boid state (positions with ids, velocities with species) is declared as uvec4 wherever a
  shader binds it: ids and species never pass through a float (a driver may flush denormals).
Usage: param_block_check.py SHADER_DIR [STYLES_DIR] (the styles' folders, src/styles, whose
<name>.glsl files count as shaders too). Prints each problem; exit 1 if any."""
import glob
import os
import re
import sys

shader_dir = sys.argv[1]
layout = open(os.path.join(shader_dir, "layout.glsl")).read()
common = open(os.path.join(shader_dir, "common.glsl")).read()
# Every shader and included file (the styles' too) but the two that define the block and its accessors.
sources = {}
for top in sys.argv[1:3]:
    for f in glob.glob(os.path.join(top, "**", "*"), recursive=True):
        if f.endswith((".comp", ".vert", ".frag", ".glsl")) and os.path.basename(f) not in ("layout.glsl", "common.glsl"):
            sources[os.path.relpath(f, top)] = open(f).read()
problems = []


def members(struct):
    body = re.search(r"struct %s \{(.*?)\};" % struct, layout, re.S).group(1)
    return re.findall(r"^\s*\w+ (\w+)(?:\[\w+\])?;", body, re.M)


accessors = dict(re.findall(r"^#define (\w+)(?:\(s\))? \(+(?:P|\(s\))\.(\w+)", common, re.M))
for name in accessors:
    uses = sum(len(re.findall(r"\b%s\b" % name, text)) for text in sources.values())
    if uses == 0:
        problems.append("accessor %s (%s) is read by no shader" % (name, accessors[name]))

named = set(accessors.values())
for file, text in sources.items():
    for m in re.finditer(r"\b(?:P|S|P\.species\[[^\]]+\])\.(\w+)\.([xyzw]+)\b", text):
        if m.group(1) in named:
            problems.append("%s reads %s by swizzle: use its accessor in common.glsl" % (file, m.group(0)))

arrays = {"world", "inv_world", "inv_cell", "cells", "obstacles", "species"}  # read per axis / item
# Read through the defines the GPU backend makes from each style's slots (StyleSlot, gpu/variant.cpp's
# styleSlotRead), never by a shader itself: tests/style_slots_check.py holds that.
through_slots = {"style"}
everything = "\n".join(sources.values()) + common
for struct in ("SimParams", "SpeciesBlock"):
    for field in members(struct):
        if field in named or field in through_slots:
            continue
        if field in arrays and re.search(r"\bP\.%s\b" % field, everything):
            continue
        problems.append("%s.%s is read by no shader (a dead field)" % (struct, field))

for file, text in sources.items():
    for m in re.finditer(r"binding = (BIND_(?:SORTED_)?(?:POS|VEL))\)[^{]*\{\s*(\w+) \w+\[\]", text):
        if m.group(2) != "uvec4":
            problems.append("%s declares %s as %s: the state is read and written as uvec4 only" % (file, m.group(1), m.group(2)))

for p in problems:
    print("param_block_check:", p)
print("param_block_check: %d accessors, %d problem(s)" % (len(accessors), len(problems)))
sys.exit(1 if problems else 0)
