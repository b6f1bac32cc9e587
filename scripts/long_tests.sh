# The everyday tier's cut (sourced by scripts/test.sh and scripts/ci.sh): the longest tests whose
# outcome the rest of the everyday tier also holds (parity and hand cases hold the model; these
# hold it over long flights and whole runs), which scripts/test.sh leaves out and scripts/ci.sh
# runs on llvmpipe: each preset's keys (a flight per key, 19 processes of 3-7 s), a start-up check
# fed wrong shaders, the self-test's fullest variants and its every variant (40-65 s each from a
# cold program cache; the shader check compiles every variant too), the emergent flights (Flight.*, Couzin's four states, each seed preset's thousand steps),
# a sweep split into ensembles, one ensemble's obstacles, and a run's reproducibility to the bit
# (10-25 s each).
long_tests="KeysApply|AGpuThatFailsTheStartUpCheckIsRefused|SelfTestBuildsTheFullestVariantOfEachFamily|SelfTestChecksEveryVariantAndPasses|^Flight\\.|SeedPreset|Couzin\\.TheFourPresetsReachTheFourStates|ASweepTooLargeForOneEnsembleIsSplit|ObstaclesInOneFlockLeaveTheOthersAsTheyAreAlone|GpuRuns\\.AreReproducibleToTheBit"
