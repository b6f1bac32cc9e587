// murmur's entry point.
#include "app/cli.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

int main(int argc, char** argv) {
    // Line by line even into a pipe or file: the renderer and count lines arrive as they happen.
    std::setvbuf(stdout, nullptr, _IOLBF, BUFSIZ);
    const int code = murmur::runCli(argc, argv, std::cout, std::cerr);
    std::cout.flush();
    if (!std::cout || std::fflush(stdout) != 0 || std::ferror(stdout)) {  // e.g. --list-params > /dev/full: the output is lost, say so
        std::cerr << "murmur: error: could not write the output: " << std::strerror(errno) << "\n";
        return code == 0 ? 1 : code;
    }
    return code;
}
