#!/usr/bin/env python3
"""Styles are listed once, in the style registry (each style's row in its folder,
src/styles/<name>/params.cpp, gathered by src/model/styles.cpp); everything else derives from it. This fails on a second list anywhere in src/, shaders/ or tests/:
- a line naming three or more styles or their key prefixes as string literals ("steering", "dc.", ...);
- a line naming three or more Style:: values (the enum's own definition excepted);
and on a style chosen outside its own folder, the registry and each backend's one dispatch site:
- a Style:: comparison (== or !=) in src/ outside the style modules and src/model/styles.cpp;
- a STYLE_ preprocessor conditional in shaders/ (a style's GLSL is in its folder).
It also checks every registry row has its folder's five files, and that nothing outside a
style's folder names one of its files (tests/CMakeLists.txt and scripts/mutants.py find them). Usage: style_lists.py SOURCE_DIR."""
import glob
import os
import re
import sys

root = sys.argv[1]
registry = "".join(open(f).read() for f in sorted(glob.glob(os.path.join(root, "src/styles/*/params.cpp"))))
names = re.findall(r'\.name = "(\w+)"', registry)
enums = re.findall(r"\.style = Style::(\w+)", registry)
prefixes = [x for x in re.findall(r'\.prefix = "([\w.]*)"', registry) if x]
problems = []
if len(names) < 7 or len(names) != len(enums):
    problems.append("could not read the registry's rows (%d names, %d styles)" % (len(names), len(enums)))

for name in names:
    for path in ("src/styles/%s/params.hpp" % name, "src/styles/%s/params.cpp" % name, "src/styles/%s/cpu.cpp" % name,
                 "src/styles/%s/cpu.hpp" % name, "src/styles/%s/%s.glsl" % (name, name)):
        if not os.path.exists(os.path.join(root, path)):
            problems.append("style %s has no %s" % (name, path))

quoted = re.compile(r'"(%s)"' % "|".join(map(re.escape, names + prefixes)))
enum_use = re.compile(r"\bStyle::(%s)\b" % "|".join(map(re.escape, enums)))
style_file = re.compile(r"styles/(%s)/" % "|".join(map(re.escape, names)))
comparison = re.compile(r"(==|!=)\s*Style::\w+|\bStyle::\w+\s*(==|!=)")
for top in ("src", "shaders", "tests"):
    for folder, _, files in os.walk(os.path.join(root, top)):
        for f in files:
            path = os.path.join(folder, f)
            rel = os.path.relpath(path, root)
            if rel == "src/model/styles.cpp" or rel.startswith("src/styles/") or not f.endswith((".cpp", ".hpp", ".glsl", ".comp", ".py", ".sh")):
                continue
            for n, line in enumerate(open(path, errors="replace"), 1):
                where = "%s:%d" % (rel, n)
                if len(set(quoted.findall(line))) >= 3:
                    problems.append("%s lists styles by name: derive the list from styles()" % where)
                if len(set(enum_use.findall(line))) >= 3 and "enum class Style" not in line:
                    problems.append("%s lists Style values: derive the list from styles()" % where)
                if top == "src" and comparison.search(line):
                    problems.append("%s compares a Style: ask the registry's traits or hooks instead" % where)
                if top == "shaders" and re.match(r"\s*#\s*(el)?if.*\bSTYLE_", line):
                    problems.append("%s: a STYLE_ conditional outside a style's folder" % where)
                if style_file.search(line) and rel not in ("src/CMakeLists.txt",):
                    problems.append("%s names a style's file: let the build find it in the style's folder" % where)

for p in problems:
    print("style_lists:", p)
print("style_lists: %d styles in the registry, %d problem(s)" % (len(names), len(problems)))
sys.exit(1 if problems else 0)
