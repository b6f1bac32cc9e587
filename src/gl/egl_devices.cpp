// See egl_devices.hpp.
#include "gl/egl_devices.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <regex>

namespace murmur::gl {
namespace {

bool hasWord(const char* list, const char* name) {
    if (!list) return false;
    const std::string all = std::string(" ") + list + " ";
    return all.find(std::string(" ") + name + " ") != std::string::npos;
}

// The PCI bus id of a DRM node: its sysfs device link ends in it (../../0000:3b:00.0).
std::string pciOfNode(const std::string& node) {
    if (node.empty()) return {};
    std::error_code ec;
    const auto name = std::filesystem::path(node).filename().string();
    const auto target = std::filesystem::canonical("/sys/class/drm/" + name + "/device", ec);
    return ec ? std::string() : target.filename().string();
}

const std::regex& pciForm() {
    static const std::regex form("^([0-9a-fA-F]{4}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\\.[0-7]$");
    return form;
}

bool samePci(const std::string& have, const std::string& asked) {
    if (have.empty()) return false;
    const auto lower = [](std::string s) {
        std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
        return s;
    };
    const std::string a = lower(asked), h = lower(have);
    return h == a || (a.size() == 7 && h.size() == 12 && h.substr(5) == a);
}

std::string listed(const std::vector<EglDevice>& devices) {
    if (devices.empty()) return "EGL lists no devices";
    std::string out = "the devices are:";
    for (const EglDevice& d : devices) out += " " + d.describe() + ";";
    out.pop_back();
    return out;
}

}  // namespace

std::string EglDevice::describe() const {
    std::string what = nvidia ? "NVIDIA" : software ? "software" : "hardware";
    if (cuda >= 0) what += ", CUDA " + std::to_string(cuda);
    if (!pci.empty()) what += ", PCI " + pci;
    if (!render_node.empty()) what += ", " + render_node;
    return "EGL device " + std::to_string(index) + " (" + what + ")";
}

std::vector<EglDevice> eglDevices() {
    std::vector<EglDevice> out;
    const char* client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    if (!hasWord(client, "EGL_EXT_platform_device") || !eglQueryDevicesEXT) return out;
    EGLDeviceEXT handles[32];
    EGLint count = 0;
    if (!eglQueryDevicesEXT(32, handles, &count)) return out;
    for (EGLint i = 0; i < count; ++i) {
        EglDevice d;
        d.handle = handles[i];
        d.index = int(i);
        const char* ext = eglQueryDeviceStringEXT ? eglQueryDeviceStringEXT(handles[i], EGL_EXTENSIONS) : nullptr;
        d.nvidia = hasWord(ext, "EGL_NV_device_cuda");
        d.software = hasWord(ext, "EGL_MESA_device_software");
        EGLAttrib cuda = -1;
        if (d.nvidia && eglQueryDeviceAttribEXT && eglQueryDeviceAttribEXT(handles[i], EGL_CUDA_DEVICE_NV, &cuda)) d.cuda = int(cuda);
        if (hasWord(ext, "EGL_EXT_device_drm_render_node") || hasWord(ext, "EGL_EXT_device_drm")) {
            const char* node = eglQueryDeviceStringEXT(handles[i], hasWord(ext, "EGL_EXT_device_drm_render_node")
                                                                       ? EGL_DRM_RENDER_NODE_FILE_EXT
                                                                       : EGL_DRM_DEVICE_FILE_EXT);
            if (node) d.render_node = node;
        }
        d.pci = pciOfNode(d.render_node);
        out.push_back(d);
    }
    return out;
}

std::optional<std::string> eglDeviceVariableProblem() {
    const char* asked = std::getenv("MURMUR_EGL_DEVICE");
    if (!asked || !*asked) return std::nullopt;
    const std::string v = asked;
    if (std::all_of(v.begin(), v.end(), [](unsigned char c) { return std::isdigit(c); }) && v.size() <= 3) return std::nullopt;
    if (std::regex_match(v, pciForm())) return std::nullopt;
    std::string shown;
    for (const unsigned char c : v.substr(0, 40)) shown += c >= 0x20 && c != 0x7f ? std::string(1, char(c)) : "?";
    return "MURMUR_EGL_DEVICE='" + shown + "': valid: a device's index (0, 1, ...) or its PCI bus id (0000:3b:00.0 or 3b:00.0)";
}

DeviceChoice chooseEglDevices(const std::vector<EglDevice>& devices) {
    DeviceChoice c;
    const char* asked = std::getenv("MURMUR_EGL_DEVICE");
    if (asked && *asked) {
        c.named = true;
        const std::string v = asked;
        for (const EglDevice& d : devices)
            if ((std::regex_match(v, pciForm()) && samePci(d.pci, v)) || v == std::to_string(d.index)) c.order.push_back(d);
        if (c.order.empty()) c.problem = "MURMUR_EGL_DEVICE=" + v + " names no device here; " + listed(devices);
        return c;
    }
    const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
    const std::string first = visible ? std::string(visible).substr(0, std::string(visible).find(',')) : "";
    if (!first.empty() && std::all_of(first.begin(), first.end(), [](unsigned char ch) { return std::isdigit(ch); }) &&
        std::any_of(devices.begin(), devices.end(), [](const EglDevice& d) { return d.nvidia; })) {
        c.named = true;
        for (const EglDevice& d : devices)
            if (d.cuda == std::atoi(first.c_str())) c.order.push_back(d);
        if (c.order.empty()) c.problem = "CUDA_VISIBLE_DEVICES=" + std::string(visible) + ": no NVIDIA EGL device has CUDA ordinal " + first + "; " + listed(devices);
        return c;
    }
    c.order = devices;
    std::stable_sort(c.order.begin(), c.order.end(), [](const EglDevice& a, const EglDevice& b) {
        const auto rank = [](const EglDevice& d) { return d.nvidia ? 0 : d.software ? 2 : 1; };
        return rank(a) < rank(b);
    });
    c.order.erase(std::remove_if(c.order.begin(), c.order.end(), [](const EglDevice& d) { return d.software; }), c.order.end());
    return c;
}

}  // namespace murmur::gl
