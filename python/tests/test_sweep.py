"""murmur.sweep: the rows of murmur --sweep as a DataFrame, equal to the CLI's CSV, run in this
process (no child) and written byte for byte as the CLI writes it; bad input raises murmur.Error
with the CLI's message."""
import csv
import os
import signal
import subprocess
import threading

import pandas
import pytest

import murmur

MURMUR_BIN = os.environ["MURMUR_BIN"]


def test_sweep_returns_the_cli_rows_as_a_dataframe(tmp_path):
    table = murmur.sweep({"couzin.orientation_width": (0, 8, 3)}, preset="couzin-torus", backend="cpu", steps=60,
                         every=10, seeds=2, burn_in=20)
    assert isinstance(table, pandas.DataFrame)
    assert len(table) == 6 and list(table["couzin.orientation_width"]) == [0, 0, 4, 4, 8, 8]
    out = tmp_path / "cli.csv"
    subprocess.run([MURMUR_BIN, "--headless", "--backend", "cpu", "--preset", "couzin-torus", "--steps", "60",
                    "--sweep", "couzin.orientation_width=0:8:3", "--sweep-seeds", "2", "--sweep-burn-in", "20",
                    "--sweep-every", "10", "--sweep-out", str(out)], check=True, capture_output=True)
    with open(out) as f:
        rows = list(csv.DictReader(l for l in f if not l.startswith("#")))
    assert list(table.columns) == list(rows[0].keys()) + ["boids", "world_size"]  # the CLI's columns, then two
    for i, row in enumerate(rows):
        for key, text in row.items():
            assert table[key][i] == pytest.approx(float(text), rel=0, abs=0), key  # the same text, parsed


def test_sweep_without_dataframe_gives_dicts():
    rows = murmur.sweep({"vicsek.noise": "0.1:0.5:2"}, preset="vicsek", backend="cpu", boids=50, steps=20, every=10,
                        as_dataframe=False)
    assert isinstance(rows, list) and len(rows) == 2 and rows[1]["vicsek.noise"] == pytest.approx(0.5)


@pytest.mark.parametrize("axes,message", [
    ({"nope": (0, 1, 2)}, "unknown key 'nope'"),
    ({"couzin.orientation_width": (0, 8)}, "FROM, TO, COUNT"),
    ({}, "at least one"),
    (["vicsek.noise"], "as a dict"),
    ({"boids": (100, 400, 2)}, "the density would change with N"),
])
def test_sweep_bad_input_raises(axes, message):
    with pytest.raises(murmur.Error, match=message.replace("(", r"\(").replace(")", r"\)")):
        murmur.sweep(axes, backend="cpu", steps=10)


def test_sweeping_boids_in_a_world_the_user_chose_runs():
    rows = murmur.sweep({"boids": (20, 40, 2)}, preset="vicsek", backend="cpu", steps=10, every=5,
                        params={"world_size": 10}, as_dataframe=False)
    assert [r["boids"] for r in rows] == [20, 40]


def test_each_row_names_its_count_and_world():
    rows = murmur.sweep({"vicsek.noise": (0, 1, 2)}, preset="vicsek", backend="cpu", boids=50, steps=10, every=5,
                        progress=False, as_dataframe=False)
    world = murmur.Flock(preset="vicsek", backend="cpu", boids=50).params["world_size"]
    assert [(r["boids"], r["world_size"]) for r in rows] == [(50, world)] * 2
    rows = murmur.sweep({"boids": (20, 40, 2)}, preset="vicsek", backend="cpu", steps=10, every=5,
                        params={"world_size": 10}, progress=False, as_dataframe=False)
    assert [(r["boids"], r["world_size"]) for r in rows] == [(20, 10.0), (40, 10.0)]


def test_each_run_is_reported_as_it_ends_unless_asked_not_to(capfd):
    murmur.sweep({"vicsek.noise": (0, 1, 2)}, preset="vicsek", backend="cpu", boids=30, steps=10, every=5)
    lines = [l for l in capfd.readouterr().err.splitlines() if l.startswith("murmur.sweep: run ")]
    assert [l.split(" (")[0] for l in lines] == ["murmur.sweep: run 1/2", "murmur.sweep: run 2/2"]
    assert "elapsed" in lines[-1]
    murmur.sweep({"vicsek.noise": (0, 1, 2)}, preset="vicsek", backend="cpu", boids=30, steps=10, every=5, progress=False)
    assert "murmur.sweep" not in capfd.readouterr().err


def _cli_sweep(tmp_path, backend, *args):
    out = tmp_path / f"cli-{backend}.csv"
    subprocess.run([MURMUR_BIN, "--headless", "--backend", backend, *args, "--sweep-out", str(out)], check=True,
                   capture_output=True)
    return out.read_bytes()


@pytest.mark.parametrize("backend", ["cpu", "gpu"])
def test_a_sweep_runs_in_this_process_and_writes_the_cli_bytes(tmp_path, monkeypatch, backend):
    def no_child(*args, **kwargs):
        raise AssertionError("murmur.sweep started a process")
    for name in ("fork", "forkpty", "posix_spawn", "posix_spawnp", "execv", "execve", "system"):
        if hasattr(os, name):
            monkeypatch.setattr(os, name, no_child)
    monkeypatch.setattr(subprocess.Popen, "__init__", no_child)
    kept = tmp_path / "python.csv"
    rows = murmur.sweep({"vicsek.noise": (0.1, 0.5, 3), "max_speed": (0.5, 1.0, 2)}, preset="vicsek", backend=backend,
                        boids=200, steps=40, seeds=2, burn_in=10, every=5, xi=0, progress=False, as_dataframe=False,
                        out=kept)
    assert len(rows) == 12
    assert list(rows[0])[-6:] == ["polarization_binder", "xi_mean", "xi_std", "xi_found", "boids", "world_size"]
    assert all(row["xi_found"] == 7 and 0 < row["xi_mean"] < 7.07 for row in rows)  # 7 samples; half a world of 14.1
    monkeypatch.undo()
    cli = _cli_sweep(tmp_path, backend, "--preset", "vicsek", "--boids", "200", "--steps", "40", "--sweep",
                     "vicsek.noise=0.1:0.5:3", "--sweep", "max_speed=0.5:1.0:2", "--sweep-seeds", "2",
                     "--sweep-burn-in", "10", "--sweep-every", "5", "--sweep-xi", "0")
    assert kept.read_bytes() == cli
    with pytest.raises(murmur.Error, match=r"sweep xi = -1: valid: r_max 0 or more"):
        murmur.sweep({"vicsek.noise": (0.1, 0.5, 3)}, preset="vicsek", backend=backend, steps=10, xi=-1, progress=False)


def test_a_carried_sharded_sweep_writes_the_cli_bytes(tmp_path):
    kept = tmp_path / "python.csv"
    murmur.sweep({"couzin.orientation_width": (0, 8, 3)}, preset="couzin-torus", backend="cpu", boids=100, steps=30,
                 seeds=2, every=10, carry=True, progress=False, out=kept)
    cli = _cli_sweep(tmp_path, "cpu", "--preset", "couzin-torus", "--boids", "100", "--steps", "30", "--sweep",
                     "couzin.orientation_width=0:8:3", "--sweep-seeds", "2", "--sweep-every", "10", "--sweep-carry")
    assert kept.read_bytes() == cli


def test_ctrl_c_stops_a_sweep_and_writes_nothing(tmp_path):
    """Within the burn-in too: each run's steps go in pieces of at most 100, asked between."""
    kept = tmp_path / "stopped.csv"
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            murmur.sweep({"vicsek.noise": (0.1, 0.5, 20)}, preset="vicsek", backend="cpu", boids=500, steps=2000,
                         burn_in=1900, every=100, progress=False, out=kept)
    finally:
        timer.cancel()
    assert not kept.exists() and os.listdir(tmp_path) == []


def test_an_output_that_cannot_be_written_is_refused_before_any_run(tmp_path):
    with pytest.raises(murmur.Error, match="sweep out"):
        murmur.sweep({"vicsek.noise": (0.1, 0.5, 2)}, preset="vicsek", backend="cpu", boids=50, steps=100000,
                     progress=False, out=tmp_path / "no-such-folder" / "sweep.csv")


def test_an_axis_takes_a_list_of_values_or_a_log_range_and_the_identity_line_writes_them_shortest(tmp_path):
    """[V1, V2, ...] sweeps those values in that order; (FROM, TO, COUNT, 'log') evenly in log; the CSV's identity
    line names each axis as --sweep reads it, shortest-exact (0.2, not 0.20000000000000001)."""
    out = tmp_path / "s.csv"
    rows = murmur.sweep({"vicsek.noise": [0.2, 1, 0.5]}, preset="vicsek", backend="cpu", boids=30, steps=4, every=2,
                        progress=False, as_dataframe=False, out=str(out))
    assert [r["vicsek.noise"] for r in rows] == [0.2, 1, 0.5]
    assert open(out).readline().startswith("# murmur sweep: vicsek.noise=0.2,1,0.5; ")
    rows = murmur.sweep({"dt": (0.001, 0.1, 3, "log")}, preset="vicsek", backend="cpu", boids=30, steps=4, every=2,
                        progress=False, as_dataframe=False, out=str(out))
    assert [r["dt"] for r in rows] == pytest.approx([0.001, 0.01, 0.1], rel=1e-8)
    assert open(out).readline().startswith("# murmur sweep: dt=0.001:0.1:3:log; ")
    with pytest.raises(murmur.Error, match="an empty list of values"):
        murmur.sweep({"dt": []}, backend="cpu", steps=2)
