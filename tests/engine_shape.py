#!/usr/bin/env python3
"""The engine's shape holds: the GPU pipeline is passes behind a thin orchestrator, so no file in
src/gpu is over FILE_LIMIT lines and the orchestrator (src/gpu/gpu_simulation.cpp) is under
ORCHESTRATOR_LIMIT. (That the engine's clients reach the backends only through src/engine is the
build's to hold: each library's include root is its own folder; tests/layering.) Usage:
engine_shape.py ROOT; exit 1 naming each file over its limit."""
import pathlib
import sys

FILE_LIMIT = 400
ORCHESTRATOR_LIMIT = 300
ORCHESTRATOR = "src/gpu/gpu_simulation.cpp"


def lines(path):
    with open(path, encoding="utf-8") as f:
        return sum(1 for _ in f)


def problems(root):
    found = []
    gpu = sorted((root / "src" / "gpu").glob("*.[ch]pp"))
    if not gpu:
        found.append("no sources under src/gpu")
    for path in gpu:
        count = lines(path)
        if count > FILE_LIMIT:
            found.append(f"{path.relative_to(root)}: {count} lines (at most {FILE_LIMIT} in src/gpu: split it into a pass)")
    orchestrator = root / ORCHESTRATOR
    if lines(orchestrator) >= ORCHESTRATOR_LIMIT:
        found.append(f"{ORCHESTRATOR}: {lines(orchestrator)} lines (the orchestrator stays under {ORCHESTRATOR_LIMIT})")
    return found


if __name__ == "__main__":
    found = problems(pathlib.Path(sys.argv[1]))
    for p in found:
        print(p)
    sys.exit(1 if found else 0)
