// murmur --bench --bench-ab VAR=A,B: the GPU's two paths of one variable, interleaved in rounds
// (A then B each round), so that a machine's drift (its load, its clocks) falls on both alike.
#include "app/bench.hpp"

#include "engine/engine.hpp"
#include "io/input_error.hpp"

#include <cstdio>
#include <map>
#include <utility>
#include <vector>

namespace murmur {
namespace {

using nlohmann::json;

// The variables an A/B may switch, each with its two values, as the GPU reads them.
[[noreturn]] void badAb(const std::string& text, const std::string& why) {
    std::string vars;
    for (const engine::GpuPathChoice& c : engine::gpuPathChoices())
        vars += (vars.empty() ? "" : " or ") + c.var + " (" + c.a + ", " + c.b + ")";
    throw InputError("--bench-ab: '" + text.substr(0, 80) + "': " + why + "; give VAR=A,B, VAR " + vars + ", A and B its two values");
}

// The path `value` for the flocks made while in scope (engine::overrideGpuPath: the environment
// itself is left alone, a GL driver's threads reading it), then the environment's again.
class ScopedPath {
public:
    ScopedPath(const std::string& var, const std::string& value) : var_(var) { engine::overrideGpuPath(var, value); }
    ~ScopedPath() { engine::overrideGpuPath(var_, ""); }
    ScopedPath(const ScopedPath&) = delete;
    ScopedPath& operator=(const ScopedPath&) = delete;

private:
    std::string var_;
};

// Each size and phase's median step over the rounds, a path each, and B's over A's.
json summarize(const json& runs, const BenchAb& ab) {
    using Key = std::pair<std::uint64_t, std::string>;
    std::vector<Key> keys;  // in the order measured
    std::map<Key, std::vector<double>> ms[2];
    for (const json& r : runs) {
        if (!r.contains("ab") || r["phase"] == "render") continue;
        const Key key{r["boids"].get<std::uint64_t>(), r["phase"].get<std::string>()};
        if (!ms[0].count(key) && !ms[1].count(key)) keys.push_back(key);
        ms[r["ab"] == ab.a ? 0 : 1][key].push_back(r["step_ms"].get<double>());
    }
    json rows = json::array();
    for (const Key& key : keys) {
        const double a = ms[0].count(key) ? median(ms[0].at(key)) : 0.0, b = ms[1].count(key) ? median(ms[1].at(key)) : 0.0;
        rows.push_back({{"boids", key.first}, {"phase", key.second}, {"a_ms", a}, {"b_ms", b}, {"b_over_a", a > 0 ? b / a : 0.0}});
    }
    return {{"variable", ab.var}, {"a", ab.a}, {"b", ab.b}, {"rounds", ab.rounds}, {"rows", rows}};
}

void printSummary(const json& s, const BenchAb& ab, std::ostream& out) {
    out << "A/B " << ab.var << " " << ab.a << "|" << ab.b << ", " << ab.rounds
        << " rounds interleaved, the median of the rounds' ms/step:\n";
    char line[160];
    std::snprintf(line, sizeof line, "%10s %-8s %10s %10s %10s\n", "boids", "phase", ab.a.c_str(), ab.b.c_str(), (ab.b + "/" + ab.a).c_str());
    out << line;
    for (const json& r : s["rows"]) {
        std::snprintf(line, sizeof line, "%10llu %-8s %10.3f %10.3f %10.3f\n", static_cast<unsigned long long>(r["boids"].get<std::uint64_t>()),
                      r["phase"].get<std::string>().c_str(), r["a_ms"].get<double>(), r["b_ms"].get<double>(), r["b_over_a"].get<double>());
        out << line;
    }
}

}  // namespace

BenchAb parseBenchAb(const std::string& text) {
    const std::size_t eq = text.find('='), comma = text.find(',');
    if (eq == std::string::npos || comma == std::string::npos || comma < eq) badAb(text, "not VAR=A,B");
    BenchAb ab;
    ab.var = text.substr(0, eq);
    ab.a = text.substr(eq + 1, comma - eq - 1);
    ab.b = text.substr(comma + 1);
    for (const engine::GpuPathChoice& c : engine::gpuPathChoices()) {
        if (ab.var != c.var) continue;
        const auto known = [&](const std::string& x) { return x == c.a || x == c.b; };
        if (!known(ab.a) || !known(ab.b) || ab.a == ab.b) badAb(text, "not its two values, " + c.a + " and " + c.b);
        return ab;
    }
    badAb(text, "no such variable");
}

bool benchAb(const Options& opt, const BenchOptions& b, json& doc, std::ostream& out, std::ostream& err) {
    const BenchAb& ab = *b.ab;
    for (std::uint32_t round = 1; round <= ab.rounds; ++round)
        for (const std::string& value : {ab.a, ab.b}) {
            const ScopedPath path(ab.var, value);
            out << "round " << round << ", " << ab.var << "=" << value << ":\n";
            const std::size_t first = doc["runs"].size();
            for (std::uint64_t n : b.sizes)
                if (!benchSize(n, opt, b, doc, out, err)) return false;
            for (std::size_t i = first; i < doc["runs"].size(); ++i) {
                doc["runs"][i]["round"] = round;
                doc["runs"][i]["ab"] = value;
            }
        }
    doc["ab"] = summarize(doc["runs"], ab);
    printSummary(doc["ab"], ab, out);
    return true;
}

}  // namespace murmur
