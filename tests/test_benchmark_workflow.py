"""The benchmark family end to end on a small config (CI): real Snakemake, real Forman datasets.

Three of Forman's smallest sets (2-fold CV x 1 instead of 5x2, one with its own protocol), one
weighting of every kind, all three learners, the tuned protocol (unit-length documents, C and
alpha from small grids by 2-fold inner CV).
"""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
import pytest
from workflow_utils import SMALL, copy_project, digests, make_project, pdf_text, require_tex, run

pytestmark = [pytest.mark.slow, pytest.mark.realdata]

#: The small benchmark: one weighting of every kind (unsupervised, BM25, Forman's scalings on
#: binary and TF, Kim's on ntf, delta-idf, tf-igm, mix-ch), three learners, 2 splits per dataset.
SMALL_BENCHMARK = {
    "datasets": {"tr23": {}, "tr12": {}, "tr11": {"protocol": {
        "type": "kfold", "folds": 2, "repeats": 1, "stratified": True, "seed": 3}}},
    "protocol": {"type": "kfold", "folds": 2, "repeats": 1, "stratified": True},
    "weightings": ["binary", "tfidf", "ltc", "bm25tf-idf", "binary-bns", "tf-bns", "ntf-kim_rf",
                   "tf-delta_idf", "tf-igm", "ntf-mixch"],
    "modules": ["unsupervised", "bns", "kim", "delta_idf", "igm"],
    "learners": ["linearsvc", "logreg", "mnb"],
    "C": 1.0,
    "relative_C": True,
    "max_iter": 1000,
    "mixch": {"C": 1.0, "max_iter": 5, "tol": 0.001},
    "tuning": {"normalize": "l2", "C": [0.1, 1.0, 10.0], "alpha": [0.01, 0.1, 1.0], "folds": 2},
    "measures": ["headline_macro_f1", "macro_f1", "micro_f1", "accuracy"],
    "baseline": "tfidf",
    "alpha": 0.05,
    "sensitivity": {"datasets": ["tr23"], "normalize": "none"},  # the smallest: raw rows are slow
    "curves": {"datasets": [], "fractions": [0.5], "repeats": 1, "weightings": [], "modules": []},
    "second_seed": {"seed": 1, "datasets": []},
}
#: what these tests build: the report and the sensitivity study (the `benchmark` target's fastText
#: row and external checks are tests/test_reference_learner.py's and tests/test_external.py's)
TARGETS = ["reports/metrics/benchmark.json", "reports/metrics/benchmark_sensitivity.json"]


@pytest.fixture(scope="module")
def project(tmp_path_factory, mirror):
    root = make_project(tmp_path_factory.mktemp("bench"),
                        {"mirror": str(mirror), "benchmark": SMALL_BENCHMARK,
                         "experiments": SMALL["experiments"]})
    run(["snakemake", "--cores", "2", *TARGETS], root, timeout=900)
    return root


def test_every_output_and_the_grid(project):
    m = json.loads((project / "reports/metrics/benchmark.json").read_text())
    assert m["datasets"] == ["tr11", "tr12", "tr23"]
    assert m["grid"]["weightings"] == SMALL_BENCHMARK["weightings"]
    assert m["grid"]["fits"] == 3 * 2 * 10 * 3  # datasets x splits x weightings x learners
    for learner in SMALL_BENCHMARK["learners"]:
        table = (project / f"reports/tables/benchmark_{learner}.tex").read_text()
        # a row per weighting; tfidf's unit-length aliases beside it, not ranked
        assert table.count("\\\\\n") - 2 == 10  # rows: the two header rows, 10 weightings
        assert "\\texttt{tfidf} (= \\texttt{tf-idf}, \\texttt{ntf-kim\\_idf})" in table
        for kind in (f"cd_{learner}_headline_macro_f1", f"cd_{learner}_macro_f1",
                     f"heat_{learner}"):
            assert (project / f"reports/figures/benchmark_{kind}.png").stat().st_size > 1000
        assert m["best"][learner]["macro_f1"]["weighting"] in SMALL_BENCHMARK["weightings"]
        assert 0 <= m["best"][learner]["macro_f1"]["friedman_p"] <= 1
    macros = (project / "reports/macros/benchmark.tex").read_text()
    for name in ("BenchAnswerBest", "BenchAnswerBns", "BenchAnswerMixch", "BenchAnswerTfidf"):
        assert f"\\newcommand{{\\{name}}}" in macros
    # the PDF section's floats: every configured learner's leaderboard, CD diagram and heat map
    floats = macros.split("{\\BenchFloats}")[1].split("\\newcommand")[0]
    for learner in SMALL_BENCHMARK["learners"]:
        for name in (f"\\twtable{{benchmark_{learner}}}",
                     f"{{benchmark_cd_{learner}_headline_macro_f1}}",
                     f"{{benchmark_heat_{learner}}}"):
            assert name in floats


def test_scores_are_means_of_the_generic_steps_runs(project):
    """scores.csv is the mean over splits of aggregate's runs.csv, for every learner."""
    scores = pd.read_csv(project / "data/benchmark/scores.csv")
    for learner in SMALL_BENCHMARK["learners"]:
        runs = pd.read_csv(project / f"data/benchmark/results/bench_tr23/{learner}/runs.csv")
        assert sorted(runs["split"].unique()) == ["r0f0", "r0f1"]
        want = runs[runs["encoding"] == "tf-igm"]["accuracy"].mean()
        got = scores[(scores["dataset"] == "tr23") & (scores["learner"] == learner)
                     & (scores["weighting"] == "tf-igm") & (scores["measure"] == "accuracy")]
        assert got["score"].item() == pytest.approx(want)
        assert runs["micro_f1"].between(0.0, 1.0).all() and runs["micro_f1"].max() > 0.6


def test_the_tuned_protocol_is_recorded_per_run(project):
    """Every run records its chosen C (alpha) from the grid and no fit stopped at the cap; the
    top-1 measures of these single-label sets agree with the accuracy; the report counts them."""
    m = json.loads((project / "reports/metrics/benchmark.json").read_text())
    for learner in SMALL_BENCHMARK["learners"]:
        grid = SMALL_BENCHMARK["tuning"]["alpha" if learner == "mnb" else "C"]
        runs = pd.concat(pd.read_csv(project / f"data/benchmark/results/bench_{d}/{learner}/"
                                     "runs.csv") for d in ("tr11", "tr12", "tr23"))
        assert runs["value"].isin(grid).all(), runs["value"].unique()
        assert (runs["unconverged"] == 0).all()
        assert runs["single_label"].all()
        # single-label: the top-1 micro-F1 IS the accuracy (each document one prediction)
        np.testing.assert_allclose(runs["top1_micro_f1"], runs["accuracy"], atol=1e-12)
        t = m["tuning"][learner]
        assert sum(t["chosen"].values()) == t["fits"] == len(runs)
        assert t["unconverged_tasks"] == 0


def test_supervised_weights_are_per_task_and_from_training_rows(project, tmp_path):
    """A column's weights are one column scale per class from that split's training rows, and
    its stored decisions are those of the tuned model fitted on the rows so weighted."""
    import yaml

    from termweight import scoring
    from termweight.corpus import Corpus
    from termweight.learners.protocol import Protocol
    from termweight.splits import Split
    from termweight.statistics import term_stats
    from termweight.steps.features import encode_split, fold_encoder
    from termweight.steps.learn import fit_model, model_decisions

    root = project / "data/benchmark"
    split = Split.load(root / "splits/bench_tr23/r0f1.npz")
    corpus = Corpus.load(project / "data/corpus/tr23")
    Xtr = corpus.X[split.train]
    cols = np.flatnonzero(np.diff(Xtr.tocsc().indptr) > 0)
    st = term_stats(Xtr[:, cols], corpus.Y[split.train])
    scores = {m: scoring.score(m, st) for m in ("idf", "delta_idf", *scoring.KIM_BASES)}
    enc = encode_split(corpus.X[:, cols], corpus.Y, split, scores, "tf-delta_idf")
    np.testing.assert_allclose(enc["col_weights"],
                               scoring.as_scaling_weights(scoring.score("delta_idf", st)))
    assert enc["col_weights"].shape == (corpus.Y.shape[1], cols.size)
    seed = yaml.safe_load((project / "params.yaml").read_text())["seed"]
    model = fit_model("mnb", enc, Protocol.from_params(SMALL_BENCHMARK["tuning"], seed=seed),
                      fold_encoder=fold_encoder(corpus.X[:, cols][split.train],
                                                corpus.Y[split.train], "tf-delta_idf"))
    # the decisions a column keeps on request (--decisions-dir) are this model's
    out = tmp_path / "decisions"
    d = "data/benchmark"
    run(["python", "-m", "termweight", "benchmark-column", "--params", "params.yaml", "--exp",
         "bench_tr23", "--encoding", "tf-delta_idf", "--learner", "mnb", "--names", "r0f1",
         "--corpus", "data/corpus/tr23", "--split", f"{d}/splits/bench_tr23/{{split}}.npz",
         "--stats", f"{d}/stats/bench_tr23/{{split}}.npz", "--out", str(tmp_path / "c.csv"),
         "--decisions-dir", str(out)], project)
    stored = np.load(out / "mnb/r0f1.npz", allow_pickle=False)
    assert stored["scores"].dtype == np.float32
    np.testing.assert_array_equal(stored["scores"], model_decisions(
        enc["X_test"], model, enc["col_weights"]).astype(np.float32))
    # ... and its metrics are the pipeline's column's rows of that learner and split
    column = pd.read_csv(root / "columns/bench_tr23/delta_idf/tf-delta_idf.csv")
    mine = column[(column["learner"] == "mnb") & (column["split"] == "r0f1")]
    pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "c.csv"), mine.reset_index(drop=True))
    # mix-ch: a convex combination of the five RMS-scaled Kim bases, one per class, all >= 0
    mix = encode_split(corpus.X[:, cols], corpus.Y, split, scores, "ntf-mixch",
                       SMALL_BENCHMARK["mixch"])["col_weights"]
    assert mix.shape == (corpus.Y.shape[1], cols.size)
    assert (mix >= 0).all() and (mix.sum(axis=1) > 0).all()


def _column(project, tmp_path, encoding, corpus="data/corpus/tr23",
            stats="data/benchmark/stats/bench_tr23/{split}.npz"):
    """``benchmark-column`` of tr23's split r0f1 with LinearSVC, in this process."""
    from termweight.runner import cli

    return cli.main(["benchmark-column", "--params", str(project / "params.yaml"), "--exp",
                     "bench_tr23", "--encoding", encoding, "--learner", "linearsvc", "--names",
                     "r0f1", "--jobs", "1", "--corpus", str(project / corpus), "--split",
                     str(project / "data/benchmark/splits/bench_tr23/{split}.npz"), "--stats",
                     str(project / stats), "--out", str(tmp_path / "c.csv")])


@pytest.mark.parametrize("encoding", ["tfidf", "tf-delta_idf"])
def test_the_column_step_encodes_every_inner_fold_from_its_rows(project, tmp_path, monkeypatch,
                                                                  encoding):
    """The production path (``benchmark-column``, run in this process) encodes each inner fold
    from its inner-training rows: a column step that stopped passing ``fold_encoder`` fails here
    for an unsupervised weighting (idf of the fold's rows; nothing would warn) as for a
    supervised one (``FoldLeakageWarning`` is an error)."""
    import warnings

    from termweight.learners.protocol import FoldLeakageWarning
    from termweight.splits import Split
    from termweight.steps import features

    real, seen = features.fold_encoder, []

    def spy(X, Y, enc, learned=None):
        inner = real(X, Y, enc, learned)

        def encode_fold(tr, va):
            seen.append((X.shape[0], np.asarray(tr), np.asarray(va)))
            return inner(tr, va)

        return encode_fold

    monkeypatch.setattr(features, "fold_encoder", spy)
    with warnings.catch_warnings():
        warnings.simplefilter("error", FoldLeakageWarning)
        assert _column(project, tmp_path, encoding) == 0
    n_train = Split.load(project / "data/benchmark/splits/bench_tr23/r0f1.npz").train.size
    folds = SMALL_BENCHMARK["tuning"]["folds"]
    # each inner fold encoded once (the grid's values share it), on the split's training rows
    assert len(seen) == folds, len(seen)
    assert all(n == n_train for n, _, _ in seen)
    assert all(np.intersect1d(tr, va).size == 0 for _, tr, va in seen)
    assert np.array_equal(np.sort(np.concatenate([va for *_, va in seen])), np.arange(n_train))


def test_a_column_step_that_drops_fold_encoder_raises(project, tmp_path, monkeypatch):
    """If the column step stopped passing ``fold_encoder``, its tuned fit would reuse weights of
    all the training rows in the inner folds: every CLI step makes that warning an error (here
    with the warning filters as a user's, not this suite's, would be)."""
    import warnings

    from termweight.learners.protocol import FoldLeakageWarning
    from termweight.steps import features

    monkeypatch.setattr(features, "fold_encoder", lambda *a, **k: None)
    with warnings.catch_warnings():
        warnings.simplefilter("default")
        with pytest.raises(FoldLeakageWarning):
            _column(project, tmp_path, "tf-delta_idf")


def test_benchmark_column_on_shuffled_labels_scores_its_inner_folds_at_chance(
        project, tmp_path, monkeypatch):
    """``benchmark-column`` itself on tr23 with its labels shuffled: the inner folds' scores (what
    chooses C) of a supervised weighting stay at chance, where the same folds scored with the
    weights of all the training rows look far better than chance."""
    import dataclasses

    from termweight import scoring
    from termweight.corpus import Corpus
    from termweight.learners import protocol as proto
    from termweight.runner import cli
    from termweight.settings import protocol_of
    from termweight.splits import Split
    from termweight.statistics import term_stats
    from termweight.steps.column import read_settings
    from termweight.steps.features import encode_split
    from termweight.weighting import needed_scores

    corpus = Corpus.load(project / "data/corpus/tr23")
    Y = corpus.Y[np.random.default_rng(0).permutation(corpus.n_docs)]
    dataclasses.replace(corpus, Y=Y).save(tmp_path / "corpus")
    stats = str(tmp_path / "stats/{split}.npz")
    assert cli.main(["stats", "--params", str(project / "params.yaml"), "--exp", "bench_tr23",
                     "--corpus", str(tmp_path / "corpus"), "--names", "r0f1", "--split",
                     str(project / "data/benchmark/splits/bench_tr23/{split}.npz"),
                     "--out", stats]) == 0
    real, seen = proto.cv_scores, []

    def spy(*a, **k):
        out = real(*a, **k)
        seen.append(out[1])
        return out

    monkeypatch.setattr(proto, "cv_scores", spy)
    assert _column(project, tmp_path, "tf-delta_idf", tmp_path / "corpus", stats) == 0
    (clean,) = seen
    # the leak: the same inner folds, chi2 weights from all the split's training rows
    split = Split.load(project / "data/benchmark/splits/bench_tr23/r0f1.npz", n_docs=corpus.n_docs)
    cols = np.flatnonzero(np.diff(corpus.X[split.train].tocsc().indptr) > 0)
    st = term_stats(corpus.X[split.train][:, cols], Y[split.train])
    enc = encode_split(corpus.X[:, cols], Y, split,
                       {m: scoring.score(m, st) for m in needed_scores(["tf-delta_idf"])},
                       "tf-delta_idf")
    protocol = protocol_of(read_settings(project / "data/benchmark/settings.json"))
    with pytest.warns(proto.FoldLeakageWarning):
        _, leaky, _ = real("linearsvc", enc["X_train"], enc["Y_train"], enc["col_weights"],
                           protocol)
    # measured (seed 0): inner macro-F1 at most 0.118 from the fold's own rows, up to 0.283
    # with the leak; 1/k = 0.167 for tr23's 6 classes
    chance = 1 / Y.shape[1]
    assert clean.max() < chance < leaky.max(), (clean, leaky, chance)


def test_the_fasttext_reference_writes_a_column_the_aggregate_reads(project, tmp_path):
    """``benchmark-reference``: fastText from scratch on tr23's splits, in the column format
    (same columns as a weighting's, learner ``fasttext``, the chosen epochs as ``value``); the
    same bytes with one worker or two."""
    from termweight.runner import cli
    from termweight.steps.reference import EPOCHS, MAX_EPOCHS, documents

    def reference(out, jobs):
        return cli.main(["benchmark-reference", "--params", str(project / "params.yaml"),
                         "--exp", "bench_tr23", "--jobs", str(jobs),
                         "--corpus", str(project / "data/corpus/tr23"),
                         "--split", str(project / "data/benchmark/splits/bench_tr23/{split}.npz"),
                         "--out", str(out)])

    assert reference(tmp_path / "ft.csv", 1) == 0 and reference(tmp_path / "ft2.csv", 2) == 0
    assert (tmp_path / "ft.csv").read_bytes() == (tmp_path / "ft2.csv").read_bytes()
    ft = pd.read_csv(tmp_path / "ft.csv")
    column = pd.read_csv(project / "data/benchmark/columns/bench_tr23/unsupervised/tfidf.csv")
    assert set(ft.columns) <= set(column.columns)
    grown = {min(max(EPOCHS) * 2 ** i, MAX_EPOCHS) for i in range(1, 8)}
    assert set(ft["learner"]) == {"fasttext"} and set(ft["value"]) <= set(EPOCHS) | grown
    assert sorted(ft["split"].unique()) == sorted(column["split"].unique())
    assert len(ft) == len(column[column["learner"] == "linearsvc"])
    # a learned model, not a trivial one: every split finds positives of some task. On tr23's
    # ~100 training documents per split fastText is weak (measured: positives found in 3 of 12
    # split-tasks; inner macro-F1 0.13-0.31), a result the reference row reports
    assert (ft.groupby("split")["tp"].sum() > 0).all()
    # the bag of words as fastText reads it
    import scipy.sparse as sp

    assert documents(sp.csr_matrix([[0, 2, 1], [1, 0, 0]])) == ["t1 t1 t2", "t0"]


def test_rerun_is_a_no_op_and_jobs_do_not_change_bytes(project, tmp_path):
    res = run(["snakemake", "--cores", "2", *TARGETS, "-n"], project)
    assert "Nothing to be done" in res.stdout + res.stderr
    # the same column with two worker processes (Snakemake ran it with one) writes the same bytes
    d = "data/benchmark"
    run(["python", "-m", "termweight", "benchmark-column", "--params", "params.yaml", "--exp", "bench_tr23",
         "--encoding", "ntf-mixch", "--jobs", "2", "--corpus", "data/corpus/tr23",
         "--split", f"{d}/splits/bench_tr23/{{split}}.npz",
         "--stats", f"{d}/stats/bench_tr23/{{split}}.npz", "--out", str(tmp_path / "c.csv")],
        project)
    have = project / d / "columns/bench_tr23/kim/ntf-mixch.csv"
    assert (tmp_path / "c.csv").read_bytes() == have.read_bytes()
    column = pd.read_csv(have)  # learners x splits, every task once
    assert column.groupby(["learner", "split"]).ngroups == 3 * 2
    assert not column.duplicated(["learner", "split", "task"]).any()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.csv"]  # no part left behind


def test_a_new_weighting_runs_its_column_only(project, tmp_path):
    """A new weighting written as new code (a module of termweight.weightings) and named in
    params.yaml (an explicit list: every column tracks it) runs its column on each dataset, the
    aggregates and the report, and every other weighting's files come out as they were."""
    import yaml
    from workflow_utils import GSS_MODULE

    root = copy_project(project, tmp_path / "more")
    before = digests(root)
    (root / "src/termweight/weightings/gss.py").write_text(GSS_MODULE)
    params = yaml.safe_load((root / "params.yaml").read_text())
    params["benchmark"]["weightings"].append("tf-gss")
    params["benchmark"]["modules"].append("gss")
    (root / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False))
    res = run(["snakemake", "--cores", "2", *TARGETS, "-n", "--quiet", "rules"], root)
    jobs = dict(re.findall(r"^(benchmark\w*)\s+(\d+)$", res.stdout, re.M))
    assert jobs == {"benchmark_column": str(3 * 6), "benchmark_report": "1",
                    "benchmark_sensitivity_column": "6", "benchmark_sensitivity": "1",
                    "benchmark_aggregate": "9", "benchmark_sensitivity_aggregate": "3"}
    run(["snakemake", "--cores", "2", *TARGETS], root, timeout=900)
    after = digests(root)
    columns = [k for k in before if "/columns/" in k]
    assert columns and all(after[k] == before[k] for k in columns)
    assert sum("/benchmark/columns/" in k and k.endswith("/tf-gss.csv") for k in after) == 3
    assert sum("/sensitivity/columns/" in k and k.endswith("/tf-gss.csv") for k in after) == 1
    m = json.loads((root / "reports/metrics/benchmark.json").read_text())
    assert "tf-gss" in m["grid"]["weightings"]


def test_the_sensitivity_study_compares_raw_with_unit_length_rows(project):
    """benchmark.sensitivity reruns tr23's columns with raw rows; the comparison's headline
    scores are the grid's, and the weightings that are unit length by definition do not move."""
    table = pd.read_csv(project / "reports/tables/benchmark_sensitivity.csv")
    assert set(table["dataset"]) == {"tr23"}
    assert len(table) == 10 * 3  # weightings x learners
    scores = pd.read_csv(project / "data/benchmark/scores.csv")
    grid = scores[(scores["dataset"] == "tr23") & (scores["measure"] == "headline_macro_f1")]
    merged = table.merge(grid, on=["dataset", "learner", "weighting"])
    assert len(merged) == 30 and np.allclose(merged["headline"], merged["score"], atol=1e-6)
    assert np.allclose(table["change"], table["headline"] - table["other"], atol=2e-6)
    # tfidf and ltc rows are unit length by their definition: the same fits under both
    same = table[table["weighting"].isin(["tfidf", "ltc"])]
    assert np.allclose(same["change"], 0, atol=1e-9), same
    # the raw rows of the supervised scalings are different fits
    assert (table[~table["weighting"].isin(["tfidf", "ltc"])]["change"].abs() > 1e-6).any()
    m = json.loads((project / "reports/metrics/benchmark_sensitivity.json").read_text())
    assert (m["normalize"], m["headline"], m["measure"]) == ("none", "l2", "headline_macro_f1")
    assert [(r["dataset"], r["learner"]) for r in m["summary"]] == [
        ("tr23", lr) for lr in SMALL_BENCHMARK["learners"]]
    tex = (project / "reports/tables/benchmark_sensitivity.tex").read_text()
    assert "tab:benchmark_sensitivity" in tex and tex.count("\\texttt{tr23}") == 3
    macro = (project / "reports/macros/benchmark_sensitivity.tex").read_text()
    assert "\\newcommand{\\BenchSensitivity}{On \\texttt{tr23}" in macro


def test_the_pdf_section_shows_every_configured_learner(project):
    """`snakemake report` builds the PDF with the benchmark section: answers and every float."""
    require_tex()
    run(["snakemake", "report", "--cores", "2", "--quiet"], project)
    text = pdf_text(project / "reports/paper.pdf")
    section = text[text.index("The term-weighting benchmark Every dataset"):]
    assert "3 datasets" in section and "10 weightings" in section
    assert "LinearSVC (C from {0.1, 1, 10} by 2-fold inner CV)" in section
    for caption in ("Benchmark leaderboard, LinearSVC", "Benchmark leaderboard, logistic regression",
                    "Benchmark leaderboard, multinomial naive Bayes",
                    "Critical-difference diagram, multinomial naive Bayes",
                    "the average rank of each tf-idf control", "What unit-length rows change"):
        assert caption in section, caption
    assert "[?" not in section and "not generated yet" not in section


def test_learning_curves_subsample_one_split_and_end_at_its_column(project, tmp_path):
    """``benchmark.curves``: each listed weighting's column again on nested subsamples of tr23's
    first split (r0f0, no standard split); 100% is that split's rows of the benchmark's column;
    a subsample's rows are what ``benchmark-column`` gives on that subsample's split; nothing of
    the grid reruns."""
    import yaml

    from termweight.corpus import Corpus
    from termweight.runner import cli
    from termweight.splits import Split
    from termweight.subsample import learning_curve_splits

    root = copy_project(project, tmp_path / "curves")
    before = digests(root)
    params = yaml.safe_load((root / "params.yaml").read_text())
    params["benchmark"]["controls"] = ["tfidf"]
    params["benchmark"]["curves"] = {"datasets": ["tr23"], "fractions": [0.5], "repeats": 2,
                                     "weightings": ["tfidf", "tf-delta_idf"],
                                     "modules": ["unsupervised", "delta_idf"]}
    (root / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False))
    res = run(["snakemake", "--cores", "2", "reports/metrics/benchmark_curves.json", "-n",
               "--quiet", "rules"], root)
    jobs = dict(re.findall(r"^(benchmark\w*)\s+(\d+)$", res.stdout, re.M))
    assert jobs["benchmark_curves_column"] == "2" and jobs["benchmark_curves"] == "1"
    assert not any(k.startswith(("benchmark_column", "benchmark_aggregate")) for k in jobs), jobs
    run(["snakemake", "--cores", "2", "reports/metrics/benchmark_curves.json"], root, timeout=900)
    after = digests(root)
    assert all(after[k] == before[k] for k in before if "/columns/" in k)
    table = pd.read_csv(root / "reports/tables/benchmark_curves.csv")
    assert sorted(table["fraction"].unique()) == [0.5, 1.0]
    assert set(table.loc[table["fraction"] == 0.5, "repeats"]) == {2}
    assert set(table.loc[table["fraction"] == 1.0, "repeats"]) == {1}
    assert len(table) == 2 * 3 * 2  # fractions x learners x weightings
    # 100%: the benchmark's own score of split r0f0
    for learner in SMALL_BENCHMARK["learners"]:
        runs = pd.read_csv(root / f"data/benchmark/results/bench_tr23/{learner}/runs.csv")
        runs = runs[runs["split"] == "r0f0"].set_index("encoding")
        single = runs["single_label"].astype(str).str.lower() == "true"
        headline = np.where(single, runs["top1_macro_f1"], runs["macro_f1"])
        full = table[(table["fraction"] == 1.0) & (table["learner"] == learner)]
        for w, score in zip(full["weighting"], full["score"], strict=True):
            assert score == pytest.approx(headline[list(runs.index).index(w)], abs=1e-6)
    # gains are over the stronger control (here the one control): tfidf's are 0
    assert np.allclose(table.loc[table["weighting"] == "tfidf", "gain"], 0)
    # a subsample's rows: benchmark-column on that subsample's split and statistics
    corpus = Corpus.load(root / "data/corpus/tr23")
    base = Split.load(root / "data/benchmark/splits/bench_tr23/r0f0.npz")
    sub = learning_curve_splits(base, corpus.Y, [0.5], 2, int(params.get("seed", 0)))[1]
    assert sub.name == "p50r1" and sub.train.size < base.train.size
    sub.save(tmp_path / "p50r1.npz")
    assert cli.main(["stats", "--corpus", str(root / "data/corpus/tr23"), "--names", "p50r1",
                     "--split", str(tmp_path / "{split}.npz"),
                     "--out", str(tmp_path / "{split}.stats.npz")]) == 0
    assert cli.main(["benchmark-column", "--params", str(root / "params.yaml"), "--exp",
                     "bench_tr23", "--encoding", "tf-delta_idf", "--names", "p50r1", "--jobs", "1",
                     "--corpus", str(root / "data/corpus/tr23"),
                     "--split", str(tmp_path / "{split}.npz"),
                     "--stats", str(tmp_path / "{split}.stats.npz"),
                     "--settings", str(root / "data/benchmark/settings.json"),
                     "--out", str(tmp_path / "direct.csv")]) == 0
    direct = pd.read_csv(tmp_path / "direct.csv")
    curve = pd.read_csv(root / "data/benchmark/curves/columns/bench_tr23/delta_idf/tf-delta_idf.csv")
    curve = curve[curve["split"] == "p50r1"].reset_index(drop=True)
    pd.testing.assert_frame_equal(curve, direct)
    tex = (root / "reports/tables/benchmark_curves.tex").read_text()
    assert "tab:benchmark_curves" in tex and "50\\%" in tex and "100\\%" in tex
    # the registered hypothesis names the declared comparisons' weightings: none declared here
    reg = json.loads((root / "reports/metrics/benchmark_curves.json").read_text())["registered"]
    assert reg["held"] == {}
    assert ("\\texttt{learning-curves}): Supervised weights pay more on small training sets"
            in (root / "reports/macros/benchmark_curves.tex").read_text())
    assert (root / "reports/figures/benchmark_curves.pdf").exists()


def test_a_second_seed_draws_the_folds_again_and_compares_the_ranks(project, tmp_path):
    """``benchmark.second_seed``: every weighting's column again on folds drawn with another
    seed (tr11's own protocol seed replaced too); a column's rows are what ``benchmark-column``
    gives on those splits; the report's rho and tops are those of the two columns' scores;
    nothing of the grid reruns."""
    import yaml

    from termweight.corpus import Corpus
    from termweight.experiments.seed import agreement, load_scores, seed_config
    from termweight.runner import cli
    from termweight.splits import make_splits

    root = copy_project(project, tmp_path / "seed")
    before = digests(root)
    params = yaml.safe_load((root / "params.yaml").read_text())
    params["benchmark"]["second_seed"] = {"seed": int(params["seed"]) + 1,
                                          "datasets": ["tr23", "tr11"]}
    (root / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False))
    res = run(["snakemake", "--cores", "2", "reports/metrics/benchmark_seed.json", "-n", "--quiet",
               "rules"], root)
    jobs = dict(re.findall(r"^(benchmark\w*)\s+(\d+)$", res.stdout, re.M))
    n = len(SMALL_BENCHMARK["modules"])  # one column job per dataset and weighting module
    assert jobs["benchmark_seed_column"] == str(2 * n) and jobs["benchmark_seed"] == "1"
    assert not any(k.startswith(("benchmark_column", "benchmark_aggregate")) for k in jobs), jobs
    run(["snakemake", "--cores", "2", "reports/metrics/benchmark_seed.json"], root, timeout=900)
    after = digests(root)
    assert all(after[k] == before[k] for k in before if "/columns/" in k)
    # the folds differ from the grid's, and the column is benchmark-column on them
    corpus = Corpus.load(root / "data/corpus/tr11")
    protocol = SMALL_BENCHMARK["datasets"]["tr11"]["protocol"]
    first = make_splits(protocol, corpus.Y, corpus.subset, seed=0)
    second = make_splits({k: v for k, v in protocol.items() if k != "seed"}, corpus.Y,
                         corpus.subset, seed=int(params["seed"]) + 1)
    assert not np.array_equal(first[0].train, second[0].train)
    for s in second:
        s.save(tmp_path / f"{s.name}.npz")
    names = [s.name for s in second]
    assert cli.main(["stats", "--corpus", str(root / "data/corpus/tr11"), "--names", *names,
                     "--split", str(tmp_path / "{split}.npz"),
                     "--out", str(tmp_path / "{split}.stats.npz")]) == 0
    assert cli.main(["benchmark-column", "--params", str(root / "params.yaml"), "--exp",
                     "bench_tr11", "--encoding", "tf-bns", "--names", *names, "--jobs", "1",
                     "--corpus", str(root / "data/corpus/tr11"),
                     "--split", str(tmp_path / "{split}.npz"),
                     "--stats", str(tmp_path / "{split}.stats.npz"),
                     "--settings", str(root / "data/benchmark/settings.json"),
                     "--out", str(tmp_path / "direct.csv")]) == 0
    pd.testing.assert_frame_equal(
        pd.read_csv(root / "data/benchmark/seed/columns/bench_tr11/bns/tf-bns.csv"),
        pd.read_csv(tmp_path / "direct.csv"))
    # the report: its numbers are the agreement of the two column sets
    cfg = seed_config(params)
    learners = SMALL_BENCHMARK["learners"]
    per, _ = agreement(
        load_scores(cfg, str(root / "data/benchmark/columns/{run}/{group}/{weighting}.csv"),
                    "headline_macro_f1", learners),
        load_scores(cfg, str(root / "data/benchmark/seed/columns/{run}/{group}/{weighting}.csv"),
                    "headline_macro_f1", learners))
    m = json.loads((root / "reports/metrics/benchmark_seed.json").read_text())
    assert m["learners"] == json.loads(json.dumps(per))
    assert -1 <= m["learners"]["linearsvc"]["rho_mean_ranks"] <= 1
    tex = (root / "reports/tables/benchmark_seed.tex").read_text()
    assert "tab:benchmark_seed" in tex and f"seed {int(params['seed']) + 1}" in tex
    macro = (root / "reports/macros/benchmark_seed.tex").read_text()
    assert "mean ranks agree between seeds" in macro
    # the hypothesis registered before the run, decided by its rule (rho >= 0.9)
    assert "Registered before the run (2026-12-03, \\texttt{second-seed})" in macro
    assert m["registered"]["held"] == {k: v["rho_mean_ranks"] >= 0.9
                                       for k, v in m["learners"].items()}


def test_the_reference_row_sets_fasttext_beside_each_learners_best(project, tmp_path):
    """The reference row: a fastText column per dataset and the report's table and sentence,
    fastText's difference from each learner's best weighting over the datasets."""

    root = copy_project(project, tmp_path / "reference")
    before = digests(root)
    res = run(["snakemake", "--cores", "2", "reports/metrics/benchmark_reference.json", "-n",
               "--quiet", "rules"], root)
    jobs = dict(re.findall(r"^(benchmark\w*)\s+(\d+)$", res.stdout, re.M))
    assert jobs == {"benchmark_reference": "3", "benchmark_reference_report": "1"}, jobs
    run(["snakemake", "--cores", "2", "reports/metrics/benchmark_reference.json"], root,
        timeout=900)
    after = digests(root)
    assert all(after[k] == before[k] for k in before if "/columns/" in k)
    table = pd.read_csv(root / "reports/tables/benchmark_reference.csv")
    m = json.loads((root / "reports/metrics/benchmark.json").read_text())
    assert sorted(table["dataset"].unique()) == ["tr11", "tr12", "tr23"]
    for learner, c in m["conclusions"].items():
        best = table[(table["learner"] == learner) & (table["against"] == "best")]
        assert set(best["weighting"]) == {c["datasets"]["best"]}
    assert np.allclose(table["diff"], table["fasttext"] - table["score"], atol=2e-6)  # 6 places
    ft = pd.read_csv(root / "data/benchmark/reference/bench_tr23/fasttext.csv")
    assert set(ft["learner"]) == {"fasttext"}
    summ = json.loads((root / "reports/metrics/benchmark_reference.json").read_text())["summary"]
    assert [(r["learner"], r["against"]) for r in summ] == [
        (lr, a) for lr in SMALL_BENCHMARK["learners"] for a in ("best", "control")]
    assert all(r["datasets"] == 3 and 0 <= r["wins"] <= 3 for r in summ)
    macro = (root / "reports/macros/benchmark_reference.tex").read_text()
    assert ("\\newcommand{\\BenchReference}{Epochs by the inner folds from 25, 50, 100, the "
            "top doubled while it won by more than 0.01, up to 400. Chosen per split: ") in macro
    # every split's chosen epochs counted once, and the datasets where one reached the cap
    rep = json.loads((root / "reports/metrics/benchmark_reference.json").read_text())
    n_splits = sum(pd.read_csv(root / f"data/benchmark/reference/bench_{d}/fasttext.csv")["split"]
                   .nunique() for d in ("tr11", "tr12", "tr23"))
    assert sum(rep["epochs"].values()) == n_splits
    assert bool(rep["at_cap"]) == ("400" in rep["epochs"])
    assert "Registered before the run (2026-12-03, \\texttt{reference-row})" in macro
    assert "; logistic regression: \\texttt{" in macro
