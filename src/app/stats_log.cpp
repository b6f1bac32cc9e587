// The stats CSV and the summary line of the order parameters.
#include "app/stats_log.hpp"

#include "io/atomic_file.hpp"

#include <cstdio>
#include <stdexcept>

namespace murmur {

void StatsLog::add(std::uint64_t step, double time, const OrderParams& o) {
    if (!enabled()) return;
    if (text_.empty()) text_ = "step,time," + orderParamsHeader() + "\n";
    char head[64];
    std::snprintf(head, sizeof head, "%llu,%.6g,", static_cast<unsigned long long>(step), time);
    const std::string row = orderParamsRow(o);  // printf writes a non-finite value as nan or inf
    if (!first_non_finite_ && (row.find("nan") != std::string::npos || row.find("inf") != std::string::npos)) first_non_finite_ = step;
    text_ += head + row + "\n";
    ++rows_;
}

void StatsLog::write() const {
    if (enabled() && first_non_finite_)
        throw std::runtime_error("the flock is not finite from step " + std::to_string(*first_non_finite_) + " on; " + path_ +
                                 " not written (a speed limit, a smaller dt or smaller weights keep it finite)");
    if (enabled()) writeFileAtomic(path_, text_.empty() ? "step,time," + orderParamsHeader() + "\n" : text_);
}

std::string describeOrder(std::uint64_t step, const OrderParams& o) {
    char line[512];
    std::snprintf(line, sizeof line,
                  "step %llu: polarization %.3f (within groups %.3f), milling %.3f, %u groups (largest %.0f%%, grouped "
                  "%.0f%%), nearest neighbour mean %.3g median %.3g, mean neighbours %.2f, mean speed %.3g",
                  static_cast<unsigned long long>(step), o.polarization, o.group_polarization, o.milling, o.groups,
                  100.0 * o.largest_group_share, 100.0 * o.grouped_share, o.nn_mean, o.nn_median, o.mean_neighbours,
                  o.mean_speed);
    return line;
}

}  // namespace murmur
