// A style's values reach the GPU through its registry row's slots alone: slot k is packed into
// component k % 4 of style vec4 k / 4, and the shader's define of that slot's name reads exactly
// there (tests/style_slots_check.py holds the shaders to reading only those names).
#include "gpu/layout.hpp"
#include "gpu/variant.hpp"
#include "model/grid_spec.hpp"
#include "model/styles.hpp"

#include <gtest/gtest.h>

#include <string>

namespace murmur {
namespace {

std::string defineOf(const std::vector<gl::ShaderDefine>& defines, const std::string& name) {
    for (const auto& d : defines)
        if (d.name == name) return d.value;
    return "";
}

TEST(StyleSlots, EachSlotIsPackedWhereItsShaderDefineReads) {
    int slots = 0;
    for (const StyleInfo& style : styles()) {
        Params p;
        p.style = style.style;
        p.boids = 1000;
        p.vicsek.noise = 0.7f;  // values no default shares, so a slot packed in another's place shows
        p.couzin.noise = 0.11f;
        p.cucker_smale.beta = 0.31f;
        p.dc.height = 42.0f;
        const gpu::SimParams block = gpu::packParams(p, makeGridSpec(p), p.boids);
        const auto defines = gpu::variantDefines(p);
        for (std::size_t k = 0; k < style.slots.size(); ++k, ++slots) {
            SCOPED_TRACE(std::string(style.name) + " slot " + style.slots[k].name);
            EXPECT_EQ(block.style[k / 4][int(k % 4)], style.slots[k].value(p));  // the same float, bit for bit
            const std::string read = defineOf(defines, style.slots[k].name);
            EXPECT_EQ(read, "(P.style[" + std::to_string(k / 4) + "]." + "xyzw"[k % 4] + ")");
        }
        for (std::size_t k = style.slots.size(); k < kMaxStyleSlots; ++k)
            EXPECT_EQ(block.style[k / 4][int(k % 4)], 0.0f) << style.name << ": slot " << k << " is no slot of its own";
    }
    EXPECT_GE(slots, 13) << "decarpentier 8, vicsek 1, couzin 2, cucker_smale 2 at least: the registry was read";
}

TEST(StyleSlots, TheDefinesReadTheSlotsInOrder) {
    EXPECT_EQ(gpu::styleSlotRead(0), "(P.style[0].x)");
    EXPECT_EQ(gpu::styleSlotRead(5), "(P.style[1].y)");
    EXPECT_EQ(gpu::styleSlotRead(15), "(P.style[3].w)");
}

}  // namespace
}  // namespace murmur
