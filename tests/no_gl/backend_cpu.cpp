// The hand-computed tests' backend in murmur_cpu_tests: the CPU reference (no_gl/test_util.hpp).
#include "test_util.hpp"

namespace murmur::test {

std::unique_ptr<Simulation> backendUnderTest(NeighbourSearch search) { return std::make_unique<CpuSimulation>(search); }

}  // namespace murmur::test
