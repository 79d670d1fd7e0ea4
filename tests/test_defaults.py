"""The shipped SupervisedScaler defaults are the ones docs/defaults.md says were chosen (by the
measurement in benchmarks/results/defaults.csv), and the README's library snippet runs without a
warning."""

from __future__ import annotations

import csv
import inspect
import re
import warnings
from pathlib import Path

import pytest

from termweight import SupervisedScaler, TermEncoder

REPO = Path(__file__).resolve().parents[1]
DOC = REPO / "docs" / "defaults.md"


def _documented_defaults() -> dict[str, str]:
    """The ``| parameter | default |`` table of docs/defaults.md: name -> the default's repr."""
    text = DOC.read_text()
    table = text[text.index("| parameter | default |"):].split("\n\n")[0]
    rows = [line.strip("| ").split(" | ") for line in table.splitlines()[2:]]
    return {name.strip(): value.strip().strip("`") for name, value in rows}


def test_signature_defaults_are_the_documented_ones():
    documented = _documented_defaults()
    assert set(documented) == {"metric", "base", "norm", "combine"}
    params = inspect.signature(SupervisedScaler).parameters
    for name, value in documented.items():
        assert repr(params[name].default).replace("'", '"') == value, name
    assert SupervisedScaler().get_params()["norm"] == "l2"
    assert inspect.signature(TermEncoder).parameters["kind"].default == "tf"


def test_documented_defaults_are_the_measured_best_and_beat_sklearn_on_20ng():
    rows = list(csv.DictReader((REPO / "benchmarks" / "results" / "defaults.csv").open()))
    d = _documented_defaults()
    mine = {r["dataset"]: float(r["macro_f1"]) for r in rows if r["method"] == "termweight"
            and (r["metric"], r["base"], r["norm"]) == (d["metric"].strip('"'),
                                                         d["base"].strip('"'), d["norm"].strip('"'))}
    sk = {r["dataset"]: float(r["macro_f1"]) for r in rows if r["method"].startswith("sklearn")}
    assert set(mine) == set(sk) == {"20news", "r52", "r8", "webkb"}
    assert mine["20news"] >= sk["20news"]
    # the best mean macro-F1 of every SupervisedScaler setting measured
    means = {}
    for r in rows:
        if r["method"] == "termweight":
            means.setdefault((r["metric"], r["base"], r["norm"]), []).append(float(r["macro_f1"]))
    best = max(means, key=lambda k: sum(means[k]) / len(means[k]))
    assert best == ("idf", "logtf", "l2")
    text = DOC.read_text()
    assert f"{mine['20news']:.3f}" in text and f"{sk['20news']:.3f}" in text
    assert "2026-11-25" in text


def _readme_library_snippet() -> str:
    text = (REPO / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    found = [b for b in blocks if "SupervisedScaler" in b]
    assert found, "no README python block uses SupervisedScaler"
    return found[0]


def test_readme_library_snippet_does_not_warn(capsys):
    code = _readme_library_snippet()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a ConvergenceWarning (or any other) fails the test
        exec(compile(code, "README.md", "exec"), {"__name__": "__readme__"})
    assert re.fullmatch(r"0\.9\d\d\n", capsys.readouterr().out)


@pytest.mark.parametrize("base", ["binary", "tf", "logtf"])
def test_defaults_do_not_warn_on_counts(base):
    import numpy as np
    from sklearn.svm import LinearSVC

    rng = np.random.default_rng(0)
    X = rng.poisson(0.3, size=(60, 40))
    y = rng.integers(0, 3, 60)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        Z = SupervisedScaler(base=base).fit_transform(X, y)
        LinearSVC().fit(Z, y)
