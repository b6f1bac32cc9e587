// Allowed: the window and the command line reach the engine through its front door.
#include "engine/engine.hpp"
#include "render/camera.hpp"
