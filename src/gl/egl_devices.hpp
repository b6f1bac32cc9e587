// The EGL devices a headless context can run on, and which one to try: MURMUR_EGL_DEVICE (an index
// as murmur lists them, or a PCI bus id such as 0000:3b:00.0 or 3b:00.0) names one; else
// CUDA_VISIBLE_DEVICES' first entry names an NVIDIA device by its CUDA ordinal (NVIDIA's EGL does
// not read that variable itself: without it every job on a node lands on GPU 0); else NVIDIA
// devices first, other hardware next, software devices last (after Mesa's surfaceless platform).
#pragma once

#include <glad/egl.h>

#include <optional>
#include <string>
#include <vector>

namespace murmur::gl {

struct EglDevice {
    EGLDeviceEXT handle = nullptr;
    int index = 0;             // in EGL's enumeration
    bool nvidia = false, software = false;
    int cuda = -1;             // EGL_CUDA_DEVICE_NV, -1 if none
    std::string render_node;   // /dev/dri/renderD128, if EGL says
    std::string pci;           // 0000:3b:00.0, from the render node's sysfs folder
    // "EGL device 1 (NVIDIA, CUDA 1, PCI 0000:3b:00.0, /dev/dri/renderD129)"
    std::string describe() const;
};

// Every device EGL enumerates (none without EGL_EXT_device_enumeration).
std::vector<EglDevice> eglDevices();

// The devices to try, in order, and why when the user's choice is not among them (the error names
// the devices there are). `software_too`: whether software devices are tried at all.
struct DeviceChoice {
    std::vector<EglDevice> order;
    std::string problem;  // a named device that is not there
    bool named = false;   // MURMUR_EGL_DEVICE or CUDA_VISIBLE_DEVICES chose
};
DeviceChoice chooseEglDevices(const std::vector<EglDevice>& devices);

// MURMUR_EGL_DEVICE's value is not an index or a PCI bus id: the message (exit 2), else nullopt.
std::optional<std::string> eglDeviceVariableProblem();

}  // namespace murmur::gl
