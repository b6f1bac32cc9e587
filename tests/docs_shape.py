#!/usr/bin/env python3
"""The docs a newcomer reads stay short and point at what exists:
- README.md at most 150 lines, docs/performance.md at most 400 (today's figures and how to
  measure them; the dated history lives in docs/history/);
- every relative link in README.md and docs/ names a file that exists, and its #anchor a heading
  of that file (GitHub's slugs);
- every source path the README or docs/ quote in backticks (src/..., shaders/..., scripts/...,
  tests/..., with an extension) exists, so a moved file cannot leave a stale pointer behind.
Usage: docs_shape.py SOURCE_DIR. Prints each problem; exit 1 if any."""
import pathlib
import re
import sys

LIMITS = {"README.md": 150, "docs/performance.md": 400}
QUOTED = re.compile(r"`((?:src|shaders|scripts|tests|python|include|examples|presets|cmake)/[\w./-]*\.\w+)`")
LINK = re.compile(r"\]\(([^)\s]+)\)")


def slug(heading):
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(path):
    return {slug(m.group(1)) for m in re.finditer(r"^#+ (.+)$", path.read_text(encoding="utf-8"), re.M)}


def problems(root):
    found = []
    for name, limit in LIMITS.items():
        lines = len((root / name).read_text(encoding="utf-8").splitlines())
        if lines > limit:
            found.append(f"{name} is {lines} lines; at most {limit}")
    pages = [root / "README.md"] + sorted((root / "docs").rglob("*.md"))
    for page in pages:
        text = page.read_text(encoding="utf-8")
        rel = page.relative_to(root)
        for m in LINK.finditer(text):
            target = m.group(1)
            if re.match(r"[a-z]+:", target):
                continue
            file, _, anchor = target.partition("#")
            path = (page.parent / file).resolve() if file else page
            if not path.exists():
                found.append(f"{rel} links {target}: no such file")
            elif anchor and path.suffix == ".md" and anchor not in anchors(path):
                found.append(f"{rel} links {target}: no such heading")
        for m in QUOTED.finditer(text):
            quoted = m.group(1)
            if "<" in quoted or "*" in quoted or re.search(r"\b[A-Z]{3,}\b", quoted):  # a placeholder: NAME, DATE
                continue
            if not (root / quoted).exists():
                found.append(f"{rel} names {quoted}, which does not exist")
    return found


if __name__ == "__main__":
    found = problems(pathlib.Path(sys.argv[1]))
    for p in found:
        print("docs_shape:", p)
    print(f"docs_shape: {len(found)} problem(s)")
    sys.exit(1 if found else 0)
