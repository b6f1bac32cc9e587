"""ParaView's route: a flock's frames as VTK XML PolyData with a .pvd index, read back here by
parsing the XML and decoding each array as VTK's binary form (a UInt32 byte count, then the
values, base64)."""
import base64
import os
import re
import stat
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


def index_files(path):
    return [s.attrib["file"] for s in ET.parse(path).getroot().findall("Collection/DataSet")]


# The VTK files are written as export() writes its CSV: a new file's mode is 0666 less the umask
# (not mkstemp's 0600), a replaced file keeps its own.
@pytest.mark.parametrize("umask", [0o022, 0o027])
def test_vtk_files_get_the_mode_export_gives(tmp_path, umask):
    flock = murmur.Flock(preset="default", backend="cpu", boids=8)
    old = os.umask(umask)
    try:
        flock.export(str(tmp_path / "state.csv"))
        flock.export_vtp(str(tmp_path / "state.vtp"))
        murmur.VtkSeries(tmp_path).add(flock)
    finally:
        os.umask(old)
    want = 0o666 & ~umask
    for name in ("state.csv", "state.vtp", "flock.pvd", "flock_000000000.vtp"):
        assert stat.S_IMODE(os.stat(tmp_path / name).st_mode) == want, name
    os.chmod(tmp_path / "state.vtp", 0o604)
    flock.export_vtp(str(tmp_path / "state.vtp"))
    assert stat.S_IMODE(os.stat(tmp_path / "state.vtp").st_mode) == 0o604


# A symlink at the target is followed as export() follows it: the file it points at is replaced,
# the link stays a link.
def test_a_symlink_at_the_target_is_followed_as_export_follows_it(tmp_path):
    flock = murmur.Flock(preset="default", backend="cpu", boids=8)
    (tmp_path / "real").mkdir()
    for name, write in (("a.csv", flock.export), ("a.vtp", flock.export_vtp)):
        (tmp_path / "real" / name).write_text("old")
        os.symlink(os.path.join("real", name), tmp_path / name)
        write(str(tmp_path / name))
        assert os.path.islink(tmp_path / name) and (tmp_path / "real" / name).read_text() != "old", name
    assert arrays(tmp_path / "a.vtp")[1] == 8
    assert sorted(os.listdir(tmp_path / "real")) == ["a.csv", "a.vtp"]


# A write that cannot be done is murmur.Error naming the target (not an OSError naming a temporary
# file), and leaves nothing behind.
def test_a_failed_vtk_write_is_murmur_error_naming_the_target(tmp_path):
    flock = murmur.Flock(preset="default", backend="cpu", boids=8)
    missing = str(tmp_path / "no" / "state.vtp")
    with pytest.raises(murmur.Error, match=re.escape(f"export_vtp {missing}: directory {tmp_path / 'no'} does not exist")):
        flock.export_vtp(missing)
    (tmp_path / "dir.vtp").mkdir()
    with pytest.raises(murmur.Error, match=re.escape(f"export_vtp {tmp_path / 'dir.vtp'}: it is a directory")):
        flock.export_vtp(str(tmp_path / "dir.vtp"))
    (tmp_path / "ro.vtp").write_text("kept")
    os.chmod(tmp_path / "ro.vtp", 0o444)
    with pytest.raises(murmur.Error, match="ro.vtp: it is read-only"):
        flock.export_vtp(str(tmp_path / "ro.vtp"))
    assert (tmp_path / "ro.vtp").read_text() == "kept"
    (tmp_path / "flock.pvd").mkdir()
    with pytest.raises(murmur.Error, match=re.escape(f"VtkSeries {tmp_path / 'flock.pvd'}: it is a directory")):
        murmur.VtkSeries(tmp_path).add(flock)
    with pytest.raises(murmur.Error, match=r"^export_vtp /.*: the file needs a name before \.vtp \(FILE\.vtp\), not a hidden file$"):
        flock.export_vtp(str(tmp_path / ".vtp"))
    assert sorted(os.listdir(tmp_path)) == ["dir.vtp", "flock.pvd", "flock_000000000.vtp", "ro.vtp"]


# A series opened again on the same folder and name continues: its index keeps the frames it listed.
def test_a_reopened_series_keeps_the_earlier_frames_in_its_index(tmp_path):
    flock = murmur.Flock(preset="default", backend="cpu", boids=8)
    with murmur.VtkSeries(tmp_path) as series:
        for _ in range(3):
            flock.step(2)
            series.add(flock)
    with murmur.VtkSeries(tmp_path) as series:
        flock.step(2)
        series.add(flock)
    files = ["flock_000000002.vtp", "flock_000000004.vtp", "flock_000000006.vtp", "flock_000000008.vtp"]
    assert index_files(tmp_path / "flock.pvd") == files
    times = [float(s.attrib["timestep"]) for s in ET.parse(tmp_path / "flock.pvd").getroot().iter("DataSet")]
    np.testing.assert_allclose(times, [2 * k * flock.params["dt"] for k in (1, 2, 3, 4)], rtol=1e-12)
    os.unlink(tmp_path / files[0])  # a frame removed since is no longer listed
    murmur.VtkSeries(tmp_path).add(flock)
    assert index_files(tmp_path / "flock.pvd") == files[1:]
    (tmp_path / "other.pvd").write_text("not xml")
    with pytest.raises(murmur.Error, match="other.pvd' is not a ParaView collection"):
        murmur.VtkSeries(tmp_path, name="other")
