#!/usr/bin/env python3
"""The engine's shape holds: the GPU pipeline is passes behind a thin orchestrator, so no file in
src/gpu is over FILE_LIMIT lines and the orchestrator (src/gpu/gpu_simulation.cpp) is under
ORCHESTRATOR_LIMIT; and the engine has one front door (src/engine), so no file of its clients in
src/app includes a backend's header (src/cpu, src/gpu). Usage: engine_shape.py ROOT; exit 1
naming each file over its limit and each include through the back door."""
import pathlib
import re
import sys

FILE_LIMIT = 400
ORCHESTRATOR_LIMIT = 300
ORCHESTRATOR = "src/gpu/gpu_simulation.cpp"
CLIENTS = ["src/app", "src/api", "python"]  # the window and command line, the public library, Python
BACKEND_INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]((?:cpu|gpu)/[^">]+)[">]', re.M)


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
    for client in CLIENTS:
        sources = sorted((root / client).rglob("*.[ch]pp"))
        if not sources:
            found.append(f"no sources under {client}")
        for path in sources:
            for header in BACKEND_INCLUDE.findall(path.read_text(encoding="utf-8")):
                found.append(f"{path.relative_to(root)}: includes {header} (a client reaches the engine through src/engine)")
    return found


if __name__ == "__main__":
    found = problems(pathlib.Path(sys.argv[1]))
    for p in found:
        print(p)
    sys.exit(1 if found else 0)
