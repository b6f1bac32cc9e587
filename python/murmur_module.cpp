// The Python module `murmur` (pybind11) over the public C++ API: flocks as objects, their state
// as numpy arrays, parameters by key, errors as murmur.Error (a ValueError) with the command
// line's messages.
#include "murmur/murmur.hpp"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>

namespace py = pybind11;
using murmur::api::Flock;

namespace {

// A value as the parameter table takes it: numbers in Python's shortest form, names as they are.
std::string asSetting(const py::handle& value) {
    if (py::isinstance<py::bool_>(value)) return value.cast<bool>() ? "on" : "off";
    if (py::isinstance<py::str>(value)) return value.cast<std::string>();
    if (py::isinstance<py::int_>(value) || py::isinstance<py::float_>(value)) return py::str(value).cast<std::string>();
    throw murmur::api::Error("a parameter's value must be a number or a name, not " +
                             py::str(py::type::of(value)).cast<std::string>());
}

// A key's value back as Python: a float where it reads as a number, else the name.
py::object fromSetting(const std::string& text) {
    try {
        std::size_t used = 0;
        const double v = std::stod(text, &used);
        if (used == text.size()) return py::float_(v);
    } catch (const std::exception&) {
    }
    return py::str(text);
}

py::array_t<float> xyz(const Flock& f, bool velocity) {
    py::array_t<float> a({py::ssize_t(f.size()), py::ssize_t(3)});
    if (velocity) f.readVelocities(a.mutable_data(), f.size());
    else f.readPositions(a.mutable_data(), f.size());
    return a;
}

py::array_t<std::uint32_t> column(std::vector<std::uint32_t> values) {
    py::array_t<std::uint32_t> a(py::ssize_t(values.size()));
    std::copy(values.begin(), values.end(), a.mutable_data());
    return a;
}

// flock.params: the flock's parameters as a mapping by key.
struct ParamsView {
    Flock* flock;
};

Flock makeFlock(const std::string& preset, const std::string& backend, std::optional<std::uint64_t> seed,
                std::optional<std::uint32_t> boids, const std::optional<py::dict>& params) {
    murmur::api::FlockOptions o;
    o.preset = preset;
    o.backend = backend;
    o.seed = seed;
    o.boids = boids;
    if (params)
        for (const auto& [key, value] : *params) o.settings.emplace_back(py::str(key).cast<std::string>(), asSetting(value));
    return Flock(o);
}

}  // namespace

PYBIND11_MODULE(murmur, m) {
    m.doc() = "murmur: Reynolds' boids and the research models of collective motion, on the GPU (OpenGL compute) "
              "or the CPU reference. murmur.Flock(...) makes a flock; murmur.presets() and murmur.params() list what "
              "it takes.";
    py::register_exception<murmur::api::Error>(m, "Error", PyExc_ValueError);

    py::class_<ParamsView>(m, "Params", "A flock's parameters by key (murmur.params() lists them): flock.params[key], "
                                        "flock.params[key] = value (from the next step).")
        .def("__getitem__", [](const ParamsView& v, const std::string& key) { return fromSetting(v.flock->get(key)); })
        .def("__setitem__", [](ParamsView& v, const std::string& key, const py::object& value) { v.flock->set(key, asSetting(value)); })
        .def("__contains__", [](const ParamsView&, const std::string& key) {
            for (const auto& r : murmur::api::params())
                if (r.key == key) return true;
            return false;
        })
        .def("keys", [](const ParamsView&) {
            std::vector<std::string> keys;
            for (const auto& r : murmur::api::params()) keys.push_back(r.key);
            return keys;
        });

    py::class_<Flock>(m, "Flock", "A flock on the GPU pipeline (backend='gpu', a headless OpenGL 4.5 context) or the "
                                  "CPU reference (backend='cpu').")
        .def(py::init(&makeFlock), py::arg("preset") = "", py::arg("backend") = "gpu", py::arg("seed") = py::none(),
             py::arg("boids") = py::none(), py::arg("params") = py::none(),
             "Flock(preset='', backend='gpu', seed=None, boids=None, params=None)\n\n"
             "preset: a built-in name (murmur.presets()) or a .json file; params: {key: value} applied in order after it, "
             "as --set; boids resizes the world to keep the preset's density unless params sets world_size. "
             "Raises murmur.Error with the reason and the valid range.")
        .def("step", &Flock::step, py::arg("n") = 1, "Steps the flock n times.")
        .def_property_readonly("step_count", &Flock::stepCount, "Steps since the start (an imported state's included).")
        .def_property_readonly("size", &Flock::size, "Number of boids.")
        .def_property_readonly("backend", &Flock::backend, "'gpu' or 'cpu'.")
        .def_property_readonly("params", [](Flock& f) { return ParamsView{&f}; }, py::keep_alive<0, 1>(),
                               "The parameters by key: flock.params['separation.radius'] = 5.0.")
        .def_property_readonly("positions", [](const Flock& f) { return xyz(f, false); },
                               "Positions, shape (N, 3) float32, in id order (z 0 in 2D).")
        .def_property_readonly("velocities", [](const Flock& f) { return xyz(f, true); },
                               "Velocities, shape (N, 3) float32, in id order.")
        .def_property_readonly("ids", [](const Flock& f) { return column(f.ids()); }, "Ids, shape (N,) uint32 (0 .. N-1).")
        .def_property_readonly("species", [](const Flock& f) { return column(f.species()); }, "Species, shape (N,) uint32.")
        .def("order_parameters", &Flock::orderParameters,
             "The order parameters now, as a dict: polarization, group_polarization, milling, groups, "
             "largest_group_share, grouped_share, nn_mean, nn_median, mean_neighbours, mean_speed, boids.")
        .def("export", &Flock::exportState, py::arg("path"), "Writes the state as murmur's CSV (--export's format).")
        .def("import_state", &Flock::importState, py::arg("path"), "Reads a state CSV (--import's), its step count too.")
        .def("__repr__", [](const Flock& f) {
            return "<murmur.Flock " + std::to_string(f.size()) + " boids, " + f.backend() + ", step " + std::to_string(f.stepCount()) + ">";
        });

    m.def("presets", &murmur::api::presets, "The built-in presets' names.");
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
