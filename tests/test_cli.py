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


# --- a newcomer's first commands: --version, list, --help -----------------------------------------

def test_version_needs_no_sub_command(tmp_path):
    import termweight

    res = tw("--version", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert res.stdout == f"termweight {termweight.__version__}\n"


def _lines(res) -> dict[str, str]:
    """First word of each output line -> the line (each name exactly once)."""
    assert res.returncode == 0, res.stderr
    names = [ln.split()[0] for ln in res.stdout.splitlines()]
    assert len(names) == len(set(names)), names
    return {ln.split()[0]: ln for ln in res.stdout.splitlines()}


def test_list_datasets(tmp_path):
    from termweight.datasets import DATASETS

    lines = _lines(tw("list", "datasets", cwd=tmp_path))
    assert set(lines) == set(DATASETS)
    for name, spec in DATASETS.items():
        assert lines[name].split()[1] == spec.kind
        assert lines[name].split()[2] in ("available", "bundled", "missing")
        assert spec.description and " ".join(spec.description.split()) in lines[name]


def test_list_metrics(tmp_path):
    from termweight import scoring

    lines = _lines(tw("list", "metrics", cwd=tmp_path))
    assert list(lines) == list(scoring.METRICS)
    assert "bns" in lines and "ndtri(tpr) - ndtri(fpr)" in lines["bns"]  # the row's description
    for name, (_, swapped) in scoring.METRICS.items():
        assert scoring.METRIC_DESCRIPTIONS[name] in lines[name], name
        assert ("[swap: cells swapped" in lines[name]) == swapped, name


def test_list_encodings(tmp_path):
    from termweight.encoding import BASE_ENCODINGS

    lines = _lines(tw("list", "encodings", cwd=tmp_path))
    assert list(lines) == [*BASE_ENCODINGS, "<base>-<metric>"]
    assert "(no description)" not in "".join(lines.values())  # add new bases to cli's table


def test_list_learners_names_their_classes(tmp_path):
    import importlib

    lines = _lines(tw("list", "learners", cwd=tmp_path))
    assert set(lines) == {"linearsvc", "adaboost_mh", "mp_boost", "modest", "mix-ch", "mini-max",
                          "fh", "smo"}
    for name, line in lines.items():
        module, _, attr = line.split()[1].rpartition(".")
        obj = getattr(importlib.import_module(module), attr)  # the named class really exists
        assert obj.__doc__.strip().splitlines()[0].replace("``", "").strip() in line, name
        assert "Used by:" in line


def test_list_experiments_of_the_repository_and_of_another_params_file(tmp_path, repo):
    lines = _lines(tw("list", "experiments", cwd=repo))
    import yaml

    params = yaml.safe_load((repo / "params.yaml").read_text())
    for exp in params["experiments"]:
        assert lines[exp].split()[1] == "experiment"
        assert params["experiments"][exp]["dataset"] in lines[exp]
    for paper in ("esuli", "mukras", "forman", "kim", "ferreira"):
        assert lines[paper].split()[1] == "paper"
        assert (f"snakemake {paper};" in lines[paper]) == (paper in params), paper
    (tmp_path / "p.yaml").write_text(
        "seed: 1\nexperiments:\n  mine:\n    dataset: oh0\n    protocol: {type: kfold, folds: 3}\n"
        "    scores: [idf]\n    encodings: [tfidf]\n    learner: {name: linearsvc}\n")
    lines = _lines(tw("list", "experiments", "--params", "p.yaml", cwd=tmp_path))
    assert "oh0, kfold (folds 3)" in lines["mine"] and "slice" not in lines
    assert "NOT in p.yaml" in lines["kim"]


def test_list_experiments_bad_params_is_one_line(tmp_path):
    res = tw("list", "experiments", "--params", "missing.yaml", cwd=tmp_path)
    assert res.returncode == 2
    assert "missing.yaml" in res.stderr and "Traceback" not in res.stderr


def _sub_commands():
    import argparse

    from termweight.runner import cli

    ap = cli.build_parser(["--help"])  # every sub-command registered
    sub = next(a for a in ap._actions if isinstance(a, argparse._SubParsersAction))
    return ap, sub.choices


def test_every_core_option_has_help():
    import argparse

    ap, choices = _sub_commands()
    missing = [f"termweight {a.option_strings}" for a in ap._actions if not a.help]
    core = {name: p for name, p in choices.items()
            if p.get_default("func").__module__.startswith("termweight.steps.")}
    assert {"list", "prepare", "encode", "train", "aggregate", "headlines"} <= set(core)
    for name, p in core.items():
        missing += [f"{name} {a.option_strings or a.dest}" for a in p._actions
                    if not isinstance(a, argparse._HelpAction) and not (a.help or "").strip()]
    assert not missing, missing


def test_help_shows_examples_and_no_markup(tmp_path):
    res = tw("--help", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "`" not in res.stdout  # no RST/Markdown literal markup
    assert "examples:" in res.stdout and "python -m termweight list datasets" in res.stdout
    for name in ("list", "prepare", "headlines", "kim-", "fit", "report-summary"):
        assert name in res.stdout, name


def test_list_into_a_closed_pipe_is_not_an_error():
    """`termweight list metrics | head -1`: the reader leaves early; no error line, exit 0."""
    res = subprocess.run(f"'{sys.executable}' -m termweight list metrics | head -1",
                         shell=True, capture_output=True, text=True, executable="/bin/bash",
                         check=True)
    assert res.stdout.count("\n") == 1 and res.stderr == ""
    res = subprocess.run(["bash", "-o", "pipefail", "-c",
                          f"'{sys.executable}' -m termweight list metrics | head -1"],
                         capture_output=True, text=True, check=False)
    assert res.returncode == 0 and res.stderr == "", res.stderr
