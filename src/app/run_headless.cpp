// Headless run and its end-of-run summary (steps/s, mean neighbours, polarization).
#include "app/run_headless.hpp"

#include "cpu/cpu_simulation.hpp"
#include "io/state_csv.hpp"
#include "model/flock_stats.hpp"
#include "model/spawn.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>

namespace murmur {

int runHeadless(const Options& opt, const Flock* imported, std::ostream& out, std::ostream& err) {
    const Params& p = opt.params;
    std::unique_ptr<Simulation> sim = std::make_unique<CpuSimulation>();
    const Flock start = imported ? *imported : spawn(p);
    char line[256];
    std::snprintf(line, sizeof line, "murmur: backend %s, %u boids, %dD, %s bounds, %s style, seed %llu%s\n",
                  sim->name().c_str(), p.boids, p.dims, p.bounds == Bounds::Wrap ? "wrap" : "soft",
                  p.style == Style::Steering ? "steering" : "offset", static_cast<unsigned long long>(p.seed),
                  imported ? ", imported state" : "");
    out << line;
    sim->upload(start, p);

    const auto t0 = std::chrono::steady_clock::now();
    sim->step(int(opt.steps));
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    const Flock end = sim->download();
    for (const Boid& b : end)
        if (!std::isfinite(b.p.x + b.p.y + b.p.z + b.v.x + b.v.y + b.v.z)) {
            err << "murmur: error: boid " << b.id << " is not finite after " << opt.steps << " steps\n";
            return 1;
        }
    const double sps = seconds > 0 ? double(opt.steps) / seconds : 0.0;
    std::snprintf(line, sizeof line, "ran %llu steps in %.3f s: %.1f steps/s, %.3g boid-steps/s\n",
                  static_cast<unsigned long long>(opt.steps), seconds, sps, sps * p.boids);
    out << line;
    std::snprintf(line, sizeof line, "mean neighbours %.2f, polarization %.3f\n", meanOf(sim->neighbourCounts()),
                  polarization(end));
    out << line;
    if (!opt.export_path.empty()) {
        writeStateCsv(opt.export_path, end);
        out << "wrote " << opt.export_path << " (" << end.size() << " boids)\n";
    }
    return 0;
}

}  // namespace murmur
