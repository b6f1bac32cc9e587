// The view: in 2D a pan/zoom orthographic camera, in 3D an orbit camera (yaw, pitch, distance
// around a target) with perspective. World y is "up" in 3D. Pure math, no GL: tested on the CPU.
#pragma once

#include "model/params.hpp"

#include <glm/glm.hpp>

#include <vector>

namespace murmur::render {

// Where the camera looks (Params::camera, resolved: auto is follow in open sky, else world).
enum class CameraMode { World, Follow, Ground };
CameraMode cameraModeOf(const Params& p);

class Camera {
public:
    // Frames the whole world of p in a view of the last aspect given.
    void reset(const Params& p);
    // Frames the flock (xyz: 3 floats a boid) where it covers a small part of the world: its
    // extent (per axis from the 2nd to the 98th percentile, so a few stragglers do not count) when
    // that is under half the world's edge on every axis, with a margin; else the whole world. The
    // reset key, the start and a respawn in the window; the headless screenshot.
    void reset(const Params& p, const std::vector<float>& xyz);
    // Frames the flock's extent (as above, 2nd to 98th percentile) wherever it is, however large:
    // follow, or (3D) ground: the eye on the ground (y = 0) below and beside it, looking up at it.
    // World mode: reset(p, xyz).
    void frameFlock(const Params& p, const std::vector<float>& xyz, CameraMode mode);
    // Moves the view toward a flock whose centre and extent are known (the window's samples) by
    // 1 - exp(-seconds / 0.7 s) of the way, keeping the user's yaw, zoom (and pitch in follow mode).
    void track(glm::vec3 centre, float extent, CameraMode mode, float seconds);
    // The view's width over height. Until the user pans or zooms, the whole world stays framed
    // as the aspect changes (the panel hidden or resized, the window resized).
    void setAspect(float aspect);
    bool framed() const { return framed_; }

    glm::mat4 view() const;
    glm::mat4 projection(float aspect) const;
    glm::mat4 viewProjection(float aspect) const { return projection(aspect) * view(); }
    glm::vec3 eye() const;
    int dims() const { return dims_; }

    // Input, in pixels of a viewport `height` pixels tall.
    void pan(float dx_px, float dy_px, float height_px);
    void orbit(float dx_px, float dy_px);  // 3D only; 2D ignores it
    void zoom(float wheel_steps);          // positive: closer

    // Window pixel (origin bottom left) -> world: in 2D the point under it; in 3D where the ray
    // through it meets the plane through the orbit target facing the camera.
    glm::vec3 pointerToWorld(glm::vec2 pixel, glm::vec2 viewport) const;
    // World position -> window pixel (origin bottom left); false when behind the camera.
    bool toPixel(const glm::vec3& world, glm::vec2 viewport, glm::vec2& pixel) const;

private:
    int dims_ = 2;
    glm::vec3 target_{0.0f};
    float view_height_ = 1.0f;  // 2D: world units visible vertically
    float distance_ = 1.0f;     // 3D: eye to target
    float yaw_deg_ = 35.0f, pitch_deg_ = 25.0f;
    float near_ = 0.1f, far_ = 10.0f;
    float world_ = 1.0f, aspect_ = 1.0f;  // world_: the edge of what is framed (the world, or the flock's extent)
    bool framed_ = true;
    void frameWorld();
    void frameBox(glm::vec3 centre, float edge, CameraMode mode);
    void standOnTheGround();
    void aimAtFlock(CameraMode mode);
};

}  // namespace murmur::render
