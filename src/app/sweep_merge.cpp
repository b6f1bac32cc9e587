// A sweep's identity line and the merge of its shards; see sweep.hpp.
#include "app/sweep.hpp"

#include "io/atomic_file.hpp"
#include "io/input_error.hpp"
#include "model/param_table.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
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
    std::error_code ec;
    const std::uintmax_t size = std::filesystem::file_size(path, ec);
    if (!ec && size > kMaxPartBytes)
        throw InputError("--sweep-merge " + echo(path) + ": " + std::to_string(size) + " bytes, more than a sweep part holds (at most " +
                         std::to_string(kMaxPartBytes) + ")");
    try {
        return readFile(path);
    } catch (const std::runtime_error& e) {
        throw InputError(std::string("--sweep-merge: ") + e.what());
    }
}

std::uint64_t runsOf(const std::string& identity, const std::string& where) {
    const std::size_t at = identity.find("; runs ");
    const std::optional<double> n = at == std::string::npos ? std::nullopt : parseNumber(identity.substr(at + 7, identity.find(';', at + 7) - at - 7));
    if (!n || !(*n >= 1 && *n <= double(kMaxSweepRuns)) || *n != std::floor(*n))
        throw InputError(where + ": its identity line names no run count");
    return std::uint64_t(*n);
}

// A row's run index, checked: every field a finite number, as many as the header's.
std::uint64_t checkRow(const std::string& line, std::size_t columns, std::uint64_t runs, const std::string& where) {
    const std::vector<std::string> fields = splitFields(line);
    if (fields.size() != columns)
        throw InputError(where + ": a damaged row (" + std::to_string(fields.size()) + " fields, the header has " +
                         std::to_string(columns) + "): '" + echo(line) + "'");
    for (const std::string& f : fields)
        if (const std::optional<double> v = parseNumber(f); !v || !std::isfinite(*v))
            throw InputError(where + ": a damaged row ('" + echo(f) + "' is not a finite number): '" + echo(line) + "'");
    const double index = *parseNumber(fields[0]);
    if (!(index >= 0 && index < double(runs)) || index != std::floor(index))
        throw InputError(where + ": run index " + echo(fields[0]) + " is not a run of this sweep (valid: 0 to " + std::to_string(runs - 1) + ")");
    return std::uint64_t(index);
}

Part checkPart(const std::string& text, const std::string& path) {
    const std::string where = "--sweep-merge " + echo(path);
    if (!text.empty() && text.back() != '\n') throw InputError(where + ": it ends without a newline (cut short?)");
    const std::vector<std::string> lines = splitLines(text);
    if (lines.size() < 2 || !lines[0].starts_with(kIdentityStart) || !lines[1].starts_with("run,"))
        throw InputError(where + ": not a --sweep-out file (it does not start with its '" + std::string(kIdentityStart) +
                         "...' line and a 'run,...' header)");
    Part part;
    part.identity = lines[0].substr(0, lines[0].find("; shard "));
    part.header = lines[1];
    part.runs = runsOf(part.identity, where);
    const std::size_t columns = splitFields(part.header).size();
    for (std::size_t n = 2; n < lines.size(); ++n) {
        if (lines[n].empty()) throw InputError(where + ":" + std::to_string(n + 1) + ": an empty line");
        part.rows.emplace_back(checkRow(lines[n], columns, part.runs, where + ":" + std::to_string(n + 1)), lines[n]);
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

std::string sweepIdentity(const Options& opt, const SweepOptions& s) {
    std::string id = kIdentityStart;
    char axis[160];
    for (std::size_t k = 0; k < s.axes.size(); ++k) {
        const SweepAxis& a = s.axes[k];
        std::snprintf(axis, sizeof axis, "%s%s=%.9g:%.9g:%u", k ? " " : "", a.key.c_str(), a.from, a.to, a.count);
        id += axis;
    }
    id += "; seeds " + std::to_string(s.seeds) + "; steps " + std::to_string(opt.steps) + "; burn-in " + std::to_string(s.burn_in) +
          "; every " + std::to_string(s.every) + "; carry " + (s.carry ? "on" : "off") + "; backend " +
          (opt.backend == Backend::Gpu ? "gpu" : "cpu") + "; runs " + std::to_string(sweepRunCount(s).value_or(0)) + "; base " +
          paramsHash(opt.params);
    if (s.shards > 1) id += "; shard " + std::to_string(s.shard) + "/" + std::to_string(s.shards);
    return id;
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
