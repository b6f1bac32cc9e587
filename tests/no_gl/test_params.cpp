// Parameter table and validation: every problem names its field and the valid range.
#include "model/param_table.hpp"
#include "model/params.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

using namespace murmur;

namespace {
bool hasProblem(const std::vector<ParamProblem>& ps, const std::string& field, const std::string& text) {
    for (const auto& p : ps)
        if (p.field == field && p.message.find(text) != std::string::npos) return true;
    return false;
}
}  // namespace

TEST(Params, DefaultsAreValid) { EXPECT_TRUE(validate(Params{}).empty()) << describe(validate(Params{})); }

TEST(Params, TableKeysAreUniqueAndRoundTrip) {
    std::set<std::string> keys;
    Params p;
    for (const ParamInfo& info : paramTable()) {
        EXPECT_TRUE(keys.insert(info.key).second) << info.key;
        EXPECT_EQ(findParam(info.key), &info);
        // Writing a key's own default through its text form gives back the same params.
        Params q = p;
        ASSERT_FALSE(setFromText(info, formatValue(info, p), q).has_value()) << info.key;
        EXPECT_EQ(q, p) << info.key;
    }
    EXPECT_EQ(findParam("nope"), nullptr);
}

TEST(Params, EachRangeIsEnforcedWithFieldAndRange) {
    Params p;
    p.dims = 4;
    p.world_size = 200000.0f;
    p.species[0].fov_deg = 400.0f;
    p.dt = 0.0f;
    p.species[0].separation.weight = -1.0f;
    const auto problems = validate(p);
    EXPECT_TRUE(hasProblem(problems, "dims", "2|3"));
    EXPECT_TRUE(hasProblem(problems, "world_size", "[1, 100000]"));
    EXPECT_TRUE(hasProblem(problems, "fov_deg", "[0, 360]"));
    EXPECT_TRUE(hasProblem(problems, "dt", "[0.0001, 1]"));
    EXPECT_TRUE(hasProblem(problems, "separation.weight", "[0, 100]"));
    EXPECT_EQ(problems.size(), 5u) << describe(problems);
}

TEST(Params, CrossFieldRules) {
    Params p;
    p.world_size = 20.0f;
    p.species[0].cohesion.radius = 10.5f;  // above half the world in wrap mode
    p.species[0].min_speed = 11.0f;        // above max_speed 10
    auto problems = validate(p);
    EXPECT_TRUE(hasProblem(problems, "cohesion.radius", "[0, world_size/2]"));
    EXPECT_TRUE(hasProblem(problems, "min_speed", "[0, max_speed]"));
    p.bounds = Bounds::Soft;  // soft bounds allow any radius, but the margin is bounded
    p.margin = 11.0f;
    problems = validate(p);
    EXPECT_FALSE(hasProblem(problems, "cohesion.radius", ""));
    EXPECT_TRUE(hasProblem(problems, "margin", "[0, world_size/2]"));
    p.bounds = Bounds::Open;  // open sky: any radius, no margin to keep
    problems = validate(p);
    EXPECT_FALSE(hasProblem(problems, "cohesion.radius", ""));
    EXPECT_FALSE(hasProblem(problems, "margin", ""));
}

// The window's closing line: a count or dimensions the panel changed as --boids and --dims, which
// a --set of them could not override (the command line applies those two flags last).
// In wrap bounds a rule radius past half the world is refused only in a style that reads it:
// D'Orsogna and Cucker-Smale ignore the three (their cut-off is their reach) and take any.
TEST(Params, AWrapRadiusIsCheckedOnlyWhereTheStyleReadsIt) {
    Params p;
    p.world_size = 100.0f;
    p.species[0].alignment.radius = 80.0f;
    p.species[0].separation.radius = 70.0f;
    const auto refused = validate(p);
    ASSERT_EQ(refused.size(), 2u) << describe(refused);
    EXPECT_EQ(refused[0].field, "separation.radius");
    for (const Style s : {Style::DOrsogna, Style::CuckerSmale}) {
        p.style = s;
        EXPECT_TRUE(validate(p).empty()) << describe(validate(p));
    }
}

TEST(Params, StartAgainFlagsGiveTheCountAndDimsAsTheirOwnFlags) {
    Params a, b;
    b.boids = 100;
    b.dims = 3;
    b.species[0].alignment.weight = 2.5f;
    EXPECT_EQ(startAgainFlags(changedSettings(a, b)), " --dims 3 --set alignment.weight=2.5 --boids 100");
    EXPECT_EQ(startAgainFlags({}), "");
}

// The adaptive radius shares the per-boid slot of the styles that keep their steering: refused
// with them, named with its valid value; its keys are ranged like every other.
TEST(Params, AdaptiveRadiusIsRefusedWhereTheStyleKeepsItsSteeringAndRanged) {
    Params p;
    p.topological.count = 6.5f;
    EXPECT_TRUE(validate(p).empty()) << describe(validate(p));
    for (Style s : {Style::Decarpentier, Style::Gloss}) {
        p.style = s;
        EXPECT_TRUE(hasProblem(validate(p), "topological.count", "valid range 0 with this style")) << int(s);
    }
    p.style = Style::Graded;
    p.topological = {65.0f, 0.0f, 1.5f};
    const auto problems = validate(p);
    EXPECT_TRUE(hasProblem(problems, "topological.count", "[0, 64]"));
    EXPECT_TRUE(hasProblem(problems, "topological.max_radius", "[0.001, 100000]"));
    EXPECT_TRUE(hasProblem(problems, "topological.rate", "[0, 1]"));
}

// The trap integrated as an acceleration is refused from k dt^2 = 4 (dt 0.05: k 1,600), naming
// the bound; a style the trap only turns (Vicsek, Couzin) takes any stiffness.
TEST(Params, ATrapStifferThanTheStepResolvesIsRefused) {
    Params p;
    p.style = Style::DOrsogna;
    p.dt = 0.05f;
    p.trap.stiffness = 1599.0f;
    EXPECT_FALSE(hasProblem(validate(p), "trap.stiffness", "")) << describe(validate(p));
    p.trap.stiffness = 1600.0f;
    EXPECT_TRUE(hasProblem(validate(p), "trap.stiffness", "k dt^2 = 4, at or past 4")) << describe(validate(p));
    EXPECT_TRUE(hasProblem(validate(p), "trap.stiffness", "valid range [0, 4/dt^2) = [0, 1600")) << describe(validate(p));
    for (Style s : {Style::Vicsek, Style::Couzin}) {
        p.style = s;
        EXPECT_FALSE(hasProblem(validate(p), "trap.stiffness", "")) << int(s);
    }
}

TEST(Params, SetFromTextRejectsBadText) {
    Params p;
    const ParamInfo& style = *findParam("style");
    EXPECT_FALSE(setFromText(style, "offset", p).has_value());
    EXPECT_EQ(p.style, Style::Offset);
    EXPECT_NE(setFromText(style, "fancy", p)->find("steering|offset"), std::string::npos);
    const ParamInfo& boids = *findParam("boids");
    EXPECT_NE(setFromText(boids, "12x", p)->find("not a number"), std::string::npos);
    EXPECT_NE(setFromText(boids, "1.5", p)->find("whole number"), std::string::npos);
    EXPECT_NE(setFromText(boids, "-1", p)->find("[0, 100000000]"), std::string::npos);
    EXPECT_NE(setFromText(*findParam("dt"), "nan", p)->find("out of range"), std::string::npos);
    EXPECT_NE(setFromText(*findParam("dt"), "inf", p)->find("out of range"), std::string::npos);
}
