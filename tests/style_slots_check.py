#!/usr/bin/env python3
"""A style's values in the GPU's block are declared once, in its registry row's slots
(src/styles/<name>/params.cpp): the shaders read them only by the names the GPU backend defines from that
table. Fails when a shader reads the style block itself (P.style[...]), defines a slot's name of
its own, or a style's shader never reads one of its slots, or reads another style's.
Usage: style_slots_check.py ROOT"""
import pathlib
import re
import sys


def rows(registry):
    """(glsl path, [slot names]) for each registry row (styleRowOf in the style modules)."""
    found = []
    for row in re.split(r"\{\.style = Style::", registry)[1:]:
        glsl = re.search(r'\.glsl = "([^"]+)"', row).group(1)
        slots_at = row.find(".slots = {")
        names = []
        if slots_at >= 0:
            depth, end = 0, slots_at + len(".slots = ")
            for i in range(end, len(row)):
                depth += {"{": 1, "}": -1}.get(row[i], 0)
                if depth == 0:
                    end = i
                    break
            names = re.findall(r'\{"([A-Z0-9_]+)",', row[slots_at:end])
        found.append((glsl, names))
    return found


def problems(root):
    registry = "".join(f.read_text(encoding="utf-8") for f in sorted((root / "src/styles").glob("*/params.cpp")))
    table = rows(registry)
    found = []
    if not any(names for _, names in table):
        found.append("no style declares slots: the registry was not read")
    for path in sorted((root / "shaders").rglob("*.*")) + sorted((root / "src/styles").glob("*/*.glsl")):
        text = path.read_text(encoding="utf-8")
        if re.search(r"P\s*\.\s*style\s*\[", text):
            found.append(f"{path.relative_to(root)} reads P.style[...] itself: read a slot by its name (StyleSlot)")
    all_names = {n for _, names in table for n in names}
    for glsl, names in table:
        path = root / "src" / glsl  # the library's name of a style's shader: styles/<name>/<name>.glsl
        code = re.sub(r"//[^\n]*", "", path.read_text(encoding="utf-8"))
        for name in names:
            if re.search(r"#\s*define\s+" + name + r"\b", code):
                found.append(f"src/{glsl} defines {name}, a slot the registry declares")
            if not re.search(r"\b" + name + r"\b", code):
                found.append(f"src/{glsl} never reads its slot {name}")
        for other in sorted(all_names - set(names)):
            if re.search(r"\b" + other + r"\b", code):
                found.append(f"src/{glsl} reads {other}, another style's slot")
    return found


if __name__ == "__main__":
    found = problems(pathlib.Path(sys.argv[1]))
    for p in found:
        print(p)
    sys.exit(1 if found else 0)
