// main() for the GL tests: registers the shared context before any test runs.
#include "gl_env.hpp"

#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    murmur::test::GlEnvironment::instance();
    const int status = RUN_ALL_TESTS();
    // A shard (tests/CMakeLists.txt runs the parity cases so) that ran no test is a filter that
    // matched nothing, not a pass.
    const auto& run = *::testing::UnitTest::GetInstance();
    if (status == 0 && std::getenv("GTEST_SHARD_INDEX") && run.test_to_run_count() == 0) {
        std::fprintf(stderr, "this shard ran no test: its filter matched none\n");
        return 1;
    }
    return status;
}
