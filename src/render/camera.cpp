// Camera math; see camera.hpp.
#include "render/camera.hpp"

#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <cmath>

namespace murmur::render {
namespace {
constexpr float kFovY = glm::radians(45.0f);
}

void Camera::reset(const Params& p) {
    dims_ = p.dims;
    const float L = p.world_size;
    target_ = dims_ == 3 ? glm::vec3(L / 2) : glm::vec3(L / 2, L / 2, 0.0f);
    world_ = L;
    yaw_deg_ = 35.0f;
    pitch_deg_ = 25.0f;
    near_ = L * 0.01f;
    far_ = L * 20.0f;
    framed_ = true;
    frameWorld();
}

CameraMode cameraModeOf(const Params& p) {
    if (p.camera == 1) return CameraMode::World;
    if (p.camera == 2) return CameraMode::Follow;
    if (p.camera == 3) return p.dims == 3 ? CameraMode::Ground : CameraMode::Follow;
    return p.bounds == Bounds::Open ? CameraMode::Follow : CameraMode::World;
}

namespace {
// The flock's box, per used axis from the 2nd to the 98th percentile of the finite coordinates;
// false when there is nothing finite to frame.
bool flockBox(const std::vector<float>& xyz, int dims, glm::vec3& lo, glm::vec3& hi) {
    const std::size_t n = xyz.size() / 3;
    lo = hi = glm::vec3(0.0f);
    std::vector<float> axis;
    for (int a = 0; a < dims; ++a) {
        axis.clear();
        for (std::size_t i = 0; i < n; ++i)
            if (std::isfinite(xyz[3 * i + std::size_t(a)])) axis.push_back(xyz[3 * i + std::size_t(a)]);
        if (axis.empty()) return false;
        std::sort(axis.begin(), axis.end());
        lo[a] = axis[(axis.size() - 1) * 2 / 100];
        hi[a] = axis[(axis.size() - 1) * 98 / 100];
    }
    return true;
}
}  // namespace

void Camera::reset(const Params& p, const std::vector<float>& xyz) {
    reset(p);
    glm::vec3 lo, hi;
    if (!flockBox(xyz, dims_, lo, hi)) return;  // nothing finite to frame: the world
    const glm::vec3 size = hi - lo;
    const float edge = std::max({size.x, size.y, dims_ == 3 ? size.z : 0.0f});
    if (!(edge < 0.5f * p.world_size)) return;  // a flock over much of the world (or straddling a wrap): the world
    target_ = (lo + hi) * 0.5f;
    if (dims_ == 2) target_.z = 0.0f;
    world_ = std::max(edge * 1.3f, 0.02f * p.world_size);  // a margin; a flock in one spot still shows its boids
    frameWorld();
}

void Camera::frameFlock(const Params& p, const std::vector<float>& xyz, CameraMode mode) {
    if (mode == CameraMode::World) return reset(p, xyz);
    reset(p);
    glm::vec3 lo, hi;
    if (!flockBox(xyz, dims_, lo, hi)) return;
    const glm::vec3 size = hi - lo;
    frameBox((lo + hi) * 0.5f, std::max({size.x, size.y, dims_ == 3 ? size.z : 0.0f}), mode);
}

// The view on a flock's box: its centre the target, its edge (with a margin) what is framed.
void Camera::frameBox(glm::vec3 centre, float edge, CameraMode mode) {
    target_ = centre;
    if (dims_ == 2) target_.z = 0.0f;
    world_ = std::max(edge * 1.1f, 1e-3f);
    frameWorld();
    distance_ *= 0.6f;  // closer than a box's framing: the flock fills about three quarters of the view
    aimAtFlock(mode);
}

// On the ground in ground mode; the clipping planes from the framed extent and the distance, so a
// flock far from the world box is drawn.
void Camera::aimAtFlock(CameraMode mode) {
    if (mode == CameraMode::Ground && dims_ == 3) standOnTheGround();
    near_ = std::min(near_, world_ * 0.01f);
    far_ = std::max(far_, distance_ + world_ * 20.0f);
}

// Puts the eye on the ground (y = 0), looking up at the flock between 5 and 80 degrees: the
// pitch for the view's distance, the distance lengthened where the flock is too high for 80
// degrees (a flock at or below the ground: 5 degrees up, at the view's distance).
void Camera::standOnTheGround() {
    const float steepest = std::sin(glm::radians(80.0f));
    distance_ = std::max(distance_, target_.y / steepest);
    const float s = std::clamp(target_.y / distance_, std::sin(glm::radians(5.0f)), steepest);
    pitch_deg_ = -glm::degrees(std::asin(s));
}

void Camera::track(glm::vec3 centre, float extent, CameraMode mode, float seconds) {
    if (mode == CameraMode::World || !(seconds > 0.0f) || !std::isfinite(centre.x + centre.y + centre.z + extent)) return;
    const float k = 1.0f - std::exp(-seconds / 0.7f);
    target_ += (centre - target_) * k;
    if (dims_ == 2) target_.z = 0.0f;
    const float before = world_;
    world_ += (std::max(extent * 1.1f, 1e-3f) - world_) * k;
    distance_ *= world_ / before;  // the user's zoom kept
    view_height_ *= world_ / before;
    aimAtFlock(mode);
}

// A view narrower than tall frames the world by its width: everything scales by 1/aspect.
void Camera::frameWorld() {
    const float narrow = std::max(1.0f, 1.0f / aspect_);
    view_height_ = world_ * 1.08f * narrow;
    distance_ = world_ * 2.4f * narrow;
}

void Camera::setAspect(float aspect) {
    if (!(aspect > 0.0f) || aspect == aspect_) return;
    aspect_ = aspect;
    if (framed_) frameWorld();
}

glm::vec3 Camera::eye() const {
    if (dims_ == 2) return target_ + glm::vec3(0, 0, 1);
    const float yaw = glm::radians(yaw_deg_), pitch = glm::radians(pitch_deg_);
    const glm::vec3 dir(std::cos(pitch) * std::sin(yaw), std::sin(pitch), std::cos(pitch) * std::cos(yaw));
    return target_ + distance_ * dir;
}

glm::mat4 Camera::view() const {
    if (dims_ == 2) return glm::translate(glm::mat4(1.0f), -glm::vec3(target_.x, target_.y, 0.0f));
    return glm::lookAt(eye(), target_, glm::vec3(0, 1, 0));
}

glm::mat4 Camera::projection(float aspect) const {
    if (dims_ == 2) {
        const float h = view_height_ / 2, w = h * aspect;
        return glm::ortho(-w, w, -h, h, -1.0f, 1.0f);
    }
    return glm::perspective(kFovY, aspect, near_, far_);
}

void Camera::pan(float dx_px, float dy_px, float height_px) {
    if (height_px <= 0) return;
    framed_ = false;
    if (dims_ == 2) {
        const float units_per_px = view_height_ / height_px;
        target_ -= glm::vec3(dx_px, -dy_px, 0.0f) * units_per_px;
        return;
    }
    const float units_per_px = 2.0f * distance_ * std::tan(kFovY / 2) / height_px;
    const glm::mat4 v = view();
    const glm::vec3 right(v[0][0], v[1][0], v[2][0]), up(v[0][1], v[1][1], v[2][1]);
    target_ += (-dx_px * right + dy_px * up) * units_per_px;
}

void Camera::orbit(float dx_px, float dy_px) {
    if (dims_ == 2) return;
    yaw_deg_ -= dx_px * 0.3f;
    pitch_deg_ = std::clamp(pitch_deg_ + dy_px * 0.3f, -89.0f, 89.0f);
}

void Camera::zoom(float wheel_steps) {
    const float factor = std::pow(0.88f, wheel_steps);
    framed_ = false;
    view_height_ = std::clamp(view_height_ * factor, 1e-3f, 1e7f);
    distance_ = std::clamp(distance_ * factor, near_ * 2, far_ / 2);
}

glm::vec3 Camera::pointerToWorld(glm::vec2 pixel, glm::vec2 viewport) const {
    const glm::mat4 inv = glm::inverse(viewProjection(viewport.x / viewport.y));
    const glm::vec2 ndc = pixel / viewport * 2.0f - 1.0f;
    const glm::vec4 near_h = inv * glm::vec4(ndc, -1.0f, 1.0f), far_h = inv * glm::vec4(ndc, 1.0f, 1.0f);
    const glm::vec3 a = glm::vec3(near_h) / near_h.w, b = glm::vec3(far_h) / far_h.w;
    if (dims_ == 2) return {a.x, a.y, 0.0f};
    const glm::vec3 normal = glm::normalize(eye() - target_), dir = b - a;
    const float denom = glm::dot(dir, normal);
    if (std::abs(denom) < 1e-12f) return target_;
    return a + dir * (glm::dot(target_ - a, normal) / denom);
}

bool Camera::toPixel(const glm::vec3& world, glm::vec2 viewport, glm::vec2& pixel) const {
    const glm::vec4 clip = viewProjection(viewport.x / viewport.y) * glm::vec4(world, 1.0f);
    if (clip.w <= 0) return false;
    const glm::vec2 ndc = glm::vec2(clip) / clip.w;
    pixel = (ndc * 0.5f + 0.5f) * viewport;
    return true;
}

}  // namespace murmur::render
