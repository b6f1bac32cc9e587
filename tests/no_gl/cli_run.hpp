// murmur's command line run in-process, as a user would type it (without the program name).
#pragma once

#include "app/cli.hpp"

#include <sstream>
#include <string>
#include <vector>

namespace murmur::test {

struct CliResult {
    int code;
    std::string out, err;
};

inline CliResult runMurmur(std::vector<std::string> args) {
    args.insert(args.begin(), "murmur");
    std::vector<const char*> argv;
    for (const auto& a : args) argv.push_back(a.c_str());
    std::ostringstream out, err;
    const int code = runCli(int(argv.size()), argv.data(), out, err);
    return {code, out.str(), err.str()};
}

}  // namespace murmur::test
