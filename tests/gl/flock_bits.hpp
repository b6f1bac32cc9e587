// Comparing GPU states to the bit: how many boids' positions or velocities differ in any bit
// between two flocks in id order (byId in model/boid.hpp), and every figure of two samples.
#pragma once

#include "model/boid.hpp"
#include "model/order_params.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <string>

namespace murmur {

inline std::size_t differingBits(const Flock& a, const Flock& b) {
    if (a.size() != b.size()) return a.size() > b.size() ? a.size() : b.size();
    std::size_t differ = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        differ += std::memcmp(&a[i].p, &b[i].p, sizeof a[i].p) != 0 || std::memcmp(&a[i].v, &b[i].v, sizeof a[i].v) != 0 ||
                  a[i].image != b[i].image;
    return differ;
}

// Every order parameter of two samples the same to the bit.
inline void expectSameMeasures(const OrderParams& got, const OrderParams& want, const std::string& what) {
    EXPECT_EQ(got.boids, want.boids) << what;
    EXPECT_EQ(got.polarization, want.polarization) << what;
    EXPECT_EQ(got.mean_speed, want.mean_speed) << what;
    EXPECT_EQ(got.mean_neighbours, want.mean_neighbours) << what;
    EXPECT_EQ(got.nn_mean, want.nn_mean) << what;
    EXPECT_EQ(got.nn_median, want.nn_median) << what;
    EXPECT_EQ(got.nn_histogram, want.nn_histogram) << what;
    EXPECT_EQ(got.groups, want.groups) << what;
    EXPECT_EQ(got.grouped_share, want.grouped_share) << what;
    EXPECT_EQ(got.largest_group_share, want.largest_group_share) << what;
    EXPECT_EQ(got.group_polarization, want.group_polarization) << what;
    EXPECT_EQ(got.milling, want.milling) << what;
    for (std::uint32_t k = 0; k < kLargestGroups; ++k) {
        const GroupFigures &g = got.largest_groups[k], &w = want.largest_groups[k];
        EXPECT_EQ(g.boids, w.boids) << what << ", listed group " << k;
        EXPECT_EQ(g.first_id, w.first_id) << what << ", listed group " << k;
        EXPECT_EQ(g.polarization, w.polarization) << what << ", listed group " << k;
        EXPECT_EQ(g.milling, w.milling) << what << ", listed group " << k;
        EXPECT_EQ(g.centre, w.centre) << what << ", listed group " << k;
    }
}

}  // namespace murmur
