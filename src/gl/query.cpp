// Query objects and the pass timer.
#include "gl/query.hpp"

namespace murmur::gl {

namespace {
constexpr std::size_t kMaxSamples = 1u << 16;
}  // namespace

Query::Query(GLenum target) {
    GLuint id = 0;
    glCreateQueries(target, 1, &id);
    handle_ = Handle<deleteQuery>(id);
}

PassTimer::PassTimer(std::vector<std::string> pass_names, int frames_in_flight)
    : names_(std::move(pass_names)), pending_(std::size_t(frames_in_flight), false),
      samples_(names_.size()) {
    for (int f = 0; f < frames_in_flight; ++f) {
        std::vector<Query> qs;
        for (std::size_t i = 0; i <= names_.size(); ++i) qs.emplace_back(GL_TIMESTAMP);
        frames_.push_back(std::move(qs));
    }
}

void PassTimer::begin() {
    // The slot we are about to reuse must be read first (waits only if 4 frames behind).
    if (pending_[std::size_t(slot_)]) collect(slot_, true);
    glQueryCounter(frames_[std::size_t(slot_)][0].id(), GL_TIMESTAMP);
}

bool PassTimer::canBegin() {
    poll();
    return !pending_[std::size_t(slot_)];
}

void PassTimer::mark(int pass) { glQueryCounter(frames_[std::size_t(slot_)][std::size_t(pass) + 1].id(), GL_TIMESTAMP); }

void PassTimer::end() {
    pending_[std::size_t(slot_)] = true;
    slot_ = (slot_ + 1) % int(frames_.size());
    poll();
}

bool PassTimer::poll() {
    bool any = false;
    for (int k = 0; k < int(frames_.size()); ++k) {
        const int s = (slot_ + k) % int(frames_.size());  // oldest first
        if (pending_[std::size_t(s)]) any = collect(s, false) || any;
    }
    return any;
}

void PassTimer::finish() {
    for (int k = 0; k < int(frames_.size()); ++k) {
        const int s = (slot_ + k) % int(frames_.size());  // oldest first
        if (pending_[std::size_t(s)]) collect(s, true);
    }
}

bool PassTimer::collect(int slot, bool wait) {
    auto& qs = frames_[std::size_t(slot)];
    if (!wait) {
        GLint available = 0;
        glGetQueryObjectiv(qs.back().id(), GL_QUERY_RESULT_AVAILABLE, &available);
        if (!available) return false;
    }
    std::vector<GLuint64> t(qs.size());
    for (std::size_t i = 0; i < qs.size(); ++i) glGetQueryObjectui64v(qs[i].id(), GL_QUERY_RESULT, &t[i]);
    for (std::size_t i = 0; i < names_.size(); ++i) {
        if (samples_[i].size() >= kMaxSamples)  // long runs: keep the recent half
            samples_[i].erase(samples_[i].begin(), samples_[i].begin() + kMaxSamples / 2);
        samples_[i].push_back(double(t[i + 1] - t[i]) * 1e-6);
    }
    pending_[std::size_t(slot)] = false;
    return true;
}

std::vector<double> PassTimer::meanMs() const {
    std::vector<double> m(samples_.size(), 0.0);
    for (std::size_t i = 0; i < m.size(); ++i) {
        for (double v : samples_[i]) m[i] += v;
        if (!samples_[i].empty()) m[i] /= double(samples_[i].size());
    }
    return m;
}

void PassTimer::reset() { samples_.assign(names_.size(), {}); }

}  // namespace murmur::gl
