// The ensemble benchmark: many small flocks stepped together (GpuEnsemble: one set of buffers,
// each step's dispatches step them all; CpuEnsemble: each flock in turn), against the same flocks
// one ensemble of one at a time.
#include "app/bench.hpp"

#include "engine/engine.hpp"
#include "gl/debug.hpp"
#include "gl/gl.hpp"
#include "model/spawn.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <utility>

namespace murmur {
namespace {

// The median of `steps` steps of the ensemble, each timed to its end (glFinish on the GPU).
double medianStepMs(Ensemble& e, bool gpu, std::uint32_t steps) {
    std::vector<double> ms;
    for (std::uint32_t s = 0; s < steps; ++s) {
        const auto t0 = std::chrono::steady_clock::now();
        e.step(1);
        if (gpu) glFinish();
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    return median(std::move(ms));
}

void printEnsembleRow(std::ostream& out, std::uint64_t n, std::uint32_t k, double ms) {
    char line[200];
    const double per_s = ms > 0.0 ? 1000.0 / ms : 0.0;
    std::snprintf(line, sizeof line, "%8llu %7u %10.3f %13.4g %14.4g\n", static_cast<unsigned long long>(n), k, ms,
                  per_s * double(k) * double(n), per_s * double(k));
    out << line << std::flush;
}

}  // namespace

bool benchEnsembles(const Options& opt, const BenchOptions& b, nlohmann::json& doc, std::ostream& out) {
    const bool gpu = opt.backend == Backend::Gpu;
    doc["scenario"] = doc["scenario"].get<std::string>() + "; ensembles of K flocks of N boids, seeds 1..K";
    out << "murmur bench, ensembles: " << doc["renderer"].get<std::string>() << ", " << MURMUR_BUILD_TYPE << " build\n"
        << "scenario: " << doc["scenario"].get<std::string>() << "; median of " << b.steps << " steps after 5\n"
        << "   boids  flocks    step_ms  boid-steps/s  flock-steps/s\n";
    for (std::uint64_t n : b.sizes)
        for (std::uint32_t k : b.flocks) {
            std::vector<Params> params;
            std::vector<Flock> flocks;
            for (std::uint32_t f = 0; f < k; ++f) {
                params.push_back(benchParams(n, b.style, b.sets));
                params.back().seed = 1u + f;
                flocks.push_back(spawn(params.back()));
            }
            const std::unique_ptr<Ensemble> e = engine::makeEnsemble(opt.backend, opt.shader_dir);
            e->upload(flocks, params);
            e->step(5);
            const double ms = medianStepMs(*e, gpu, b.steps);
            printEnsembleRow(out, n, k, ms);
            const double per_s = ms > 0.0 ? 1000.0 / ms : 0.0;
            doc["runs"].push_back({{"boids", n}, {"flocks", k}, {"phase", "ensemble"}, {"step_ms", ms},
                                   {"boid_steps_per_s", per_s * double(k) * double(n)}, {"flock_steps_per_s", per_s * double(k)}});
            if (gpu && gl::takeErrorCount() > 0) return false;
        }
    return true;
}

}  // namespace murmur
