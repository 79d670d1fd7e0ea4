"""Intermediates: pickle-free, byte-stable, atomic; bad files give errors naming them."""

import time

import numpy as np
import pytest
import scipy.sparse as sp

from termweight.runner import io
from termweight.runner.errors import DataError


def test_npz_roundtrip_without_pickle(tmp_path):
    X = sp.random(20, 30, density=0.2, format="csr", random_state=0)
    io.save_arrays(tmp_path / "a.npz", X=X, y=np.arange(5), names=np.array(["a", "bb"]))
    with np.load(tmp_path / "a.npz", allow_pickle=False) as z:  # opens with plain numpy
        assert "X.data" in z.files
    back = io.load_arrays(tmp_path / "a.npz")
    assert (back["X"] != X).nnz == 0
    assert back["names"].tolist() == ["a", "bb"]


def test_load_arrays_reads_only_the_named_keys(tmp_path):
    X = sp.random(20, 30, density=0.2, format="csr", random_state=0)
    io.save_arrays(tmp_path / "a.npz", X_train=X, X_test=X[:5], y=np.arange(5))
    some = io.load_arrays(tmp_path / "a.npz", keys=("X_test", "y"))
    assert sorted(some) == ["X_test", "y"] and (some["X_test"] != X[:5]).nnz == 0
    with pytest.raises(DataError, match=r"a\.npz.*no array 'X_val'"):
        io.load_arrays(tmp_path / "a.npz", keys=("X_test", "X_val"))


def test_npz_bytes_do_not_depend_on_time(tmp_path):
    X = sp.random(5, 5, density=0.5, format="csr", random_state=0)
    io.save_arrays(tmp_path / "a.npz", X=X)
    first = (tmp_path / "a.npz").read_bytes()
    time.sleep(2.1)  # zip timestamps have 2-second resolution
    io.save_arrays(tmp_path / "a.npz", X=X)
    assert (tmp_path / "a.npz").read_bytes() == first


def test_failed_write_leaves_nothing(tmp_path):
    target = tmp_path / "out.json"
    with pytest.raises(TypeError):
        io.write_json(target, {"x": object()})
    assert list(tmp_path.iterdir()) == []


def test_corrupt_file_error_names_it(tmp_path):
    bad = tmp_path / "broken.npz"
    bad.write_bytes(b"not a zip")
    with pytest.raises(DataError, match="broken.npz"):
        io.load_arrays(bad)
