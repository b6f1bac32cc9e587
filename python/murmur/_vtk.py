"""ParaView's route: a flock's frames as VTK XML PolyData (.vtp) with a collection (.pvd) index."""
import base64
import os
from xml.etree import ElementTree
from xml.sax.saxutils import quoteattr

import numpy as np

from ._murmur import Error, Flock, _write_file

_TYPES = {np.dtype(np.float32): "Float32", np.dtype(np.uint32): "UInt32", np.dtype(np.int64): "Int64"}


def _data_array(name, values, components=1):
    """One DataArray in VTK's binary (base64) form: a UInt32 byte count, then the values, little-endian."""
    values = np.ascontiguousarray(values, dtype=values.dtype.newbyteorder("<"))
    raw = values.tobytes()
    encoded = base64.b64encode(np.uint32(len(raw)).astype("<u4").tobytes() + raw).decode("ascii")
    return (f'<DataArray type="{_TYPES[np.dtype(values.dtype.name)]}" Name={quoteattr(name)} '
            f'NumberOfComponents="{components}" format="binary">{encoded}</DataArray>')


def _write_atomic(path, text, what):
    """text at path as export() writes its CSV (the library's writeFile): the same checks (a name that
    is only an extension, a missing folder, ...), a whole file or none, through a symlink to its file,
    a replaced file's mode kept and a new one 0666 less the umask; murmur.Error naming path."""
    _write_file(os.fsencode(path), text.encode("utf-8"), what)


def _polydata(flock):
    n = flock.size
    points = flock.positions
    cells = np.arange(n, dtype=np.int64)
    return "\n".join([
        '<?xml version="1.0"?>',
        '<VTKFile type="PolyData" version="1.0" byte_order="LittleEndian" header_type="UInt32">',
        "<PolyData>",
        f'<Piece NumberOfPoints="{n}" NumberOfVerts="{n}" NumberOfLines="0" NumberOfStrips="0" NumberOfPolys="0">',
        "<Points>", _data_array("position", points, 3), "</Points>",
        '<PointData Scalars="species" Vectors="velocity">',
        _data_array("velocity", flock.velocities, 3),
        _data_array("species", flock.species),
        _data_array("id", flock.ids),
        _data_array("neighbours", flock.neighbour_counts),
        "</PointData>",
        "<Verts>", _data_array("connectivity", cells), _data_array("offsets", cells + 1), "</Verts>",
        "</Piece>", "</PolyData>", "</VTKFile>", ""])


def export_vtp(self, path):
    """export_vtp(path): the state as one VTK XML PolyData file (ParaView, VisIt, pyvista): points
    at the positions, point data velocity, species, id and neighbours (each boid's count at the
    last step), one vertex cell a boid. Written atomically."""
    path = os.fspath(path)
    if not os.fsdecode(path).endswith(".vtp"):
        raise Error(f"export_vtp: {path!r}: the file is VTK XML PolyData; name it FILE.vtp")
    _write_atomic(path, _polydata(self), "export_vtp")


def _indexed_frames(pvd):
    """The frames (time, file) an existing index lists whose files are still there: a series opened
    again on the same folder and name keeps them."""
    if not os.path.isfile(pvd):  # none yet (or a folder or device there, which the index's write refuses)
        return []
    try:
        sets = ElementTree.parse(pvd).getroot().iter("DataSet")
        frames = [(float(d.get("timestep")), d.get("file")) for d in sets]
    except (ElementTree.ParseError, OSError, TypeError, ValueError) as e:
        raise Error(f"VtkSeries: {pvd!r} is not a ParaView collection that can be read and extended ({e}); "
                    "move it away or give the series another name") from None
    folder = os.path.dirname(pvd)
    return [(t, f) for t, f in frames if f and os.path.isfile(os.path.join(folder, f))]


class VtkSeries:
    """VtkSeries(folder, name='flock'): frames added with add(flock) become FOLDER/NAME_STEP.vtp,
    indexed by FOLDER/NAME.pvd (a ParaView collection, each frame at its time, step x dt),
    rewritten after every frame, so ParaView opens the series while it grows. Opened again on the
    same folder and name, it continues the series: the index keeps the frames it listed. A context
    manager.

        with murmur.VtkSeries("frames") as series:
            for _ in range(100):
                flock.step(10)
                series.add(flock)
    """

    def __init__(self, folder, name="flock"):
        folder = str(folder)
        if not os.path.isdir(folder):
            raise Error(f"VtkSeries: {folder!r} is not a folder; make it first")
        if not name or os.sep in name:
            raise Error(f"VtkSeries: name {name!r}: a file name without {os.sep!r} expected")
        self.folder, self.name = folder, name
        self.frames = _indexed_frames(os.path.join(folder, name + ".pvd"))

    def add(self, flock):
        file = f"{self.name}_{flock.step_count:09d}.vtp"
        export_vtp(flock, os.path.join(self.folder, file))
        self.frames = [f for f in self.frames if f[1] != file] + [(flock.step_count * flock.params["dt"], file)]
        entries = "\n".join(f'<DataSet timestep="{t!r}" part="0" file={quoteattr(f)}/>' for t, f in self.frames)
        _write_atomic(os.path.join(self.folder, self.name + ".pvd"),
                      '<?xml version="1.0"?>\n<VTKFile type="Collection" version="1.0" byte_order="LittleEndian">\n'
                      f"<Collection>\n{entries}\n</Collection>\n</VTKFile>\n", "VtkSeries")
        return file

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


Flock.export_vtp = export_vtp
