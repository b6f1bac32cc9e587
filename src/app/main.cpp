// murmur's entry point.
#include "app/cli.hpp"

#include <iostream>

int main(int argc, char** argv) { return murmur::runCli(argc, argv, std::cout, std::cerr); }
