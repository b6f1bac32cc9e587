"""ParaView's route: a flock's frames as VTK XML PolyData with a .pvd index, read back here by
parsing the XML and decoding each array as VTK's binary form (a UInt32 byte count, then the
values, base64)."""
import base64
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import murmur


def arrays(path):
    root = ET.parse(path).getroot()
    assert root.attrib["type"] == "PolyData" and root.attrib["byte_order"] == "LittleEndian"
    out = {}
    for a in root.iter("DataArray"):
        raw = base64.b64decode(a.text)
        size = int(np.frombuffer(raw[:4], "<u4")[0])
        dtype = {"Float32": "<f4", "UInt32": "<u4", "Int64": "<i8"}[a.attrib["type"]]
        values = np.frombuffer(raw[4:4 + size], dtype)
        assert len(raw) == 4 + size
        out[a.attrib["Name"]] = values.reshape(-1, int(a.attrib["NumberOfComponents"])).squeeze()
    piece = root.find("PolyData/Piece")
    return out, int(piece.attrib["NumberOfPoints"])


@pytest.mark.parametrize("backend", ["cpu", "gpu"])
def test_a_series_holds_each_frame_and_its_index_their_times(tmp_path, backend):
    flock = murmur.Flock(preset="default", backend=backend, seed=3, boids=64, params={"dims": 3, "species_count": 2})
    with murmur.VtkSeries(tmp_path) as series:
        for _ in range(3):
            flock.step(5)
            last = series.add(flock)
    assert last == "flock_000000015.vtp"
    index = ET.parse(tmp_path / "flock.pvd").getroot()
    sets = index.findall("Collection/DataSet")
    dt = flock.params["dt"]
    assert [s.attrib["file"] for s in sets] == ["flock_000000005.vtp", "flock_000000010.vtp", "flock_000000015.vtp"]
    np.testing.assert_allclose([float(s.attrib["timestep"]) for s in sets], [5 * dt, 10 * dt, 15 * dt], rtol=1e-12)
    data, n = arrays(tmp_path / last)
    assert n == 64
    np.testing.assert_array_equal(data["position"], flock.positions)
    np.testing.assert_array_equal(data["velocity"], flock.velocities)
    np.testing.assert_array_equal(data["species"], flock.species)
    np.testing.assert_array_equal(data["neighbours"], flock.neighbour_counts)
    np.testing.assert_array_equal(data["id"], np.arange(64))
    np.testing.assert_array_equal(data["connectivity"], np.arange(64))
    np.testing.assert_array_equal(data["offsets"], np.arange(1, 65))
    assert set(data["species"].tolist()) == {0, 1}


def test_bad_names_are_refused(tmp_path):
    flock = murmur.Flock(preset="default", backend="cpu", boids=4)
    with pytest.raises(murmur.Error, match=r"name it FILE\.vtp"):
        flock.export_vtp(str(tmp_path / "state.vtk"))
    with pytest.raises(murmur.Error, match="is not a folder"):
        murmur.VtkSeries(tmp_path / "missing")
    with pytest.raises(murmur.Error, match="a file name without"):
        murmur.VtkSeries(tmp_path, name="a/b")
    flock.export_vtp(str(tmp_path / "state.vtp"))
    data, n = arrays(tmp_path / "state.vtp")
    assert n == 4 and data["position"].shape == (4, 3)
