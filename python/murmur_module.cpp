// The Python module `murmur` (pybind11) over the public C++ API: flocks as objects, their state
// as numpy arrays, parameters by key, errors as murmur.Error (a ValueError) with the command
// line's messages.
#include "murmur/murmur.hpp"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <optional>
#include <cmath>
#include <limits>
#include <string>
#include <unordered_map>

namespace py = pybind11;
using murmur::api::Ensemble;
using murmur::api::Flock;

namespace {

// The one conversion of every Python value murmur takes: numpy's scalars and 0-d arrays become
// the Python scalar they hold, exactly (np.array(250.7) is 250.7, not 250); any other array is
// murmur.Error naming its shape.
py::object plainValue(const py::handle& value, const std::string& what) {
    if (py::hasattr(value, "dtype") && py::hasattr(value, "ndim")) {  // numpy: a scalar or an array
        if (value.attr("ndim").cast<int>() != 0)
            throw murmur::api::Error(what + ": one value expected, not an array of shape " +
                                     py::str(value.attr("shape")).cast<std::string>());
        return value.attr("item")();
    }
    return py::reinterpret_borrow<py::object>(value);
}

std::string textOf(py::handle value) { return py::str(value).cast<std::string>(); }

std::string typeName(const py::handle& value) { return py::str(py::type::of(value).attr("__name__")).cast<std::string>(); }

// A value as the parameter table takes it: numbers in Python's shortest exact form (repr), True
// and False as on and off, names as they are.
std::string asSetting(const py::handle& raw, const std::string& key) {
    const py::object value = plainValue(raw, key);
    if (py::isinstance<py::bool_>(value)) return value.cast<bool>() ? "on" : "off";
    if (py::isinstance<py::str>(value)) return value.cast<std::string>();
    if (py::isinstance<py::int_>(value) || py::isinstance<py::float_>(value)) return py::repr(value).cast<std::string>();
    throw murmur::api::Error(key + ": a number, True/False or a name expected, not " + typeName(raw));
}

// A whole number in [lo, hi] from Python (an int, a numpy integer or 0-d integer array; not a
// bool, not a float), or murmur.Error naming it and the range: pybind11's own conversion would say
// only "incompatible function arguments".
std::uint64_t wholeNumber(const py::handle& raw, const std::string& what, std::uint64_t lo, std::uint64_t hi) {
    const auto refuse = [&] {
        return murmur::api::Error(what + " = " + py::repr(raw).cast<std::string>() + ": valid: a whole number in [" +
                                  std::to_string(lo) + ", " + std::to_string(hi) + "]");
    };
    const py::object value = plainValue(raw, what);
    if (py::isinstance<py::bool_>(value) || !py::isinstance<py::int_>(value)) throw refuse();
    const py::int_ n = value.cast<py::int_>();
    if (n < py::int_(lo) || n > py::int_(hi)) throw refuse();
    return n.cast<std::uint64_t>();
}

// True or False from Python (a bool or numpy bool), or murmur.Error naming it.
bool trueOrFalse(const py::handle& raw, const std::string& what) {
    const py::object value = plainValue(raw, what);
    if (!py::isinstance<py::bool_>(value))
        throw murmur::api::Error(what + " = " + py::repr(raw).cast<std::string>() + ": valid: True or False");
    return value.cast<bool>();
}

// A number from Python (an int or float, numpy's too; not a bool), or murmur.Error naming it.
double realNumber(const py::handle& raw, const std::string& what) {
    const py::object value = plainValue(raw, what);
    if (py::isinstance<py::bool_>(value) || !(py::isinstance<py::int_>(value) || py::isinstance<py::float_>(value)))
        throw murmur::api::Error(what + " = " + py::repr(raw).cast<std::string>() + ": valid: a number");
    return value.cast<double>();
}

constexpr std::uint64_t kMaxSeed = 9007199254740991ull;  // 2^53 - 1: the seed key's range (exact in JSON and doubles)
constexpr std::uint64_t kMaxBoids = 100000000ull;         // the boids key's range

std::optional<std::uint64_t> optionalWhole(const py::object& value, const std::string& what, std::uint64_t lo, std::uint64_t hi) {
    if (value.is_none()) return std::nullopt;
    return wholeNumber(value, what, lo, hi);
}

constexpr std::uint64_t kMaxStepsACall = 0x7FFFFFFF;  // the API's step(int)

std::uint32_t flockIndex(const Ensemble& e, const py::handle& k) {
    return std::uint32_t(wholeNumber(k, "flock", 0, e.flocks() - 1));
}

// Whether the parameter table says key holds whole numbers (boids, seed, species_count, ...).
bool wholeKey(const std::string& key) {
    static const std::unordered_map<std::string, bool> whole = [] {
        std::unordered_map<std::string, bool> out;
        for (const auto& r : murmur::api::params()) out[r.key] = r.kind == "int" || r.kind == "seed";
        return out;
    }();
    const auto found = whole.find(key);
    return found != whole.end() && found->second;
}

// A key's value back as Python: an int for a whole-number key, a float where it reads as a
// number, else the name.
py::object fromSetting(const std::string& key, const std::string& text) {
    if (wholeKey(key) && !text.empty() && text.find_first_not_of("0123456789") == std::string::npos)
        return py::int_(py::str(text));
    try {
        std::size_t used = 0;
        const double v = std::stod(text, &used);
        if (used == text.size()) return py::float_(v);
    } catch (const std::exception&) {
    }
    return py::str(text);
}

// An (N, 3) array of numbers (or (N, 2) in 2D, z then 0) as 3 floats a row; murmur.Error names a
// wrong shape or type, and a value beyond float's range by its row. Values the state's own
// checks refuse (non-finite, far outside the world) are left to them.
std::vector<float> xyzRows(const py::handle& value, const char* what, int dims) {
    const py::object a = py::module_::import("numpy").attr("asarray")(value);
    const std::string kind = textOf(a.attr("dtype").attr("kind"));
    const int ndim = a.attr("ndim").cast<int>();
    const py::tuple shape = a.attr("shape");
    const int columns = ndim == 2 ? shape[1].cast<int>() : -1;
    if ((kind != "f" && kind != "i" && kind != "u") || ndim != 2 || !(columns == 3 || (columns == 2 && dims == 2)))
        throw murmur::api::Error(std::string(what) + ": an (N, 3) array of numbers expected" + (dims == 2 ? " ((N, 2) in 2D)" : "") +
                                 ", not " + textOf(a.attr("dtype")) + " of shape " + textOf(shape));
    const std::size_t n = std::size_t(shape[0].cast<py::ssize_t>());
    if (n > kMaxBoids)  // before any copy of it
        throw murmur::api::Error(std::string(what) + ": " + std::to_string(n) + " rows: valid: at most " + std::to_string(kMaxBoids) +
                                 " boids (the boids key's range)");
    const auto rows = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(a);
    if (!rows) throw std::bad_alloc();  // the float64 copy of a kind numpy converts failed: no memory for it (MemoryError)
    std::vector<float> out(n * 3, 0.0f);
    const double* in = rows.data();
    for (std::size_t i = 0; i < n; ++i)
        for (int k = 0; k < columns; ++k) {
            const double v = in[i * std::size_t(columns) + std::size_t(k)];
            if (std::isfinite(v) && std::fabs(v) > double(std::numeric_limits<float>::max()))
                throw murmur::api::Error(std::string(what) + "[" + std::to_string(i) + ", " + std::to_string(k) + "] = " +
                                         py::repr(py::float_(v)).cast<std::string>() + ": beyond a float's range");
            out[i * 3 + std::size_t(k)] = float(v);
        }
    return out;
}

// set_state's arrays: what is None is the flock's own (then the count must stay too).
struct StateArrays {
    std::vector<float> pos, vel;
    std::vector<std::uint32_t> species;
    bool has_species = false;
    std::size_t boids = 0;
};

std::vector<std::uint32_t> speciesColumn(const py::object& species, std::size_t n) {
    const py::object a = py::module_::import("numpy").attr("asarray")(species);
    const std::string kind = textOf(a.attr("dtype").attr("kind"));
    if ((kind != "i" && kind != "u") || a.attr("ndim").cast<int>() != 1 || a.attr("shape").cast<py::tuple>()[0].cast<std::size_t>() != n)
        throw murmur::api::Error("species: an (N,) array of whole numbers expected for N = " + std::to_string(n) + ", not " +
                                 textOf(a.attr("dtype")) + " of shape " + textOf(a.attr("shape")));
    std::vector<std::uint32_t> kinds;
    for (const py::handle& v : a.attr("tolist")()) {
        const py::int_ k = v.cast<py::int_>();
        if (k < py::int_(0) || k > py::int_(0xFFFFFFFFu))
            throw murmur::api::Error("species[" + std::to_string(kinds.size()) + "] = " + textOf(k) + ": out of range [0, species_count - 1]");
        kinds.push_back(k.cast<std::uint32_t>());
    }
    return kinds;
}

template <class OwnPositions, class OwnVelocities>
StateArrays stateArrays(const py::object& positions, const py::object& velocities, const py::object& species, int dims,
                        OwnPositions own_positions, OwnVelocities own_velocities) {
    if (positions.is_none() && velocities.is_none() && species.is_none())
        throw murmur::api::Error("set_state: give positions, velocities or species (arrays in id order)");
    StateArrays s;
    s.pos = positions.is_none() ? own_positions() : xyzRows(positions, "positions", dims);
    s.vel = velocities.is_none() ? own_velocities() : xyzRows(velocities, "velocities", dims);
    s.boids = s.pos.size() / 3;
    if (s.vel.size() != s.pos.size())
        throw murmur::api::Error("set_state: " + std::to_string(s.boids) + " positions but " + std::to_string(s.vel.size() / 3) +
                                 " velocities" + (positions.is_none() || velocities.is_none() ? " (the flock's own, kept)" : ""));
    if ((s.has_species = !species.is_none())) s.species = speciesColumn(species, s.boids);
    return s;
}

void setState(Flock& f, const py::object& positions, const py::object& velocities, const py::object& species) {
    const StateArrays s = stateArrays(positions, velocities, species, std::stoi(f.get("dims")), [&] { return f.positions(); },
                                      [&] { return f.velocities(); });
    f.setState(s.pos.data(), s.vel.data(), s.boids, s.has_species ? s.species.data() : nullptr);
}

void setFlockState(Ensemble& e, const py::object& k, const py::object& positions, const py::object& velocities,
                   const py::object& species) {
    const std::uint32_t at = flockIndex(e, k);
    const StateArrays s = stateArrays(positions, velocities, species, std::stoi(e.get(at, "dims")), [&] { return e.positions(at); },
                                      [&] { return e.velocities(at); });
    e.setState(at, s.pos.data(), s.vel.data(), s.boids, s.has_species ? s.species.data() : nullptr);
}

template <class T>
py::array_t<T> arrayOf(const std::vector<T>& values) {
    py::array_t<T> a(py::ssize_t(values.size()));
    std::copy(values.begin(), values.end(), a.mutable_data());
    return a;
}

// An (N, 4) array of numbers as 4 floats a row (the kept state); murmur.Error names a wrong shape
// or type; values are the library's to check.
std::vector<float> rows4(const py::handle& value, const char* what) {
    const py::object a = py::module_::import("numpy").attr("asarray")(value);
    const std::string kind = textOf(a.attr("dtype").attr("kind"));
    const py::tuple shape = a.attr("shape");
    if ((kind != "f" && kind != "i" && kind != "u") || a.attr("ndim").cast<int>() != 2 || shape[1].cast<int>() != 4)
        throw murmur::api::Error(std::string(what) + ": an (N, 4) array of numbers expected, not " + textOf(a.attr("dtype")) + " of shape " +
                                 textOf(shape));
    const auto rows = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(a);
    if (!rows) throw std::bad_alloc();
    std::vector<float> out(std::size_t(rows.size()));
    for (std::size_t i = 0; i < out.size(); ++i) {
        const double v = rows.data()[i];
        out[i] = std::isfinite(v) && std::fabs(v) > 1e30 ? float(std::copysign(1e30, v)) : float(v);  // the library refuses it, named
    }
    return out;
}

py::array_t<float> rows3(const std::vector<float>& xyz) {
    py::array_t<float> a({py::ssize_t(xyz.size() / 3), py::ssize_t(3)});
    std::copy(xyz.begin(), xyz.end(), a.mutable_data());
    return a;
}

py::dict boidFigures(const Flock& f) {
    const murmur::api::BoidFigures figures = f.boidFigures();
    py::dict out;
    out["neighbours"] = arrayOf(f.neighbourCounts());
    out["nearest"] = arrayOf(figures.nearest);
    out["group"] = arrayOf(figures.group);
    out["acceleration"] = rows3(figures.acceleration);
    return out;
}

py::array_t<float> xyz(const Flock& f, bool velocity) {
    py::array_t<float> a({py::ssize_t(f.size()), py::ssize_t(3)});
    if (velocity) f.readVelocities(a.mutable_data(), f.size());
    else f.readPositions(a.mutable_data(), f.size());
    return a;
}

py::array_t<std::uint32_t> column(const std::vector<std::uint32_t>& values) { return arrayOf(values); }

// 3 values a boid as an (N, 3) array.
template <class T>
py::array_t<T> rowsOfThree(const std::vector<T>& values) {
    py::array_t<T> a({py::ssize_t(values.size() / 3), py::ssize_t(3)});
    std::copy(values.begin(), values.end(), a.mutable_data());
    return a;
}

// flock.params: the flock's parameters as a mapping by key. It holds a reference to the Python
// flock, so the flock lives while it does (murmur.Flock(...).params['dt'] included).
struct ParamsView {
    py::object owner;
    Flock* flock;
};

// flock.record(...)'s handle: a context manager that stops the recording on leaving. Each record()
// has a serial of its own: a handle closes its own recording only, never a later one of the same
// flock, even at the same path.
struct Recording {
    py::object owner;  // the Python flock, kept alive as for ParamsView
    Flock* flock;
    std::string path;
    std::uint64_t serial = 0;
};

std::uint64_t g_next_recording = 1;
std::unordered_map<const Flock*, std::uint64_t> g_open_recording;  // the flock's recording's serial

bool isOpen(const Recording& r) {
    const auto found = g_open_recording.find(r.flock);
    return r.flock->recording() && found != g_open_recording.end() && found->second == r.serial;
}

// A flock's options from Python's values: boids and seed whole numbers in their ranges or None
// (murmur.Error names them, after `what`, as "Ensemble: flock 2: "), params {key: value}.
murmur::api::FlockOptions flockOptions(const std::string& preset, const std::string& backend, const py::object& seed,
                                       const py::object& boids, const std::optional<py::dict>& params, const std::string& what = "") {
    murmur::api::FlockOptions o;
    o.preset = preset;
    o.backend = backend;
    if (const auto count = optionalWhole(boids, what + "boids", 0, kMaxBoids)) o.boids = std::uint32_t(*count);
    o.seed = optionalWhole(seed, what + "seed", 0, kMaxSeed);
    if (params)
        for (const auto& [key, value] : *params) {
            const std::string name = py::str(key).cast<std::string>();
            o.settings.emplace_back(name, asSetting(value, name));
        }
    return o;
}

Flock makeFlock(const std::string& preset, const std::string& backend, const py::object& seed, const py::object& boids,
                const std::optional<py::dict>& params) {
    return Flock(flockOptions(preset, backend, seed, boids, params));
}

// Closes the recording this handle began, not a later one of the same flock.
std::uint64_t closeRecording(Recording& r) {
    if (!isOpen(r)) return 0;
    g_open_recording.erase(r.flock);
    return r.flock->stopRecording();
}

// Steps through the API's stop check, so that Ctrl-C (KeyboardInterrupt) stops the stepping
// within about 50 ms: between steps, the flock consistent and a recording complete up to the last
// step taken; or, where one flock's step takes longer, during it, the flock back where the call
// began. It steps without Python's lock (other threads run meanwhile), taking it to ask for
// signals at most every 50 ms.
template <class Call>
auto interruptibly(const Call& call) {
    bool signalled = false;
    auto asked = std::chrono::steady_clock::now();
    const std::function<bool()> stop = [&] {
        const auto now = std::chrono::steady_clock::now();
        if (now - asked < std::chrono::milliseconds(50)) return false;
        asked = now;
        py::gil_scoped_acquire held;
        return signalled = PyErr_CheckSignals() != 0;
    };
    std::optional<decltype(call(stop))> result;
    try {
        py::gil_scoped_release free;
        result.emplace(call(stop));
    } catch (...) {
        if (signalled) throw py::error_already_set();  // the KeyboardInterrupt first, not what followed it
        throw;
    }
    if (signalled) throw py::error_already_set();
    return std::move(*result);
}

template <class Stepper>
void stepInterruptibly(Stepper& s, std::uint64_t steps) {
    interruptibly([&](const std::function<bool()>& stop) { return s.step(int(steps), stop), 0; });
}

// Flock.run's samples, through the engine's run loop, as columns (key: list of values);
// `progress` (a callable or None) hears the steps done after each chunk, with Python's lock.
py::dict runSeries(Flock& f, std::uint64_t steps, std::uint64_t every, const py::object& progress) {
    std::function<void(int)> told;
    if (!progress.is_none())
        told = [&progress](int done) {
            py::gil_scoped_acquire held;
            progress(done);
        };
    const std::vector<Flock::Row> rows =
            interruptibly([&](const std::function<bool()>& stop) { return f.run(int(steps), int(every), stop, told); });
    py::dict columns;
    for (const auto& [key, value] : rows.front()) columns[py::str(key)] = py::list();
    for (const Flock::Row& row : rows)
        for (const auto& [key, value] : row) columns[py::str(key)].cast<py::list>().append(value);
    return columns;
}

// Ensemble([{preset:, seed:, boids:, params:}, ...], backend=): each dict a flock's options.
Ensemble makeEnsemble(const py::sequence& flocks, const std::string& backend) {
    static const std::vector<std::string> known{"preset", "seed", "boids", "params"};
    std::vector<murmur::api::FlockOptions> options;
    for (const py::handle& item : flocks) {
        if (!py::isinstance<py::dict>(item)) throw murmur::api::Error("Ensemble: each flock is a dict of preset, seed, boids, params");
        const py::dict d = item.cast<py::dict>();
        for (const auto& [key, value] : d)
            if (std::find(known.begin(), known.end(), py::str(key).cast<std::string>()) == known.end())
                throw murmur::api::Error("Ensemble: unknown flock option '" + py::str(key).cast<std::string>() +
                                         "'; valid: preset, seed, boids, params");
        const auto get = [&](const char* k) { return d.contains(k) ? py::object(d[k]) : py::object(py::none()); };
        const std::string flock = "Ensemble: flock " + std::to_string(options.size()) + ": ";
        const py::object preset = get("preset"), params = get("params");
        if (!preset.is_none() && !py::isinstance<py::str>(preset)) throw murmur::api::Error(flock + "preset is a name or a .json path");
        if (!params.is_none() && !py::isinstance<py::dict>(params)) throw murmur::api::Error(flock + "params is a dict {key: value}");
        options.push_back(flockOptions(preset.is_none() ? "" : preset.cast<std::string>(), backend, get("seed"), get("boids"),
                                       params.is_none() ? std::optional<py::dict>() : params.cast<py::dict>(), flock));
    }
    return Ensemble(options);
}

// The C++ object behind self, or murmur.Error when its __init__ never ran (Flock.__new__(Flock)):
// pybind11 hands such an instance's unmade memory to a method, which crashed.
template <class T>
T& made(const py::handle& self) {
    auto* instance = reinterpret_cast<py::detail::instance*>(self.ptr());
    const auto v_h = instance->get_value_and_holder(py::detail::get_type_info(typeid(T)), false);
    if (!v_h.inst || !v_h.value_ptr() || !v_h.holder_constructed())
        throw murmur::api::Error("this " + typeName(self) + " was never made (its __init__ did not run), so it has nothing to give");
    return *v_h.template value_ptr<T>();
}

// A method of T's binding, with self checked made (made<T>) before the call: a lambda or function
// taking T first, or a member function.
template <class T, class F, class R, class Self, class... A>
auto checkedCall(F f, R (F::*)(Self, A...) const) {
    return [f](const py::handle& self, A... a) -> R { return f(made<T>(self), std::forward<A>(a)...); };
}
template <class T, class F>
auto checked(F f) {
    return checkedCall<T>(f, &F::operator());
}
template <class T, class R, class Self, class... A>
auto checked(R (*f)(Self, A...)) {
    return [f](const py::handle& self, A... a) -> R { return f(made<T>(self), std::forward<A>(a)...); };
}
template <class T, class R, class... A>
auto checked(R (T::*m)(A...)) {
    return [m](const py::handle& self, A... a) -> R { return (made<T>(self).*m)(std::forward<A>(a)...); };
}
template <class T, class R, class... A>
auto checked(R (T::*m)(A...) const) {
    return [m](const py::handle& self, A... a) -> R { return (made<T>(self).*m)(std::forward<A>(a)...); };
}

void bindParamsView(py::module_& m) {
    py::class_<ParamsView>(m, "Params", "A flock's parameters by key (murmur.params() lists them): flock.params[key], "
                                        "flock.params[key] = value (from the next step).")
        .def("__getitem__", checked<ParamsView>([](const ParamsView& v, const std::string& key) { return fromSetting(key, v.flock->get(key)); }))
        .def("__setitem__", checked<ParamsView>([](ParamsView& v, const std::string& key, const py::object& value) { v.flock->set(key, asSetting(value, key)); }))
        .def("__contains__", checked<ParamsView>([](const ParamsView&, const std::string& key) {
            for (const auto& r : murmur::api::params())
                if (r.key == key) return true;
            return false;
        }))
        .def("keys", checked<ParamsView>([](const ParamsView&) {
            std::vector<std::string> keys;
            for (const auto& r : murmur::api::params()) keys.push_back(r.key);
            return keys;
        }));

}

void bindRecording(py::module_& m) {
    py::class_<Recording>(m, "Recording", "A trajectory being recorded (Flock.record): a context manager; leaving it, or "
                                          "close(), closes the file and renames it into place.")
        .def("close", checked<Recording>(&closeRecording), "Closes the file; returns the frames written (0 if it was closed already).")
        .def("__enter__", checked<Recording>([](Recording& r) -> Recording& { return r; }), py::return_value_policy::reference_internal)
        .def("__exit__", checked<Recording>([](Recording& r, const py::object&, const py::object&, const py::object&) {
            closeRecording(r);
            return false;
        }))
        .def_property_readonly("path", checked<Recording>([](const Recording& r) { return r.path; }), "The trajectory file's path.")
        .def("__repr__", checked<Recording>([](const Recording& r) {
            return "<murmur.Recording " + r.path + (isOpen(r) ? ", open>" : ", closed>");
        }));

}

// Flock.load: a restart file's flock.
void defineFlockLoad(py::class_<Flock>& flock) {
    flock.def_static(
            "load",
            [](const std::string& path, const std::string& backend, const py::object& seed, const py::object& boids,
               const std::optional<py::dict>& params, const py::object& override) {
                murmur::api::FlockOptions o = flockOptions("", backend, seed, boids, params);
                o.resume = path;
                o.resume_override = trueOrFalse(override, "load(override)");
                return Flock(o);
            },
            py::arg("path"), py::arg("backend") = "gpu", py::arg("seed") = py::none(), py::arg("boids") = py::none(),
            py::arg("params") = py::none(), py::arg("override") = false,
            "Flock.load(path, backend='gpu', seed=None, boids=None, params=None, override=False)\n\n"
            "The flock a restart file (flock.export, murmur --export) holds: its parameters, state and step, continued "
            "as if never stopped (to the bit, on the backend it ran on). seed, boids or params that change a parameter "
            "that moves the flock raise murmur.Error naming each, unless override=True; the view's keys may change.");
}

// The Flock's state: made, stepped, its parameters, positions and velocities read and set.
void defineFlockState(py::class_<Flock>& flock) {
    flock
        .def(py::init(&makeFlock), py::arg("preset") = "", py::arg("backend") = "gpu", py::arg("seed") = py::none(),
             py::arg("boids") = py::none(), py::arg("params") = py::none(),
             "Flock(preset='', backend='gpu', seed=None, boids=None, params=None)\n\n"
             "preset: a built-in name (murmur.presets()) or a .json file; params: {key: value} applied in order after it, "
             "as --set; boids resizes the world to keep the preset's density unless params sets world_size. "
             "Raises murmur.Error with the reason and the valid range.")
        .def("step",
             checked<Flock>([](Flock& f, const py::object& n) {
                 stepInterruptibly(f, wholeNumber(n, "step(n)", 0, kMaxStepsACall));
             }),
             py::arg("n") = 1,
             "Steps the flock n times, without holding Python's lock (other threads run meanwhile; one thread steps a "
             "flock at a time). Ctrl-C stops it within about 50 ms: between steps, or, where one step takes longer, "
             "during it, the flock then back where the call began (a recording ends with the frames it has). A step "
             "that makes the flock non-finite raises murmur.Error and leaves the flock as it was before the call.")
        .def("_run",
             checked<Flock>([](Flock& f, const py::object& steps, const py::object& every, const py::object& progress) {
                 return runSeries(f, wholeNumber(steps, "run(steps)", 0, kMaxStepsACall), wholeNumber(every, "run(every)", 1, kMaxStepsACall),
                                  progress);
             }),
             py::arg("steps"), py::arg("every"), py::arg("progress"), "Flock.run's samples as columns (see run).")
        .def_property_readonly("step_count", checked<Flock>(&Flock::stepCount), "Steps since the start (an imported state's included).")
        .def_property_readonly("size", checked<Flock>(&Flock::size), "Number of boids.")
        .def_property_readonly("backend", checked<Flock>(&Flock::backend), "'gpu' or 'cpu'.")
        .def_property_readonly("params", [](py::object self) { return ParamsView{self, &made<Flock>(self)}; },
                               "The parameters by key: flock.params['separation.radius'] = 5.0.")
        .def_property(
            "positions", checked<Flock>([](const Flock& f) { return xyz(f, false); }),
            checked<Flock>([](Flock& f, const py::object& a) { setState(f, a, py::none(), py::none()); }),
            "Positions, shape (N, 3) float32, in id order (z 0 in 2D): a copy. Assigning an (N, 3) array sets them "
            "(set_state's checks); the array read is not the flock: f.positions[0, 0] = 1 changes the copy only.")
        .def_property(
            "velocities", checked<Flock>([](const Flock& f) { return xyz(f, true); }),
            checked<Flock>([](Flock& f, const py::object& a) { setState(f, py::none(), a, py::none()); }),
            "Velocities, shape (N, 3) float32, in id order: a copy; assigning an (N, 3) array sets them.")
        .def_property_readonly(
            "images", checked<Flock>([](const Flock& f) { return rowsOfThree(f.images()); }),
            "The periodic images each boid crossed since its state was set (or world_size or bounds last changed), "
            "shape (N, 3) int32, in id order: 0 outside wrap bounds.")
        .def_property_readonly(
            "unwrapped_positions", checked<Flock>([](const Flock& f) { return rowsOfThree(f.unwrappedPositions()); }),
            "positions + images * world_size, shape (N, 3) float64, in id order: where each boid has gone (for a mean "
            "squared displacement).")
        .def("set_state", checked<Flock>(&setState), py::arg("positions") = py::none(), py::arg("velocities") = py::none(),
             py::arg("species") = py::none(),
             "set_state(positions=None, velocities=None, species=None)\n\n"
             "Sets the flock from arrays in id order: positions and velocities (N, 3) (or (N, 2) in 2D), species (N,) "
             "whole numbers. What is None stays as it is. Each boid is checked as import_state checks a file's line "
             "(finite; wrap bounds: within one world of the box; speeds within 1e6): murmur.Error names the first bad "
             "boid. Another N changes the boids key and keeps the world (set world_size first to keep a density); "
             "species not given are then 0. The step count stays; a recording ends.");
}

// What a Flock measures: per-boid figures and the order parameters.
void defineFlockResults(py::class_<Flock>& flock) {
    flock
        .def("boid_figures", checked<Flock>(&boidFigures),
             "boid_figures() -> dict of numpy arrays, each boid's own figures now, in id order: 'neighbours' (uint32, "
             "its count at the last step), 'nearest' (float32, the distance to its nearest neighbour; inf when none is "
             "within the nn radius), 'group' (int64, its group's first id, as groupK_first_id names the largest "
             "groups; -1 outside groups of 5 or more), 'acceleration' ((N, 3) float32, units/s^2: the velocity change the "
             "next step makes over dt, from one step taken on the flock's backend and taken back). Nearest and group are "
             "measured by the CPU reference on the state (a GPU flock's state is read once); the flock is left as it was.")
        .def_property_readonly("neighbour_counts", checked<Flock>([](const Flock& f) { return column(f.neighbourCounts()); }),
                               "Each boid's neighbour count at the last step, shape (N,) uint32, in id order (0 before the "
                               "first step).")
        .def_property_readonly("ids", checked<Flock>([](const Flock& f) { return column(f.ids()); }), "Ids, shape (N,) uint32 (0 .. N-1).")
        .def_property_readonly("species", checked<Flock>([](const Flock& f) { return column(f.species()); }), "Species, shape (N,) uint32.")
        .def_property_readonly("kept_state_names", checked<Flock>([](const Flock& f) { return f.keptStateNames(); }),
                               "The per-boid state the flock keeps from step to step (its style's, or the adaptive "
                               "topological radius'), its four components' names ('unused' where none); [] when it keeps none.")
        .def_property_readonly("kept_state", checked<Flock>([](const Flock& f) -> py::object {
                                   const std::vector<float> v = f.keptState();
                                   if (f.keptStateNames().empty()) return py::none();
                                   py::array_t<float> a({py::ssize_t(v.size() / 4), py::ssize_t(4)});
                                   std::copy(v.begin(), v.end(), a.mutable_data());
                                   return std::move(a);
                               }),
                               "That state, shape (N, 4) float32 in id order (kept_state_names names the columns); None "
                               "when it keeps none.")
        .def("set_kept_state", checked<Flock>([](Flock& f, const py::object& values) {
                 const std::vector<float> v = rows4(values, "set_kept_state");
                 f.setKeptState(v.data(), v.size());
             }),
             py::arg("values"),
             "set_kept_state(values): sets the kept per-boid state, an (N, 4) array (each value finite, within "
             "+-1e9; z 0 in 2D); murmur.Error when the flock keeps none.")
        .def("body_shape", checked<Flock>(&Flock::bodyShape),
             "The shape of the flock's body now, as a dict (Ballerini et al. 2008's measures): proportion_middle and "
             "proportion_long (spreads along the principal axes over the thinnest's), thin_vs_up, heading_vs_thin, "
             "heading_vs_middle, heading_vs_long (|cos| against up, +y, and of the mean velocity against each axis), r1 "
             "(mean nearest distance), r1_border, r1_interior, border_share (centrality over the 7 nearest >= 0.35), "
             "boids. Measured by the CPU on the state; the flock is left as it was.")
        .def(
            "correlations",
            checked<Flock>([](const Flock& f, const py::object& bins, const py::object& r_max) {
                const murmur::api::Correlations c = f.correlations(std::uint32_t(wholeNumber(bins, "correlations(bins)", 1, murmur::api::kMaxCorrelationBins)),
                                                                   realNumber(r_max, "correlations(r_max)"));
                return py::dict(py::arg("r") = arrayOf(c.r), py::arg("velocity") = arrayOf(c.velocity), py::arg("g") = arrayOf(c.g),
                                py::arg("pairs") = arrayOf(c.pairs), py::arg("xi") = c.xi);
            }),
            py::arg("bins") = 64, py::arg("r_max") = 0.0,
            "correlations(bins=64, r_max=0) -> dict: the flock's pair correlations now, over every pair within r_max "
            "(0: half the world; the minimum image in wrap bounds): r (each bin's centre), velocity (the connected "
            "velocity correlation C(r) of Cavagna et al. 2010: the mean u_i . u_j of the bin's pairs over the mean "
            "|u|^2, u = v - the mean velocity; NaN where no pair, and everywhere when the flock moves as one: mean |u|^2 "
            "at most 1e-10 of mean |v|^2), g (the pair distribution: pairs over an ideal gas's "
            "at the box's density), pairs, and xi (C's first zero; NaN when none). bins: 1 .. 1024. Over every pair, "
            "O(N^2): a CPU flock's in double, a GPU flock's on the GPU (fixed-point sums; only the bins come back).")
        .def("order_parameters", checked<Flock>(&Flock::orderParameters),
             "The order parameters now, as a dict: polarization, group_polarization, milling, groups, "
             "largest_group_share, grouped_share, nn_mean, nn_median, mean_neighbours, mean_speed, boids; the four "
             "largest groups' groupK_boids, _first_id, _polarization, _milling, _x, _y, _z (K = 1 the largest).");
}

// Its files and GL buffers: trajectories, state CSV, drawing from its buffers.
void defineFlockFiles(py::class_<Flock>& flock) {
    flock
        .def(
            "record",
            [](py::object self, const std::string& path, const py::object& every, const py::object& deflate, const std::string& author,
               const py::object& unwrapped, const py::object& as_3d) {
                Flock* f = &made<Flock>(self);
                f->record(path, wholeNumber(every, "record(every)", 1, ~std::uint64_t(0)), int(wholeNumber(deflate, "record(deflate)", 0, 9)),
                          author, trueOrFalse(unwrapped, "record(unwrapped)"), trueOrFalse(as_3d, "record(as_3d)"));
                const std::uint64_t serial = g_next_recording++;
                g_open_recording[f] = serial;
                return Recording{self, f, path, serial};
            },
            py::arg("path"), py::arg("every") = 1, py::arg("deflate") = 1, py::arg("author") = "", py::kw_only(),
            py::arg("unwrapped") = false, py::arg("as_3d") = false,
            "record(path, every=1, deflate=1, author='', *, unwrapped=False, as_3d=False) -> Recording\n\n"
            "Records an H5MD trajectory (as murmur --trajectory): a frame now and every `every` steps that step() "
            "takes, positions and velocities over time, species and ids, the box, and in wrap bounds the images each "
            "boid crossed. unwrapped: positions written unwrapped (no image element), as MDAnalysis' EinsteinMSD "
            "needs them; as_3d: a 2D flock written with dimension 3, z 0 (MDAnalysis reads only 3D boxes). deflate: "
            "0 (none, fastest) .. 9. "
            "Use as a context manager (with flock.record('run.h5', every=10): flock.step(1000)) or call close(); "
            "the file appears, renamed into place, when it closes. Read it with h5py: "
            "h5py.File(path)['particles/flock/position/value'] is (frames, N, dims).")
        .def("stop_recording", checked<Flock>(&Flock::stopRecording), "Closes the trajectory being recorded; returns its frames (0 if none).")
        .def_property_readonly(
            "gl_buffers",
            checked<Flock>([](const Flock& f) -> py::object {
                const murmur::api::GlBuffers b = f.glBuffers();
                if (b.positions == 0) return py::none();
                return py::dict(py::arg("positions") = b.positions, py::arg("velocities") = b.velocities, py::arg("count") = b.count);
            }),
            "GPU: the GL buffer names of the current state (valid until the next step), for drawing or reading it with "
            "another GL binding in murmur's context: positions (vec4: xyz, the id's bits in w) and velocities (vec4: "
            "xyz, the species' bits in w), count of each, in no particular order. None on the CPU backend.")
        .def_property_readonly("recording", checked<Flock>(&Flock::recording), "Whether a trajectory is being recorded.")
        .def("export", checked<Flock>(&Flock::exportState), py::arg("path"),
             "Writes the state as murmur's CSV (--export's format): a restart file, with every parameter, the seed and the "
             "step; murmur.Flock.load(path) (or murmur --resume) continues it as if never stopped.")
        .def("import_state", checked<Flock>(&Flock::importState), py::arg("path"), "Reads a state CSV (--import's), its step count and world too.")
        .def("__repr__", checked<Flock>([](const Flock& f) {
            return "<murmur.Flock " + std::to_string(f.size()) + " boids, " + f.backend() + ", step " + std::to_string(f.stepCount()) + ">";
        }));
}

void bindFlock(py::module_& m) {
    py::class_<Flock> flock(m, "Flock", "A flock on the GPU pipeline (backend='gpu', a headless OpenGL 4.5 context) or the "
                                  "CPU reference (backend='cpu'). The two agree step by step to float rounding, and a "
                                  "flock is chaotic: over hundreds of steps those roundings grow until the two runs of "
                                  "one seed are different flocks with the same statistics (compare order parameters, not "
                                  "positions, across backends).");
    defineFlockLoad(flock);
    defineFlockState(flock);
    defineFlockResults(flock);
    defineFlockFiles(flock);
}

void bindEnsemble(py::module_& m) {
    py::class_<Ensemble>(m, "Ensemble",
                         "K flocks stepped together: on the GPU in one set of buffers and the same dispatches, so many small "
                         "flocks run at the GPU's width; flock k is, bit for bit on the same backend, what murmur.Flock with its "
                         "options gives alone. On the GPU the flocks must share style, dims, bounds and switches.")
        .def(py::init(&makeEnsemble), py::arg("flocks"), py::arg("backend") = "gpu",
             "Ensemble(flocks, backend='gpu')\n\n"
             "flocks: a list of dicts, each with any of preset, seed, boids, params (as murmur.Flock takes them), e.g. "
             "[{'preset': 'vicsek', 'seed': s, 'params': {'vicsek.noise': eta}} for eta in etas for s in range(4)].")
        .def("step",
             checked<Ensemble>([](Ensemble& e, const py::object& n) {
                 stepInterruptibly(e, wholeNumber(n, "step(n)", 0, kMaxStepsACall));
             }),
             py::arg("n") = 1, "Steps every flock n times, without holding Python's lock (Ctrl-C stops it between steps, as Flock.step).")
        .def_property_readonly("step_count", checked<Ensemble>(&Ensemble::stepCount), "Steps taken.")
        .def_property_readonly("backend", checked<Ensemble>(&Ensemble::backend), "'gpu' or 'cpu'.")
        .def("__len__", checked<Ensemble>(&Ensemble::flocks), "The number of flocks.")
        .def("size", checked<Ensemble>([](const Ensemble& e, const py::object& k) { return e.size(flockIndex(e, k)); }), py::arg("k"),
             "Flock k's boid count.")
        .def("set", checked<Ensemble>([](Ensemble& e, const py::object& k, const std::string& key, const py::object& value) {
                 e.set(flockIndex(e, k), key, asSetting(value, key));
             }),
             py::arg("k"), py::arg("key"), py::arg("value"), "Sets flock k's key (from the next step).")
        .def("get", checked<Ensemble>([](const Ensemble& e, const py::object& k, const std::string& key) { return fromSetting(key, e.get(flockIndex(e, k), key)); }),
             py::arg("k"), py::arg("key"), "Flock k's value of key.")
        .def("positions", checked<Ensemble>([](const Ensemble& e, const py::object& k) { return rows3(e.positions(flockIndex(e, k))); }), py::arg("k"),
             "Flock k's positions, (N, 3) float32, in id order.")
        .def("velocities", checked<Ensemble>([](const Ensemble& e, const py::object& k) { return rows3(e.velocities(flockIndex(e, k))); }), py::arg("k"),
             "Flock k's velocities, (N, 3) float32, in id order.")
        .def("set_state", checked<Ensemble>(&setFlockState), py::arg("k"), py::arg("positions") = py::none(), py::arg("velocities") = py::none(),
             py::arg("species") = py::none(),
             "set_state(k, positions=None, velocities=None, species=None): flock k's state, as Flock.set_state (checked "
             "alike); the other flocks keep theirs, and the step count stays.")
        .def("species", checked<Ensemble>([](const Ensemble& e, const py::object& k) { return column(e.species(flockIndex(e, k))); }), py::arg("k"),
             "Flock k's species, (N,) uint32, in id order.")
        .def("order_parameters", checked<Ensemble>([](Ensemble& e, const py::object& k) { return e.orderParameters(flockIndex(e, k)); }), py::arg("k"),
             "Flock k's order parameters, as a dict.")
        .def("order_parameters", checked<Ensemble>(py::overload_cast<>(&Ensemble::orderParameters)),
             "Every flock's order parameters, a list of dicts in flock order (on the GPU measured in one set of passes).")
        .def("__repr__", checked<Ensemble>([](const Ensemble& e) {
            return "<murmur.Ensemble " + std::to_string(e.flocks()) + " flocks, " + e.backend() + ", step " + std::to_string(e.stepCount()) + ">";
        }));

}

// _run_sweep(axes, out, ...): murmur.sweep's engine, in this process (murmur::api::runSweep): the
// CSV of murmur --sweep-out at `out`, each progress line handed to progress(line) (None: quiet),
// Ctrl-C (KeyboardInterrupt) asked between runs, samples and pieces of steps.
std::uint64_t runSweep(const std::vector<std::string>& axes, const std::string& out, const std::string& preset, const std::string& backend,
                       const py::object& seed, const py::object& boids, const std::optional<py::dict>& params, const py::object& steps,
                       const py::object& seeds, const py::object& burn_in, const py::object& every, bool carry, const py::object& batch,
                       const py::object& xi, const py::object& progress) {
    murmur::api::Sweep sweep;
    sweep.flock = flockOptions(preset, backend, seed, boids, params);
    sweep.axes = axes;
    sweep.steps = wholeNumber(steps, "steps", 0, 1000000000);
    sweep.seeds = std::uint32_t(wholeNumber(seeds, "seeds", 1, 10000));
    sweep.burn_in = wholeNumber(burn_in, "burn_in", 0, sweep.steps);
    sweep.every = wholeNumber(every, "every", 1, 1000000000);
    sweep.carry = carry;
    if (!batch.is_none()) sweep.batch = std::uint32_t(wholeNumber(batch, "batch", 0, 65536));
    if (!xi.is_none()) sweep.xi = realNumber(xi, "xi");
    murmur::api::SweepProgress said;
    if (!progress.is_none())
        said = [&](const std::string& line) {
            py::gil_scoped_acquire held;
            progress(line);
        };
    bool signalled = false;
    const auto stop = [&] {
        py::gil_scoped_acquire held;
        return signalled = PyErr_CheckSignals() != 0;
    };
    try {
        py::gil_scoped_release free;  // other Python threads run while the sweep does
        return murmur::api::runSweep(sweep, out, said, stop);
    } catch (...) {
        if (signalled) throw py::error_already_set();  // the KeyboardInterrupt, not the stop it caused
        throw;
    }
}

void bindFunctions(py::module_& m) {
    m.def("_run_sweep", &runSweep, py::arg("axes"), py::arg("out"), py::arg("preset"), py::arg("backend"), py::arg("seed"),
          py::arg("boids"), py::arg("params"), py::arg("steps"), py::arg("seeds"), py::arg("burn_in"), py::arg("every"),
          py::arg("carry"), py::arg("batch"), py::arg("xi"), py::arg("progress"),
          "murmur.sweep's engine (murmur::api::runSweep) in this process: writes the sweep's CSV to `out`; the runs written.");
    m.def("presets", &murmur::api::presets, "The built-in presets' names.");
    m.def("_step_resolution_warning", &murmur::api::stepResolutionWarning, py::arg("order"), py::arg("dt"));
    m.def("_whole_number", &wholeNumber, py::arg("value"), py::arg("what"), py::arg("lo"), py::arg("hi"),
          "The module's own check of a whole-number argument, for its Python parts: the value, or murmur.Error naming "
          "`what` and [lo, hi].");
    m.def(
        "resolved_params",
        [](const std::string& preset, const py::object& seed, const py::object& boids, const std::optional<py::dict>& params) {
            const auto values = murmur::api::resolvedParams(flockOptions(preset, "cpu", seed, boids, params));
            py::dict out;
            for (const auto& [key, text] : values) out[py::str(key)] = fromSetting(key, text);
            return out;
        },
        py::arg("preset") = "", py::arg("seed") = py::none(), py::arg("boids") = py::none(), py::arg("params") = py::none(),
        "resolved_params(preset='', seed=None, boids=None, params=None) -> {key: value}: every key of the flock these "
        "options make (Flock's), without making it: the world boids= resizes, the preset's values.");
    m.def(
        "params",
        [] {
            py::list out;
            for (const auto& r : murmur::api::params())
                out.append(py::dict(py::arg("key") = r.key, py::arg("kind") = r.kind, py::arg("unit") = r.unit,
                                    py::arg("range") = r.range, py::arg("default") = r.default_value, py::arg("help") = r.help));
            return out;
        },
        "Every parameter key as a record (the table of murmur --list-params): key, kind, unit, range, default, help.");
}

// murmur.Error and murmur.ContextError with their messages whole, whatever bytes they quote: a
// message that names a Latin-1 file's header or a binary file's line is not UTF-8, and pybind11's
// own translation (PyErr_SetString) raised it with no message at all. Bytes that are not UTF-8
// come through as \xNN, and control bytes (not newline or tab) as the command line shows them,
// \xNN too: the file, line and problem in the command line's words.
PyObject* g_error = nullptr;
PyObject* g_context_error = nullptr;

void raiseWith(PyObject* type, const char* what) {
    constexpr char kHex[] = "0123456789abcdef";
    std::string text;
    for (const char* c = what; *c; ++c) {
        const auto byte = static_cast<unsigned char>(*c);
        if ((byte < 0x20 && byte != '\n' && byte != '\t') || byte == 0x7f) text += {'\\', 'x', kHex[byte >> 4], kHex[byte & 15]};
        else text += *c;
    }
    const auto message = py::reinterpret_steal<py::object>(PyUnicode_DecodeUTF8(text.data(), py::ssize_t(text.size()), "backslashreplace"));
    if (message) PyErr_SetObject(type, message.ptr());  // else Python's own error (memory) is set
}

void translateErrors(std::exception_ptr thrown) {
    try {
        if (thrown) std::rethrow_exception(thrown);
    } catch (const murmur::api::ContextError& e) {
        raiseWith(g_context_error, e.what());
    } catch (const murmur::api::Error& e) {
        raiseWith(g_error, e.what());
    }
}

void bindErrors(py::module_& m) {
    g_error = py::register_exception<murmur::api::Error>(m, "Error", PyExc_ValueError).ptr();
    g_context_error = py::register_exception<murmur::api::ContextError>(m, "ContextError", PyExc_RuntimeError).ptr();
    py::register_local_exception_translator(&translateErrors);  // this module's own: tried before the two above
    m.def(
        "_write_file",
        [](const py::bytes& path, const py::bytes& contents, const std::string& what) {
            const std::string target(path), text(contents);
            py::gil_scoped_release free;
            murmur::api::writeFile(target, text, what);
        },
        py::arg("path"), py::arg("contents"), py::arg("what"),
        "murmur::api::writeFile for the module's Python parts (the VTK files): `contents` at `path` (os.fsencode's "
        "bytes) as export() writes its file, checked alike; murmur.Error naming `what` and the path otherwise.");
}

}  // namespace

PYBIND11_MODULE(_murmur, m) {
    m.doc() = "murmur: Reynolds' boids and the research models of collective motion, on the GPU (OpenGL compute) "
              "or the CPU reference. murmur.Flock(...) makes a flock; murmur.presets() and murmur.params() list what "
              "it takes.";
    m.attr("__version__") = MURMUR_VERSION_STRING;
    bindErrors(m);  // murmur.Error (a ValueError), murmur.ContextError (a RuntimeError: a missing GL context)
    bindParamsView(m);
    bindRecording(m);
    bindFlock(m);
    bindEnsemble(m);
    bindFunctions(m);
}
