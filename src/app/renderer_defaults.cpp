// Renderer-dependent defaults; see renderer_defaults.hpp.
#include "app/renderer_defaults.hpp"

#include "app/cli.hpp"

#include "gl/egl_context.hpp"
#include "engine/engine.hpp"
#include "io/input_error.hpp"
#include "io/preset_json.hpp"
#include "model/density.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace murmur {

Params rendererDefaults(const Params& p, bool software, std::uint64_t max_boids, std::string& why, bool keep_world) {
    const std::uint64_t wanted = software ? kSoftwareDefaultBoids : kHardwareDefaultBoids;
    // Radii stay: the density, not the scale, sets the neighbours.
    const std::uint32_t boids = std::uint32_t(std::min(wanted, max_boids));
    Params out = p;
    out.boids = boids;
    if (!keep_world) out = keepDensity(p, boids, p.dims).params;
    char text[256];
    std::snprintf(text, sizeof text, "%u boids in a %.0f-unit world (default for a %s renderer%s; --boids N to choose)",
                  out.boids, double(out.world_size), software ? "software" : "hardware",
                  out.boids < wanted ? ", capped by GPU memory" : "");
    why = text;
    return out;
}

bool opensTheMurmuration(bool plain_launch, std::uint64_t boids) { return plain_launch && boids >= kMurmurationFrom; }

std::string murmurationLine(std::uint64_t boids) {
    return "murmur: no preset at " + std::to_string(boids) + " boids: the murmuration (--preset default for the classic flock)\n";
}

Params defaultsForThisRun(const Params& p, Backend backend, std::ostream& out, bool keep_world, bool plain_launch,
                          const std::vector<std::string>& kept) {
    std::string why;
    const bool gpu = backend == Backend::Gpu;
    const bool software = !gpu || gl::isSoftwareRenderer(gl::rendererString());
    Params chosen = rendererDefaults(p, software, gpu ? engine::gpuMaxBoids(p) : kSoftwareDefaultBoids, why, keep_world);
    if (opensTheMurmuration(plain_launch, chosen.boids)) {
        Params starlings = loadPresetFile(resolvePreset("murmuration"), Params{});
        for (const std::string& set : kept) applySet(set, starlings, "--" + set.substr(0, set.find('=')));
        chosen = rendererDefaults(starlings, software, gpu ? engine::gpuMaxBoids(starlings) : kSoftwareDefaultBoids, why, keep_world);
        out << murmurationLine(chosen.boids);
    }
    out << "murmur: " << why << (gpu ? "" : " [CPU reference]") << "\n";
    // The command line checked nothing yet (cli.cpp): a radius is judged against this world.
    if (auto problems = validate(chosen); !problems.empty()) throw InputError("invalid parameters:\n" + describe(problems));
    return chosen;
}

}  // namespace murmur
