// --stats-out FILE.csv --stats-every K: the order parameters every K steps, headless and in the
// window. Rows are kept in memory and the file written whole (atomically) when the run ends.
#pragma once

#include "model/order_params.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace murmur {

class StatsLog {
public:
    StatsLog(std::string path, std::uint64_t every) : path_(std::move(path)), every_(every) {}
    bool enabled() const { return !path_.empty(); }
    std::uint64_t every() const { return every_; }
    // Is a row due after `step` steps?
    bool due(std::uint64_t step) const { return enabled() && step % every_ == 0; }
    void add(std::uint64_t step, double time, const OrderParams& o);
    // Writes the file (nothing when disabled); throws std::runtime_error on failure, and without
    // writing anything when a row is not finite (the flock went to NaN or infinity).
    void write() const;
    const std::string& path() const { return path_; }
    std::size_t rows() const { return rows_; }
    // Bytes the samples read back from the GPU (gl::bytesReadBack around each; 0 on the CPU).
    void countReadBack(std::uint64_t bytes) { read_back_ += bytes; }
    std::uint64_t readBack() const { return read_back_; }

private:
    std::string path_;
    std::uint64_t every_ = 1;
    std::string text_;
    std::size_t rows_ = 0;
    std::uint64_t read_back_ = 0;
    std::optional<std::uint64_t> first_non_finite_;  // the step of the first row that is not
};

// "step 300: polarization 0.91 (within groups 0.97), milling 0.04, 3 groups (largest 61%), ..."
std::string describeOrder(std::uint64_t step, const OrderParams& o);

}  // namespace murmur
