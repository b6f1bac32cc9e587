// A sweep's identity line and the merge of its shards; see sweep.hpp.
#include "engine/sweep.hpp"

#include "io/atomic_file.hpp"
#include "io/input_error.hpp"
#include "model/number_text.hpp"
#include "model/param_table.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <cstdio>
#include <map>

namespace murmur {
namespace {

constexpr const char* kIdentityStart = "# murmur sweep: ";
constexpr std::uintmax_t kMaxPartBytes = std::uintmax_t(1) << 30;  // a million runs' rows are ~300 MB

// FNV-1a over every key's value: two sweeps from different base parameters differ here.
std::string paramsHash(const Params& p) {
    std::uint64_t h = 1469598103934665603ull;
    for (const ParamInfo& info : paramTable())
        for (const char c : std::string(info.key) + "=" + formatValue(info, p) + "\n") h = (h ^ std::uint8_t(c)) * 1099511628211ull;
    char text[24];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
    return text;
}

std::vector<std::string> splitLines(const std::string& text) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t end = text.find('\n', start);
        lines.push_back(text.substr(start, end - start));
        if (end == std::string::npos) break;
        start = end + 1;
    }
    return lines;
}

std::vector<std::string> splitFields(const std::string& line) {
    std::vector<std::string> fields;
    std::size_t start = 0;
    for (;;) {
        const std::size_t comma = line.find(',', start);
        fields.push_back(line.substr(start, comma - start));
        if (comma == std::string::npos) return fields;
        start = comma + 1;
    }
}

// One part, read and checked on its own: its identity (without the shard), header and rows.
struct Part {
    std::string identity, header;
    std::uint64_t runs = 0;
    std::vector<std::pair<std::uint64_t, std::string>> rows;
};

std::string readPart(const std::string& path) {
    try {
        return readFile(path, kMaxPartBytes, "a sweep part");
    } catch (const std::runtime_error& e) {
        throw InputError(std::string("--sweep-merge: ") + e.what());
    }
}

// What a sweep's identity line says, parsed back: the sweep (keys, ranges, seeds, sampling,
// carry, shard), its steps and backend, the whole sweep's run count, the base seed and the hash of
// the base parameters.
struct Identity {
    SweepOptions sweep;
    std::uint64_t steps = 0, runs = 0, seed = 0;
    std::string backend, base;
};

// The axes as murmur writes them (shortest-exact), or as builds before lists and log ranges
// wrote a range (FROM and TO with 17 significant digits), so their parts still merge.
std::string axesText(const SweepOptions& s, bool legacy) {
    std::string text;
    for (std::size_t k = 0; k < s.axes.size(); ++k) {
        const SweepAxis& a = s.axes[k];
        if (k) text += " ";
        if (!legacy || !a.list.empty() || a.log) {  // lists and log ranges were never written the older way
            text += a.text();
            continue;
        }
        char range[200];
        std::snprintf(range, sizeof range, "%s=%.17g:%.17g:%u", a.key.c_str(), a.from, a.to, a.count);
        text += range;
    }
    return text;
}

std::string formatIdentity(const Identity& id, bool with_shard, bool legacy = false) {
    std::string text = kIdentityStart + axesText(id.sweep, legacy);
    const SweepOptions& s = id.sweep;
    text += "; seeds " + std::to_string(s.seeds) + "; steps " + std::to_string(id.steps) + "; burn-in " + std::to_string(s.burn_in) +
            "; every " + std::to_string(s.every) + "; carry " + (s.carry ? "on" : "off") + "; backend " + id.backend + "; runs " +
            std::to_string(id.runs) + "; seed " + std::to_string(id.seed) + "; base " + id.base;
    if (s.xi_reach) text += "; xi " + shortestText(*s.xi_reach);
    if (with_shard && s.shards > 1) text += "; shard " + std::to_string(s.shard) + "/" + std::to_string(s.shards);
    return text;
}

std::optional<std::uint64_t> wholeNumber(const std::string& text) {
    const std::optional<double> v = parseNumber(text);
    if (!v || !(*v >= 0 && *v <= 9007199254740992.0) || *v != std::floor(*v) || std::to_string(std::uint64_t(*v)) != text)
        return std::nullopt;
    return std::uint64_t(*v);
}

// The identity's items after its tenth, each optional: "xi R" (--sweep-xi), then "shard I/N".
// False when they are neither.
bool parseOptionalItems(const std::vector<std::string>& items, Identity& id) {
    std::size_t next = 10;
    if (items.size() > next && items[next].starts_with("xi ")) {
        const std::optional<double> xi = parseNumber(items[next++].substr(3));
        if (!xi || !(*xi >= 0.0) || !std::isfinite(*xi)) return false;
        id.sweep.xi_reach = *xi;
    }
    if (items.size() == next) return true;
    if (items.size() != next + 1 || !items[next].starts_with("shard ")) return false;
    try {
        parseSweepShard(items[next].substr(6), id.sweep);
    } catch (const InputError&) {
        return false;
    }
    return true;
}

// The line parsed, or nothing when it is not exactly what murmur writes (an edited line is not
// one murmur wrote: it is refused rather than trusted).
std::optional<Identity> parseIdentity(const std::string& line) {
    if (!line.starts_with(kIdentityStart)) return std::nullopt;
    std::vector<std::string> items;
    for (std::size_t at = std::strlen(kIdentityStart);;) {
        const std::size_t end = line.find("; ", at);
        items.push_back(line.substr(at, end - at));
        if (end == std::string::npos) break;
        at = end + 2;
    }
    if (items.size() < 10 || items.size() > 12) return std::nullopt;
    Identity id;
    try {
        for (std::size_t at = 0; at <= items[0].size();) {
            const std::size_t end = std::min(items[0].find(' ', at), items[0].size());
            id.sweep.axes.push_back(parseSweepAxis(items[0].substr(at, end - at)));
            at = end + 1;
        }
    } catch (const InputError&) {
        return std::nullopt;
    }
    const auto field = [&](std::size_t k, const char* label) -> std::optional<std::string> {
        const std::string prefix = std::string(label) + " ";
        if (!items[k].starts_with(prefix)) return std::nullopt;
        return items[k].substr(prefix.size());
    };
    const auto number = [&](std::size_t k, const char* label) -> std::optional<std::uint64_t> {
        const std::optional<std::string> text = field(k, label);
        return text ? wholeNumber(*text) : std::nullopt;
    };
    const auto seeds = number(1, "seeds"), steps = number(2, "steps"), burn_in = number(3, "burn-in"), every = number(4, "every");
    const auto runs = number(7, "runs"), seed = number(8, "seed");
    const auto carry = field(5, "carry"), backend = field(6, "backend"), base = field(9, "base");
    if (!seeds || !steps || !burn_in || !every || !runs || !seed || !carry || !backend || !base || *seeds < 1 || *every < 1) return std::nullopt;
    id.sweep.seeds = std::uint32_t(std::min<std::uint64_t>(*seeds, 10000));
    id.steps = *steps;
    id.sweep.burn_in = *burn_in;
    id.sweep.every = *every;
    id.sweep.carry = *carry == "on";
    id.backend = *backend;
    id.runs = *runs;
    id.seed = *seed;
    id.base = *base;
    if (!parseOptionalItems(items, id)) return std::nullopt;
    if ((formatIdentity(id, true) != line && formatIdentity(id, true, true) != line) || sweepRunCount(id.sweep) != id.runs)
        return std::nullopt;
    return id;
}

// The samples sampleRun takes: at the burn-in, then every `every` steps and at the last step.
std::uint64_t samplesPerRun(const Identity& id) {
    if (id.steps <= id.sweep.burn_in) return 1;
    const std::uint64_t span = id.steps - id.sweep.burn_in;
    return 1 + span / id.sweep.every + (span % id.sweep.every != 0 ? 1 : 0);
}

// A row checked against its sweep: as many fields as the header, every one a finite number, the
// run index one of the sweep's (written as murmur writes it), its values, seed and sample count
// those of that run, and the run one of this part's shard.
std::uint64_t checkRow(const std::string& line, const Identity& id, std::size_t columns, const std::string& where) {
    const std::vector<std::string> fields = splitFields(line);
    if (fields.size() != columns)
        throw InputError(where + ": a damaged row (" + std::to_string(fields.size()) + " fields, the header has " +
                         std::to_string(columns) + "): '" + echo(line) + "'");
    for (const std::string& f : fields)
        if (const std::optional<double> v = parseNumber(f); !v || !std::isfinite(*v))
            throw InputError(where + ": a damaged row ('" + echo(f) + "' is not a finite number): '" + echo(line) + "'");
    const std::optional<std::uint64_t> index = wholeNumber(fields[0]);
    if (!index || *index >= id.runs)
        throw InputError(where + ": run index " + echo(fields[0]) + " is not a run of this sweep (valid: 0 to " + std::to_string(id.runs - 1) + ")");
    const SweepRun run = sweepRunAt(id.sweep, *index);
    std::vector<std::string> expected;
    for (double v : run.values) {  // as murmur writes it, or as builds before the Binder column did
        const std::string older = numberText(v);
        expected.push_back(fields[1 + expected.size()] == older ? older : shortestText(v));
    }
    expected.push_back(std::to_string(id.seed + run.seed_index));
    expected.push_back(std::to_string(samplesPerRun(id)));
    for (std::size_t k = 0; k < expected.size(); ++k)
        if (fields[1 + k] != expected[k])
            throw InputError(where + ": run " + fields[0] + " is not the sweep's run " + fields[0] + " (its " +
                             splitFields(sweepHeader(id.sweep))[1 + k] + " is " + echo(fields[1 + k]) + ", the sweep's is " + expected[k] + ")");
    if (id.sweep.shards > 1 && (id.sweep.carry ? run.seed_index : *index) % id.sweep.shards != id.sweep.shard)
        throw InputError(where + ": run " + fields[0] + " is not in shard " + std::to_string(id.sweep.shard) + "/" +
                         std::to_string(id.sweep.shards) + ", as the part's identity line says");
    return *index;
}

Part checkPart(const std::string& text, const std::string& path) {
    const std::string where = "--sweep-merge " + echo(path);
    if (!text.empty() && text.back() != '\n') throw InputError(where + ": it ends without a newline (cut short?)");
    const std::vector<std::string> lines = splitLines(text);
    if (lines.size() < 2 || !lines[0].starts_with(kIdentityStart) || !lines[1].starts_with("run,"))
        throw InputError(where + ": not a --sweep-out file (it does not start with its '" + std::string(kIdentityStart) +
                         "...' line and a 'run,...' header)");
    const std::optional<Identity> id = parseIdentity(lines[0]);
    if (!id) throw InputError(where + ": its '" + std::string(kIdentityStart) + "...' line is not one murmur writes (edited?)");
    const std::string header = sweepHeader(id->sweep), binder = ",polarization_binder";
    const bool older = !id->sweep.xi_reach && lines[1] + binder == header;  // written before the Binder column
    if (lines[1] != header && !older) throw InputError(where + ": its header is not the one its sweep has");
    Part part;
    part.identity = formatIdentity(*id, false);
    part.header = lines[1];
    part.runs = id->runs;
    const std::size_t columns = splitFields(part.header).size();
    for (std::size_t n = 2; n < lines.size(); ++n) {
        if (lines[n].empty()) throw InputError(where + ":" + std::to_string(n + 1) + ": an empty line");
        part.rows.emplace_back(checkRow(lines[n], *id, columns, where + ":" + std::to_string(n + 1)), lines[n]);
    }
    return part;
}

// "3, 7, 11 and 5 more"
std::string someOf(const std::vector<std::uint64_t>& xs) {
    std::string text;
    for (std::size_t k = 0; k < xs.size() && k < 10; ++k) text += (k ? ", " : "") + std::to_string(xs[k]);
    if (xs.size() > 10) text += " and " + std::to_string(xs.size() - 10) + " more";
    return text;
}

}  // namespace

std::optional<std::uint64_t> sweepRunCount(const SweepOptions& s) {
    std::uint64_t total = s.seeds;
    for (const SweepAxis& a : s.axes) {
        total *= a.count;
        if (total > kMaxSweepRuns) return std::nullopt;
    }
    return total > kMaxSweepRuns ? std::nullopt : std::optional<std::uint64_t>(total);
}

std::string sweepIdentity(const SweepBase& base, const SweepOptions& s) {
    Identity id;
    id.sweep = s;
    id.steps = base.steps;
    id.backend = base.backend == Backend::Gpu ? "gpu" : "cpu";
    id.runs = sweepRunCount(s).value_or(0);
    id.seed = base.params.seed;
    id.base = paramsHash(base.params);
    return formatIdentity(id, true);
}

std::string mergeSweepTexts(const std::vector<std::pair<std::string, std::string>>& named_parts) {
    Part first;
    std::map<std::uint64_t, std::string> rows;
    std::vector<std::string> parts;
    for (const auto& [name, text] : named_parts) parts.push_back(name);
    for (std::size_t k = 0; k < parts.size(); ++k) {
        Part part = checkPart(named_parts[k].second, parts[k]);
        if (k == 0) first = part;
        else if (part.identity != first.identity || part.header != first.header)
            throw InputError("--sweep-merge " + echo(parts[k]) + ": a part of another sweep than " + echo(parts[0]) + " (its '" +
                             std::string(kIdentityStart) + "' line or header differs)");
        for (const auto& [index, line] : part.rows) {
            auto [it, inserted] = rows.emplace(index, line);
            if (!inserted && it->second != line)
                throw InputError("--sweep-merge " + echo(parts[k]) + ": run " + std::to_string(index) + " differs from the same run in another part");
        }
    }
    std::vector<std::uint64_t> missing;
    for (std::uint64_t index = 0; index < first.runs; ++index)
        if (!rows.contains(index)) missing.push_back(index);
    if (!missing.empty())
        throw InputError("--sweep-merge: " + std::to_string(missing.size()) + " of the sweep's " + std::to_string(first.runs) +
                         " runs are in no part: run " + someOf(missing) + " (run their shards again and merge)");
    std::string csv = first.identity + "\n" + first.header + "\n";
    for (const auto& [index, line] : rows) csv += line + "\n";
    return csv;
}

int mergeSweeps(const std::string& out_path, const std::vector<std::string>& parts, std::ostream& out) {
    std::vector<std::pair<std::string, std::string>> named;
    for (const std::string& part : parts) named.emplace_back(part, readPart(part));
    const std::string csv = mergeSweepTexts(named);
    writeFileAtomic(out_path, csv);
    const std::size_t runs = std::size_t(std::count(csv.begin(), csv.end(), '\n')) - 2;
    out << "wrote " << out_path << " (" << runs << " runs from " << parts.size() << " parts)\n";
    return 0;
}

}  // namespace murmur
