// The uniform grid finds exactly the brute-force neighbour sets, on random states and on states
// built to hurt: boids on cell borders, on world edges, outside the box (soft), tiny grids, far
// from the origin and one grid repeat apart (open sky).
#include "cpu/cpu_simulation.hpp"
#include "cpu/grid.hpp"
#include "model/grid_spec.hpp"
#include "model/rng.hpp"
#include "is_neighbour.hpp"
#include "test_util.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <vector>

using namespace murmur;
using namespace murmur::test;

namespace {

// Random flock plus boids placed exactly on cell borders and world edges (and, in soft mode,
// outside the box).
Flock hurtfulFlock(const Params& p, std::uint32_t n_random, std::uint64_t seed) {
    Flock f;
    Pcg32 rng(seed, 7);
    const float L = p.world_size;
    const GridSpec g = makeGridSpec(p);
    auto add = [&](glm::vec3 pos) {
        glm::vec3 v{rng.uniform() * 2 - 1, rng.uniform() * 2 - 1, p.dims == 3 ? rng.uniform() * 2 - 1 : 0.0f};
        if (p.dims == 2) pos.z = 0.0f;
        f.push_back(boid(std::uint32_t(f.size()), pos, v));
    };
    for (std::uint32_t i = 0; i < n_random; ++i) add({rng.uniform() * L, rng.uniform() * L, rng.uniform() * L});
    const float edge = g.open ? 1.0f / g.inv_cell.x : L / float(g.cells.x);
    for (std::uint32_t c = 0; c <= g.cells.x; ++c) {  // on cell borders, and a hair either side
        const float x = float(c) * edge;
        for (float e : {0.0f, -1e-4f, 1e-4f}) add({std::min(x + e, L - 1e-4f), x * 0.5f + e, std::min(x + e, L * 0.9f)});
    }
    for (float x : {0.0f, L - 1e-3f, L * 0.5f})  // on world edges and corners
        for (float y : {0.0f, L - 1e-3f}) add({x, y, y});
    if (p.bounds != Bounds::Wrap)
        for (float x : {-5.0f, -0.5f, L + 0.5f, L + 7.0f}) add({x, L * 0.5f, x});
    if (p.bounds == Bounds::Open) {
        // A copy of the first 100 far out, one a whole number of grid repeats away (the same cells,
        // no neighbours in common), and boids on cell borders far out.
        const float repeat = edge * float(g.cells.x);
        for (glm::vec3 shift : {glm::vec3(4000.0f, -3000.0f, 2500.0f), glm::vec3(repeat, 2.0f * repeat, repeat)})
            for (std::uint32_t i = 0; i < 100; ++i) add(f[i].p + shift);
        for (int c = 0; c < 40; ++c) add({float(6000 + c) * edge, -float(1000 + c / 2) * edge, float(c % 3) * edge});
    }
    return f;
}

std::vector<std::set<std::uint32_t>> neighbourSets(const Flock& f, const Params& p, bool use_grid) {
    const RuleContext ctx(p);
    std::vector<std::set<std::uint32_t>> sets(f.size());
    UniformGrid grid;
    grid.build(makeGridSpec(p), f, ctx.L);
    for (std::uint32_t i = 0; i < f.size(); ++i) {
        auto visit = [&](std::uint32_t j) {
            if (j != i && isNeighbour(ctx, f[i], f[j])) {
                EXPECT_TRUE(sets[i].insert(j).second) << "visited twice";
            }
        };
        if (use_grid) grid.forEachCandidate(f[i].p, visit);
        else
            for (std::uint32_t j = 0; j < f.size(); ++j) visit(j);
    }
    return sets;
}

struct Case {
    int dims;
    Bounds bounds;
    float world, radius, fov;
};

}  // namespace

class GridVsBruteForce : public ::testing::TestWithParam<Case> {};

TEST_P(GridVsBruteForce, SameNeighbourSets) {
    const Case c = GetParam();
    Params p = quietParams();
    p.dims = c.dims;
    p.bounds = c.bounds;
    p.world_size = c.world;
    p.species[0].cohesion = {c.radius, 1.0f};
    p.species[0].separation = {c.radius * 0.5f, 1.0f};
    p.species[0].fov_deg = c.fov;
    p.boids = 600;
    const Flock f = hurtfulFlock(p, 600, std::uint64_t(c.dims * 100 + int(c.radius)));
    const auto grid = neighbourSets(f, p, true);
    const auto brute = neighbourSets(f, p, false);
    std::size_t total = 0;
    for (std::size_t i = 0; i < f.size(); ++i) {
        EXPECT_EQ(grid[i], brute[i]) << "boid " << i << " at " << f[i].p.x << "," << f[i].p.y << "," << f[i].p.z;
        total += brute[i].size();
    }
    EXPECT_GT(total, f.size()) << "the case should have neighbours to find";
}

INSTANTIATE_TEST_SUITE_P(
    States, GridVsBruteForce,
    ::testing::Values(Case{2, Bounds::Wrap, 100, 10, 360}, Case{2, Bounds::Wrap, 100, 10, 200},
                      Case{2, Bounds::Soft, 100, 10, 360}, Case{3, Bounds::Wrap, 40, 8, 360},
                      Case{3, Bounds::Soft, 40, 8, 270},
                      Case{2, Bounds::Wrap, 100, 50, 360},   // 2 cells per axis: wrap must not double count
                      Case{2, Bounds::Wrap, 100, 33.4f, 360},  // 2 cells after the slack
                      Case{3, Bounds::Wrap, 30, 12, 360},    // 2x2x2
                      Case{2, Bounds::Soft, 100, 150, 360},  // one cell: radius beyond the world
                      Case{2, Bounds::Wrap, 100, 12.5f, 360},  // L / r a whole number
                      Case{2, Bounds::Open, 100, 10, 360}, Case{3, Bounds::Open, 40, 8, 270},
                      Case{3, Bounds::Open, 30, 12, 360},
                      Case{2, Bounds::Open, 100, 150, 360}),  // cells larger than the world
    [](const ::testing::TestParamInfo<Case>& param_info) {
        // e.g. "2d_wrap_L100_r33p4_fov360"
        const Case& c = param_info.param;
        auto num = [](float x) {
            std::string s = std::to_string(x);
            s.erase(s.find_last_not_of('0') + 1);
            if (s.back() == '.') s.pop_back();
            for (char& ch : s)
                if (ch == '.') ch = 'p';
            return s;
        };
        return std::to_string(c.dims) + "d_" + boundsName(c.bounds) + "_L" + num(c.world) + "_r" +
               num(c.radius) + "_fov" + num(c.fov);
    });

TEST(Grid, CountingSortPutsEachBoidOnceInItsCell) {
    Params p = quietParams();
    p.species[0].cohesion = {10.0f, 1.0f};
    const Flock f = hurtfulFlock(p, 300, 3);
    UniformGrid grid;
    grid.build(makeGridSpec(p), f, RuleContext(p).L);
    std::vector<std::uint32_t> seen(f.size(), 0);
    for (std::uint32_t cell = 0; cell < grid.counts().size(); ++cell)
        for (std::uint32_t k = grid.starts()[cell]; k < grid.starts()[cell] + grid.counts()[cell]; ++k) {
            ++seen[grid.sorted()[k]];
            EXPECT_EQ(grid.cellIndex(f[grid.sorted()[k]].p), cell);
        }
    for (std::uint32_t s : seen) EXPECT_EQ(s, 1u);
}

// The cells within the reach of c on an axis, in order: wrapped, clipped, and each once when the
// axis has no more cells than the span.
TEST(Grid, NeighbourCellsListTheReachInOrder) {
    std::uint32_t out[kGridSpan];
    ASSERT_EQ(neighbourCells(0, 10, true, out), 5);
    EXPECT_EQ(std::vector<std::uint32_t>(out, out + 5), (std::vector<std::uint32_t>{8, 9, 0, 1, 2}));
    ASSERT_EQ(neighbourCells(1, 10, false, out), 4);
    EXPECT_EQ(std::vector<std::uint32_t>(out, out + 4), (std::vector<std::uint32_t>{0, 1, 2, 3}));
    ASSERT_EQ(neighbourCells(9, 10, false, out), 3);
    EXPECT_EQ(std::vector<std::uint32_t>(out, out + 3), (std::vector<std::uint32_t>{7, 8, 9}));
    ASSERT_EQ(neighbourCells(3, 4, true, out), 4);
    EXPECT_EQ(std::vector<std::uint32_t>(out, out + 4), (std::vector<std::uint32_t>{0, 1, 2, 3}));
    ASSERT_EQ(neighbourCells(4, 6, true, out), 5);
    EXPECT_EQ(std::vector<std::uint32_t>(out, out + 5), (std::vector<std::uint32_t>{2, 3, 4, 5, 0}));
}

TEST(Grid, FoldedCellIsTheExactRemainder) {
    EXPECT_EQ(foldedCell(-0.5f, 1.0f, 10), 9.0f);
    EXPECT_EQ(foldedCell(25.0f, 1.0f, 10), 5.0f);
    EXPECT_EQ(foldedCell(30.0f, 1.0f, 10), 0.0f);
    EXPECT_EQ(foldedCell(-30.0f, 1.0f, 10), 0.0f);
    EXPECT_EQ(foldedCell(0.0f, 0.0f, 1), 0.0f);  // an unused axis
    for (int k = -300000; k <= 300000; k += 7) {  // integers either side of 0, each a quarter past
        const float want = float(((k % 13) + 13) % 13);
        ASSERT_EQ(foldedCell(float(k) + 0.25f, 1.0f, 13), want) << k;
    }
}

// Open sky: the grid's cells and their number do not depend on the world box, so a flock costs the
// same wherever it flies: the same flock 10^4 units out visits the same candidates (within 2 %:
// rounding far out moves a few boids across cell borders).
TEST(Grid, OpenSkyCostsTheSameFarFromTheOrigin) {
    Params p = quietParams();
    p.dims = 3;
    p.bounds = Bounds::Open;
    p.world_size = 40.0f;
    p.boids = 2000;
    p.species[0].cohesion = {6.0f, 1.0f};
    const GridSpec g = makeGridSpec(p);
    EXPECT_TRUE(g.open && g.wrap);
    EXPECT_LE(g.total(), cellBudget(p.boids));
    EXPECT_GE(1.0f / g.inv_cell.x, 3.0f) << "cell edge at least the radius over the reach";
    p.world_size = 20.0f;  // the box only floors the cell edge (box / cells, here below r / 2)
    EXPECT_EQ(makeGridSpec(p).cells, g.cells) << "the world box does not size open sky's grid";
    EXPECT_EQ(makeGridSpec(p).inv_cell, g.inv_cell);
    p.world_size = 400.0f;  // a box larger than the table at half-radius cells: the cells wrap would give it
    EXPECT_EQ(makeGridSpec(p).cells, g.cells);
    EXPECT_FLOAT_EQ(1.0f / makeGridSpec(p).inv_cell.x, 400.0f / float(g.cells.x));
    p.world_size = 40.0f;
    Pcg32 rng(5, 3);
    Flock near, far;
    for (std::uint32_t i = 0; i < p.boids; ++i) {
        const glm::vec3 at{rng.uniform() * 40.0f, rng.uniform() * 40.0f, rng.uniform() * 40.0f};
        near.push_back(boid(i, at, glm::vec3(1.0f, 0.0f, 0.0f)));
        far.push_back(boid(i, at + glm::vec3(1e4f, -1e4f, 1e4f), glm::vec3(1.0f, 0.0f, 0.0f)));
    }
    auto visited = [&](const Flock& f) {
        UniformGrid grid;
        grid.build(g, f, glm::vec3(p.world_size));
        double total = 0.0;
        for (const Boid& b : f) grid.forEachCandidate(b.p, [&](std::uint32_t) { total += 1.0; });
        return total / double(f.size());
    };
    const double at_origin = visited(near), out_there = visited(far);
    EXPECT_GT(at_origin, 10.0);
    EXPECT_NEAR(out_there / at_origin, 1.0, 0.02) << at_origin << " candidates a boid at the origin, " << out_there << " far out";
}

TEST(Grid, ExclusiveScan) {
    EXPECT_EQ(exclusiveScan({}), std::vector<std::uint32_t>{0});
    EXPECT_EQ(exclusiveScan({5}), (std::vector<std::uint32_t>{0, 5}));
    EXPECT_EQ(exclusiveScan({3, 0, 2, 7}), (std::vector<std::uint32_t>{0, 3, 3, 5, 12}));
}

TEST(Grid, SpecKeepsCellsAtLeastTheRadiusOverTheReachAndWithinBudget) {
    Params p = quietParams();
    p.world_size = 100.0f;
    p.species[0].cohesion = {10.0f, 1.0f};
    GridSpec g = makeGridSpec(p);
    EXPECT_EQ(g.cells.x, 19u);  // floor(100 * 2 / (10 * (1 + 1e-5))) = 19: the edge stays above r/2
    EXPECT_EQ(g.cells.z, 1u);
    EXPECT_GE(100.0f / float(g.cells.x) * float(kGridReach), 10.0f);
    p.species[0].cohesion = {0.001f, 1.0f};  // tiny radius: cells capped by the budget
    p.dims = 3;
    p.boids = 10;
    g = makeGridSpec(p);
    EXPECT_EQ(cellBudget(10), 64u);
    EXPECT_LE(g.total(), cellBudget(10));
    EXPECT_EQ(g.cells.x, 4u);  // 4^3 = 64
    EXPECT_EQ(cellBudget(100000), 200000u) << "twice the boids";
    EXPECT_EQ(cellBudget(100000000), kMaxGridCells) << "never past the cap, whatever the flock";
    EXPECT_EQ(cellBudget(kMaxGridCells / 2), kMaxGridCells);
    p.species[0].cohesion = {0.0f, 0.0f};  // radius 0: any grid is fine, still within budget
    EXPECT_LE(makeGridSpec(p).total(), cellBudget(10));
}

TEST(Grid, StepMatchesBruteForceStep) {
    Params p;
    p.boids = 400;
    p.world_size = 60.0f;
    Flock f = hurtfulFlock(p, 400, 11);
    CpuSimulation grid, brute(NeighbourSearch::BruteForce);
    grid.upload(f, p);
    brute.upload(f, p);
    grid.step(3);
    brute.step(3);
    const Flock a = grid.download(), b = brute.download();
    ASSERT_EQ(a.size(), b.size());
    // Same neighbours, summed in another order: float rounding only (tolerance 1e-3 units).
    float max_err = 0.0f;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const glm::vec3 d = offsetBetween(RuleContext(p), a[i].p, b[i].p);
        max_err = std::max({max_err, std::fabs(d.x), std::fabs(d.y)});
    }
    EXPECT_LT(max_err, 1e-3f);
    EXPECT_EQ(grid.neighbourCounts(), brute.neighbourCounts());
}
