// Any bytes as a preset: parsePreset either returns valid parameters or throws InputError with a
// message; anything else (a crash, another exception, invalid parameters returned) is a finding.
#include "io/input_error.hpp"
#include "io/preset_json.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const murmur::Params p = murmur::parsePreset(text, murmur::Params{}, "fuzz.json");
        if (!murmur::validate(p).empty()) std::abort();  // a preset that reads is valid
    } catch (const murmur::InputError&) {
    }
    return 0;
}
