// Any bytes as the value of --set (and as a second --set split at the first newline), through
// the real command line: a headless CPU run of 0 steps on 20 boids. Exit 0 or 2, never 1, a
// crash or a hang.
#include "app/cli.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string input(reinterpret_cast<const char*>(data), size);
    const std::size_t nl = input.find('\n');
    const std::string first = input.substr(0, nl), second = nl == std::string::npos ? "seed=1" : input.substr(nl + 1);
    const char* argv[] = {"murmur", "--backend", "cpu", "--headless", "--steps", "0", "--boids", "20",
                          "--set", first.c_str(), "--set", second.c_str()};
    std::ostringstream out, err;
    const int code = murmur::runCli(int(sizeof argv / sizeof argv[0]), argv, out, err);
    if (code != 0 && code != 2) std::abort();
    return 0;
}
