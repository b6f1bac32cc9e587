#!/usr/bin/env python3
"""Mutation check: each mutant puts the same mistake into both backends (the CPU reference and the
shaders), as a bug in the shared understanding of the model would be. Parity cannot see such a
bug; the hand-computed cases and the model's own tests must. The checkout is copied into
WORK_DIR/tree and built in WORK_DIR/tree/build-test (through ccache where it is installed); for
each mutant the copy's sources are patched, the test binaries rebuilt and the fast tests run until
the first failure (the tests the mutant is meant to be caught by first); the mutant must make
some test fail. The checkout itself is never written, so
an interrupted run (even kill -9) leaves it as it was.

Usage: scripts/mutants.py WORK_DIR [TEXT]   (a folder of its own, e.g. build-mutants; reused next
                                             time; TEXT: only the mutants whose name holds it)
       scripts/mutants.py --check     (only: does every patch still match the sources?)
Exit 0 when every mutant is caught, 1 when one survives or the unmutated tests fail.
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RULES = "src/cpu/flock_rules.cpp"       # what every style shares, CPU
RULES_H = "src/cpu/neighbour_rules.hpp"  # the per-pair rules, CPU
STEER = "shaders/flock_steer.comp"      # the GPU step's driver
STEP_BOID = "shaders/step_boid.glsl"    # the step of one boid (flock_steer.comp's and flock_steps.comp's)
G_RULES = "shaders/flock_rules.glsl"    # what every style shares, GPU


def cpu(style):
    return "src/styles/%s/cpu.cpp" % style


def gpu(style):
    return "src/styles/%s/%s.glsl" % (style, style)


# (name, [(file, old, new, occurrences)]): every patch must match exactly that many times.
MUTANTS = [
    ("rule radii inclusive (<= r instead of < r)", [
        (cpu(style), "if (d2 < k.r2_sep) {", "if (d2 <= k.r2_sep) {", 1) for style in ("steering", "graded")] + [
        (RULES_H, "if (same && d2 < k.r2_ali) {", "if (same && d2 <= k.r2_ali) {", 1),
        (RULES_H, "if (same && d2 < k.r2_coh) {", "if (same && d2 <= k.r2_coh) {", 1),
        (RULES_H, "if (!(d2 < k.r2_max)) return false;", "if (!(d2 <= k.r2_max)) return false;", 1)] + [
        (gpu(style), "if (d2 < SEP_R2(S)) {", "if (d2 <= SEP_R2(S)) {", 1) for style in ("steering", "graded")] + [
        (G_RULES, "if (same && d2 < ALI_R2(S)) {", "if (same && d2 <= ALI_R2(S)) {", 1),
        (G_RULES, "if (same && d2 < COH_R2(S)) {", "if (same && d2 <= COH_R2(S)) {", 1),
        (G_RULES, "if (!(d2 < LOOK_R2(S))) return false;", "if (!(d2 <= LOOK_R2(S))) return false;", 1)]),
    ("neighbour count includes boids within the flee radius only", [
        (cpu(style), "if (d2 < k.r2_counted) ++sums.neighbours;", "if (d2 < k.r2_max) ++sums.neighbours;", 1)
        for style in ("steering", "graded")] + [
        (gpu(style), "if (d2 < COUNTED_R2(S)) ++s.neighbours;", "if (d2 < LOOK_R2(S)) ++s.neighbours;", 1)
        for style in ("steering", "graded")]),
    ("alignment steers away (sign flip)", [
        (cpu(style), "if (sums.n_ali > 0) a += k.w_ali * steerTowards(", "if (sums.n_ali > 0) a -= k.w_ali * steerTowards(", 1)
        for style in ("steering", "graded")] + [
        (gpu(style), "if (s.n_ali > 0u) a += W_ALI(S) * steerTowards(", "if (s.n_ali > 0u) a -= W_ALI(S) * steerTowards(", 1)
        for style in ("steering", "graded")]),
    ("minimum image dropped on the y axis", [
        (RULES_H, "for (int k = 0; k < ctx.dims; ++k) d[k] -= ctx.L[k] * std::floor(d[k] * ctx.inv_L[k] + 0.5f);",
         "for (int k = 0; k < 1; ++k) d[k] -= ctx.L[k] * std::floor(d[k] * ctx.inv_L[k] + 0.5f);", 1),
        ("shaders/common.glsl", "for (int k = 0; k < DIMS; ++k) d[k] -= P.world[k] * floor(d[k] * P.inv_world[k] + 0.5);",
         "for (int k = 0; k < 1; ++k) d[k] -= P.world[k] * floor(d[k] * P.inv_world[k] + 0.5);", 1)]),
    ("neighbour cells c-reach..c+reach-1 (off by one: the last cell dropped)", [
        ("src/model/grid_spec.cpp", "for (int o = -int(kGridReach); o <= int(kGridReach); ++o) {",
         "for (int o = -int(kGridReach); o < int(kGridReach); ++o) {", 1),
        ("shaders/common.glsl", "    return AxisCells(int(c) - GRID_REACH, GRID_SPAN, int(n));",
         "    return AxisCells(int(c) - GRID_REACH, GRID_SPAN - 1, int(n));", 1),
        ("shaders/common.glsl", "hi = min(int(c) + GRID_REACH, int(n) - 1);", "hi = min(int(c) + GRID_REACH - 1, int(n) - 1);", 1)]),
    ("open sky's cell lists clipped at the edge of the grid's table, not wrapped", [
        ("src/model/grid_spec.cpp", "g.wrap = g.open = true;", "g.wrap = false, g.open = true;", 1),
        ("shaders/common.glsl", "AxisCells axisCells(uint c, uint n) {\n#if BOUNDS_WRAP || BOUNDS_OPEN",
         "AxisCells axisCells(uint c, uint n) {\n#if BOUNDS_WRAP", 1),
        ("shaders/cell_walk.glsl", "bool listsEveryCell() {\n#if BOUNDS_WRAP || BOUNDS_OPEN", "bool listsEveryCell() {\n#if BOUNDS_WRAP", 1)]),
    ("adaptive radius: the boid itself left out of its count (n for n + 1)", [
        ("src/cpu/flock_rules.cpp", "std::pow(t.count / float(seen + 1u), 1.0f / float(ctx.dims));",
         "std::pow(t.count / float(seen), 1.0f / float(ctx.dims));", 1),
        (G_RULES, "pow(TOPO_COUNT / float(seen + 1u), TOPO_EXPONENT);", "pow(TOPO_COUNT / float(seen), TOPO_EXPONENT);", 1)]),
    ("adaptive radius: a boid sees beyond its own radius", [
        (RULES_H, "if (!(d2 < r * r)) return false;", "if (false && !(d2 < r * r)) return false;", 1),
        (G_RULES, "if (!(d2 < self.reach2)) return false;", "if (false && !(d2 < self.reach2)) return false;", 1)]),
    ("cell scan inclusive instead of exclusive (off by one)", [
        ("src/cpu/grid.cpp", "        out[i] = sum;\n        sum += in[i];", "        sum += in[i];\n        out[i] = sum;", 1),
        ("shaders/grid_scan.comp", "        if (idx < u_count) scan_out[idx] = running;\n        running += v[k];",
         "        running += v[k];\n        if (idx < u_count) scan_out[idx] = running;", 1)]),
    ("wander pushes the other way (sign flip)", [
        (RULES, "a[k] = ctx.p.wander * wanderJitter(", "a[k] = -ctx.p.wander * wanderJitter(", 1),
        (G_RULES, "a[k] = WANDER * (", "a[k] = -WANDER * (", 1)]),
    ("graded and gloss cohesion without 1/r_coh", [
        (cpu(style), "(ctx.cohesion_sign * k.w_coh * k.max_force * k.inv_r_coh)", "(ctx.cohesion_sign * k.w_coh * k.max_force)", 1)
        for style in ("graded", "gloss")] + [
        (gpu(style), "(COHESION_SIGN * W_COH(S) * MAX_FORCE(S) * INV_COH_RADIUS(S))", "(COHESION_SIGN * W_COH(S) * MAX_FORCE(S))", 1)
        for style in ("graded", "gloss")]),
    ("view cone ignored", [
        (RULES_H, "if (velocity_cone && k.use_fov && d2 > 0.0f) {", "if (false && velocity_cone && k.use_fov && d2 > 0.0f) {", 1),
        (G_RULES, "if (self.use_fov != 0u && d2 > 0.0 &&", "if (false && self.use_fov != 0u && d2 > 0.0 &&", 1)]),
    ("sequential order walks the storage order, not id order", [
        ("src/cpu/cpu_simulation.cpp", "if (by_id) std::stable_sort(", "if (false && by_id) std::stable_sort(", 1),
        (STEER, "for (uint id = u_first_id; id < end; ++id) stepBoid(slot_of_id[id]);", "for (uint id = u_first_id; id < end; ++id) stepBoid(id);", 1)]),
    ("explicit Euler moves with the new velocity", [
        (RULES, "(p.integrator == Integrator::Explicit ? self.v : next.v)", "(p.integrator == Integrator::Explicit ? next.v : next.v)", 1),
        (G_RULES, "vec3 np = self.p + self.v * DT;", "vec3 np = self.p + nv * DT;", 1)]),
    ("the harmonic trap pushes away from its centre (sign flip)", [
        (RULES, "return -ctx.trap_k * offsetBetween(ctx, ctx.trap_at, p);", "return ctx.trap_k * offsetBetween(ctx, ctx.trap_at, p);", 1),
        (G_RULES, "return -TRAP_K * offsetBetween(TRAP_AT, p);", "return TRAP_K * offsetBetween(TRAP_AT, p);", 1)]),
    ("image counts: a crossing counted the wrong way (sign flip)", [
        (RULES, "crossed[k] = std::fabs(boxes) < 1e6f ? -int(boxes) : 0;", "crossed[k] = std::fabs(boxes) < 1e6f ? int(boxes) : 0;", 1),
        ("shaders/images.glsl", "ivec3 crossed = -ivec3(mix(vec3(0.0), boxes,", "ivec3 crossed = ivec3(mix(vec3(0.0), boxes,", 1)]),
    ("the largest groups: equal sizes listed by the higher first id", [
        ("src/model/order_params.cpp", "(a.boids == b.boids && a.first_id < b.first_id)",
         "(a.boids == b.boids && a.first_id > b.first_id)", 1),
        ("shaders/group_largest.comp", "(a.boids == b.boids && a.id < b.id)", "(a.boids == b.boids && a.id > b.id)", 1)]),
    ("pair correlations of the velocities, the mean not taken off", [
        ("src/model/correlations.cpp", "s.uu[b] += glm::dot(glm::dvec3(flock[i].v) - mean, glm::dvec3(flock[j].v) - mean);",
         "s.uu[b] += glm::dot(glm::dvec3(flock[i].v), glm::dvec3(flock[j].v));", 1),
        ("shaders/correlation_pairs.comp", "vec3 fluctuationAt(uint i) { return uintBitsToFloat(vel[u_first + i].xyz) - mean_u2.xyz; }",
         "vec3 fluctuationAt(uint i) { return uintBitsToFloat(vel[u_first + i].xyz); }", 1)]),
]


def style_mutants():
    """Each style's own mutants, from its folder's mutants.json (src/styles/<name>/): a list of
    {"name", "patches": [[file, old, new, occurrences]]}, a file named within the folder or, with a
    leading '/', from the checkout's root."""
    found = []
    for path in sorted(glob.glob(os.path.join(ROOT, "src", "styles", "*", "mutants.json"))):
        folder = os.path.relpath(os.path.dirname(path), ROOT)
        for m in json.load(open(path)):
            found.append((m["name"], [(f[1:] if f.startswith("/") else os.path.join(folder, f), old, new, n)
                                      for f, old, new, n in m["patches"]]))
    return found


MUTANTS += style_mutants()

# The tests a mutant is meant to be caught by, run before the rest (a mutant's verdict is the same
# either way: when none of them fails, every fast test runs): a style's mutants its folder's
# suites (found by name: DOrsogna for dorsogna), and these. It only saves time; the style tests
# come last in their binary.
FIRST = {
    "adaptive radius: the boid itself left out of its count (n for n + 1)": "Influences.Adaptive*",
    "adaptive radius: a boid sees beyond its own radius": "Influences.Adaptive*",
    "the harmonic trap pushes away from its centre (sign flip)": "Influences.TheTrap*",
    "image counts: a crossing counted the wrong way (sign flip)": "Wrap.*",
    "pair correlations of the velocities, the mean not taken off": "Correlations.*",
}


def style_of(patches):
    """The one style folder among a mutant's patches (others may patch shared files), or None."""
    folders = {path.split("/")[2] for path, _old, _new, _n in patches if path.startswith("src/styles/")}
    return folders.pop() if len(folders) == 1 else None


def first_tests(name, patches, suites):
    """The gtest filter of the tests to run first for a mutant, or None (SUITES: every suite's name)."""
    if name in FIRST:
        return FIRST[name]
    style = style_of(patches)
    if style is None:
        return None
    own = sorted(s for s in suites if s.lower().startswith(style.replace("_", "")))
    return ":".join(s + ".*" for s in own) or None

# The fast tests: the CPU tests and the GL tests that check the GPU against hand-computed or
# known answers (parity compares the two backends, which share each mutant; the long flights run
# once in the main suite). Left out as well, because they take most of a mutant's test time and
# none of them is the only test catching any mutant (their catches are listed beside others'):
# the four Couzin states (12 s), file and video writing, sweeps, the GPU's reproducibility and
# resume runs and its order parameters (16 s); the ensembles (a flock against itself alone, which
# share each mutant) and the steps in work groups (against the passes, which share each mutant
# too); the public API's tests (they run the command line in-process, whose GPU run
# ends the context the rest of one process's tests use: ctest runs them a process each).
CPU_FILTER = "-Couzin.TheFourPresetsReachTheFourStates:Files.*:Recorder.*:SweepCli.*"
GL_FILTER = ("-Cases/Parity.*:ParityLong.*:Flight.*:Presets/*:CliGpu.*:Render*:Perching.*:Obstacles.*"
             ":GpuRuns.*:GpuMeasure.OrderParametersEqualTheCpuReference:GpuEnsemble.*:GpuGroupSteps.*:PublicApi.*")


BINARIES = ("murmur_cpu_tests", "murmur_gl_tests")
COPIED = ["CMakeLists.txt", "cmake", "src", "include", "python", "examples", "shaders", "tests", "presets", "third_party",
          "scripts", "fuzz"]


def run(cmd, **kw):
    return subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)


def copy_tree(work_dir):
    """The checkout's sources, copied afresh into WORK_DIR/tree (files whose text is unchanged keep
    their times, so the build there stays incremental between runs)."""
    tree = os.path.join(work_dir, "tree")
    for name in COPIED:
        src = os.path.join(ROOT, name)
        if os.path.isdir(src):
            shutil.copytree(src, os.path.join(tree, name), dirs_exist_ok=True, copy_function=copy_if_changed)
        elif os.path.exists(src):
            os.makedirs(tree, exist_ok=True)
            copy_if_changed(src, os.path.join(tree, name))
    return tree


def copy_if_changed(src, dst):
    if os.path.exists(dst) and open(src, "rb").read() == open(dst, "rb").read():
        return dst
    return shutil.copy(src, dst)  # a fresh time: the build sees the change whatever the source's date


def configure(tree, build_dir):
    launcher = "ccache" if shutil.which("ccache") else ""
    # Ninja where it is installed (scripts/setup.sh), as scripts/test.sh chooses it: CMake takes
    # CMAKE_GENERATOR for a new build folder only, so one configured before keeps its own.
    env = dict(os.environ)
    if shutil.which("ninja"):
        env.setdefault("CMAKE_GENERATOR", "Ninja")
    r = run(["cmake", "-S", tree, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release", "-DMURMUR_WERROR=ON",
             "-DCMAKE_CXX_COMPILER_LAUNCHER=" + launcher, "-DCMAKE_C_COMPILER_LAUNCHER=" + launcher], env=env)
    if r.returncode != 0:
        print(r.stdout[-4000:])
        raise SystemExit("mutants: configure failed")


def build(build_dir):
    # ccache (when installed) hashes paths relative to the copied tree: the build is
    # tree/build-test, as scripts/test.sh's is, so the unmutated objects come from its cache, and a
    # mutant's restored files from the cache of the build before it.
    env = dict(os.environ, CCACHE_BASEDIR=os.path.dirname(build_dir))
    r = run(["cmake", "--build", build_dir, "--target", "murmur_cpu_tests", "murmur_gl_tests", "-j", str(os.cpu_count() or 2)], env=env)
    if r.returncode != 0:
        print(r.stdout[-4000:])
        raise SystemExit("mutants: build failed")


def suites(build_dir):
    """Every test suite's name in both binaries."""
    names = set()
    for binary in BINARIES:
        listed = run([os.path.join(build_dir, "tests", binary), "--gtest_list_tests"]).stdout
        names |= {line.split(".")[0].split("/")[-1] for line in listed.splitlines() if line and not line[0].isspace()}
    return names


def caught_by(build_dir, tree, first):
    """A mutant's verdict: the failing tests, those named FIRST run alone before the rest."""
    if first:
        caught = failing_tests(build_dir, tree, first_only=True, only=first)
        if caught:
            return caught
    return failing_tests(build_dir, tree, first_only=True)


def failing_tests(build_dir, tree, first_only=False, only=""):
    """The failing tests of both binaries, run side by side (one each per core), or only those
    matching the gtest filter ONLY. With first_only (a mutant's run), each binary stops at its
    first failure and the other binary is stopped then too: one failing test is all a mutant's
    verdict needs."""
    env = dict(os.environ, MURMUR_PRESET_DIR=os.path.join(tree, "presets"), GTEST_BRIEF="1")
    runs = []
    for binary, test_filter in zip(BINARIES, (CPU_FILTER, GL_FILTER)):
        cmd = [os.path.join(build_dir, "tests", binary), "--gtest_filter=" + only + test_filter]
        if first_only:
            cmd.append("--gtest_fail_fast")
        runs.append((binary, subprocess.Popen(cmd, cwd=tree, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)))
    deadline = time.time() + 900
    while first_only and time.time() < deadline and any(p.poll() is None for _, p in runs):
        if any(p.poll() not in (None, 0) for _, p in runs):
            for _, p in runs:
                if p.poll() is None:
                    p.kill()  # the verdict is in: the other binary's tests would not change it
            break
        time.sleep(0.2)
    failed = []
    for binary, proc in runs:
        stdout, _ = proc.communicate(timeout=max(1, deadline - time.time()))
        names = re.findall(r"^\[  FAILED  \] (\S+)", stdout, re.M)
        failed += sorted(set(n for n in names if "," not in n))
        if proc.returncode not in (0, -9) and not names:
            failed.append(binary + " (exit %d)" % proc.returncode)
    return failed


def check_patches():
    """Every patch still matches the sources as many times as it says (no build, no run)."""
    stale = []
    for name, patches in MUTANTS:
        for path, old, _new, count in patches:
            found = open(os.path.join(ROOT, path)).read().count(old)
            if found != count:
                stale.append("%s: %s matches %d times, expected %d" % (name, path, found, count))
    return stale


def main():
    if len(sys.argv) == 2 and sys.argv[1] == "--check":
        stale = check_patches()
        print("\n".join(stale) or "mutants: every patch matches")
        return 1 if stale else 0
    if len(sys.argv) not in (2, 3):
        raise SystemExit(__doc__)
    chosen = [m for m in MUTANTS if len(sys.argv) == 2 or sys.argv[2] in m[0]]
    if check_patches():
        raise SystemExit("mutants: patches out of date:\n" + "\n".join(check_patches()))
    work_dir = os.path.abspath(sys.argv[1])
    tree = copy_tree(work_dir)
    build_dir = os.path.join(tree, "build-test")
    configure(tree, build_dir)
    t0 = time.time()
    build(build_dir)
    base = failing_tests(build_dir, tree)
    if base:
        print("mutants: the unmutated tests fail:", ", ".join(base))
        return 1
    named = suites(build_dir)
    survived = []
    for name, patches in chosen:
        originals = {}
        try:
            for path, old, new, count in patches:
                full = os.path.join(tree, path)
                text = open(full).read()
                originals.setdefault(full, text)
                found = text.count(old)
                if found != count:
                    raise SystemExit("mutants: '%s' patch for %s matches %d times, expected %d" % (name, path, found, count))
                with open(full, "w") as f:
                    f.write(text.replace(old, new))
            t_build = time.time()
            build(build_dir)
            t_test = time.time()
            caught = caught_by(build_dir, tree, first_tests(name, patches, named))
            t_done = time.time()
        finally:
            for full, text in originals.items():
                with open(full, "w") as f:
                    f.write(text)
        print("%-62s %s (build %.0f s, tests %.0f s)" % (name, ("caught by " + ", ".join(caught)) if caught else "SURVIVED",
                                                      t_test - t_build, t_done - t_test), flush=True)
        if not caught:
            survived.append(name)
    print("mutants: %d of %d caught in %.0f s" % (len(chosen) - len(survived), len(chosen), time.time() - t0))
    if survived:
        print("mutants: survived:", "; ".join(survived))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
