// murmur::api::runSweep (include/murmur/murmur.hpp) over the engine's sweep (engine/sweep.hpp):
// the same checks and runs as murmur --sweep, and the same bytes.
#include "murmur/murmur.hpp"

#include "api/api_common.hpp"
#include "engine/sweep.hpp"
#include "io/atomic_file.hpp"
#include "model/number_text.hpp"

#include <cmath>

#include <string>

namespace murmur::api {
namespace {

template <class T>
void requireIn(T value, T lo, T hi, const char* name) {
    if (value < lo || value > hi)
        throw Error(std::string("sweep ") + name + " " + std::to_string(value) + " is out of range [" + std::to_string(lo) + ", " +
                    std::to_string(hi) + "]");
}

// The engine's sweep for `sweep`, its output at `path`: every field checked as the command line checks its flag.
::murmur::SweepOptions engineSweep(const Sweep& sweep, const std::string& path) {
    if (sweep.axes.empty() || sweep.axes.size() > 3)
        throw Error("sweep: one to three keys (a grid of up to 3 dimensions); this sweep has " + std::to_string(sweep.axes.size()));
    requireIn<std::uint32_t>(sweep.seeds, 1, 10000, "seeds");
    requireIn<std::uint64_t>(sweep.steps, 0, 1000000000, "steps");
    requireIn<std::uint64_t>(sweep.every, 1, 1000000000, "every");
    requireIn<std::uint32_t>(sweep.batch, 0, 65536, "batch");
    detail::requirePlainPath(path, "sweep");
    detail::requireUnforked(sweep.flock.backend);
    checkWritableTarget(path, "sweep out");  // before any run, as --sweep-out is: hours of runs never lost to a bad path
    ::murmur::SweepOptions s;
    for (const std::string& axis : sweep.axes) s.axes.push_back(parseSweepAxis(axis));
    s.seeds = sweep.seeds;
    s.burn_in = sweep.burn_in;
    s.every = sweep.every;
    s.carry = sweep.carry;
    s.batch = sweep.batch;
    s.out = path;
    if (!sweep.shard.empty()) parseSweepShard(sweep.shard, s);
    if (sweep.xi) {
        if (!(*sweep.xi >= 0.0) || !std::isfinite(*sweep.xi))
            throw Error("sweep xi = " + numberText(*sweep.xi) + ": valid: r_max 0 or more (0: half the world)");
        s.xi_reach = *sweep.xi;
    }
    return s;
}

}  // namespace

std::uint64_t runSweep(const Sweep& sweep, const std::string& path, const SweepProgress& progress, const StopCheck& stop) {
    return detail::translated([&]() -> std::uint64_t {
        detail::checkBackendName(sweep.flock.backend);
        if (!sweep.flock.resume.empty()) throw Error("sweep: resume continues one Flock (Flock.load); a sweep spawns its runs");
        const ::murmur::SweepOptions s = engineSweep(sweep, path);
        const SweepBase base{detail::paramsOf(sweep.flock), detail::backendOf(sweep.flock.backend), sweep.steps, {}};
        std::shared_ptr<gl::HeadlessContext> context;  // the GPU's, held to the sweep's end
        SweepHooks hooks;
        hooks.open_gl = [&] {
            context = detail::prepareBackend(sweep.flock);
            return true;
        };
        hooks.progress = progress;
        if (stop)
            hooks.check = [&] {
                if (stop()) throw Error("sweep stopped; nothing was written");
            };
        return ::murmur::runSweep(base, s, hooks);
    });
}

}  // namespace murmur::api
