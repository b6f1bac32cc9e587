// The CPU step's driver, one instantiation per style: for each boid, the neighbour search (grid or
// every boid), the shared terms and the style's own, then the style's velocity update and the
// shared end of the step. A style (src/styles/<name>/cpu.hpp) is a struct of static functions:
//
//   struct MyStyle : StyleDefaults {
//       static void addNeighbour(const RuleContext&, const SpeciesContext& k, const Boid& self,
//                                const Boid& other, glm::vec3 d, float d2, Sums& sums);
//       static Boid integrate(const RuleContext&, const SpeciesContext& k, const Boid& self,
//                             const Sums& sums, const Search& search);  // next.v (and .steer)
//   };
//
// and its .cpp hands its functions to the dispatch with
//   template <> StyleFunctions styleFunctionsOf<Style::Mine>() { return functionsOf<MyStyle>(); }
//
// Optionally: Sums of its own (what it adds up over its neighbours, with their count in
// `neighbours`; Reynolds' NeighbourSums unless it says), a Search of its own and steersNow (see
// StyleDefaults). Its values for the GPU and
// its shader's switches are the model's (its registry row: src/styles/<name>/params.cpp).
// The driver never asks which style it runs: the style is the template argument.
#pragma once

#include "cpu/neighbour_rules.hpp"
#include "cpu/grid.hpp"

#include <functional>
#include <optional>

namespace murmur {

// One step over the flock, as CpuSimulation hands it to a style's driver.
struct FlockStep {
    const RuleContext& ctx;
    Flock& current;                           // read; written in place by the sequential order
    Flock& next;                              // written by the parallel order
    std::vector<std::uint32_t>& neighbours;   // each boid's neighbour count
    const UniformGrid* grid;                  // nullptr: every boid is a candidate
    const std::vector<std::size_t>& order;    // the boids in the order they step
    bool in_place;                            // sequential: each boid moves at once
    const std::function<bool()>* interrupt;   // asked every check_every boids; true stops the step
    std::size_t check_every;
    std::uint64_t candidates = 0;             // out: boids examined
    bool interrupted = false;                 // out: the step stopped part way
};


// What the dispatch gets from a style: its step.
struct StyleFunctions {
    void (*step)(FlockStep&);
};

// Each style's CPU module (src/styles/<name>/cpu.cpp) defines its specialisation, declared here
// for every style of the enum; styleFunctions (cpu_simulation.cpp) picks one per step.
template <Style S>
StyleFunctions styleFunctionsOf();
#define MURMUR_STYLE_FUNCTIONS(name, value, member) \
    template <>                             \
    StyleFunctions styleFunctionsOf<Style::name>();
MURMUR_STYLES(MURMUR_STYLE_FUNCTIONS)
#undef MURMUR_STYLE_FUNCTIONS
const StyleFunctions& styleFunctions(Style s);

// A style with no search of its own: the sums are all it reads.
struct NoSearch {
    static constexpr bool kFirstSweep = false;
    void offerFirst(const RuleContext&, const Boid&, const Boid&, float, std::uint32_t) {}
    void offerSecond(const RuleContext&, const Boid&, const Boid&, float, std::uint32_t) {}
    void collect(const RuleContext&, const Flock&, const Boid&) {}
};

// What a style has unless it says otherwise.
struct StyleDefaults {
    static constexpr bool kVelocityCone = true;  // the view cone is about the velocity
    using Sums = NeighbourSums;
    using Search = NoSearch;
    // Does self look at its neighbours this step (else it coasts on Boid::steer)?
    static bool steersNow(const RuleContext&, const Boid&) { return true; }
};

// The neighbour cap's k nearest, summed nearest first (by (d2, id)) after the walk that found them.
template <class Rules>
void sumNearest(const RuleContext& ctx, const Flock& flock, const Boid& self, const NearestK& cap, typename Rules::Sums& sums) {
    const SpeciesContext& k = ctx.of(self);
    for (std::uint32_t n = 0; n < cap.size(); ++n) {
        const Boid& other = flock[cap.slot(n)];
        Rules::addNeighbour(ctx, k, self, other, offsetBetween(ctx, self.p, other.p), cap.d2(n), sums);
    }
}

// Every candidate around boid i (CpuSimulation's grid or all boids). With a neighbour cap alone,
// one sweep finds the k nearest, which are then summed nearest first; with a style's own search,
// a first sweep finds the k nearest (if capped) and offers each neighbour to the search, and the
// second sums (only the k nearest) and offers again; otherwise one summing sweep.
// `seen` counts every neighbour of the summing sweep (a cap keeps k of them): the adaptive
// radius' count.
template <class Rules>
typename Rules::Sums gather(FlockStep& f, std::size_t i, typename Rules::Search& search, std::uint32_t& seen) {
    const RuleContext& ctx = f.ctx;
    const Flock& flock = f.current;
    const Boid& self = flock[i];
    auto forEach = [&](auto&& visit) {
        if (f.grid) f.grid->forEachCandidate(self.p, visit);
        else
            for (std::uint32_t j = 0; j < flock.size(); ++j) visit(j);
    };
    std::optional<NearestK> cap;
    if (ctx.p.neighbour_cap > 0) cap.emplace(ctx.p.neighbour_cap);
    const bool cap_alone = cap && !Rules::Search::kFirstSweep;
    if (Rules::Search::kFirstSweep)
        forEach([&](std::uint32_t j) {
            glm::vec3 d;
            float d2;
            if (j == i || !isNeighbourOf(ctx, self, flock[j], d, d2, Rules::kVelocityCone)) return;
            if (cap) cap->offer(d2, flock[j].id);
            search.offerFirst(ctx, self, flock[j], d2, j);
        });
    typename Rules::Sums sums;
    const SpeciesContext& k = ctx.of(self);
    forEach([&](std::uint32_t j) {
        ++f.candidates;
        glm::vec3 d;
        float d2;
        if (j == i || !isNeighbourOf(ctx, self, flock[j], d, d2, Rules::kVelocityCone)) return;
        ++seen;
        if (cap_alone) return cap->offer(d2, flock[j].id, j);
        if (!cap || cap->admits(d2, flock[j].id)) Rules::addNeighbour(ctx, k, self, flock[j], d, d2, sums);
        search.offerSecond(ctx, self, flock[j], d2, j);
    });
    if (cap_alone) sumNearest<Rules>(ctx, flock, self, *cap, sums);
    search.collect(ctx, flock, self);
    return sums;
}

// Boid i at step t+1 and its neighbour count: on the ground it rests and sees no one; between its
// steering steps it coasts on its last steering; otherwise it searches and the style steers.
template <class Rules>
Boid stepBoid(FlockStep& f, std::size_t i, std::uint32_t& counted) {
    const RuleContext& ctx = f.ctx;
    const Boid& self = f.current[i];
    const SpeciesContext& k = ctx.of(self);
    counted = 0;
    if (ctx.perching && self.perch > 0.0f) return restOnTheGround(ctx, k, self);
    typename Rules::Search search;
    if (!Rules::steersNow(ctx, self)) {
        counted = std::uint32_t(self.steer.w);
        return finishStep(ctx, self, Rules::integrate(ctx, k, self, typename Rules::Sums{}, search));
    }
    std::uint32_t seen = 0;
    const typename Rules::Sums sums = gather<Rules>(f, i, search, seen);
    counted = sums.neighbours;
    Boid next = finishStep(ctx, self, Rules::integrate(ctx, k, self, sums, search));
    if (ctx.adaptive) next.steer.w = nextReach(ctx, reachOf(ctx, self), seen);
    return next;
}

// One step of the whole flock in the given order.
template <class Rules>
void stepWith(FlockStep& f) {
    std::size_t visited = 0;
    for (std::size_t i : f.order) {
        if (f.interrupt && *f.interrupt && ++visited % f.check_every == 0 && (*f.interrupt)()) {
            f.interrupted = true;
            return;
        }
        std::uint32_t counted = 0;
        Boid next = stepBoid<Rules>(f, i, counted);
        next.image += imagesCrossed(f.ctx, f.current[i].p, next.p);
        f.neighbours[i] = counted;
        (f.in_place ? f.current[i] : f.next[i]) = next;  // sequential: the boids after it see it moved
    }
}

template <class Rules>
StyleFunctions functionsOf() {
    return {&stepWith<Rules>};
}

}  // namespace murmur
