// A state kept and brought back, for a caller that must never keep a non-finite flock (the
// library's step) or that looks a step ahead (the library's per-boid acceleration): both
// backends' Simulation (one flock) and Ensemble (every flock at once) are one.
#pragma once

namespace murmur {

class Restorable {
public:
    virtual ~Restorable() = default;
    // Keeps the state, the step counter and the last step's neighbour counts.
    virtual void checkpoint() = 0;
    // Brings back what checkpoint() kept (the parameters stay as they are).
    virtual void rollback() = 0;
    // Whether every position and velocity is finite.
    virtual bool allFinite() = 0;
};

}  // namespace murmur
