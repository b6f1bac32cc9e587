// See shader_blocks.hpp.
#include "gl/shader_blocks.hpp"

#include <cctype>
#include <cstdlib>
#include <map>
#include <regex>
#include <sstream>
#include <vector>

namespace murmur::gl {
namespace {

using Macros = std::map<std::string, std::string>;

// An #if expression: integers, macros (their values, expanded again; undefined ones 0),
// defined(X) and defined X, unary ! - +, * / %, + -, < <= > >=, == !=, && ||, parentheses.
class Expression {
public:
    Expression(const std::string& text, const Macros& macros, int depth = 0) : s_(text), macros_(macros), depth_(depth) {}
    long value() { return orOf(); }

private:
    void space() {
        while (at_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[at_]))) ++at_;
    }
    bool take(const char* op) {
        space();
        const std::string o = op;
        if (s_.compare(at_, o.size(), o) != 0) return false;
        if ((o == "<" || o == ">") && at_ + 1 < s_.size() && s_[at_ + 1] == '=') return false;
        if ((o == "!" || o == "=") && at_ + 1 < s_.size() && s_[at_ + 1] == '=') return false;
        if ((o == "&" && s_.compare(at_, 2, "&&") == 0) || (o == "|" && s_.compare(at_, 2, "||") == 0)) return false;
        at_ += o.size();
        return true;
    }
    std::string word() {
        space();
        const std::size_t from = at_;
        while (at_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[at_])) || s_[at_] == '_')) ++at_;
        return s_.substr(from, at_ - from);
    }
    long macro(const std::string& name) {
        const auto found = macros_.find(name);
        if (found == macros_.end() || depth_ > 16) return 0;
        return Expression(found->second.empty() ? "0" : found->second, macros_, depth_ + 1).value();
    }
    long unary() {
        if (take("!")) return !unary();
        if (take("-")) return -unary();
        if (take("+")) return unary();
        if (take("(")) {
            const long v = orOf();
            take(")");
            return v;
        }
        const std::string w = word();
        if (w.empty()) return 0;
        if (std::isdigit(static_cast<unsigned char>(w[0]))) return std::strtol(w.c_str(), nullptr, 0);
        if (w != "defined") return macro(w);
        const bool paren = take("(");
        const std::string name = word();
        if (paren) take(")");
        return macros_.count(name) ? 1 : 0;
    }
    long product() {
        long v = unary();
        for (;;) {
            if (take("*")) v *= unary();
            else if (take("/")) { const long d = unary(); v = d ? v / d : 0; }
            else if (take("%")) { const long d = unary(); v = d ? v % d : 0; }
            else return v;
        }
    }
    long sum() {
        long v = product();
        for (;;) {
            if (take("+")) v += product();
            else if (take("-")) v -= product();
            else return v;
        }
    }
    long compare() {
        long v = sum();
        for (;;) {
            if (take("<=")) v = v <= sum();
            else if (take(">=")) v = v >= sum();
            else if (take("<")) v = v < sum();
            else if (take(">")) v = v > sum();
            else return v;
        }
    }
    long equality() {
        long v = compare();
        for (;;) {
            if (take("==")) v = v == compare();
            else if (take("!=")) v = v != compare();
            else return v;
        }
    }
    long andOf() {
        long v = equality();
        while (take("&&")) v = equality() && v;
        return v;
    }
    long orOf() {
        long v = andOf();
        while (take("||")) v = andOf() || v;
        return v;
    }

    std::string s_;
    const Macros& macros_;
    int depth_;
    std::size_t at_ = 0;
};

std::string withoutLineComment(const std::string& line) {
    const std::size_t at = line.find("//");
    return at == std::string::npos ? line : line.substr(0, at);
}

// One #if level: whether its current branch is live, whether some branch was taken, whether the
// level around it is live.
struct Level {
    bool live, taken, outer;
};

}  // namespace

std::vector<StorageBlock> storageBlocksOf(const std::string& source) {
    static const std::regex directive(R"(^\s*#\s*(\w+)\s*(.*)$)");
    static const std::regex block(R"(\bbuffer\s+(\w+)\s*\{)");
    static const std::regex binding(R"(\bbinding\s*=\s*([^,)]+))");
    Macros macros;
    std::vector<Level> levels;
    const auto live = [&] { return levels.empty() || levels.back().live; };
    std::istringstream in(source);
    std::string raw;
    std::vector<StorageBlock> blocks;
    while (std::getline(in, raw)) {
        const std::string line = withoutLineComment(raw);
        const std::size_t first = line.find_first_not_of(" \t");
        std::smatch m;
        if (first == std::string::npos || line[first] != '#' || !std::regex_match(line, m, directive)) {
            if (live() && line.find("buffer") != std::string::npos && std::regex_search(line, m, block)) {  // cheap test first
                StorageBlock b{m[1], -1};
                if (std::regex_search(line, m, binding)) b.binding = Expression(m[1], macros).value();
                blocks.push_back(std::move(b));
            }
            continue;
        }
        const std::string what = m[1], rest = m[2];
        const auto test = [&](bool v) { levels.push_back({live() && v, v, live()}); };
        if (what == "ifdef" || what == "ifndef") {
            std::istringstream words(rest);
            std::string name;
            words >> name;
            test((macros.count(name) > 0) == (what == "ifdef"));
        } else if (what == "if") {
            test(Expression(rest, macros).value() != 0);
        } else if (what == "elif" && !levels.empty()) {
            Level& l = levels.back();
            const bool v = !l.taken && Expression(rest, macros).value() != 0;
            l.live = l.outer && v;
            l.taken = l.taken || v;
        } else if (what == "else" && !levels.empty()) {
            Level& l = levels.back();
            l.live = l.outer && !l.taken;
            l.taken = true;
        } else if (what == "endif" && !levels.empty()) {
            levels.pop_back();
        } else if (what == "define" && live()) {
            std::istringstream words(rest);
            std::string name, value;
            words >> name;
            std::getline(words, value);
            if (name.find('(') == std::string::npos) macros[name] = value;  // function-like macros are not conditions here
        } else if (what == "undef" && live()) {
            std::istringstream words(rest);
            std::string name;
            words >> name;
            macros.erase(name);
        }
    }
    return blocks;
}

}  // namespace murmur::gl
