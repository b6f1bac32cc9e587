// main() for the GL tests: registers the shared context before any test runs.
#include "gl_env.hpp"

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    murmur::test::GlEnvironment::instance();
    return RUN_ALL_TESTS();
}
