// main() for the GL tests: registers the shared context before any test runs.
#include "gl_env.hpp"

#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    murmur::test::GlEnvironment::instance();
    const int status = RUN_ALL_TESTS();
    // With MURMUR_REQUIRE_TESTS set (tests/CMakeLists.txt runs the parity cases so), a run that ran
    // no test is a filter that matched nothing, not a pass.
    const auto& run = *::testing::UnitTest::GetInstance();
    if (status == 0 && std::getenv("MURMUR_REQUIRE_TESTS") && run.test_to_run_count() == 0) {
        std::fprintf(stderr, "MURMUR_REQUIRE_TESTS is set and no test ran: the filter matched none\n");
        return 1;
    }
    return status;
}
