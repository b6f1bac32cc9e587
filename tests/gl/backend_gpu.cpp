// The hand-computed tests' backend in murmur_gpu_hand_tests: the GPU pipeline (no_gl/test_util.hpp).
// The search is the grid's, whatever the test asks: the GPU has no brute-force walk.
#include "gl_env.hpp"
#include "gpu/gpu_simulation.hpp"
#include "test_util.hpp"

namespace murmur::test {

std::unique_ptr<Simulation> backendUnderTest(NeighbourSearch) {
    if (!GlEnvironment::ready()) {
        ADD_FAILURE() << "no GL context: " << GlEnvironment::error();
        return nullptr;
    }
    return std::make_unique<gpu::GpuSimulation>();
}

}  // namespace murmur::test
