#!/usr/bin/env python3
"""The repository stands on its own: no file under src/, include/, python/, examples/, shaders/,
tests/, scripts/, fuzz/ or docs/ (nor the README) cites a tracker number ('#' and digits, as in
"#14") or says "the issue", which mean nothing to a reader of the repository. Exit 1 listing each
hit. Usage: no_tracker_refs.py ROOT"""
import pathlib
import re
import sys

FOLDERS = ["src", "include", "python", "examples", "shaders", "tests", "scripts", "fuzz", "docs"]
TRACKER = re.compile(r"(?<![&\w])#\d+(?![\w])")  # "#14", "(#3)"; not "&#39;", "#1f77b4", "x#1"
ISSUE = re.compile(r"\bthe issue\b", re.IGNORECASE)
TEXT = {".cpp", ".hpp", ".h", ".c", ".glsl", ".comp", ".vert", ".frag", ".py", ".sh", ".md", ".txt", ".json", ".cmake"}


def files(root):
    yield root / "README.md"
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob("*")):
            if path.is_file() and (path.suffix in TEXT or path.name == "CMakeLists.txt"):
                yield path


def main():
    root = pathlib.Path(sys.argv[1])
    me = pathlib.Path(__file__).resolve()
    hits = []
    for path in files(root):
        if path.resolve() == me:
            continue
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            if TRACKER.search(line) or ISSUE.search(line):
                hits.append(f"{path.relative_to(root)}:{number}: {line.strip()[:120]}")
    for hit in hits:
        print(hit)
    if hits:
        print(f"{len(hits)} line(s) cite a tracker number or 'the issue': say what is meant instead")
        return 1
    print(f"no tracker references under {', '.join(FOLDERS)} and README.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
