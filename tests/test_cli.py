"""The CLI on bad input: clear one-line errors naming the cause (exit 2), or documented skips."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pandas as pd
import scipy.sparse as sp

from termweight.corpus import Corpus, indicator
from termweight.datasets import Documents
from termweight.splits import Split


def tw(*args, cwd):
    return subprocess.run([sys.executable, "-m", "termweight", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=300)


def test_unknown_dataset_is_a_clear_error(tmp_path):
    res = tw("prepare", "--dataset", "nosuch", "--out", "out", cwd=tmp_path)
    assert res.returncode == 2
    assert "unknown dataset 'nosuch'" in res.stderr and "Traceback" not in res.stderr
    assert not (tmp_path / "out").exists()


def test_invalid_params_name_the_key(tmp_path, repo):
    (tmp_path / "workflow/schemas").mkdir(parents=True)
    (tmp_path / "workflow/schemas/params.schema.yaml").write_text(
        (repo / "workflow/schemas/params.schema.yaml").read_text())
    (tmp_path / "params.yaml").write_text(
        "seed: 1\nexperiments:\n  x:\n    dataset: bbc\n    protocol: {type: kfold, folds: 1}\n"
        "    encodings: [binary]\n    learner: {name: linearsvc}\n")
    res = tw("split", "--params", "params.yaml", "--exp", "x", "--corpus", "c", "--out-dir", "s",
             cwd=tmp_path)
    assert res.returncode == 2
    assert "experiments/x/protocol/folds" in res.stderr and "Traceback" not in res.stderr


def test_empty_corpus_is_a_clear_error(tmp_path):
    docs = Documents("tiny", ["a", "b"], ["the and of", "1987 42"], [["x"], ["y"]], ["all", "all"],
                     ["x", "y"])
    docs.save(tmp_path / "docs")
    assert tw("tokenize", "--documents", "docs", "--out", "tok.parquet", cwd=tmp_path).returncode == 0
    res = tw("count", "--documents", "docs", "--tokens", "tok.parquet", "--out", "corpus",
             cwd=tmp_path)
    assert res.returncode == 2
    assert "corpus has no terms" in res.stderr and "Traceback" not in res.stderr
    assert not (tmp_path / "corpus" / "counts.npz").exists()


def test_class_without_training_positives_is_a_recorded_skip(tmp_path):
    rng = np.random.default_rng(0)
    X = sp.random(40, 30, density=0.3, format="csr", random_state=1, dtype=np.float64)
    X.data = np.ceil(X.data * 3)
    y = rng.integers(0, 2, 40)
    y[35:] = 2  # class "c" occurs in the test rows only
    Corpus("toy", X.astype(np.int32), indicator(y, 3), ["a", "b", "c"],
           [f"t{j}" for j in range(30)], [str(i) for i in range(40)],
           np.array(["all"] * 40)).save(tmp_path / "corpus")
    Split("s0", np.arange(30), np.arange(30, 40)).save(tmp_path / "s0.npz")
    steps = [
        ("stats", "--corpus", "corpus", "--split", "{split}.npz", "--out", "stats-{split}.npz"),
        ("score", "--stats", "stats-{split}.npz", "--metrics", "idf", "bns",
         "--out", "scores-{split}.npz"),
        ("encode", "--corpus", "corpus", "--split", "{split}.npz", "--stats", "stats-{split}.npz",
         "--scores", "scores-{split}.npz", "--encoding", "binary-bns", "--out", "enc-{split}.npz"),
        ("train", "--encoded", "enc-{split}.npz", "--encoding", "binary-bns",
         "--out", "model-{split}.npz"),
        ("predict", "--encoded", "enc-{split}.npz", "--model", "model-{split}.npz",
         "--encoding", "binary-bns", "--out", "pred-{split}.npz"),
        ("evaluate", "--corpus-meta", "corpus/meta.json", "--encoded", "enc-{split}.npz",
         "--model", "model-{split}.npz", "--predictions", "pred-{split}.npz",
         "--encoding", "binary-bns", "--out", "metrics-{split}.csv"),
    ]
    for step in steps:
        res = tw("--log", f"{step[0]}.log", *step, "--names", "s0", cwd=tmp_path)
        assert res.returncode == 0, res.stderr
    frame = pd.read_csv(tmp_path / "metrics-s0.csv")
    assert frame["status"].tolist() == ["ok", "ok", "skipped: no training positives"]
    assert frame.loc[2, "fn"] == 5 and frame.loc[2, "tp"] == 0  # still counted, never predicted
    assert "classes without training positives: ['c']" in (tmp_path / "stats.log").read_text()
