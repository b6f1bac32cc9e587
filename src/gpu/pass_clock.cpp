#include "gpu/pass_clock.hpp"

#include "gl/gl.hpp"

namespace murmur::gpu {
namespace {
const char* const kPassNames[PassClock::kPasses] = {"count", "scan", "scatter", "steer"};
}

void PassClock::enableTiming(bool on) {
    if (on && !timer_) timer_ = std::make_unique<gl::PassTimer>(std::vector<std::string>(kPassNames, kPassNames + kPasses));
    if (!on) timer_.reset();
}

void PassClock::profileByQueries(bool on) {
    if (on && !profile_timer_) profile_timer_ = std::make_unique<gl::PassTimer>(std::vector<std::string>(kPassNames, kPassNames + kPasses), 2);
    if (!on) profile_timer_.reset();
}

void PassClock::collectProfile() const {
    if (!profile_timer_ || !profile_timer_->poll()) return;
    const auto& samples = profile_timer_->samples();
    profiled_ms_.assign(kPasses, 0.0);
    for (std::size_t i = 0; i < kPasses && i < samples.size(); ++i) profiled_ms_[i] = samples[i].empty() ? 0.0 : samples[i].back();
}

bool PassClock::beginStep() {
    collectProfile();
    bool profiled = std::exchange(profile_next_, false);
    if (profiled && profile_timer_ && !profile_timer_->canBegin()) {
        profile_next_ = true;  // its slot's queries have not landed: a later step, rather than a wait
        profiled = false;
    }
    if (profiled && profile_timer_) {
        profile_timer_->begin();
        profiling_by_queries_ = true;
    } else if (profiled) {
        glFinish();  // the profiled step starts with nothing else in flight
        profiling_ = true;
        profiling_ms_.assign(kPasses, 0.0);
        since_ = std::chrono::steady_clock::now();
    }
    if (timer_) timer_->begin();
    return profiled;
}

void PassClock::done(int pass) {
    if (timer_) timer_->mark(pass);
    if (profiling_by_queries_) {
        profile_timer_->mark(pass);
        if (pass == kPasses - 1) {
            profile_timer_->end();
            profiling_by_queries_ = false;
        }
    }
    if (!profiling_) return;
    glFinish();
    const auto now = std::chrono::steady_clock::now();
    profiling_ms_[std::size_t(pass)] = std::chrono::duration<double, std::milli>(now - since_).count();
    since_ = now;
    if (pass == kPasses - 1) {
        profiled_ms_ = profiling_ms_;
        profiling_ = false;
    }
}

void PassClock::endStep() {
    if (timer_) timer_->end();
}

void PassClock::abandon() {
    profiling_ = false;
    profiling_by_queries_ = false;  // its slot, never ended, is begun afresh by the next
    endStep();
}

std::vector<std::pair<std::string, double>> PassClock::profiledPasses() const {
    collectProfile();
    std::vector<std::pair<std::string, double>> out;
    for (std::size_t i = 0; i < profiled_ms_.size() && i < kPasses; ++i) out.emplace_back(kPassNames[i], profiled_ms_[i]);
    return out;
}

}  // namespace murmur::gpu
