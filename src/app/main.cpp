// murmur's entry point.
#include "app/cli.hpp"

#include <cerrno>
#include <cstring>
#include <iostream>

int main(int argc, char** argv) {
    const int code = murmur::runCli(argc, argv, std::cout, std::cerr);
    std::cout.flush();
    if (!std::cout) {  // e.g. --list-params > /dev/full: the output is lost, say so
        std::cerr << "murmur: error: could not write the output: " << std::strerror(errno) << "\n";
        return code == 0 ? 1 : code;
    }
    return code;
}
