// The GPU's order parameters (reductions in flock_measure.comp) against the CPU reference's
// plain ones (cpu/order_params.cpp) on the same states: random and flown flocks, 2D and 3D,
// wrap and soft bounds.
#include "cpu/cpu_simulation.hpp"
#include "cpu/order_params.hpp"
#include "gl/buffer.hpp"
#include "gpu/dispatch.hpp"
#include "gpu/gpu_simulation.hpp"
#include "model/boid.hpp"
#include "model/correlations.hpp"
#include "model/spawn.hpp"

#include "flock_bits.hpp"
#include "row_limit.hpp"
#include "gl_env.hpp"

#include <gtest/gtest.h>
#include <thread>

#include <glm/geometric.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

using namespace murmur;

namespace {

// Appends a boid with the next id to a crafted flock.
void appendBoid(Flock& f, glm::vec3 p, glm::vec3 v, std::uint32_t species = 0) {
    Boid b;
    b.id = std::uint32_t(f.size());
    b.species = species;
    b.p = p;
    b.v = v;
    f.push_back(b);
}

// The parameters of a crafted flock: a world of `world` units, radii 4, 10 and 10 (separation,
// alignment, cohesion), each weight 1.
Params craftedRadii(float world) {
    Params p;
    p.world_size = world;
    p.species[0].separation = {4.0f, 1.0f};
    p.species[0].alignment = {10.0f, 1.0f};
    p.species[0].cohesion = {10.0f, 1.0f};
    return p;
}

// Tolerances: sums of 256 floats per work group, then of the groups' sums in a float tree
// (measure_reduce.comp): relative 1e-5 on
// means; a nearest distance within a float ulp of a bin edge may land in the next bin, so the
// histogram may differ by a few boids and the median by a few hundredths of a bin.
// group_tol: the group measures are the GPU's (float terms, summed in 64-bit fixed point of 2^-20)
// against the CPU's in double: within 1e-5 on the same state and on states a step of float noise
// apart.
// The largest groups, listed: the same groups (sizes and first ids exactly), their polarization
// and milling within group_tol, their centres within 1e-3 units (the GPU adds a work group's
// float offsets, then 2^-20 fixed point: errors of about 1e-5 units at these sizes), by minimum
// image in a wrapped world of `wrap_world` units (0: soft walls), where a centre on the wrap may
// fold to either side.
void expectSameLargestGroups(const OrderParams& gpu, const OrderParams& cpu, double group_tol, double wrap_world) {
    for (std::uint32_t k = 0; k < kLargestGroups; ++k) {
        SCOPED_TRACE("listed group " + std::to_string(k + 1));
        const GroupFigures &g = gpu.largest_groups[k], &c = cpu.largest_groups[k];
        EXPECT_EQ(g.boids, c.boids);
        EXPECT_EQ(g.first_id, c.first_id);
        EXPECT_NEAR(g.polarization, c.polarization, group_tol);
        EXPECT_NEAR(g.milling, c.milling, group_tol);
        for (int a = 0; a < 3; ++a) {
            double d = g.centre[a] - c.centre[a];
            if (wrap_world > 0.0) d -= wrap_world * std::round(d / wrap_world);
            EXPECT_NEAR(d, 0.0, 1e-3) << "centre axis " << a;
        }
    }
}

// The same state on both backends.
struct BothBackends {
    CpuSimulation cpu;
    gpu::GpuSimulation gpu;
    BothBackends(const Flock& f, const Params& p) {
        cpu.upload(f, p);
        gpu.upload(f, p);
    }
};

void expectClose(const OrderParams& gpu, const OrderParams& cpu, const std::string& what, double group_tol, double wrap_world) {
    SCOPED_TRACE(what);
    EXPECT_EQ(gpu.boids, cpu.boids);
    EXPECT_NEAR(gpu.polarization, cpu.polarization, 1e-5);
    EXPECT_NEAR(gpu.mean_speed, cpu.mean_speed, 1e-5 * cpu.mean_speed);
    EXPECT_NEAR(gpu.mean_neighbours, cpu.mean_neighbours, 1e-5 * cpu.mean_neighbours);
    EXPECT_NEAR(gpu.nn_mean, cpu.nn_mean, 1e-5 * cpu.nn_mean);
    const double bin = cpu.nn_radius / kNnBins;
    EXPECT_NEAR(gpu.nn_median, cpu.nn_median, 0.05 * bin);
    std::uint32_t moved = 0;
    for (std::uint32_t b = 0; b <= kNnBins; ++b) moved += std::uint32_t(std::abs(int(gpu.nn_histogram[b]) - int(cpu.nn_histogram[b])));
    EXPECT_LE(moved, 4u) << "boids in other bins";
    // Groups: the same code on (nearly) the same state.
    EXPECT_EQ(gpu.groups, cpu.groups);
    EXPECT_NEAR(gpu.largest_group_share, cpu.largest_group_share, 0.0);
    EXPECT_NEAR(gpu.group_polarization, cpu.group_polarization, group_tol);
    EXPECT_NEAR(gpu.milling, cpu.milling, group_tol);
    expectSameLargestGroups(gpu, cpu, group_tol, wrap_world);
}

}  // namespace

TEST(GpuMeasure, OrderParametersEqualTheCpuReference) {
    MURMUR_REQUIRE_GL();
    for (int dims : {2, 3})
        for (Bounds bounds : {Bounds::Wrap, Bounds::Soft}) {
            Params p;
            p.dims = dims;
            p.bounds = bounds;
            p.boids = 2000;
            p.world_size = dims == 2 ? 300.0f : 50.0f;
            p.seed = 5;
            const Flock start = spawn(p);
            CpuSimulation cpu;
            gpu::GpuSimulation gpu;
            cpu.upload(start, p);
            gpu.upload(start, p);
            const std::string what = std::to_string(dims) + "D " + (bounds == Bounds::Wrap ? "wrap" : "soft");
            const double wrap_world = bounds == Bounds::Wrap ? p.world_size : 0.0;
            cpu.step(1);
            gpu.step(1);
            const OrderParams c1 = cpu.measure();
            EXPECT_GT(c1.mean_neighbours, 1.0) << what;
            expectClose(gpu.measure(), c1, what + " after a step", 1e-5, wrap_world);
            // A flown state (the CPU's, uploaded to the GPU): the same figures but the neighbour
            // counts, which the GPU has not counted yet.
            cpu.step(80);
            gpu.upload(cpu.download(), p);
            OrderParams g = gpu.measure(), c = cpu.measure();
            // The group sums are fixed point, added by integer atomics: the same bits every time.
            const OrderParams again = gpu.measure();
            EXPECT_EQ(again.group_polarization, g.group_polarization) << what;
            EXPECT_EQ(again.milling, g.milling) << what;
            EXPECT_EQ(g.mean_neighbours, 0.0);
            g.mean_neighbours = c.mean_neighbours;
            expectClose(g, c, what + " after 81 steps", 1e-5, wrap_world);
        }
    EXPECT_NO_GL_ERRORS();
}

TEST(GpuMeasure, KnownStatesGiveKnownAnswersOnTheGpu) {
    MURMUR_REQUIRE_GL();
    // Two rows flying opposite ways (tests/no_gl/test_order_params.cpp): polarization 0, a lattice
    // spacing of 2 as every nearest distance, mean speed 4.
    Params p = craftedRadii(100.0f);
    Flock f;
    for (int k = 0; k < 20; ++k)
        appendBoid(f, {10.0f + 2.0f * float(k % 10), k < 10 ? 20.0f : 60.0f, 0.0f}, k < 10 ? glm::vec3(5, 0, 0) : glm::vec3(-3, 0, 0));
    gpu::GpuSimulation gpu;
    gpu.upload(f, p);
    const OrderParams o = gpu.measure();
    EXPECT_NEAR(o.polarization, 0.0, 1e-6);
    EXPECT_NEAR(o.mean_speed, 4.0, 1e-6);
    EXPECT_NEAR(o.nn_mean, 2.0, 1e-5);
    EXPECT_EQ(o.nn_histogram[6], 20u) << "2 / (10/32) = 6.4: bin 6";
    EXPECT_EQ(o.groups, 2u);
    EXPECT_NEAR(o.group_polarization, 1.0, 1e-9);
    // One boid: polarization 1 (within 1e-6), never past it (a float sum of unit vectors may be
    // a few ulps long; the figure is a fraction, as on the CPU).
    Flock one(f.begin(), f.begin() + 1);
    one[0].v = {0.3f, 0.7f, 0.0f};
    gpu.upload(one, p);
    const OrderParams single = gpu.measure();
    EXPECT_NEAR(single.polarization, 1.0, 1e-6);
    EXPECT_LE(single.polarization, 1.0);
    EXPECT_NO_GL_ERRORS();
}

// A finite flock whose speeds sum past a float's range (300 boids at 8e37 units/s: 2.4e40) has a
// finite mean speed, as the CPU's double sum gives it (within 1e-6 relative), not inf.
TEST(GpuMeasure, SpeedsThatSumPastAFloatsRangeGiveTheirMean) {
    MURMUR_REQUIRE_GL();
    Params p = craftedRadii(100.0f);
    Flock f;
    for (int k = 0; k < 300; ++k)
        appendBoid(f, {1.0f + 0.3f * float(k % 100), 10.0f + 20.0f * float(k / 100), 0.0f}, glm::vec3(8e37f, 0.0f, 0.0f));
    gpu::GpuSimulation gpu;
    gpu.upload(f, p);
    const OrderParams o = gpu.measure();
    ASSERT_TRUE(std::isfinite(o.mean_speed)) << o.mean_speed;
    EXPECT_NEAR(o.mean_speed / 8e37, 1.0, 1e-6);
    EXPECT_NEAR(o.mean_speed / measureFlock(f, p, std::vector<std::uint32_t>(f.size(), 0u)).mean_speed, 1.0, 1e-6);
    EXPECT_NO_GL_ERRORS();
}

// What comes back from the GPU (gl::bytesReadBack, which every buffer read passes): a step reads
// nothing; a sample the same 580 bytes at any N (the per-boid measures' two vec4 and 33-bin
// histogram, 164; the group measures' totals, 32; the four largest groups' figures, 4 x 96); the
// neighbour counts 4 bytes a boid, by id, without the positions.
TEST(GpuMeasure, WhatASampleReadsBackIsCounted) {
    MURMUR_REQUIRE_GL();
    for (std::uint32_t n : {1000u, 200000u}) {
        Params p;
        p.boids = n;
        gpu::GpuSimulation sim;
        sim.upload(spawn(p), p);
        std::uint64_t before = gl::bytesReadBack();
        sim.step(2);
        EXPECT_EQ(gl::bytesReadBack() - before, 0u) << n << " boids: a step reads nothing back";
        before = gl::bytesReadBack();
        (void)sim.measure();
        EXPECT_EQ(gl::bytesReadBack() - before, 580u) << n << " boids: a sample";
        before = gl::bytesReadBack();
        EXPECT_EQ(sim.neighbourCounts().size(), n);
        EXPECT_EQ(gl::bytesReadBack() - before, 4u * n) << n << " boids: the counts by id, not the positions";
    }
    EXPECT_NO_GL_ERRORS();
}

// A sample taken in slices (the window's: a slice a frame) with steps and a parameter change
// between its slices gives, to the bit, what measure() gives for the state it began with; and it
// reads back the same 580 bytes.
// A slice of a sample dispatched in rows (MAX_DISPATCH_X work groups a row, lowered to 2 here so
// that it happens at a size a software renderer affords) runs only its own work groups: the
// padding groups of a last row that is not full are the next slice's, and their boids would be
// counted twice (the histogram, the group sums, the spin and the totals are added up).
TEST(GpuMeasure, ASliceDispatchedInRowsRunsOnlyItsOwnWorkGroups) {
    MURMUR_REQUIRE_GL();
    Params p;
    p.boids = 5000;  // 20 work groups
    p.world_size = 300.0f;
    gpu::GpuSimulation sim;
    sim.upload(spawn(p), p);
    sim.step(5);
    const OrderParams want = sim.measure();
    int slices = 1;
    SampleTicket ticket;
    {
        const RowLimit rows(2);
        ticket = sim.requestSample(SampleWhen::InSlices);
        while (!sim.advanceSamples(3 * 256)) ++slices;  // three work groups of a walk a slice: rows of 2
    }
    const OrderParams got = sim.takeSample(ticket);
    EXPECT_GE(slices, 7) << "20 work groups of the walk, three a slice";
    EXPECT_GT(want.groups, 0u);
    expectSameMeasures(got, want, "slices in rows");
}

// The totals go over the roots group_sums.comp listed, in one indirect dispatch of at most a row
// of work groups (lowered to 2 here): past a row's 512 roots an invocation takes every 512th.
// 1,000 groups of five boids a unit apart, 30 units from the next group: 1,000 roots.
TEST(GpuMeasure, TheTotalsTakeEveryRootPastADispatchRow) {
    MURMUR_REQUIRE_GL();
    Params p = craftedRadii(1000.0f);
    Flock f;
    for (int g = 0; g < 1000; ++g)
        for (int k = 0; k < 5; ++k) appendBoid(f, {15.0f + 30.0f * float(g % 32) + float(k), 15.0f + 30.0f * float(g / 32), 0.0f}, {1, 0, 0});
    p.boids = std::uint32_t(f.size());
    gpu::GpuSimulation gpu;
    gpu.upload(f, p);
    OrderParams o;
    {
        const RowLimit rows(2);
        o = gpu.measure();
    }
    EXPECT_EQ(o.groups, 1000u);
    EXPECT_EQ(o.grouped_share, 1.0);
    EXPECT_NEAR(o.largest_group_share, 5.0 / 5000.0, 1e-12);
    EXPECT_EQ(o.largest_groups[0].boids, 5u);
    EXPECT_EQ(o.largest_groups[0].first_id, 0u) << "equal sizes: the lowest first id";
}

TEST(GpuMeasure, ASampleInSlicesIsTheStateItBeganWith) {
    MURMUR_REQUIRE_GL();
    for (std::uint32_t dims : {2u, 3u}) {
        SCOPED_TRACE(dims);
        Params p;
        p.dims = dims;
        p.boids = 5000;
        p.world_size = dims == 2 ? 300.0f : 60.0f;
        gpu::GpuSimulation whole, sliced;
        whole.upload(spawn(p), p);
        sliced.upload(spawn(p), p);
        whole.step(5);
        sliced.step(5);
        const OrderParams want = whole.measure();
        const std::uint64_t before = gl::bytesReadBack();
        const SampleTicket ticket = sliced.requestSample(SampleWhen::InSlices);
        int slices = 1;
        Params changed = p;
        changed.species[0].alignment.weight *= 2.0f;
        while (!sliced.advanceSamples(256)) {  // a work group of the walk a slice (2 of the sums)
            sliced.step(1);
            ++slices;
            if (slices == 4) sliced.setParams(changed);  // the same programs: the sample goes on
            if (slices == 30) {
                changed.style = Style::Vicsek;  // other programs: the sample ends first, on its own
                sliced.setParams(changed);
            }
        }
        glFinish();
        EXPECT_TRUE(sliced.sampleReady(ticket)) << "its figures have landed once the GPU is done";
        const OrderParams got = sliced.takeSample(ticket);
        EXPECT_FALSE(sliced.sampleReady(ticket)) << "taken";
        EXPECT_EQ(gl::bytesReadBack() - before, 580u);
        EXPECT_EQ(slices, 30) << "5000 boids, 20 work groups: over 30 slices, but the style change ended it";
        EXPECT_GT(want.groups, 0u);
        EXPECT_GT(want.largest_groups[0].boids, 0u);
        expectSameMeasures(got, want, "in slices");
        EXPECT_NE(sliced.measure().polarization, want.polarization) << "the flock moved on meanwhile";
        // measure() during a sample in slices answers for now, and the sample still for then.
        const SampleTicket next = sliced.requestSample(SampleWhen::InSlices);
        EXPECT_NE(next, ticket);
        (void)sliced.advanceSamples(256);
        sliced.step(1);
        const OrderParams later = sliced.measure();
        EXPECT_TRUE(sliced.advanceSamples(256)) << "measure() finished the sample in progress";
        EXPECT_NE(sliced.takeSample(next).polarization, later.polarization);
    }
    EXPECT_NO_GL_ERRORS();
}

// Flocks whose sampled step walks in each way flock_steer.comp can: one sweep or two (a
// neighbour cap, decarpentier's own search), boids that do not gather (decarpentier's amortised
// steering, perched boids), a species that looks less far than the measure walk reaches (species
// 1's radii a third of species 0's, which set the group and nearest-neighbour radii), soft walls,
// 2D and 3D, and the sequential order (no grid: the sample walks on its own before the step).
std::vector<std::pair<std::string, Params>> sampledStepCases() {
    std::vector<std::pair<std::string, Params>> cases;
    Params p;
    p.boids = 1500;
    cases.push_back({"2D graded", p});
    Params soft = p;
    soft.dims = 3;
    soft.world_size = 40.0f;
    soft.bounds = Bounds::Soft;
    soft.style = Style::Steering;
    cases.push_back({"3D steering, soft walls", soft});
    Params species = p;
    species.species_count = 2;
    species.species[1] = species.species[0];
    for (Rule* r : {&species.species[1].separation, &species.species[1].alignment, &species.species[1].cohesion})
        r->radius /= 3.0f;
    cases.push_back({"two species, one looking less far", species});
    Params cap = p;
    cap.neighbour_cap = 7;
    cases.push_back({"neighbour cap", cap});
    Params dc = p;
    dc.style = Style::Decarpentier;
    cases.push_back({"decarpentier", dc});
    Params perch = p;
    perch.dims = 3;
    perch.world_size = 60.0f;
    perch.perching = true;
    perch.perch_ground = 10.0f;
    perch.perch_min = 0.2f;
    perch.perch_max = 1.0f;
    perch.wind = {0.0f, -3.0f, 0.0f};
    cases.push_back({"perching", perch});
    Params sequential = p;
    sequential.boids = 200;
    sequential.world_size = 100.0f;  // the density of the others
    sequential.update = UpdateOrder::Sequential;
    cases.push_back({"sequential order", sequential});
    return cases;
}

// A sample asked for with the next step (requestSample: the steer pass walks for it) is,
// to the bit, measure() of the state before that step, reads back the same 580 bytes, and the
// step itself is the same to the bit as one without a sample.
TEST(GpuMeasure, ASampleTakenWithTheNextStepIsMeasureOfTheStateBefore) {
    MURMUR_REQUIRE_GL();
    for (const auto& [what, p] : sampledStepCases()) {
        gpu::GpuSimulation plain, sampled;
        plain.upload(spawn(p), p);
        sampled.upload(spawn(p), p);
        plain.step(30);
        sampled.step(30);
        if (p.perching) {
            const Flock now = sampled.download();
            EXPECT_GT(std::count_if(now.begin(), now.end(), [](const Boid& b) { return b.perch > 0.0f; }), 0) << what << ": some on the ground";
        }
        const OrderParams want = plain.measure();
        plain.step(1);
        const std::uint64_t before = gl::bytesReadBack();
        const SampleTicket ticket = sampled.requestSample(SampleWhen::WithNextStep);
        sampled.step(1);
        EXPECT_EQ(sampled.stepsThatMeasured(), p.update == UpdateOrder::Sequential ? 0u : 1u) << what << ": the step walked for it";
        const OrderParams got = sampled.takeSample(ticket);
        EXPECT_EQ(gl::bytesReadBack() - before, 580u) << what;
        EXPECT_GT(want.mean_neighbours, 1.0) << what;
        EXPECT_GT(want.groups, 0u) << what;
        expectSameMeasures(got, want, what);
        EXPECT_EQ(differingBits(sampled.download(), plain.download()), 0u) << what << ": the sampled step stepped the same";
        EXPECT_NE(sampled.measure().polarization, want.polarization) << what << ": measured before the step, not after";
    }
    EXPECT_NO_GL_ERRORS();
}

// Rows taken a step late (a headless run's --stats-out), and samples of both kinds taken in any
// order: samples asked for with three steps in a row and one in slices after them, taken last
// first, are each the measure() of its own state to the bit, on the GPU (its figures landed
// behind a fence) and on the CPU reference alike; a measure() between them is its own and leaves
// them waiting; a ticket taken already, or never given, is refused.
TEST(GpuMeasure, SamplesAreTakenByTicketInAnyOrderEachOfItsState) {
    MURMUR_REQUIRE_GL();
    Params p;
    p.boids = 3000;
    gpu::GpuSimulation gpu;
    CpuSimulation cpu;
    for (Simulation* sim : {static_cast<Simulation*>(&gpu), static_cast<Simulation*>(&cpu)}) {
        sim->upload(spawn(p), p);
        sim->step(20);
        std::vector<OrderParams> want;
        std::vector<SampleTicket> tickets;
        for (int k = 0; k < 3; ++k) {
            want.push_back(sim->measure());
            tickets.push_back(sim->requestSample(SampleWhen::WithNextStep));
            sim->step(1);
        }
        want.push_back(sim->measure());
        tickets.push_back(sim->requestSample(SampleWhen::InSlices));
        (void)sim->advanceSamples(256);
        sim->step(1);
        const OrderParams now = sim->measure();
        EXPECT_NE(now.polarization, want[3].polarization) << sim->name() << ": measure() is of the state now";
        for (const std::size_t k : {3u, 1u, 0u, 2u}) expectSameMeasures(sim->takeSample(tickets[k]), want[k], sim->name() + " sample " + std::to_string(k));
        EXPECT_THROW((void)sim->takeSample(tickets[1]), std::logic_error) << sim->name() << ": taken already";
        EXPECT_THROW((void)sim->takeSample(SampleTicket{}), std::logic_error) << sim->name() << ": never given";
        EXPECT_FALSE(sim->sampleReady(tickets[2])) << sim->name();
    }
    EXPECT_EQ(gpu.stepsThatMeasured(), 3u) << "each step walked for its sample";
    // An empty flock after those: nothing to copy back, the figures of no boids, as the CPU's.
    gpu.upload(Flock{}, p);
    cpu.upload(Flock{}, p);
    const OrderParams none = cpu.measure();
    const SampleTicket ticket = gpu.requestSample(SampleWhen::WithNextStep);
    gpu.step(1);
    expectSameMeasures(gpu.takeSample(ticket), none, "an empty flock, with the next step");
    expectSameMeasures(gpu.measure(), none, "an empty flock, now");
    EXPECT_NO_GL_ERRORS();
}

// A caller that never takes its samples would keep each one's figures (on the GPU a read-back
// buffer) for ever: past Simulation::kMostWaitingSamples waiting, a request is refused, on both
// backends, until one is taken; every sample asked for is still taken after it.
TEST(GpuMeasure, AskingPastTheMostSamplesWaitingIsRefusedUntilOneIsTaken) {
    MURMUR_REQUIRE_GL();
    Params p;
    p.boids = 200;
    gpu::GpuSimulation gpu;
    CpuSimulation cpu;
    for (Simulation* sim : {static_cast<Simulation*>(&gpu), static_cast<Simulation*>(&cpu)}) {
        sim->upload(spawn(p), p);
        std::vector<SampleTicket> tickets;
        for (std::size_t k = 0; k < Simulation::kMostWaitingSamples; ++k)
            tickets.push_back(sim->requestSample(k % 2 ? SampleWhen::InSlices : SampleWhen::WithNextStep));
        EXPECT_THROW((void)sim->requestSample(SampleWhen::WithNextStep), std::logic_error) << sim->name();
        EXPECT_THROW((void)sim->requestSample(SampleWhen::InSlices), std::logic_error) << sim->name();
        const OrderParams want = sim->measure();  // measured at once: no ticket, not refused
        expectSameMeasures(sim->takeSample(tickets[5]), want, sim->name() + ": a sample taken");
        tickets[5] = sim->requestSample(SampleWhen::WithNextStep);
        for (const SampleTicket t : tickets) expectSameMeasures(sim->takeSample(t), want, sim->name() + ": every sample taken");
        EXPECT_NO_THROW((void)sim->takeSample(sim->requestSample(SampleWhen::InSlices))) << sim->name();
    }
    EXPECT_NO_GL_ERRORS();
}

// Without a step, or with a change before it, a sample asked for with the next step is taken of
// the state it was asked for (by its own walk): the same as measure() then.
TEST(GpuMeasure, ASampleAskedForWithNoStepAfterIsTakenOfThatState) {
    MURMUR_REQUIRE_GL();
    Params p;
    p.boids = 3000;
    gpu::GpuSimulation sim;
    sim.upload(spawn(p), p);
    sim.step(20);
    const OrderParams want = sim.measure();
    SampleTicket ticket = sim.requestSample(SampleWhen::WithNextStep);
    expectSameMeasures(sim.takeSample(ticket), want, "taken with no step");
    sim.step(1);
    EXPECT_EQ(sim.stepsThatMeasured(), 0u) << "taken already: the step does not walk for it";
    ticket = sim.requestSample(SampleWhen::WithNextStep);
    sim.setStepCount(sim.stepCount());  // not a change of state: the next step still walks for it
    sim.step(1);
    EXPECT_EQ(sim.stepsThatMeasured(), 1u);
    (void)sim.takeSample(ticket);
    sim.upload(spawn(p), p);  // back to the state `want` is of
    sim.step(20);
    ticket = sim.requestSample(SampleWhen::WithNextStep);
    Params changed = p;
    changed.species[0].alignment.radius *= 0.5f;  // other group and nearest-neighbour radii
    sim.setParams(changed);
    sim.step(1);
    expectSameMeasures(sim.takeSample(ticket), want, "a parameter change before the step");
    EXPECT_NE(sim.measure().nn_radius, want.nn_radius);
    EXPECT_NO_GL_ERRORS();
}

// An ensemble's flocks sampled with the next step: each flock's figures those of measureFlocks()
// before the step, to the bit, and the step the same.
TEST(GpuMeasure, AnEnsembleSampledWithTheNextStepIsMeasureFlocksBefore) {
    MURMUR_REQUIRE_GL();
    std::vector<Params> params(3);
    std::vector<Flock> flocks;
    for (std::size_t k = 0; k < params.size(); ++k) {
        params[k].boids = 500 + 300 * std::uint32_t(k);
        params[k].seed = 3 + k;
        params[k].world_size = 100.0f + 40.0f * float(k);
        params[k].species[0].alignment.radius = 8.0f + 2.0f * float(k);
        flocks.push_back(spawn(params[k]));
    }
    params[2].species[0].alignment.radius = 0.0f;  // groups at the nearest-neighbour radius
    gpu::GpuSimulation plain, sampled;
    plain.uploadEnsemble(flocks, params);
    sampled.uploadEnsemble(flocks, params);
    plain.step(10);
    sampled.step(10);
    const std::vector<OrderParams> want = plain.measureFlocks();
    plain.step(1);
    const SampleTicket ticket = sampled.requestSample(SampleWhen::WithNextStep);
    sampled.step(1);
    EXPECT_EQ(sampled.stepsThatMeasured(), 1u);
    const std::vector<OrderParams> got = sampled.takeFlockSamples(ticket);
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t k = 0; k < want.size(); ++k) {
        EXPECT_GT(want[k].groups, 0u) << k;
        expectSameMeasures(got[k], want[k], "flock " + std::to_string(k));
    }
    EXPECT_EQ(differingBits(sampled.download(), plain.download()), 0u);
    EXPECT_NO_GL_ERRORS();
}

// Crafted flocks, the same state on both backends: a group across the wrap, a ring that mills,
// two groups flying apart, a lone boid (no group), a chain of 40 (a long component), two species
// interleaved. Group radius 10 (alignment.radius) in a world of 500: five groups, 70 of 71 boids
// grouped. The GPU's union-find and float sums against the CPU's walk in double: the same groups
// exactly, the group measures within 1e-5.
Flock craftedGroups(int dims) {
    Flock f;
    const float z = dims == 3 ? 250.0f : 0.0f;
    auto add = [&](glm::vec3 p, glm::vec3 v) { appendBoid(f, p, v, std::uint32_t(f.size()) % 2); };  // species interleaved
    for (float x : {495.0f, 497.0f, 499.0f, 1.0f, 3.0f, 5.0f}) add({x, 250, z}, {1, 0, 0});
    for (int k = 0; k < 12; ++k) {
        const float a = float(k) * 0.5235988f;
        add({100 + 8 * std::cos(a), 100 + 8 * std::sin(a), z}, {-3 * std::sin(a), 3 * std::cos(a), 0});
    }
    for (int k = 0; k < 6; ++k) add({200.0f + 2.0f * float(k), 400, z}, {2, 0, 0});
    for (int k = 0; k < 6; ++k) add({200.0f + 2.0f * float(k), 430, z}, {-2, 0, 0});
    add({400, 100, z}, {0, 1, 0});
    for (int k = 0; k < 40; ++k) add({250.0f + 5.0f * float(k), 20.0f + 5.0f * float(k), z}, {1, 1, 0});
    return f;
}

TEST(GpuMeasure, CraftedGroupsEqualTheCpuReference) {
    MURMUR_REQUIRE_GL();
    for (int dims : {2, 3}) {
        Params p;
        p.dims = dims;
        p.world_size = 500.0f;
        p.species_count = 2;
        const Flock f = craftedGroups(dims);
        p.boids = std::uint32_t(f.size());
        BothBackends both(f, p);
        CpuSimulation& cpu = both.cpu;
        gpu::GpuSimulation& gpu = both.gpu;
        const OrderParams c = cpu.measure(), g = gpu.measure();
        SCOPED_TRACE(std::to_string(dims) + "D");
        EXPECT_EQ(c.groups, 5u);
        EXPECT_NEAR(c.grouped_share, 70.0 / 71.0, 1e-12);
        EXPECT_NEAR(c.largest_group_share, 40.0 / 71.0, 1e-12);
        EXPECT_EQ(g.groups, c.groups);
        EXPECT_EQ(g.grouped_share, c.grouped_share);
        EXPECT_EQ(g.largest_group_share, c.largest_group_share);
        EXPECT_NEAR(g.group_polarization, c.group_polarization, 1e-5);
        EXPECT_NEAR(g.milling, c.milling, 1e-5);
        // The ring alone mills (|sum of r x v| = 12 of its 12): milling is at least 12/70.
        EXPECT_GT(c.milling, 12.0 / 70.0 - 1e-6);
        // Listed: the chain (40, ids 31-70), the ring (12, from id 6), then of the three groups
        // of 6 the two with the lowest first ids: the one across the wrap (0) and a row (18).
        const std::uint32_t sizes[] = {40, 12, 6, 6}, first_ids[] = {31, 6, 0, 18};
        for (std::uint32_t k = 0; k < kLargestGroups; ++k) {
            EXPECT_EQ(c.largest_groups[k].boids, sizes[k]) << k;
            EXPECT_EQ(c.largest_groups[k].first_id, first_ids[k]) << k;
        }
        EXPECT_NEAR(c.largest_groups[0].polarization, 1.0, 1e-9);
        EXPECT_NEAR(c.largest_groups[0].centre.x, 250.0 + 5.0 * 19.5, 1e-4);
        EXPECT_NEAR(c.largest_groups[0].centre.y, 20.0 + 5.0 * 19.5, 1e-4);
        EXPECT_NEAR(c.largest_groups[1].milling, 1.0, 1e-6);
        EXPECT_NEAR(c.largest_groups[1].centre.x, 100.0, 1e-4);
        EXPECT_NEAR(std::remainder(c.largest_groups[2].centre.x, 500.0), 0.0, 1e-4) << "495 .. 505: on the wrap";
        expectSameLargestGroups(g, c, 1e-5, 500.0);
    }
    EXPECT_NO_GL_ERRORS();
}

// Soft walls let boids overshoot; one past the wall is binned into the edge cell. Rows of six
// boids 0.5 apart, 15-20 units past each wall of a world of 200 (radius 10: more than a radius
// out), on x, y and (3D) z: the GPU's culled walks (the steer pass's and the measure's) must still
// search the edge cell, so both backends find three or more groups of six and step the same.
TEST(GpuMeasure, BoidsFarPastASoftWallKeepTheirNeighbours) {
    MURMUR_REQUIRE_GL();
    for (int dims : {2, 3}) {
        SCOPED_TRACE(std::to_string(dims) + "D");
        Params p;
        p.dims = dims;
        p.bounds = Bounds::Soft;
        p.world_size = 200.0f;
        Flock f;
        auto row = [&](glm::vec3 from, glm::vec3 step) {
            for (int k = 0; k < 6; ++k) appendBoid(f, from + float(k) * step, {1.0f, 0.5f, 0.0f});
        };
        const float z = dims == 3 ? 100.0f : 0.0f;
        row({-20.0f, 100.0f, z}, {0.5f, 0.0f, 0.0f});
        row({215.0f, 60.0f, z}, {0.5f, 0.0f, 0.0f});
        row({100.0f, -20.0f, z}, {0.0f, 0.5f, 0.0f});
        if (dims == 3) row({60.0f, 60.0f, 217.0f}, {0.0f, 0.0f, 0.5f});
        p.boids = std::uint32_t(f.size());
        BothBackends both(f, p);
        CpuSimulation& cpu = both.cpu;
        gpu::GpuSimulation& gpu = both.gpu;
        const OrderParams c = cpu.measure(), g = gpu.measure();
        EXPECT_EQ(c.groups, dims == 3 ? 4u : 3u);
        EXPECT_NEAR(c.nn_mean, 0.5, 1e-6);
        EXPECT_EQ(g.groups, c.groups);
        EXPECT_NEAR(g.nn_mean, c.nn_mean, 1e-6);
        expectSameLargestGroups(g, c, 1e-5, 0.0);
        cpu.step(1);
        gpu.step(1);
        const Flock a = byId(cpu.download()), b = byId(gpu.download());
        ASSERT_EQ(a.size(), b.size());
        float worst = 0.0f;
        for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, glm::length(a[i].v - b[i].v));
        EXPECT_LT(worst, 1e-4f) << "a step from the same state: velocities within 1e-4 (float rounding only)";
        EXPECT_EQ(gpu.measure().mean_neighbours, cpu.measure().mean_neighbours) << "every boid counted its five";
    }
    EXPECT_NO_GL_ERRORS();
}

// The GPU links each boid to the first two boids its walk meets (cells in order, a cell's boids by
// id), then walks again only for the boids outside the largest tree so far (group_giant.comp,
// group_links.comp). Here that first round leaves a group in two: 31 boids (a grid, ids 2-31, and
// a at id 32) and three more (q1, q2 at ids 0 and 1, and b at id 33) whose one link to the rest,
// a-b (8 apart), is neither end's first two (a meets grid boids first, b meets q1 and q2). Only
// b's second walk joins them, and b comes after a in the sorted copy: a second walk over later
// slots only, or none, leaves them apart (one group of 31; three are too few for a group). Group
// radius 10, every boid in one cell (a grid of at most 68 cells over a world of 500).
TEST(GpuMeasure, AGroupJoinedOnlyByALaterLinkIsOneGroup) {
    MURMUR_REQUIRE_GL();
    for (int dims : {2, 3}) {
        SCOPED_TRACE(std::to_string(dims) + "D");
        Params p;
        p.dims = dims;
        p.world_size = 500.0f;
        const float z = dims == 3 ? 300.0f : 0.0f;
        Flock f;
        auto add = [&](float x, float y) { appendBoid(f, {x, y, z}, {1.0f, 0.0f, 0.0f}); };
        add(21.0f, 34.9f);  // q1: 10.25 from a, 9.52 from b
        add(21.0f, 34.8f);  // q2: 10.2 from a, 9.55 from b
        for (int row = 0; row < 5; ++row)
            for (int col = 0; col < 6; ++col) add(30.0f + 2.0f * float(col), 19.0f + 2.0f * float(row));
        add(30.0f, 30.0f);  // a: 3 from the grid's top row
        add(30.0f, 38.0f);  // b: 11 or more from every grid boid
        p.boids = std::uint32_t(f.size());
        BothBackends both(f, p);
        const OrderParams c = both.cpu.measure(), g = both.gpu.measure();
        EXPECT_EQ(c.groups, 1u);
        EXPECT_EQ(c.largest_groups[0].boids, 34u);
        EXPECT_EQ(g.groups, c.groups);
        EXPECT_EQ(g.largest_group_share, c.largest_group_share);
        expectSameLargestGroups(g, c, 1e-5, 500.0);
    }
    EXPECT_NO_GL_ERRORS();
}

// The window's per-pass times (one profiled step per sample) charge each pass for its own work:
// in a flock of 200+ neighbours per boid the steer pass takes the bulk, the passes add up to no
// more than the step's wall-clock time (plus 1 ms of clock granularity), and only a step asked to
// be profiled is. A loaded machine only adds time, so the share compares each pass's fastest of
// five profiled steps (one step's binning once took 16 ms of a 40 ms step under a parallel ctest).
TEST(PassProfile, EachPassIsChargedForItsOwnWork) {
    MURMUR_REQUIRE_GL();
    Params p;
    p.dims = 2;
    p.boids = 20000;
    p.world_size = 300.0f;
    for (Rule* r : {&p.species[0].alignment, &p.species[0].cohesion}) r->radius = 20.0f;
    gpu::GpuSimulation gpu;
    gpu.profileByQueries(false);  // the CPU's clock with glFinish, as on a software renderer (GpuProfile: by queries)
    gpu.upload(spawn(p), p);
    gpu.step(2);
    EXPECT_TRUE(gpu.profiledMs().empty());
    std::vector<double> fastest(4, 1e30), ms;
    for (int sample = 0; sample < 5; ++sample) {
        gpu.profileNextStep();
        glFinish();
        const auto t0 = std::chrono::steady_clock::now();
        gpu.step(1);
        glFinish();
        const double wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        ms = gpu.profiledMs();
        ASSERT_EQ(ms.size(), 4u);
        double total = 0.0;
        for (std::size_t i = 0; i < ms.size(); ++i) {
            EXPECT_GE(ms[i], 0.0);
            total += ms[i];
            fastest[i] = std::min(fastest[i], ms[i]);
        }
        EXPECT_LE(total, wall_ms + 1.0) << "the passes add up to more than the step took";
        EXPECT_GE(total, 0.5 * wall_ms) << "the passes miss most of the step";
    }
    const double binning = fastest[0] + fastest[1] + fastest[2];
    EXPECT_GT(fastest[3], 3.0 * binning) << "steer " << fastest[3] << " ms, binning " << binning << " ms (fastest of 5)";
    gpu.step(1);
    EXPECT_EQ(gpu.profiledMs(), ms) << "an unasked step is not profiled";
}

// On a hardware GPU a profiled step is timed by timer queries, read once they land and never
// waited for: four passes of non-negative milliseconds once the GPU is done, and only for the
// step that was asked (forced here: llvmpipe and zink profile with glFinish).
TEST(GpuProfile, ByQueriesTheFiguresComeOnceLandedWithoutAWait) {
    MURMUR_REQUIRE_GL();
    Params p;
    p.dims = 2;
    p.boids = 20000;
    p.world_size = 300.0f;
    gpu::GpuSimulation gpu;
    EXPECT_EQ(gpu.profilesByQueries(), !gl::isSoftwareRenderer(gl::rendererString()));
    gpu.profileByQueries(true);
    gpu.upload(spawn(p), p);
    gpu.step(2);
    gpu.profileNextStep();
    gpu.step(1);
    glFinish();
    std::vector<double> ms = gpu.profiledMs();
    for (int k = 0; k < 200 && ms.empty(); ++k) {  // zink makes them available some 50 ms after glFinish
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        ms = gpu.profiledMs();
    }
    ASSERT_EQ(ms.size(), 4u);
    for (double v : ms) EXPECT_GE(v, 0.0);
    EXPECT_LT(ms[0] + ms[1] + ms[2] + ms[3], 60000.0) << "differences of timestamps in order, none wrapped";
    gpu.step(3);
    glFinish();
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // queries of those steps, had any been made, landed
    EXPECT_EQ(gpu.profiledMs(), ms) << "an unasked step is not profiled";
}

// The GPU's pair correlations (CorrelationPass: float distances, fixed-point sums) against the
// CPU's in double on the same flown flocks: 3,000 boids of the Vicsek rule (radius 3) after 20
// steps (correlated velocities), 2D and 3D in wrap bounds, 3D in soft. A pair within a float's
// rounding of a bin edge may land in the next bin on the GPU: each bin's pairs within 0.2 % (and
// 2), C within 2e-3 and xi within a tenth of a bin (r_max half the world), mean |u|^2 within 1e-5 relative. Only the
// bins and mean |u|^2 come back (16 bytes a bin, 16 more), and a second measure is the same to
// the bit (integer sums).
TEST(Correlations, OnTheGpuMatchTheCpuAndReadBackOnlyTheBins) {
    MURMUR_REQUIRE_GL();
    for (const auto& [dims, bounds] : {std::pair{2, Bounds::Wrap}, std::pair{3, Bounds::Wrap}, std::pair{3, Bounds::Soft}}) {
        Params p;
        p.style = Style::Vicsek;
        p.boids = 3000;
        p.dims = dims;
        p.bounds = bounds;
        p.world_size = dims == 2 ? 100.0f : 40.0f;
        p.species[0].alignment.radius = 3.0f;
        CpuSimulation cpu;
        cpu.upload(spawn(p), p);
        cpu.step(20);
        const Flock flown = cpu.download();
        gpu::GpuSimulation gpu;
        gpu.upload(flown, p);
        const std::uint32_t bins = 40;
        const double r_max = 0.5 * p.world_size;
        const PairSums want = measurePairSums(flown, p, bins, r_max);
        const std::uint64_t before = gl::bytesReadBack();
        const PairSums got = gpu.pairSums(p, bins, r_max);
        EXPECT_LE(gl::bytesReadBack() - before, std::uint64_t(bins) * 16 + 16) << "the flock itself was read back";
        const PairSums again = gpu.pairSums(p, bins, r_max);
        const std::string where = std::to_string(dims) + "D " + (bounds == Bounds::Wrap ? "wrap" : "soft");
        EXPECT_EQ(again.uu, got.uu) << where;
        EXPECT_EQ(again.pairs, got.pairs) << where;
        EXPECT_NEAR(got.u2, want.u2, 1e-5 * want.u2) << where;
        const Correlations c_want = correlationsOf(want, p, flown.size(), r_max), c_got = correlationsOf(got, p, flown.size(), r_max);
        for (std::uint32_t b = 0; b < bins; ++b) {
            const double slack = std::max(2.0, 0.002 * double(want.pairs[b]));
            EXPECT_NEAR(double(got.pairs[b]), double(want.pairs[b]), slack) << where << ", bin " << b;
            if (want.pairs[b] > 100) {
                EXPECT_NEAR(c_got.velocity[b], c_want.velocity[b], 2e-3) << where << ", bin " << b;
            }
        }
        if (bounds == Bounds::Wrap) {  // the flock's sum of u is 0, so C falls to 0 within the box (at 18.4 and 16.6 here)
            ASSERT_TRUE(std::isfinite(c_want.xi)) << where;
            EXPECT_NEAR(c_got.xi, c_want.xi, 0.1 * r_max / bins) << where;
        } else {
            EXPECT_EQ(std::isnan(c_got.xi), std::isnan(c_want.xi)) << where;
        }
    }
}
