// Any bytes as a state CSV: parseStateCsv either returns a flock that fits the parameters (ids
// 0..N-1, finite values) or throws InputError; anything else is a finding.
#include "io/input_error.hpp"
#include "io/state_csv.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    murmur::Params p;
    p.dims = size % 2 == 0 ? 2 : 3;  // both validations
    p.species_count = 2;
    try {
        std::uint32_t step = 0;
        const murmur::Flock f = murmur::parseStateCsv(text, p, "fuzz.csv", &step);
        for (std::size_t i = 0; i < f.size(); ++i) {
            const murmur::Boid& b = f[i];
            if (b.id != i || b.species >= 2 || !std::isfinite(b.p.x + b.p.y + b.p.z + b.v.x + b.v.y + b.v.z + b.perch))
                std::abort();
        }
    } catch (const murmur::InputError&) {
    }
    return 0;
}
