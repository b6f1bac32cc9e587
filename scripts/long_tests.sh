# The everyday tier's cut (sourced by scripts/test.sh and scripts/ci.sh): the longest tests whose
# outcome turns on logic the rest of the suite also holds, which scripts/test.sh leaves out and
# scripts/ci.sh runs on llvmpipe. Each preset's keys (a flight per key, 19 processes of 3-7 s), a
# start-up check fed wrong shaders and the self-test's fullest variants (about 40 s each from a cold
# program cache): about 90 s of a fresh clone's test command on 2 cores.
long_tests="KeysApply|AGpuThatFailsTheStartUpCheckIsRefused|SelfTestBuildsTheFullestVariantOfEachFamily"
