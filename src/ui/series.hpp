// A fixed-length history of one statistic (the panel's plots): newest overwrites oldest.
#pragma once

#include <cstddef>
#include <vector>

namespace murmur::ui {

class Series {
public:
    explicit Series(std::size_t capacity = 120) : values_(capacity, 0.0f) {}
    void push(float v) {
        values_[next_] = v;
        next_ = (next_ + 1) % values_.size();
        if (count_ < values_.size()) ++count_;
    }
    // For ImGui::PlotLines(values, count, offset): oldest value at `offset`.
    const float* data() const { return values_.data(); }
    int size() const { return int(values_.size()); }
    int offset() const { return count_ < values_.size() ? 0 : int(next_); }
    std::size_t count() const { return count_; }
    float latest() const { return count_ ? values_[(next_ + values_.size() - 1) % values_.size()] : 0.0f; }
    // For ImGui::PlotLines: only the values sampled so far (no padding).
    int plotCount() const { return int(count_); }
    void clear() {
        next_ = count_ = 0;
    }

private:
    std::vector<float> values_;
    std::size_t next_ = 0, count_ = 0;
};

}  // namespace murmur::ui
