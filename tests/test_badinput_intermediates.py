"""Every intermediate is checked when it is read (termweight.intermediates), and a worker's
error is the same one line as one process's.

A small real chain runs once through the CLI (split, stats, score, encode, train, predict,
evaluate, aggregate on a 48-document corpus); each case copies it, tampers with one file the way a
careless or hostile user would, reruns the step that reads it, and expects ONE line naming the
file (and the array or column), exit 2, and no output of that step.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

from termweight.corpus import Corpus, indicator
from termweight.intermediates import check, load
from termweight.runner import io
from termweight.runner.cli import main
from termweight.runner.errors import DataError

REPO = Path(__file__).resolve().parents[1]
ENCODINGS = ("binary", "tf", "tfidf", "binary-bns")  # the slice experiment's encodings
SPLIT = "r0f0"

SPLIT_T = "splits/{split}.npz"
STATS_T = "stats/{split}.npz"
SCORES_T = "scores/{split}.npz"
ENC_T = "enc/{encoding}/{split}.npz"
MODEL_T = "models/{encoding}/{split}.npz"
PRED_T = "pred/{encoding}/{split}.npz"
MET_T = "metrics/{encoding}/{split}.csv"

STEPS = {
    "stats": ("stats", "--corpus", "corpus", "--split", SPLIT_T, "--out", STATS_T,
              "--names", SPLIT),
    "score": ("score", "--params", "params.yaml", "--exp", "slice", "--stats", STATS_T,
              "--out", SCORES_T, "--names", SPLIT),
    "encode": ("encode", "--params", "params.yaml", "--exp", "slice", "--corpus", "corpus",
               "--split", SPLIT_T, "--stats", STATS_T, "--scores", SCORES_T, "--out", ENC_T,
               "--names", SPLIT, "--jobs", "1"),
    "train": ("train", "--params", "params.yaml", "--exp", "slice", "--encoded", ENC_T,
              "--out", MODEL_T, "--names", SPLIT, "--jobs", "1"),
    "predict": ("predict", "--params", "params.yaml", "--exp", "slice", "--encoded", ENC_T,
                "--model", MODEL_T, "--out", PRED_T, "--names", SPLIT),
    "evaluate": ("evaluate", "--params", "params.yaml", "--exp", "slice", "--corpus-meta",
                 "corpus/meta.json", "--encoded", ENC_T, "--model", MODEL_T, "--predictions",
                 PRED_T, "--out", MET_T, "--names", SPLIT),
    "aggregate": ("aggregate", "--params", "params.yaml", "--exp", "slice", "--metrics", MET_T,
                  "--out-tasks", "res/tasks.csv", "--out-runs", "res/runs.csv",
                  "--out-json", "res/slice.json", "--names", SPLIT),
    "table": ("table", "--params", "params.yaml", "--exp", "slice", "--runs", "res/runs.csv",
              "--out", "out/table.tex"),
    "figure": ("figure", "--params", "params.yaml", "--exp", "slice", "--runs", "res/runs.csv",
               "--out", "out/figure.pdf"),
    "report-macros": ("report-macros", "--params", "params.yaml", "--exp", "slice", "--metrics",
                      "res/slice.json", "--out", "out/macros.tex"),
}
#: what each step writes for the split (and the first encoding): none of it may exist after an error
OUTPUTS = {"stats": [STATS_T], "score": [SCORES_T], "encode": [ENC_T], "train": [MODEL_T],
           "predict": [PRED_T], "evaluate": [MET_T],
           "aggregate": ["res/tasks.csv", "res/runs.csv", "res/slice.json"],
           "table": ["out/table.tex"],
           "figure": ["out/figure.pdf", "out/figure.png", "out/figure.csv"],
           "report-macros": ["out/macros.tex"]}


def _cli(cwd: Path, *args) -> tuple[int, str]:
    """The real CLI in a fresh process (one line on stderr, exit code)."""
    res = subprocess.run([sys.executable, "-m", "termweight", *map(str, args)], cwd=cwd,
                         capture_output=True, text=True, timeout=300)
    return res.returncode, res.stderr


def _in_process(cwd: Path, capsys, monkeypatch, *args) -> tuple[int, str]:
    monkeypatch.chdir(cwd)
    code = main(["--log", "step.log", *map(str, args)])
    return code, capsys.readouterr().err


@pytest.fixture(scope="module")
def chain(tmp_path_factory) -> Path:
    """A finished small chain: corpus, one split, stats, scores, 4 encodings, models, ..."""
    d = tmp_path_factory.mktemp("chain")
    (d / "workflow/schemas").mkdir(parents=True)
    shutil.copy(REPO / "workflow/schemas/params.schema.yaml", d / "workflow/schemas")
    shutil.copy(REPO / "params.yaml", d / "params.yaml")
    rng = np.random.default_rng(0)
    X = sp.random(48, 30, density=0.3, format="csr", random_state=rng, dtype=np.float64)
    X.data = np.ceil(X.data * 3)
    y = np.arange(48) % 3
    Corpus("toy", X.astype(np.int32), indicator(y, 3), ["a", "b", "c"],
           [f"t{j}" for j in range(30)], [str(i) for i in range(48)],
           np.array(["all"] * 48)).save(d / "corpus")
    old = Path.cwd()
    try:
        os.chdir(d)
        assert main(["--log", "l.log", "split", "--params", "params.yaml", "--exp", "slice",
                     "--corpus", "corpus", "--out-dir", "splits"]) == 0
        from termweight.runner.config import load_params
        from termweight.splits import split_names

        every = split_names(load_params("params.yaml")["experiments"]["slice"]["protocol"])
        for step in STEPS.values():  # every split: the concluding steps check them all
            step = [x for a in step for x in (every if a == SPLIT else [a])]
            assert main(["--log", "l.log", *step]) == 0, (step, Path("l.log").read_text())
    finally:
        os.chdir(old)
    return d


@pytest.fixture
def work(chain, tmp_path) -> Path:
    shutil.copytree(chain, tmp_path / "w")
    return tmp_path / "w"


def _fmt(template: str, encoding: str = "tf") -> str:
    return template.format(split=SPLIT, encoding=encoding)


def _rewrite(path: Path, **changes) -> None:
    """Rewrite the arrays of an .npz (as save_arrays does), changing some."""
    arrays = dict(io.load_arrays(path))
    arrays.update(changes)
    io.save_arrays(path, **{k: v for k, v in arrays.items() if v is not None})


def _split(d):
    return io.load_arrays(d / _fmt(SPLIT_T))


def _stats(d):
    return io.load_arrays(d / _fmt(STATS_T))


def _tamper_split_overlap(d):
    """300 training rows into the test set (here: every training row)."""
    a = _split(d)
    _rewrite(d / _fmt(SPLIT_T), test=np.union1d(a["test"], a["train"][:30]))


def _csv_edit(path: Path, fn) -> None:
    frame = pd.read_csv(path)
    fn(frame)
    frame.to_csv(path, index=False)


def _set(frame, col, row, value):
    frame[col] = frame[col].astype(object)
    frame.loc[row, col] = value


CASES = {
    # case: (tamper(dir), step, the file the line must name, text the line must hold)
    "split-train-in-test": (_tamper_split_overlap, "stats", SPLIT_T, "train and test share"),
    "split-negative-index": (lambda d: _rewrite(d / _fmt(SPLIT_T), test=np.r_[-1, _split(
        d)["test"][1:]]), "stats", SPLIT_T, "below the minimum 0"),
    "split-float-index": (lambda d: _rewrite(d / _fmt(SPLIT_T), test=_split(d)["test"] + 0.5),
                          "stats", SPLIT_T, "expected integers"),
    "split-empty-train": (lambda d: _rewrite(d / _fmt(SPLIT_T), train=np.zeros(0, np.int64)),
                          "stats", SPLIT_T, "'train': is empty"),
    "split-past-corpus": (lambda d: _rewrite(d / _fmt(SPLIT_T), test=np.r_[_split(d)["test"],
                                                                            480]),
                          "stats", SPLIT_T, "past the end"),
    "split-unsorted": (lambda d: _rewrite(d / _fmt(SPLIT_T), test=_split(d)["test"][::-1]),
                       "stats", SPLIT_T, "strictly increasing"),
    "split-tampered-before-encode": (_tamper_split_overlap, "encode", SPLIT_T,
                                     "train and test share"),
    "stats-wrong-shape": (lambda d: _rewrite(d / _fmt(STATS_T), df=_stats(d)["df"][:-3]),
                          "score", STATS_T, "'df'"),
    "stats-n-docs-array": (lambda d: _rewrite(d / _fmt(STATS_T), n_docs=np.array([36, 36])),
                           "score", STATS_T, "'n_docs'"),
    "stats-negative-tp": (lambda d: _rewrite(d / _fmt(STATS_T), tp=_stats(d)["tp"] - 5),
                          "score", STATS_T, "'tp'"),
    "stats-tp-above-df": (lambda d: _rewrite(d / _fmt(STATS_T), tp=_stats(d)["tp"] * 0
                                             + _stats(d)["df"] + 1),
                          "score", STATS_T, "'tp'"),
    "stats-other-split": (lambda d: _rewrite(d / _fmt(STATS_T), n_docs=np.asarray(30)),
                          "encode", STATS_T, "training rows"),
    "stats-float-counts": (lambda d: _rewrite(d / _fmt(STATS_T), pos=_stats(d)["pos"] + 0.5),
                           "score", STATS_T, "expected integers"),
    "scores-too-short": (lambda d: _rewrite(d / _fmt(SCORES_T), idf=io.load_arrays(
        d / _fmt(SCORES_T))["idf"][:, :-2]), "encode", SCORES_T, "'idf'"),
    "scores-nan-idf": (lambda d: _rewrite(d / _fmt(SCORES_T), idf=io.load_arrays(
        d / _fmt(SCORES_T))["idf"] * np.nan), "encode", SCORES_T, "NaN"),
    "scores-negative-idf": (lambda d: _rewrite(d / _fmt(SCORES_T), idf=-io.load_arrays(
        d / _fmt(SCORES_T))["idf"] - 1), "encode", SCORES_T, "negative"),
    "encoded-nan": (lambda d: _rewrite(d / _fmt(ENC_T), X_train=_nan_matrix(
        io.load_arrays(d / _fmt(ENC_T))["X_train"])), "train", ENC_T, "NaN"),
    "encoded-labels-rows": (lambda d: _rewrite(d / _fmt(ENC_T), Y_train=io.load_arrays(
        d / _fmt(ENC_T))["Y_train"][:-1]), "train", ENC_T, "'Y_train'"),
    "model-coef-shape": (lambda d: _rewrite(d / _fmt(MODEL_T), coef=io.load_arrays(
        d / _fmt(MODEL_T))["coef"][:, :-1]), "predict", MODEL_T, "'coef'"),
    "model-string-intercept": (lambda d: _rewrite(d / _fmt(MODEL_T), intercept=np.array(
        ["a", "b", "c"])), "predict", MODEL_T, "'intercept'"),
    "model-nan-coef": (lambda d: _rewrite(d / _fmt(MODEL_T), coef=io.load_arrays(
        d / _fmt(MODEL_T))["coef"] * np.nan), "predict", MODEL_T, "NaN"),
    "predictions-shape": (lambda d: _rewrite(d / _fmt(PRED_T), predicted=io.load_arrays(
        d / _fmt(PRED_T))["predicted"][:, :2]), "evaluate", PRED_T, "'predicted'"),
    "predictions-not-01": (lambda d: _rewrite(d / _fmt(PRED_T), predicted=io.load_arrays(
        d / _fmt(PRED_T))["predicted"] * 3), "evaluate", PRED_T, "0 or 1"),
    "meta-without-classes": (lambda d: (d / "corpus/meta.json").write_text('{"name": "toy"}'),
                             "evaluate", "corpus/meta.json", "'classes'"),
    "metrics-not-a-number": (lambda d: _csv_edit(d / _fmt(MET_T), lambda f: _set(
        f, "tp", 0, "many")), "aggregate", MET_T, "'tp'"),
    "metrics-negative-count": (lambda d: _csv_edit(d / _fmt(MET_T), lambda f: _set(
        f, "fn", 1, -4)), "aggregate", MET_T, "counts"),
    "runs-without-micro-f1-table": (lambda d: _csv_edit(d / "res/runs.csv", lambda f: f.pop(
        "micro_f1")), "table", "res/runs.csv", "'micro_f1'"),
    "runs-without-micro-f1-figure": (lambda d: _csv_edit(d / "res/runs.csv", lambda f: f.pop(
        "micro_f1")), "figure", "res/runs.csv", "'micro_f1'"),
    "runs-empty": (lambda d: (d / "res/runs.csv").write_text(
        (d / "res/runs.csv").read_text().split("\n")[0] + "\n"), "table", "res/runs.csv",
        "no rows"),
    "runs-f1-above-one": (lambda d: _csv_edit(d / "res/runs.csv", lambda f: _set(
        f, "macro_f1", 0, 7.5)), "figure", "res/runs.csv", "[0, 1]"),
    "metrics-json-without-dataset": (lambda d: (d / "res/slice.json").write_text(json.dumps({
        k: v for k, v in io.read_json(d / "res/slice.json").items() if k != "dataset"})),
        "report-macros", "res/slice.json", "'dataset'"),
    "metrics-json-list": (lambda d: (d / "res/slice.json").write_text("[1, 2]"),
                          "report-macros", "res/slice.json", "JSON object"),
    # the concluding steps: every declared cell exactly once, every score finite and in range
    "runs-missing-cell-table": (lambda d: _csv_drop_line(d / "res/runs.csv", 4), "table",
                                "res/runs.csv", "is missing"),
    "runs-missing-cell-figure": (lambda d: _csv_drop_line(d / "res/runs.csv", 4), "figure",
                                 "res/runs.csv", "is missing"),
    "runs-duplicated-cell": (lambda d: _csv_append_first(d / "res/runs.csv"), "table",
                             "res/runs.csv", "appears twice"),
    "runs-undeclared-encoding": (lambda d: _csv_edit(d / "res/runs.csv", lambda f: _set(
        f, "encoding", 0, "tf-chi2")), "figure", "res/runs.csv", "not declared"),
    "runs-nan": (lambda d: _csv_edit(d / "res/runs.csv", lambda f: _set(
        f, "micro_accuracy", 2, float("nan"))), "table", "res/runs.csv", "micro_accuracy"),
    "metrics-duplicated-task": (lambda d: _csv_append_first(d / _fmt(MET_T)), "aggregate", MET_T,
                                "appears twice"),
    "metrics-json-missing-encoding": (lambda d: _json_edit(
        d / "res/slice.json", lambda m: m["encodings"].pop("tfidf")), "report-macros",
        "res/slice.json", "'tfidf' is missing"),
    "metrics-json-undeclared-encoding": (lambda d: _json_edit(
        d / "res/slice.json", lambda m: m["encodings"].update(extra=m["encodings"]["tf"])),
        "report-macros", "res/slice.json", "not declared"),
    "metrics-json-fewer-splits": (lambda d: _json_edit(d / "res/slice.json", lambda m: m.update(
        splits=3)), "report-macros", "res/slice.json", "splits"),
}


def _csv_drop_line(path: Path, line: int) -> None:
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:line - 1] + lines[line:]) + "\n")


def _csv_append_first(path: Path) -> None:
    lines = path.read_text().splitlines()
    path.write_text("\n".join([*lines, lines[1]]) + "\n")


def _json_edit(path: Path, fn) -> None:
    m = io.read_json(path)
    fn(m)
    path.write_text(json.dumps(m))


def _nan_matrix(m):
    m = m.copy()
    m.data[0] = np.nan
    return m


@pytest.mark.parametrize("case", sorted(CASES))
def test_tampered_intermediate_is_refused(work, capsys, monkeypatch, case):
    tamper, step, named, text = CASES[case]
    tamper(work)
    for template in OUTPUTS[step]:
        for enc in ENCODINGS:
            (work / _fmt(template, enc)).unlink(missing_ok=True)
    code, err = _in_process(work, capsys, monkeypatch, *STEPS[step])
    lines = err.strip().split("\n")
    assert code == 2 and len(lines) == 1 and "Traceback" not in err, err
    assert lines[0].startswith(f"termweight {step}: error: {_fmt(named)}"), lines[0]
    assert text in lines[0], lines[0]
    for template in OUTPUTS[step]:
        assert not (work / _fmt(template)).exists(), template


def test_untampered_chain_passes_every_check(chain):
    """The checks accept what the steps write (else every case above would pass vacuously)."""
    n_docs = Corpus.load(chain / "corpus").n_docs
    _, dims = load("split", chain / _fmt(SPLIT_T), n_docs=n_docs)
    _, dims = load("stats", chain / _fmt(STATS_T), n_train=dims["n_train"], n_classes=3)
    load("scores", chain / _fmt(SCORES_T), n_terms=dims["n_terms"], n_classes=3)
    for enc in ENCODINGS:
        load("encoded", chain / _fmt(ENC_T, enc), n_terms=dims["n_terms"], n_classes=3)
        load("model", chain / _fmt(MODEL_T, enc), n_terms=dims["n_terms"], n_classes=3)
        load("predictions", chain / _fmt(PRED_T, enc), n_classes=3)


def test_headlines_on_a_json_list(tmp_path):
    (tmp_path / "metrics").mkdir()
    (tmp_path / "metrics/slice.json").write_text("[]")
    code, err = _cli(tmp_path, "headlines", "--params", REPO / "params.yaml", "--reports",
                     tmp_path, "--out", tmp_path / "h.json")
    assert code == 2 and len(err.strip().split("\n")) == 1 and "Traceback" not in err, err
    assert "metrics/slice.json" in err and "JSON object" in err, err
    assert not (tmp_path / "h.json").exists()


# --- .npz headers and decompressed size ---------------------------------------------------------

def _npz_with_header(path: Path, shape, payload: bytes = b"") -> None:
    """An .npz whose one member declares ``shape`` float64 but holds ``payload``."""
    import io as _io

    buf = _io.BytesIO()
    np.lib.format.write_array_header_2_0(buf, {"descr": "<f8", "fortran_order": False,
                                               "shape": shape})
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("train.npy", buf.getvalue() + payload)


def test_npz_header_declaring_a_terabyte_is_refused_before_allocating(tmp_path):
    path = tmp_path / "s.npz"
    _npz_with_header(path, (10 ** 12,))
    with pytest.raises(DataError, match="header declares 8,000,000,000,000 bytes") as exc:
        io.load_arrays(path)
    assert str(exc.value).startswith(str(path))


def test_deflate_bomb_is_bounded_by_the_limit(tmp_path, monkeypatch):
    """64 MB of zeros deflate to 64 KB; with the limit at 16 MB it is refused unread."""
    path = tmp_path / "bomb.npz"
    n = 8 << 20
    _npz_with_header(path, (n,), bytes(8 * n))
    assert path.stat().st_size < 200_000
    monkeypatch.setenv(io.MAX_ARRAY_BYTES_ENV, str(16 << 20))
    with pytest.raises(DataError, match="more than 16,777,216 bytes decompressed"):
        io.load_arrays(path)
    monkeypatch.setenv(io.MAX_ARRAY_BYTES_ENV, str(1 << 30))
    assert io.load_arrays(path)["train"].shape == (n,)


def test_a_header_larger_than_its_member_is_refused(tmp_path):
    path = tmp_path / "s.npz"
    _npz_with_header(path, (1000,), bytes(80))
    with pytest.raises(DataError, match="the file holds"):
        io.load_arrays(path)


def test_check_names_dimensions_that_disagree(tmp_path):
    arrays = {"coef": np.zeros((3, 5)), "intercept": np.zeros(4), "fitted": np.ones(3, bool)}
    with pytest.raises(DataError, match=r"'intercept': shape \(4,\): n_classes is 3 \(array 'coef'\)"):
        check("model", tmp_path / "m.npz", arrays)


# --- workers, disk full, several outputs ------------------------------------------------------

def _limit_file_size(nbytes: int):
    return lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (nbytes, nbytes))


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_disk_full_in_workers_is_one_line_naming_the_file(work, jobs):
    """RLIMIT_FSIZE makes every write past 2 KB fail with EFBIG, as a full disk does."""
    shutil.rmtree(work / "enc")
    args = [*STEPS["encode"][:-1], jobs]
    res = subprocess.run([sys.executable, "-m", "termweight", *args], cwd=work,
                         capture_output=True, text=True, timeout=300,
                         preexec_fn=_limit_file_size(2048))
    lines = res.stderr.strip().split("\n")
    assert res.returncode == 2 and len(lines) == 1 and "Traceback" not in res.stderr, res.stderr
    assert "error: enc/" in lines[0] and "File too large" in lines[0], lines[0]
    assert not [p for p in (work / "enc").rglob("*") if p.is_file()]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_output_directory_that_is_a_file_in_workers(work, jobs):
    shutil.rmtree(work / "enc")
    (work / "enc").write_text("not a directory")
    code, err = _cli(work, *STEPS["encode"][:-1], jobs)
    lines = err.strip().split("\n")
    assert code == 2 and len(lines) == 1 and "Traceback" not in err, err
    assert "enc" in lines[0] and ("Not a directory" in lines[0] or "exists" in lines[0]), lines[0]


def test_aggregate_writes_all_three_outputs_or_none(work):
    """A write that fails on the last output leaves none of the three (the JSON came first)."""
    shutil.rmtree(work / "res")
    (work / "res").mkdir()
    (work / "runs-dir").mkdir()
    args = list(STEPS["aggregate"])
    args[args.index("res/runs.csv")] = "runs-dir/sub/runs.csv"
    (work / "runs-dir/sub").write_text("a file where a directory should be")
    code, err = _cli(work, *args)
    assert code == 2 and len(err.strip().split("\n")) == 1, err
    assert sorted(p.name for p in (work / "res").iterdir()) == []


def test_disk_full_in_one_process_names_the_output(work):
    shutil.rmtree(work / "res")
    res = subprocess.run([sys.executable, "-m", "termweight", *STEPS["aggregate"]], cwd=work,
                         capture_output=True, text=True, timeout=300,
                         preexec_fn=_limit_file_size(600))
    assert res.returncode == 2 and "Traceback" not in res.stderr, res.stderr
    assert "error: res/" in res.stderr and "(file)" not in res.stderr, res.stderr
    assert not [p for p in (work / "res").rglob("*") if p.is_file()]


def test_a_ranking_must_be_a_permutation_of_the_terms(tmp_path):
    """Mukras's per-fold term rankings (order_<selector>)."""
    path = tmp_path / "scores.npz"
    check("ranking", path, {"order": np.array([2, 0, 1])}, n_terms=3)
    with pytest.raises(DataError, match="repeats a term"):
        check("ranking", path, {"order": np.array([2, 2, 1])}, n_terms=3)
    with pytest.raises(DataError, match="past the end"):
        check("ranking", path, {"order": np.array([3, 0, 1])}, n_terms=3)


def test_mukras_fold_with_test_rows_in_training_is_refused(tmp_path):
    from termweight.experiments.mukras import _load_fold_splits

    X = sp.csr_matrix(np.eye(6, dtype=np.int32))
    corpus = Corpus("toy", X, indicator([0, 1, 0, 1, 0, 1], 2), ["a", "b"], list("uvwxyz"),
                    list("123456"), np.array(["all"] * 6))
    io.save_arrays(tmp_path / "splits.npz", train_r0f0=np.array([0, 1, 2, 3]),
                   test_r0f0=np.array([3, 4, 5]))
    with pytest.raises(DataError, match="train and test share 1"):
        _load_fold_splits(tmp_path / "splits.npz", corpus)
