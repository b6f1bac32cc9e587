// What the public API's classes share (src/api): engine errors as api::Error, parameters from
// FlockOptions, murmur's own headless context, order parameters as a map.
#pragma once

#include "murmur/murmur.hpp"

#include "gl/egl_context.hpp"
#include "engine/engine.hpp"
#include "io/input_error.hpp"
#include "model/boid.hpp"
#include "model/order_params.hpp"
#include "model/params.hpp"

#include <chrono>
#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>

namespace murmur::api::detail {

// Runs f, turning the engine's errors into api::Error (same text).
template <class F>
auto translated(F&& f) -> decltype(f()) {
    try {
        return f();
    } catch (const Error&) {
        throw;
    } catch (const InputError& e) {
        throw Error(e.what());
    } catch (const gl::ContextError& e) {
        throw ContextError(std::string(e.what()) +
                           "\nA GPU flock needs OpenGL 4.5: on a machine without a GPU, Mesa's llvmpipe through EGL (Debian: "
                           "libegl-mesa0 libgl1-mesa-dri); in your own window, pass gl_loader with its context current; "
                           "or use backend \"cpu\", the CPU reference");
    } catch (const std::invalid_argument& e) {
        throw Error(e.what());
    } catch (const std::runtime_error& e) {  // a file that cannot be read or written
        throw Error(e.what());
    }
}

// Adds the presets beside this library wherever it is (installed or in the build tree).
void findPresets();
void setKey(Params& p, const std::string& key, const std::string& value);
void requireValid(const Params& p);
// Defaults, the preset, each setting, then boids (the world resized to keep the density unless
// world_size was set) and the seed; validated.
Params paramsOf(const FlockOptions& o);
// A caller's arrays (3 floats a boid, id order) as a flock for p, each boid checked as a state
// file's line, and p's boids set to their count (then validated); species null: `own_species()`
// when the count stays, else all 0. Error names the first bad boid (setState, Flock's and
// Ensemble's).
murmur::Flock callerState(const float* positions, const float* velocities, std::size_t boids, const std::uint32_t* species,
                          Params& p, const std::function<std::vector<std::uint32_t>()>& own_species);
// Error unless a GPU flock (or ensemble) made on thread `owner` is called from that thread: its GL
// context is current there only, and another thread would read and step nothing.
void requireOwnThread(const std::string& backend, std::thread::id owner);
// Error unless `steps` more steps fit the 32-bit step counter (the shaders' phases and noise hash
// it; the command line refuses the same run).
void requireCounterRoom(std::uint64_t at, std::uint64_t steps);
// The chunks of a step() with a stop check: about 50 ms each, from one step, doubling while a
// chunk takes less (each chunk's end waits for the GPU: its time is its own). Without a check,
// one chunk of every step.
class StepChunks {
public:
    explicit StepChunks(bool chunked) : chunked_(chunked) {}
    int next(int left);  // the next chunk's steps, at most `left`; starts its clock
    void ended();        // after a chunk and its wait: grows the next one if this one was short

private:
    bool chunked_;
    int size_ = 1;
    std::chrono::steady_clock::time_point began_;
};
// Error if a path holds a NUL character (a C++ string or a Python str may; the file system would
// take the path cut at it): "what: ...".
void requirePlainPath(const std::string& path, const std::string& what);
// One thread steps a flock or an ensemble at a time (Python's step() runs without its lock): the
// thread in step(), if any, and a hold on it for the call; other calls (requireNotStepping) and a
// second step() from another thread get Error.
using SteppingThread = std::atomic<std::thread::id>;
void requireNotStepping(const SteppingThread& stepping);
class SteppingHold {
public:
    explicit SteppingHold(SteppingThread& stepping);
    ~SteppingHold() { stepping_.store(std::thread::id()); }
    SteppingHold(const SteppingHold&) = delete;
    SteppingHold& operator=(const SteppingHold&) = delete;

private:
    SteppingThread& stepping_;
};
// Error naming fork in a child forked from a process that made a GL context (a GPU backend only).
void requireUnforked(const std::string& backend);
// "the flock became non-finite ... between steps `from` and `reached`; it is back at step `from` ...".
std::string nonFiniteMessage(std::uint32_t from, std::uint32_t reached);
// A GPU flock ended on a thread other than its own: its GL names belong to its context (and names
// are per context: deleting them in another would delete another flock's). The engine is ended
// in its own context: here, borrowing that context when no thread has it current (its thread let
// it go or ended), else on its thread at that thread's next call into murmur or its end
// (endOnOwnThread). In a forked child, or in a caller's context, it is left: a small leak, never
// damage.
template <class Engine>
void leaveGlObjects(std::unique_ptr<Engine>& engine, std::shared_ptr<gl::HeadlessContext>& context) {
    (void)engine.release();
    if (context) (void)new std::shared_ptr<gl::HeadlessContext>(std::move(context));
}
void endOnOwnThread(std::thread::id owner, std::shared_ptr<gl::HeadlessContext> context, std::function<void()> end);
template <class Engine>
void endGlObjects(std::unique_ptr<Engine>& engine, std::shared_ptr<gl::HeadlessContext>& context, std::thread::id owner) {
    if (!context || gl::forkedAfterContext()) return leaveGlObjects(engine, context);
    std::shared_ptr<Engine> ending(std::move(engine));
    endOnOwnThread(owner, std::move(context), [ending]() mutable { ending.reset(); });
}
// Ends, on the calling thread, the engines other threads ended that belong to it.
void endWaitingGlObjects();
// murmur's own headless context, shared by every flock made without a loader on this thread.
std::shared_ptr<gl::HeadlessContext> sharedContext();
// The caller's context through its loader: GL 4.5 or Error.
void loadCallerGl(GlLoader loader);
// The engine's backend for a checked name ("cpu" or "gpu").
inline Backend backendOf(const std::string& name) { return name == "cpu" ? Backend::Cpu : Backend::Gpu; }
// Error naming the limit unless a flock like p fits the current GL context (engine::capacityProblem).
void requireGpuCapacity(const Params& p);
// Error unless backend is "gpu" or "cpu" (checked before the parameters, so it is the first
// complaint), or when an on/off environment variable (io/env_switch.hpp) holds another value.
void checkBackendName(const std::string& backend);
// The backend o names: Error unless "gpu" or "cpu"; for "gpu", a GL 4.5 context made current, the
// caller's (through o.gl_loader) or murmur's shared one, which is returned for the flock to hold
// (null otherwise).
std::shared_ptr<gl::HeadlessContext> prepareBackend(const FlockOptions& o);
std::map<std::string, double> orderMap(const OrderParams& o);

}  // namespace murmur::api::detail
