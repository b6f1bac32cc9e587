// Any bytes as sweep parts for --sweep-merge: the input is split at its first NUL into two parts
// (a second copy of a part is the usual shard), and mergeSweepTexts either returns a merged CSV
// that opens with an identity line and a header and ends with a newline, or throws InputError;
// anything else (a crash, another exception, a merged file that breaks those rules) is a finding.
#include "engine/sweep.hpp"
#include "io/input_error.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    const std::size_t nul = bytes.find('\0');
    const std::string a = bytes.substr(0, nul), b = nul == std::string::npos ? a : bytes.substr(nul + 1);
    try {
        const std::string merged = murmur::mergeSweepTexts({{"a.csv", a}, {"b.csv", b}});
        if (!merged.starts_with("# murmur sweep: ") || merged.find("\nrun,") == std::string::npos || merged.back() != '\n')
            std::abort();
    } catch (const murmur::InputError&) {
    }
    return 0;
}
