"""Mukras et al.: the concluding steps refuse incomplete or non-finite results.

``mukras-aggregate`` (per unit x fold evaluations), ``mukras-tables`` and ``mukras-macros``
(tests.csv), ``mukras-figures`` (curves.csv) and ``mukras-movers`` (a fold's rankings) check
what they read against params.yaml's ``mukras`` section: a missing, duplicated or undeclared
cell, a NaN or out-of-range score, or a wrong fold count is ONE line naming the file and the
cell, exit status 2, and nothing written.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
import yaml
from workflow_utils import PAPERS_TINY

from termweight.corpus import Corpus, indicator
from termweight.runner import io
from termweight.runner.cli import main

REPO = Path(__file__).resolve().parents[1]
TINY = PAPERS_TINY["mukras"]
FOLDS = ["r0f0", "r0f1", "r0f2"]


def _params(tmp_path) -> Path:
    params = yaml.safe_load((REPO / "params.yaml").read_text(encoding="utf-8"))
    params["mukras"] = json.loads(json.dumps(TINY))
    path = tmp_path / "params.yaml"
    path.write_text(yaml.safe_dump(params, sort_keys=False), encoding="utf-8")
    return path


def _evaluation(fold: str, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    rows = [{"unit": "beauty", "fold": fold, "selector": s, "classifier": c, "k": k,
             "k_used": min(k, 500), "n_test": 12, "mse": float(rng.uniform(0.5, 2.0)),
             "accuracy": float(rng.uniform(0.2, 0.6))}
            for s in TINY["selectors"] for k in TINY["features"] for c in TINY["classifiers"]
            if c != "fh" or s in TINY["fh_selectors"]]
    return pd.DataFrame(rows)


@pytest.fixture
def project(tmp_path):
    """Valid inputs of every concluding step: params, evaluations, split summary."""
    params = _params(tmp_path)
    for i, f in enumerate(FOLDS):
        io.write_table(tmp_path / f"eval/beauty/{f}.csv", _evaluation(f, i))
    io.write_json(tmp_path / "splits/beauty.json",
                  {"unit": "beauty", "dataset": "amazon_beauty", "per_class": 12, "n_docs": 60,
                   "n_classes": 5, "class_sizes": [30, 26, 64, 153, 1105], "folds": FOLDS})
    return tmp_path, params


def _aggregate(root, params, evaluations=None, out="out") -> int:
    return main(["mukras-aggregate", "--params", str(params),
                 "--evaluations", str(evaluations or root / "eval/{unit}/{fold}.csv"),
                 "--splits", str(root / "splits/{unit}.npz"),
                 "--out-results", str(root / out / "results.csv"),
                 "--out-curves", str(root / out / "curves.csv"),
                 "--out-tests", str(root / out / "tests.csv"),
                 "--out-metrics", str(root / out / "metrics.json")])


@pytest.fixture
def aggregated(project):
    root, params = project
    assert _aggregate(root, params) == 0
    return root, params


def _bad(frame: pd.DataFrame, how: str, column: str, keys) -> tuple[pd.DataFrame, str]:
    """``frame`` spoilt one way, and the cell text the message must name."""
    first = ", ".join(f"{k}={frame[k].iloc[1]}" for k in keys)
    if how == "missing":
        last = ", ".join(f"{k}={frame[k].iloc[-1]}" for k in keys)
        return frame.iloc[:-1], last
    if how == "duplicated":
        return pd.concat([frame, frame.iloc[[1]]], ignore_index=True), first
    out = frame.copy()
    out[column] = out[column].astype(float)
    out.loc[1, column] = np.nan if how == "nan" else -0.5 if how == "negative" else 1.5
    return out, first


def _assert_refused(capsys, status, path, cell, outputs):
    err = capsys.readouterr().err.strip()
    assert status == 2, err
    assert len(err.splitlines()) == 1 and str(path) in err and cell in err, err
    assert not [p for p in outputs if Path(p).exists()], outputs


# ------------------------------------------------------------------------ mukras-aggregate
@pytest.mark.parametrize("how,column", [("missing", "mse"), ("duplicated", "mse"),
                                        ("nan", "mse"), ("negative", "mse"),
                                        ("above", "accuracy")])
def test_aggregate_refuses_a_bad_evaluation(project, capsys, how, column):
    root, params = project
    path = root / "eval/beauty/r0f1.csv"
    frame, cell = _bad(io.read_table(path), how, column,
                       ["unit", "fold", "selector", "classifier", "k"])
    io.write_table(path, frame)
    status = _aggregate(root, params)
    _assert_refused(capsys, status, path, cell, list((root / "out").glob("*")) + [root / "out"])


def test_aggregate_refuses_a_missing_fold_and_fh_beyond_fh_selectors(project, capsys):
    root, params = project
    (root / "eval/beauty/r0f2.csv").unlink()
    _assert_refused(capsys, _aggregate(root, params), root / "eval/beauty/r0f2.csv", "r0f2",
                    [root / "out"])
    io.write_table(root / "eval/beauty/r0f2.csv", _evaluation("r0f2", 2))
    path = root / "eval/beauty/r0f0.csv"
    frame = io.read_table(path)
    extra = frame[(frame.selector == "chi2+linear") & (frame.classifier == "svm")].assign(
        classifier="fh")
    io.write_table(path, pd.concat([frame, extra], ignore_index=True))
    _assert_refused(capsys, _aggregate(root, params), path,
                    "selector=chi2+linear, classifier=fh", [root / "out"])


def test_aggregate_refuses_a_split_summary_with_other_folds(project, capsys):
    root, params = project
    path = root / "splits/beauty.json"
    info = io.read_json(path)
    io.write_json(path, {**info, "folds": FOLDS[:2]})
    _assert_refused(capsys, _aggregate(root, params), path, "folds", [root / "out"])


def test_aggregate_valid_input_states_the_folds_read(aggregated):
    root, _ = aggregated
    metrics = io.read_json(root / "out/metrics.json")
    assert metrics["folds"] == 3
    assert set(io.read_table(root / "out/curves.csv")["folds"]) == {3}


# ------------------------------------------------------------------------ mukras-tables, -macros
def _tables(root, params, tests) -> tuple[int, list]:
    outs = [root / "t/table1.tex", root / "t/grid.tex", root / "t/example.tex"]
    return main(["mukras-tables", "--params", str(params), "--tests", str(tests),
                 "--out-table1", str(outs[0]), "--out-grid", str(outs[1]),
                 "--out-example", str(outs[2])]), outs


def _macros(root, params, tests) -> tuple[int, list]:
    out = root / "m/macros.tex"
    return main(["mukras-macros", "--params", str(params), "--tests", str(tests),
                 "--splits", str(root / "splits/{unit}.npz"), "--out", str(out)]), [out]


TEST_KEYS = ["unit", "classifier", "range", "selector"]


@pytest.mark.parametrize("step", [_tables, _macros])
@pytest.mark.parametrize("how,column", [("missing", "mse_mean"), ("duplicated", "mse_mean"),
                                        ("nan", "mse_mean"), ("negative", "mse_se")])
def test_tables_and_macros_refuse_bad_tests(aggregated, capsys, step, how, column):
    root, params = aggregated
    path = root / "bad_tests.csv"
    frame, cell = _bad(io.read_table(root / "out/tests.csv"), how, column, TEST_KEYS)
    io.write_table(path, frame)
    status, outs = step(root, params, path)
    _assert_refused(capsys, status, path, cell, outs)


@pytest.mark.parametrize("step", [_tables, _macros])
@pytest.mark.parametrize("column,value", [("t_pvalue", 1.5), ("t_pvalue", np.nan),
                                          ("folds", 2), ("better", "maybe")])
def test_tables_and_macros_refuse_bad_tests_and_counts(aggregated, capsys, step, column, value):
    root, params = aggregated
    frame = io.read_table(root / "out/tests.csv")
    i = int(np.flatnonzero((frame.selector == "ig+linear").to_numpy())[0])
    frame[column] = frame[column].astype(object)
    frame.loc[i, column] = value
    path = root / "bad_tests.csv"
    io.write_table(path, frame)
    status, outs = step(root, params, path)
    cell = ", ".join(f"{k}={frame[k].iloc[i]}" for k in TEST_KEYS)
    _assert_refused(capsys, status, path, cell, outs)


def test_tables_and_macros_accept_the_aggregate(aggregated):
    root, params = aggregated
    tests = root / "out/tests.csv"
    assert np.isnan(io.read_table(tests)["t_pvalue"]).any()  # baselines: no test, by design
    status, outs = _tables(root, params, tests)
    assert status == 0 and "over 3 cross-validation folds" in outs[0].read_text()
    status, outs = _macros(root, params, tests)
    assert status == 0 and outs[0].exists()


# ------------------------------------------------------------------------ mukras-figures
def _figures(root, params, curves) -> tuple[int, list]:
    outs = [root / f"f/{n}.{e}" for n in ("fig4", "grid") for e in ("pdf", "png", "csv")]
    return main(["mukras-figures", "--params", str(params), "--curves", str(curves),
                 "--out-fig4", str(outs[0]), "--out-grid", str(outs[3])]), outs


@pytest.mark.parametrize("how,column", [("missing", "mse_mean"), ("duplicated", "mse_mean"),
                                        ("nan", "mse_se"), ("negative", "mse_mean"),
                                        ("count", "folds")])
def test_figures_refuse_bad_curves(aggregated, capsys, how, column):
    root, params = aggregated
    keys = ["unit", "selector", "classifier", "k"]
    frame = io.read_table(root / "out/curves.csv")
    if how == "count":
        frame.loc[1, column] = 2
        cell = ", ".join(f"{k}={frame[k].iloc[1]}" for k in keys)
    else:
        frame, cell = _bad(frame, how, column, keys)
    path = root / "bad_curves.csv"
    io.write_table(path, frame)
    status, outs = _figures(root, params, path)
    _assert_refused(capsys, status, path, cell, outs)


# ------------------------------------------------------------------------ mukras-movers
@pytest.fixture
def scored(tmp_path):
    rng = np.random.default_rng(0)
    y = np.repeat(np.arange(3), 14)
    X = rng.poisson(0.5, size=(y.size, 30))
    X[:, :3] += (y[:, None] == np.arange(3)) * 2
    corpus = Corpus("toy", sp.csr_matrix(X), indicator(y, 3), ["1", "2", "3"],
                    [f"t{j}" for j in range(30)], [f"d{i}" for i in range(y.size)],
                    np.full(y.size, "all"), ordinal=True)
    corpus.save(tmp_path / "corpus/amazon_beauty")
    params = _params(tmp_path)
    common = ["--params", str(params), "--corpus", str(tmp_path / "corpus/{dataset}")]
    assert main(["mukras-split", *common, "--out", str(tmp_path / "splits/{unit}.npz")]) == 0
    assert main(["mukras-score", *common, "--splits", str(tmp_path / "splits/{unit}.npz"),
                 "--out", str(tmp_path / "scores/{unit}/{fold}.npz")]) == 0
    return tmp_path, params, common


def _movers(root, common) -> tuple[int, list]:
    out = root / "mv/movers.tex"
    return main(["mukras-movers", *common, "--splits", str(root / "splits/{unit}.npz"),
                 "--scores", str(root / "scores/{unit}/{fold}.npz"), "--out", str(out)]), [out]


@pytest.mark.parametrize("how", ["valid", "missing", "duplicated", "out_of_range", "columns"])
def test_movers_refuses_a_bad_ranking(scored, capsys, how):
    root, _, common = scored
    path = root / "scores/beauty/r0f0.npz"
    arrays = dict(io.load_arrays(path))
    order = arrays["order_ig+linear"].copy()
    if how == "missing":
        del arrays["order_ig+linear"]
    elif how == "duplicated":
        order[1] = order[0]
    elif how == "out_of_range":
        order[1] = order.size + 5
    elif how == "columns":
        arrays["columns"] = arrays["columns"][::-1].copy()
    if how in ("duplicated", "out_of_range"):
        arrays["order_ig+linear"] = order
    io.save_arrays(path, **arrays)
    status, outs = _movers(root, common)
    if how == "valid":
        assert status == 0 and "demoted" in outs[0].read_text()
        return
    _assert_refused(capsys, status, path, "" if how == "columns" else "order", outs)
