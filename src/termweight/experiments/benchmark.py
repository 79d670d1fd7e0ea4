"""The term-weighting benchmark: statistics over datasets, leaderboards, CD diagrams, heat maps.

The per-split work (split, statistics, scores, encodings, models, predictions, per-task metrics,
per-run averages) is done by the generic steps for every run ``bench_<dataset>`` (the
``benchmark_*`` stages of ``dvc.yaml`` and rules of ``workflow/rules/benchmark.smk``); this module
only reads their ``runs.csv``.

Protocol of the comparison, per learner and measure:

1. one score per dataset and weighting: the mean of the measure over the dataset's splits (the
   mean and standard deviation over splits of every cell are written too, ``per_dataset_table``);
2. ranks within each dataset (1 = best, ties averaged), averaged over datasets (Demsar 2006,
   JMLR 7:1-30);
3. Friedman's test (``scipy.stats.friedmanchisquare``) that all weightings rank alike;
4. post-hoc, as Benavoli, Corani & Mangili (2016, JMLR 17(5):1-10) recommend instead of
   mean-rank tests: Wilcoxon's signed-rank test on the per-dataset scores of every two weightings
   (``scikit_posthocs.posthoc_wilcoxon``) with Holm's step-down correction over all k (k - 1) / 2
   pairs (``statsmodels.stats.multitest.multipletests``). The critical-difference diagram
   (``scikit_posthocs.critical_difference_diagram``) joins by a bar weightings whose every two
   members have a Holm-adjusted p >= alpha (as aeon's CD diagrams do by default); with more than
   ``CD_MAX_LABELS`` weightings it draws the ``CD_TOP`` best-ranked plus the baselines.
   Each weighting against a control (the best-ranked one, and TF-IDF): the same Wilcoxon p, Holm
   over the k - 1 comparisons. Nemenyi's critical difference ``q_alpha sqrt(k (k + 1) / (6 N))``
   (``q_alpha`` from ``scipy.stats.studentized_range``) is still reported, for reference;
5. the comparisons the papers claim, declared in params.yaml (after earlier runs had been read)
   (``benchmark.comparisons``; ``termweight.experiments.comparisons``): wins/ties/losses, mean
   difference with a bootstrap interval, Wilcoxon's p Holm-adjusted over the declared rows, the
   Bayesian signed-rank test on dataset means (Benavoli, Corani, Demsar & Zaffalon 2017, JMLR
   18(77):1-36; ``baycomp.SignedRankTest``, seeded) and the Bayesian hierarchical test on the
   split scores (Corani et al. 2017), P(better), P(practically equivalent), P(worse) with the
   ROPE ``benchmark.rope``; average ranks with bootstrap intervals over the datasets;
6. the majority-class baseline per dataset, and the datasets where no method beats it.

Measures: micro-F1 and macro-F1 over the one-vs-rest tasks (``termweight.evaluation``) and
accuracy = share of test documents whose top decision score is a true class
(``termweight.learners.linear.top1_accuracy``).
"""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

import numpy as np
import pandas as pd

from termweight.experiments.comparisons import (  # noqa: F401 (bayes_signed_rank: the API)
    BAYES_SAMPLES,
    BAYES_SEED,
    bayes_signed_rank,
    declared,
)
from termweight.learners.linear import DEFAULT_C
from termweight.learners.registry import one_vs_rest
from termweight.runner import io
from termweight.runner.errors import DataError
from termweight.weighting import group_of

log = logging.getLogger("termweight.benchmark")

MEASURES = ("micro_f1", "macro_f1", "accuracy")
MEASURE_NAMES = {"micro_f1": "micro-F1", "macro_f1": "macro-F1", "accuracy": "accuracy",
                 "top1_macro_f1": "top-1 macro-F1", "top1_micro_f1": "top-1 micro-F1",
                 "headline_macro_f1": "macro-F1 (top-1 if single-label)"}
# the same, where a table's column is narrow (its caption says what top-1 means)
SHORT_MEASURE_NAMES = {"headline_macro_f1": "macro-F1 (top-1)"}
#: measures that exist only in runs evaluated with top-1 counts (``evaluate --doc-accuracy``)
TOP1_MEASURES = ("top1_macro_f1", "top1_micro_f1", "headline_macro_f1")
#: the benchmark's learners (termweight.learners.registry) -> their names in tables and figures
LEARNER_NAMES = {spec.name: spec.display for spec in one_vs_rest()}
#: Kim (2016)'s three corpora (its claim is tested OUTSIDE them).
KIM_DATASETS = ("cachopo_r8", "cachopo_webkb", "20news")
BNS_WEIGHTINGS = ("binary-bns", "tf-bns")
#: the tf-idf controls' names in a table's header
CONTROL_LABELS = {"tfidf": "tfidf", "sklearn_sublinear_tfidf": "sublinear"}
MIXCH = "ntf-mixch"


# --- data ------------------------------------------------------------------------------------

def load_runs(params: dict, template: str, require=()) -> pd.DataFrame:
    """Every run's per-split averages: columns run, dataset, learner, encoding, split, measures;
    each file checked (``check_runs``) and holding the columns ``require`` (after the headline
    measure is derived)."""
    from termweight.settings import benchmark_runs

    frames = []
    for run, e in benchmark_runs(params).items():
        for learner in e["learners"]:
            path = template.format(run=run, learner=learner)
            f = io.read_table(path, required=("encoding", "split", "micro_f1", "macro_f1"))
            if "accuracy" not in f.columns:
                raise DataError(path, "no 'accuracy' column (evaluate with --doc-accuracy)")
            check_runs(path, f, e)
            if "top1_macro_f1" in f.columns:
                from termweight.intermediates import check_table

                check_table(path, f, unit=("top1_macro_f1", "top1_micro_f1"))
                single = f["single_label"].astype(str).str.lower() == "true"
                # the headline: top-1 F1 on single-label corpora, per-category F1 on multi-label
                f["headline_macro_f1"] = np.where(single, f["top1_macro_f1"], f["macro_f1"])
            missing = [c for c in require if c not in f.columns]
            if missing:
                raise DataError(path, f"no column {missing[0]!r}: the measures "
                                f"{', '.join(TOP1_MEASURES)} and the majority baseline need runs "
                                "evaluated with top-1 counts (re-run the benchmark's evaluate "
                                "steps)")
            f.insert(0, "learner", learner)
            f.insert(0, "dataset", e["dataset"])
            f.insert(0, "run", run)
            frames.append(f)
    if not frames:
        raise DataError("params.yaml", "benchmark: no runs configured")
    return pd.concat(frames, ignore_index=True)


def training_sizes(params: dict, template: str, weighting: str) -> pd.DataFrame:
    """Training documents per split of each dataset (mean over its splits), from one weighting's
    columns (``template`` with {run} and {weighting}, written by benchmark-column): the sum of a
    split's tasks' training positives (``train_pos``) of its first learner. One-vs-rest over
    every class, that counts each training document once on a single-label corpus, and its
    label assignments (at least its documents) on a multi-label one (``single_label``)."""
    from termweight.settings import benchmark_runs

    out = {}
    for run, e in benchmark_runs(params).items():
        path = template.format(run=run, weighting=weighting, group=group_of(weighting))
        f = io.read_table(path, required=("learner", "split", "train_pos", "single_label"))
        f = f[f["learner"] == f["learner"].iloc[0]] if len(f) else f
        pos = pd.to_numeric(f["train_pos"], errors="coerce")
        if f.empty or pos.isna().any() or (pos < 0).any():
            raise DataError(path, "train_pos: no rows, or a value that is not a count")
        single = f["single_label"].astype(str).str.lower().eq("true").all()
        out[e["dataset"]] = {"train_docs": float(pos.groupby(f["split"]).sum().mean()),
                             "single_label": bool(single)}
    return pd.DataFrame.from_dict(out, orient="index")


#: the scores of a runs.csv the benchmark reads (those it holds): F1 and accuracy in [0, 1]; the
#: chosen C or alpha and the fits stopped at the cap >= 0
RUN_UNIT = ("micro_f1", "macro_f1", "accuracy", "top1_macro_f1", "top1_micro_f1",
            "majority_accuracy", "majority_macro_f1", "majority_micro_f1")
RUN_NONNEGATIVE = ("value", "unconverged", "inner_unconverged")


def check_runs(path, frame: pd.DataFrame, run: dict) -> None:
    """One runs.csv of ``run`` (a ``benchmark_runs`` entry) against the params: every declared
    (weighting, split) once (the run's ``encodings`` x ``split_names`` of its protocol), no
    other, and every score of ``RUN_UNIT`` / ``RUN_NONNEGATIVE`` it holds finite and in range
    (``termweight.results_check``; ``frame`` itself is left as read)."""
    from termweight.results_check import NONNEGATIVE, UNIT, check_cells
    from termweight.splits import split_names

    measures = {**{c: UNIT for c in RUN_UNIT if c in frame.columns},
                **{c: NONNEGATIVE for c in RUN_NONNEGATIVE if c in frame.columns}}
    check_cells(path, frame.copy(), {"encoding": list(run["encodings"]),
                                     "split": split_names(run["protocol"])}, measures)


def dataset_scores(runs: pd.DataFrame, measures=MEASURES) -> pd.DataFrame:
    """Long table: dataset, learner, weighting, measure, score (mean over splits), splits."""
    g = runs.groupby(["dataset", "learner", "encoding"], sort=False)
    mean = g[list(measures)].mean().reset_index()
    n = g.size().reset_index(name="splits")
    mean = mean.merge(n, on=["dataset", "learner", "encoding"])
    long = mean.melt(id_vars=["dataset", "learner", "encoding", "splits"], value_vars=list(measures),
                     var_name="measure", value_name="score")
    return long.rename(columns={"encoding": "weighting"})


def score_matrix(scores: pd.DataFrame, learner: str, measure: str, order) -> pd.DataFrame:
    """Datasets x weightings (``order``) of one learner and measure."""
    s = scores[(scores["learner"] == learner) & (scores["measure"] == measure)]
    return s.pivot(index="dataset", columns="weighting", values="score")[list(order)]


# --- statistics (Demsar 2006; Benavoli et al. 2016, 2017) from maintained libraries ----------

def nemenyi_cd(k: int, n: int, alpha: float) -> float:
    """Nemenyi's critical difference ``q_alpha sqrt(k(k+1)/(6N))`` (Demsar 2006, section 3.2.2)."""
    from scipy.stats import studentized_range

    q = studentized_range.ppf(1 - alpha, k, np.inf) / np.sqrt(2.0)
    return float(q * np.sqrt(k * (k + 1) / (6.0 * n)))


def pairwise_wilcoxon(D: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Wilcoxon's signed-rank test between every two weightings (columns of ``D``) over the
    datasets (rows), unadjusted and Holm-adjusted over all k (k - 1) / 2 pairs (Benavoli, Corani &
    Mangili 2016, JMLR 17(5); the default of aeon's CD diagrams).

    Unadjusted p from ``scikit_posthocs.posthoc_wilcoxon`` (``scipy.stats.wilcoxon``, zeros
    dropped, exact for small N without ties); Holm's step-down adjustment
    ``p_(i) <- max_{j <= i} min(1, (m - j + 1) p_(j))`` by
    ``statsmodels.stats.multitest.multipletests``. Two identical columns get p = 1. Returns two
    symmetric k x k frames (raw, Holm), diagonal 1."""
    import scikit_posthocs as skp
    from statsmodels.stats.multitest import multipletests

    with np.errstate(invalid="ignore", divide="ignore"):  # all-zero differences: scipy gives p = 1
        raw = skp.posthoc_wilcoxon([D[c].to_numpy() for c in D.columns])
    raw.index = raw.columns = D.columns
    p = raw.to_numpy().copy()
    upper = np.triu_indices(p.shape[0], 1)
    adj = np.ones_like(p)
    if upper[0].size:
        adj[upper] = multipletests(p[upper], method="holm")[1]
    adj[(upper[1], upper[0])] = adj[upper]
    return raw, pd.DataFrame(adj, index=D.columns, columns=D.columns)


def wilcoxon_cliques(p_holm: pd.DataFrame, alpha: float, labels=None) -> list[list[str]]:
    """The CD diagram's bars: the maximal sets of weightings (among ``labels``, default all) whose
    every two members have a Holm-adjusted Wilcoxon p >= ``alpha`` (not significantly different),
    by scikit-posthocs' clique finder, each in the matrix's order; singletons included."""
    from scikit_posthocs import _plotting

    labels = list(p_holm.index if labels is None else labels)
    adj = (p_holm.loc[labels, labels].to_numpy() >= alpha).astype(int)
    np.fill_diagonal(adj, 1)
    return _ordered_cliques(_plotting._find_maximal_cliques)(
        pd.DataFrame(adj, index=labels, columns=labels))


def rank_tests(D: pd.DataFrame, baseline: str, alpha: float) -> dict:
    """For the datasets x weightings matrix ``D``: average ranks, Friedman's test, the pairwise
    Wilcoxon signed-rank tests with Holm's correction (the CD diagram's bars), Wilcoxon against the
    best-ranked weighting and against ``baseline`` with Holm over the k - 1 comparisons, and
    Nemenyi's critical difference (a secondary number)."""
    import scikit_posthocs as skp
    from scipy.stats import friedmanchisquare

    from termweight.experiments.conclusions import holm_against

    ranks = D.rank(axis=1, ascending=False, method="average")
    avg = ranks.mean().sort_values(kind="stable")
    n, k = D.shape
    out = {"n_datasets": n, "k": k, "avg_rank": avg, "best": str(avg.index[0]), "alpha": alpha,
           "baseline": baseline, "scores": D}
    if n >= 2 and k >= 3:
        fr = friedmanchisquare(*[D[c].to_numpy() for c in D.columns])
        out["friedman_chi2"], out["friedman_p"] = float(fr.statistic), float(fr.pvalue)
        nem = skp.posthoc_nemenyi_friedman(D.to_numpy())
        nem.index = nem.columns = D.columns
        out["nemenyi"] = nem
        out["cd"] = nemenyi_cd(k, n, alpha)
        raw, holm = pairwise_wilcoxon(D)
        out["wilcoxon"], out["wilcoxon_holm"] = raw, holm
        out["vs_best"] = holm_against(raw, out["best"])
        out["vs_baseline"] = holm_against(raw, baseline) if baseline in D.columns else None
    else:
        out.update(friedman_chi2=float("nan"), friedman_p=float("nan"), nemenyi=None, cd=None,
                   wilcoxon=None, wilcoxon_holm=None, vs_best=None, vs_baseline=None)
    return out


def per_dataset_table(runs: pd.DataFrame, measures=MEASURES, learners=None,
                      order=None) -> pd.DataFrame:
    """Dataset x weighting x learner: the number of splits and, per measure, the mean and the
    sample standard deviation (ddof = 1; empty for one split) over the splits. Rows by learner
    (``learners``' order), dataset (sorted), weighting (``order``)."""
    g = runs.groupby(["learner", "dataset", "encoding"], sort=False)
    out = g.size().rename("splits").to_frame()
    for m in measures:
        out[f"{m}_mean"] = g[m].mean()
        out[f"{m}_std"] = g[m].std(ddof=1)
    out = out.reset_index().rename(columns={"encoding": "weighting"})
    lpos = {v: i for i, v in enumerate(learners or out["learner"].unique())}
    wpos = {v: i for i, v in enumerate(order or out["weighting"].unique())}
    out = out.assign(_l=out["learner"].map(lpos), _w=out["weighting"].map(wpos))
    return (out.sort_values(["_l", "dataset", "_w"], kind="stable")
            .drop(columns=["_l", "_w"]).reset_index(drop=True))


# --- outputs ---------------------------------------------------------------------------------

def _fmt_p(p) -> str:
    if p is None or not np.isfinite(p):
        return "--"
    return "$<$0.001" if p < 0.001 else f"{p:.3f}"


def _p_is(p) -> str:
    """``p = 0.652`` or ``p < 0.001`` for a sentence."""
    text = _fmt_p(p)
    return f"p {text}" if text.startswith("$<$") else f"p = {text}"


def leaderboard(scores, tests, learner, measures, controls, single=None,
                unit_length: bool = True, family_rank: pd.Series | None = None) -> pd.DataFrame:
    """One learner's leaderboard, ordered by the average rank of the first measure: per
    measure the average rank (the first with its 95% bootstrap interval over the datasets) and
    the mean score over ``single`` (the single-label datasets: a mean does not mix top-1 F1 with
    a multi-label corpus's per-category F1; None: all); the first measure's average rank over
    the corpus families (``family_rank``); Holm-adjusted Wilcoxon p against the best-ranked
    weighting and against each of ``controls``; under ``unit_length`` rows a weighting's aliases
    (``termweight.weighting.UNIT_LENGTH_ALIASES``) beside its name."""
    from termweight.experiments.comparisons import rank_intervals
    from termweight.experiments.conclusions import against
    from termweight.reporting import latex_escape
    from termweight.weighting import aliases_of

    main = tests[(learner, measures[0])]
    ci = rank_intervals(main["scores"])
    rows = []
    for i, w in enumerate(main["avg_rank"].index, 1):
        also = aliases_of(w, list(main["scores"].columns)) if unit_length else []
        row = {("", ""): str(i), ("", "Weighting"): f"\\texttt{{{latex_escape(w)}}}" + (
            " (= " + ", ".join(f"\\texttt{{{latex_escape(a)}}}" for a in also) + ")"
            if also else "")}
        for m in measures:
            t = tests[(learner, m)]
            s = scores[(scores["learner"] == learner) & (scores["measure"] == m)
                       & (scores["weighting"] == w)]
            if single is not None:
                s = s[s["dataset"].isin(single)]
            name = MEASURE_NAMES[m]  # two header rows: the measure over rank, interval, mean
            row[(name, "rank")] = f"{t['avg_rank'][w]:.2f}"
            if m == measures[0]:
                row[(name, "95\\% interval")] = f"[{ci.loc[w, 'lo']:.1f}, {ci.loc[w, 'hi']:.1f}]"
            row[(name, "mean")] = f"{s['score'].mean():.4f}"
            if m == measures[0] and family_rank is not None:
                row[("families", "rank")] = f"{family_rank[w]:.2f}"
        vb = main.get("vs_best")
        row[("Holm p vs", "best")] = (_fmt_p(vb["p_holm"].get(w))
                                      if vb is not None and w in vb.index else "--")
        for c in controls:
            vc = against(main, c)
            row[("Holm p vs", CONTROL_LABELS.get(c, latex_escape(c)))] = (
                _fmt_p(vc["p_holm"].get(w)) if vc is not None and w in vc.index else "--")
        rows.append(row)
    frame = pd.DataFrame(rows)
    frame.columns = pd.MultiIndex.from_tuples(frame.columns)
    return frame


def _ordered_cliques(find):
    """``find`` (scikit-posthocs' clique finder, which returns sets) with every clique a list in
    the adjacency matrix's row order, and the cliques in that order too: the diagram then draws
    its crossbars in the same order whatever Python's string-hash seed (with sets it did not,
    and the figure's bytes changed from one process to the next)."""

    def ordered(adj_matrix):
        pos = {v: i for i, v in enumerate(adj_matrix.index)}
        cliques = [sorted(c, key=pos.__getitem__) for c in find(adj_matrix)]
        return sorted(cliques, key=lambda c: [pos[v] for v in c])

    return ordered


#: a CD diagram of more weightings than this shows the CD_TOP best-ranked plus the baselines
CD_MAX_LABELS = 20
CD_TOP = 15


def cd_labels(t: dict, keep=()) -> list[str]:
    """The weightings a CD diagram shows, best rank first: all of them when k <= CD_MAX_LABELS,
    else the CD_TOP best-ranked plus ``t['baseline']`` and ``keep`` (those present)."""
    avg = t["avg_rank"]
    if t["k"] <= CD_MAX_LABELS:
        return list(avg.index)
    want = set(avg.index[:CD_TOP]) | {w for w in (t.get("baseline"), *keep) if w in avg.index}
    return [w for w in avg.index if w in want]


def cd_figure(t: dict, title: str, keep=()):
    """Critical-difference diagram by ``scikit_posthocs.critical_difference_diagram``: average
    ranks over all k weightings; a bar joins weightings whose every two members have a
    Holm-adjusted pairwise Wilcoxon p >= alpha (``pairwise_wilcoxon``; Benavoli et al. 2016), drawn
    in a fixed order (``_ordered_cliques``). For k > CD_MAX_LABELS only ``cd_labels(t, keep)`` are
    drawn (bars among them), and the title says so."""
    from unittest import mock

    import scikit_posthocs as skp
    from scikit_posthocs import _plotting

    shown = cd_labels(t, keep)
    if len(shown) < t["k"]:
        extra = [w for w in shown if w not in set(t["avg_rank"].index[:CD_TOP])]
        title += (f"\nshown: the {CD_TOP} best-ranked of {t['k']}"
                  + (" and " + ", ".join(extra) if extra else "") + f" (ranks over all {t['k']})")
    from termweight.reporting import FIGURE_MAX_HEIGHT_IN, figure, wrap

    fig, ax = figure(height=min(FIGURE_MAX_HEIGHT_IN, 1.2 + 0.15 * len(shown)))
    if t.get("wilcoxon_holm") is not None:
        with mock.patch.object(_plotting, "_find_maximal_cliques",
                               _ordered_cliques(_plotting._find_maximal_cliques)):
            skp.critical_difference_diagram(t["avg_rank"][shown],
                                            t["wilcoxon_holm"].loc[shown, shown], ax=ax,
                                            alpha=t["alpha"],
                                            label_fmt_left="{label} ({rank:.1f})",
                                            label_fmt_right="({rank:.1f}) {label}",
                                            label_props={"fontsize": 7})
    else:
        ax.text(0.5, 0.5, "fewer than 2 datasets: no test", ha="center", transform=ax.transAxes)
        ax.set_axis_off()
    ax.set_title(wrap(title, fig))
    # the labels sit outside the axes, at its two ends: narrow the axes until they are on the page
    width = fig.get_size_inches()[0]
    for _ in range(4):
        fig.canvas.draw()
        box = fig.get_tightbbox(fig.canvas.get_renderer())
        left, right = max(0.0, -box.x0), max(0.0, box.x1 - width)
        if left + right < 0.01:
            break
        pos = ax.get_position()
        ax.set_position([pos.x0 + (left + 0.02) / width, pos.y0,
                         pos.width - (left + right + 0.04) / width, pos.height])
    return fig


def heat_figure(D: pd.DataFrame, baseline: str, title: str):
    from termweight.reporting import FIGURE_MAX_HEIGHT_IN, figure

    rel = D.sub(D[baseline], axis=0) if baseline in D.columns else D * 0
    lim = max(float(np.nanmax(np.abs(rel.to_numpy()))), 1e-6)
    fig, ax = figure(height=min(FIGURE_MAX_HEIGHT_IN, 1.6 + 0.16 * D.shape[0]))
    im = ax.imshow(rel.to_numpy(), cmap="RdBu", vmin=-lim, vmax=lim, aspect="auto")
    ax.set_xticks(range(D.shape[1]), D.columns, rotation=90, fontsize=6)
    ax.set_yticks(range(D.shape[0]), D.index, fontsize=6)
    fig.colorbar(im, ax=ax, fraction=0.03, label=f"difference to {baseline}")
    ax.set_title(title)
    return fig


def _w(name: str) -> str:
    return f"\\texttt{{{name.replace('_', chr(92) + '_')}}}"


def _prob(p) -> str:
    return f"{p:.3f}" if p is not None and np.isfinite(p) else "--"


def _row_text(r: dict) -> str:
    """A declared comparison's numbers (``termweight.experiments.comparisons.declared``)."""
    hier = ("" if r["hier_n"] < 2 else
            f"; hierarchical test over {r['hier_n']} cross-validated datasets not converged "
            f"({r['h_problems']})" if r.get("h_problems") else
            f"; hierarchical {_prob(r['h_a_better'])}/{_prob(r['h_rope'])}/"
            f"{_prob(r['h_b_better'])} over {r['hier_n']} cross-validated datasets")
    return (f"{r['wins']}/{r['ties']}/{r['losses']}, mean {r['mean_diff']:+.4f} "
            f"[{r['ci_lo']:+.4f}, {r['ci_hi']:+.4f}], Holm {_p_is(r['wilcoxon_p_holm'])}, "
            f"signed-rank {_prob(r['p_a_better'])}/{_prob(r['p_rope'])}/"
            f"{_prob(r['p_b_better'])}{hier}")


def _reading(rows: list[dict], rope: float) -> str:
    """One sentence read off a declared comparison's rows (one per learner)."""
    sig_better = [r for r in rows if r["significant"] and r["mean_diff"] > 0]
    sig_worse = [r for r in rows if r["significant"] and r["mean_diff"] < 0]
    inside = [r for r in rows if np.isfinite(r["ci_lo"]) and -rope <= r["ci_lo"]
              and r["ci_hi"] <= rope]
    n = len(rows)
    if sig_better and not sig_worse:
        return (f"better with {len(sig_better)} of {n} learners (Holm-adjusted p below alpha, "
                "Holm over each learner's declared comparisons)")
    if sig_worse and not sig_better:
        return (f"worse with {len(sig_worse)} of {n} learners (Holm-adjusted p below alpha, "
                "Holm over each learner's declared comparisons)")
    if sig_better or sig_worse:
        return "better with some learners and worse with others"
    if len(inside) == n:
        return (f"no significant difference, and every interval lies within the ROPE "
                f"$\\pm${rope:g}: practically equivalent")
    return "no significant difference with any learner, and the intervals are too wide to call it equivalent"


def _names(ws: list[str], most: int = 6) -> str:
    """Up to ``most`` names, then how many more."""
    shown = ", ".join(_w(w) for w in ws[:most])
    return shown + (f" and {len(ws) - most} more" if len(ws) > most else "") if ws else "none"


def _best_text(name: str, c: dict, m0: str) -> str:
    """One learner's "which weighting is best" (``conclusions.conclude``): the top over the
    datasets, its tie set with the controls' place in it, the overlapping rank intervals, the
    same over the families, and the leave-one-family-out check."""
    d, f = c["datasets"], c["families"]
    ctrl, fctrl = c["control"], c["family_control"]
    dc, fc = d["controls"][ctrl], f["controls"][fctrl]

    def place(unit, control):
        p = unit["controls"][control]["p_holm_vs_best"]
        return (f"{_w(control)} is the top" if p is None else
                f"{_w(control)} {'is in it' if p >= unit_alpha else 'is not'} "
                f"(Holm {_p_is(p)})")

    unit_alpha = c["alpha"]
    lofo = c["leave_one_family_out"]
    top = lofo[0] if lofo else None
    text = (f"{name}: {_w(d['best'])} ranks first over the {d['n']} datasets (average "
            f"{MEASURE_NAMES[m0]} rank {d['avg_rank']:.2f} of {d['k']}; Friedman "
            f"{_p_is(d['friedman_p'])}), but it is one of a tie set of {len(d['tie_set'])} "
            f"weightings not Holm-different from it (Wilcoxon over the datasets); the stronger "
            f"tf-idf control, {_w(ctrl)} (rank {dc['avg_rank']:.2f}): {place(d, ctrl)}; "
            f"{len(c['overlapping'])} other weightings' 95\\% rank intervals overlap the top's. "
            f"Over the {f['n']} corpus families {_w(f['best'])} ranks first ({f['avg_rank']:.2f}), "
            f"with a tie set of {len(f['tie_set'])}; the stronger control there, {_w(fctrl)} "
            f"(rank {fc['avg_rank']:.2f}): {place(f, fctrl)}.")
    if top is not None:
        text += (f" Leaving one family out at a time, {_w(top['weighting'])} stays in the top "
                 f"five in {top['stays']} of {top['of']} rankings (ranks "
                 f"{top['best_rank']:g}--{top['worst_rank']:g}).")
    return text


def _floor_text(unit: dict, alpha: float) -> str:
    """What n units can show: the smallest Holm-adjusted p of k - 1 Wilcoxon tests over n
    (``conclusions.smallest_holm_p``), and what that leaves of a "none"."""
    from termweight.experiments.conclusions import smallest_holm_p

    floor = smallest_holm_p(unit["n"], unit["k"] - 1)
    if floor < alpha:
        return ""
    return (f"With {unit['n']} families and {unit['k'] - 1} comparisons against one weighting, "
            f"the smallest Holm-adjusted p a Wilcoxon signed-rank test can reach is "
            f"{floor:.3f} $\\geq$ $\\alpha$ = {alpha}: over the families no weighting can be "
            "shown better or worse than another by these tests, so a family-level \\emph{none} "
            "below is inconclusive, not a finding of no difference.")


def _control_text(name: str, c: dict) -> str:
    """One learner's "better than tf-idf" per control, over the datasets and the families."""
    d, f = c["datasets"], c["families"]
    parts = []
    for ctl in d["controls"]:
        strong = " (the stronger)" if ctl == c["control"] else ""
        parts.append(f"better than {_w(ctl)}{strong} over the datasets: "
                     f"{_names(d['controls'][ctl]['better'])}; over the families: "
                     f"{_names(f['controls'][ctl]['better'])}")
    return f"{name}, " + "; ".join(parts)


def answers(tests, rows, cfg, learners, measures, concl=None) -> dict[str, str]:
    """The section's answers as sentences (LaTeX), every number from the tests, the declared
    comparisons (``rows``: ``termweight.experiments.comparisons.declared``, all learners) and the
    conclusions (``concl``: learner -> ``conclusions.conclude`` on the first measure)."""
    alpha, baseline, rope, m0 = cfg["alpha"], cfg["baseline"], cfg["rope"], measures[0]
    how = (f"({MEASURE_NAMES[m0]}; wins/ties/losses, mean difference [95\\% bootstrap interval "
           f"over the datasets], Wilcoxon p Holm-adjusted over the declared comparisons, "
           f"P(better)/P(equivalent)/P(worse) with ROPE $\\pm${rope:g} by the Bayesian "
           f"signed-rank test and the hierarchical test)")
    best = []
    for learner in learners:
        t = tests[(learner, m0)]
        best.append(f"{LEARNER_NAMES.get(learner, learner)}: {_w(t['best'])} "
                    f"(average rank {t['avg_rank'].iloc[0]:.2f} of {t['k']}; Friedman "
                    f"{_p_is(t['friedman_p'])})")
    out = {"BenchAnswerBest": f"By average {MEASURE_NAMES[m0]} rank over "
                              f"{tests[(learners[0], m0)]['n_datasets']} datasets, the best "
                              "weighting is, per learner, " + "; ".join(best) + "."}
    if concl:
        out["BenchAnswerBest"] = " ".join(
            _best_text(LEARNER_NAMES.get(lr, lr), concl[lr] | {"alpha": alpha}, m0)
            for lr in learners)
        c0 = concl[learners[0]]
        groups: dict[str, list[str]] = {}
        for d, f in c0["family_of"].items():
            groups.setdefault(f, []).append(d)
        shared = [f"{_w(f)} ({', '.join(_w(d) for d in ds)})" for f, ds in groups.items()
                  if len(ds) > 1]
        out["BenchFamilies"] = (
            f"The {len(c0['family_of'])} datasets are {len(groups)} corpus families: datasets "
            "that share documents are not independent, so every answer is also given with a "
            "family as the unit (its score the mean of its datasets'). Families of more than "
            "one dataset: " + "; ".join(shared) + " (\\texttt{benchmark.families}). "
            + _floor_text(c0["families"], alpha))

    def sentences(chosen) -> str:
        pairs = list(dict.fromkeys((r["a"], r["b"], r["outside"]) for r in chosen))
        text = []
        for a, b, out in pairs:
            these = [r for r in chosen if (r["a"], r["b"], r["outside"]) == (a, b, out)]
            where = f"on the {these[0]['n']} datasets" + (f" outside {out.capitalize()}'s"
                                                           if out else "")
            text.append(f"{_w(a)} against {_w(b)} ({these[0]['source']}), {where}: "
                        + _reading(these, rope) + " ("
                        + "; ".join(f"{LEARNER_NAMES.get(r['learner'], r['learner'])} "
                                    + _row_text(r) for r in these) + ").")
        return " ".join(text)

    bns = [r for r in rows if r["a"] in BNS_WEIGHTINGS]
    out["BenchAnswerBns"] = (f"Declared in params.yaml after earlier runs had been read (the "
                             f"history above) {how}. " + sentences(bns) if bns else
                             "No comparison of BNS was declared (benchmark.comparisons).")
    mix = [r for r in rows if r["a"] == MIXCH]
    out["BenchAnswerMixch"] = (f"Against each of Kim's single weightings {how}: " + sentences(mix)
                               if mix else "No comparison of mix-ch was declared.")
    other = [r for r in rows if r["a"] not in BNS_WEIGHTINGS and r["a"] != MIXCH]
    out["BenchAnswerDeclared"] = (f"The other comparisons the papers claim {how}: "
                                  + sentences(other) if other else "")
    parts = []
    for learner in learners:
        for m in measures:
            t = tests[(learner, m)]
            vt = t.get("vs_baseline")
            if vt is None:
                continue
            D = t["scores"]
            better = [w for w in vt.index if (D[w] - D[baseline]).median() > 0
                      and vt.loc[w, "p_holm"] < alpha]
            parts.append(f"{LEARNER_NAMES.get(learner, learner)}, {MEASURE_NAMES[m]}: "
                         + (", ".join(_w(w) for w in better) if better else "none"))
    out["BenchAnswerTfidf"] = (
        f"Weightings significantly better than {_w(baseline)} (Wilcoxon signed-rank test over "
        f"the datasets, Holm's correction over the k $-$ 1 comparisons, $\\alpha$ = {alpha}): "
        + "; ".join(parts) + ".")
    if concl:
        out["BenchAnswerTfidf"] = (
            f"Weightings significantly better on {MEASURE_NAMES[m0]} (Wilcoxon signed-rank test, "
            f"Holm's correction over the k $-$ 1 comparisons with the control, $\\alpha$ = "
            f"{alpha}, a positive median difference). ") + " ".join(
            _control_text(LEARNER_NAMES.get(lr, lr), concl[lr]) + "." for lr in learners)
    return out


def per_dataset_latex(table: pd.DataFrame, measures, learners) -> str:
    """``per_dataset_table`` as LaTeX: one ``longtable`` per learner, mean (standard deviation)
    over the splits of each measure."""
    from termweight.reporting import latex_escape

    cols = "ll r" + " r" * len(measures)
    head = ("Dataset & Weighting & splits & "
            + " & ".join(f"{MEASURE_NAMES[m]}" for m in measures) + r" \\")
    lines = []
    for lr in learners:
        f = table[table["learner"] == lr]
        if f.empty:
            continue
        name = LEARNER_NAMES.get(lr, lr)
        lines += [r"{\scriptsize", rf"\begin{{longtable}}{{{cols}}}",
                  rf"\caption{{Benchmark per dataset, {latex_escape(name)}: mean (sample standard "
                  r"deviation) of each measure over the dataset's splits; -- where a dataset has "
                  rf"one split.}}\label{{tab:benchmark_datasets_{lr}}}\\",
                  r"\toprule", head, r"\midrule\endfirsthead",
                  r"\toprule " + head + r" \midrule\endhead"]
        for r in f.itertuples(index=False):
            row = r._asdict()
            cells = [f"{row[f'{m}_mean']:.4f} ("
                     + (f"{row[f'{m}_std']:.4f}" if np.isfinite(row[f"{m}_std"]) else "--") + ")"
                     for m in measures]
            lines.append(" & ".join([_w(row["dataset"]), _w(row["weighting"]),
                                     str(row["splits"]), *cells]) + r" \\")
        lines += [r"\bottomrule", r"\end{longtable}}", ""]
    return "\n".join(lines)


def read_report_inputs(args, params: dict, measures) -> tuple[pd.DataFrame, pd.DataFrame | None]:
    """What ``benchmark-report`` reads, checked before it writes anything: every run's runs.csv
    (``load_runs``: each declared weighting and split once, the scores in range), the columns of
    ``measures`` and of the majority baseline, the columns' seconds (``column_costs``) and the
    datasets' training sizes (``training_sizes``, set on ``args.sizes``)."""
    runs = load_runs(params, args.runs,
                     require=(*measures, "majority_accuracy", "majority_macro_f1"))
    if args.columns:
        baseline = params["benchmark"].get("baseline", "tfidf")
        args.sizes = training_sizes(params, args.columns, baseline)
    else:
        args.sizes = None
    return runs, (column_costs(args.seconds, params) if args.seconds else None)


def cmd_benchmark_report(args) -> None:
    """runs.csv of every run and learner -> statistics, tables, figures, JSON, macros."""
    from termweight.runner.config import load_params

    params = load_params(args.params)
    measures = list(params["benchmark"].get("measures", MEASURES))
    runs, cost = read_report_inputs(args, params, measures)
    with io.all_or_nothing():  # every output, or none
        _report(args, params, runs, cost, measures)


def _report(args, params: dict, runs: pd.DataFrame, cost, measures: list) -> None:
    """The report's outputs from the checked ``runs`` (``cmd_benchmark_report``)."""
    from termweight.experiments.comparisons import size_gains
    from termweight.experiments.conclusions import conclude, families_of, family_matrix
    from termweight.reporting import save_figure, write_latex_table
    from termweight.settings import benchmark_runs

    b = params["benchmark"]
    cfg = {"alpha": b.get("alpha", 0.05), "baseline": b.get("baseline", "tfidf"),
           "rope": b.get("rope", 0.01)}
    cfg["controls"] = list(b.get("controls") or [cfg["baseline"]])
    learners = list(b["learners"])
    scores = dataset_scores(runs, measures)
    order = list(next(iter(benchmark_runs(params).values()))["encodings"])
    data, reports = Path(args.data), Path(args.reports)
    io.write_table(data / "scores.csv", scores)
    per_dataset = per_dataset_table(runs, measures, learners, order)
    io.write_table(reports / "tables" / "benchmark_datasets.csv", per_dataset)
    io.write_text(reports / "tables" / "benchmark_datasets.tex",
                  per_dataset_latex(per_dataset, measures, learners))
    forman = set(params.get("forman", {}).get("datasets", [])) | {
        d for d in scores["dataset"].unique() if _is_forman(d)}
    datasets = sorted(scores["dataset"].unique())
    family = families_of(datasets, b.get("families"), known=b.get("datasets") or datasets)
    tests, rows, test_rows, pair_rows, concl, gains = {}, [], [], [], {}, []
    own = {"forman": forman, "kim": set(KIM_DATASETS)}
    single = sorted(runs[runs["single_label"].astype(str).str.lower() == "true"]["dataset"]
                    .unique()) if "single_label" in runs.columns else None
    for learner in learners:
        D0 = score_matrix(scores, learner, measures[0], order)
        for m in measures:
            D = score_matrix(scores, learner, m, order)
            t = rank_tests(D, cfg["baseline"], cfg["alpha"])
            tests[(learner, m)] = t
            more_tests, more_pairs = _test_rows(learner, m, D, t)
            test_rows += more_tests
            pair_rows += more_pairs
            _save_cd(t, learner, m, cfg, reports)
        t0 = tests[(learner, measures[0])]
        F = family_matrix(D0, family)
        tf = rank_tests(F, cfg["baseline"], cfg["alpha"])
        concl[learner] = conclude(t0, tf, family, cfg["controls"], cfg["alpha"])
        concl[learner]["family_rank"] = tf["avg_rank"]
        rows += declared(D0, runs, learner, measures[0], b.get("comparisons") or [], own,
                         cfg["rope"], int(b["protocol"].get("repeats", 1)), cfg["alpha"])
        if args.sizes is not None:
            gains.append(size_gains(D0, learner, b.get("comparisons") or [], own, args.sizes))
        save_figure(heat_figure(D0, cfg["baseline"], f"{LEARNER_NAMES.get(learner, learner)}: "
                                f"{MEASURE_NAMES[measures[0]]} minus {cfg['baseline']}"),
                    reports / "figures" / f"benchmark_heat_{learner}",
                    data=False)  # an image: data/benchmark/scores.csv has the numbers
        _write_leaderboard(runs, scores, tests, learner, measures, cfg, b, datasets, single,
                           reports, concl[learner])
    io.write_table(data / "tests.csv", pd.DataFrame(test_rows))
    io.write_table(data / "pairwise.csv", pd.DataFrame(
        pair_rows, columns=["learner", "measure", "a", "b", "mean_diff", "wilcoxon_p",
                            "wilcoxon_p_holm"]))
    summary, fixed = _tests_summary(tests, cfg)
    write_latex_table(reports / "tables" / "benchmark_tests.tex", summary,
                      "Benchmark: Friedman's $\\chi^2$ (its $p$) per learner and measure"
                      f"{fixed}; the pairs of weightings whose pairwise Wilcoxon signed-rank test, "
                      f"Holm-adjusted over all pairs, has $p < \\alpha$ ($\\alpha$ = "
                      f"{cfg['alpha']}), of all pairs; Nemenyi's critical difference of average "
                      "ranks, for reference; the best-ranked weighting and the average rank of "
                      "each tf-idf control (tfidf: raw tf $\\times \\log N/df$; sublinear: "
                      "scikit-learn's sublinear tf-idf). macro-F1 (top-1): "
                      "macro-F1 of the top-ranked class on single-label datasets, of the "
                      "per-category decisions on multi-label Reuters-21578.",
                      "tab:benchmark_tests", escape=False)
    ans = answers(tests, rows, cfg, learners, measures, concl)
    ans["BenchSize"] = (_write_size(rows, pd.concat(gains, ignore_index=True), args.sizes,
                                    reports) if gains else
                        "Not computed: benchmark-report ran without --columns.")
    _write_comparisons(rows, cfg, measures[0], reports)
    majority = majority_table(runs, scores, measures, cfg["baseline"])
    ans["BenchMajority"] = _majority_text(majority)
    write_latex_table(reports / "tables" / "benchmark_majority.tex", _majority_latex(majority),
                      "Benchmark: the majority-class baseline (every test document given the "
                      "class with the most training documents) against the best (weighting, "
                      "learner) of each dataset, mean over the splits.",
                      "tab:benchmark_majority", escape=False)
    _write_headline(runs, scores, tests, rows, majority, ans, cost,
                    {"b": b, "cfg": cfg, "measures": measures, "learners": learners,
                     "order": order, "datasets": datasets, "conclusions": concl}, reports)


def _test_rows(learner: str, m: str, D: pd.DataFrame, t: dict) -> tuple[list, list]:
    """One learner's and measure's rows of tests.csv (a row per weighting) and pairwise.csv (a
    row per two weightings, when tested)."""
    vb, vt = t.get("vs_best"), t.get("vs_baseline")
    test_rows, pair_rows = [], []
    for w in D.columns:
        test_rows.append({
            "learner": learner, "measure": m, "weighting": w,
            "avg_rank": float(t["avg_rank"][w]), "mean": float(D[w].mean()),
            "friedman_p": t["friedman_p"],
            "wilcoxon_p_vs_best": (float(vb["p"][w]) if vb is not None and w in vb.index
                                   else None),
            "wilcoxon_p_holm_vs_best": (float(vb["p_holm"][w])
                                        if vb is not None and w in vb.index else None),
            "wilcoxon_p_holm_vs_baseline": (float(vt["p_holm"][w]) if vt is not None
                                            and w in vt.index else None)})
    if t.get("wilcoxon_holm") is not None:
        raw, holm = t["wilcoxon"], t["wilcoxon_holm"]
        for i, a in enumerate(D.columns):
            for w in D.columns[i + 1:]:
                pair_rows.append({"learner": learner, "measure": m, "a": a, "b": w,
                                  "mean_diff": float((D[a] - D[w]).mean()),
                                  "wilcoxon_p": float(raw.loc[a, w]),
                                  "wilcoxon_p_holm": float(holm.loc[a, w])})
    return test_rows, pair_rows


def _save_cd(t: dict, learner: str, m: str, cfg: dict, reports: Path) -> None:
    """One learner's and measure's CD diagram, ``figures/benchmark_cd_<learner>_<measure>``."""
    from termweight.reporting import save_figure

    keep = [w for w in (*BNS_WEIGHTINGS, MIXCH, *cfg.get("controls", ())) if w]
    cd = f"; Nemenyi's CD = {t['cd']:.2f}" if t.get("cd") else ""
    save_figure(cd_figure(t, f"{LEARNER_NAMES.get(learner, learner)}, "
                          f"{MEASURE_NAMES[m]}: average ranks over {t['n_datasets']} "
                          f"datasets; bars: pairwise Wilcoxon, Holm p $\\geq$ "
                          f"{cfg['alpha']}{cd}", keep=keep),
                reports / "figures" / f"benchmark_cd_{learner}_{m}",
                data=False)  # ranks and bars: benchmark_{learner}.tex has the numbers


def _write_leaderboard(runs, scores, tests, learner, measures, cfg, b, datasets, single,
                       reports: Path, concl: dict) -> None:
    """``tables/benchmark_<learner>.tex``; its caption's numbers of datasets and splits are
    those of the checked runs (every declared split of every dataset, ``check_runs``)."""
    from termweight.reporting import write_latex_table

    n_splits = int(runs[runs["learner"] == learner].groupby("dataset")["split"].nunique().sum())
    write_latex_table(
        reports / "tables" / f"benchmark_{learner}.tex",
        leaderboard(scores, tests, learner, measures, cfg["controls"], single,
                    (b.get("tuning") or {}).get("normalize", "l2") == "l2"
                    if b.get("tuning") else False, concl["family_rank"]),
        f"Benchmark leaderboard, {LEARNER_NAMES.get(learner, learner)}: average rank over "
        f"{len(datasets)} datasets ({n_splits} splits), ordered by "
        f"{MEASURE_NAMES[measures[0]]} rank, with its 95\\% bootstrap interval over the "
        "datasets, and the mean score per measure"
        + (f" over the {len(single)} single-label datasets" if single is not None
           and len(single) < len(datasets) else "")
        + f"; the {MEASURE_NAMES[measures[0]]} rank over the "
        f"{concl['families']['n']} corpus families (a family's score: the mean of its "
        "datasets'); p of Wilcoxon's signed-rank test over the datasets against the "
        "best-ranked weighting and against each tf-idf control ("
        + ", ".join(f"{CONTROL_LABELS.get(c, c)}: {_w(c)}" for c in cfg["controls"])
        + "), Holm-adjusted over the k $-$ 1 comparisons. A name in parentheses is the same "
        "method at unit length, run once.",
        f"tab:benchmark_{learner}", escape=False)


def _tests_summary(tests: dict, cfg: dict) -> tuple[pd.DataFrame, str]:
    """``tables/benchmark_tests.tex``'s rows, a row per learner and measure, with the average
    rank of the best weighting and of each tf-idf control (``cfg['controls']``); and the
    caption's words for N (datasets) and k (weightings) when every row has the same (else they
    are columns)."""
    def rank(t, w):
        return f"{t['avg_rank'][w]:.2f}" if w in t["avg_rank"] else "--"

    sizes = {(t["n_datasets"], t["k"]) for t in tests.values()}
    table = pd.DataFrame([{
        "Learner": LEARNER_NAMES.get(lr, lr), "Measure": SHORT_MEASURE_NAMES.get(m, MEASURE_NAMES[m]),
        **({} if len(sizes) == 1 else {"$N$": str(t["n_datasets"]), "$k$": str(t["k"])}),
        "Friedman ($p$)": (f"{t['friedman_chi2']:.1f} ({_fmt_p(t['friedman_p'])})"
                           if np.isfinite(t["friedman_chi2"]) else "--"),
        "pairs differ": (f"{_n_different(t)}/{t['k'] * (t['k'] - 1) // 2}"
                         if t.get("wilcoxon_holm") is not None else "--"),
        "Nemenyi CD": f"{t['cd']:.2f}" if t.get("cd") else "--",
        "best": _w(t["best"]), "its rank": f"{t['avg_rank'].iloc[0]:.2f}",
        **{f"rank of {CONTROL_LABELS.get(c, c)}": rank(t, c) for c in cfg["controls"]},
    } for (lr, m), t in tests.items()])
    if len(sizes) != 1:
        return table, ""
    (n, k), = sizes
    return table, f" ($N$ = {n} datasets, $k$ = {k} weightings)"


def _headline(runs, tests, rows, majority, ctx: dict) -> dict:
    """``metrics/benchmark.json`` without the tuning: the grid (its splits per dataset those of
    the checked runs), the best weighting per learner and measure, the comparisons, the
    majority baseline, the per-learner files."""
    cfg, measures, learners, datasets = ctx["cfg"], ctx["measures"], ctx["learners"], ctx["datasets"]
    grid = {"datasets": datasets, "weightings": ctx["order"], "learners": learners,
            "splits": {d: int(runs[runs["dataset"] == d]["split"].nunique()) for d in datasets},
            "fits": int(len(runs))}
    return {
        "experiment": "benchmark", "datasets": datasets, "grid": grid,
        "measures": measures, "baseline": cfg["baseline"], "alpha": cfg["alpha"],
        "rope": cfg["rope"],
        "bayes": {"test": "baycomp.SignedRankTest", "prior": 0.5, "nsamples": BAYES_SAMPLES,
                  "random_state": BAYES_SEED, "measure": measures[0]},
        "best": {lr: {m: {"weighting": tests[(lr, m)]["best"],
                          "avg_rank": round(float(tests[(lr, m)]["avg_rank"].iloc[0]), 4),
                          "friedman_p": _round(tests[(lr, m)]["friedman_p"]),
                          "nemenyi_cd": _round(tests[(lr, m)].get("cd")),
                          "pairs_different": (_n_different(tests[(lr, m)])
                                              if tests[(lr, m)].get("wilcoxon_holm") is not None
                                              else None)}
                      for m in measures} for lr in learners},
        "baseline_rank": {lr: {m: _round(tests[(lr, m)]["avg_rank"].get(cfg["baseline"]))
                               for m in measures} for lr in learners},
        "controls": cfg["controls"],
        # per learner, on the first measure: over the datasets and over the corpus families
        "conclusions": {lr: {k: v for k, v in c.items() if k != "family_rank"}
                        for lr, c in (ctx.get("conclusions") or {}).items()},
        "comparisons": [_clean(r) for r in rows],
        "majority": {r["dataset"]: _clean({k: (bool(v) if isinstance(v, np.bool_) else v)
                                           for k, v in r.items() if k != "dataset"})
                     for r in majority.to_dict("records")},
        # the per-learner files (names depend on the configuration; dvc.yaml does not list them)
        "files": [f"tables/benchmark_{lr}.tex" for lr in learners]
        + [f"figures/benchmark_{kind}.{ext}" for lr in learners
           for kind in [*(f"cd_{lr}_{m}" for m in measures), f"heat_{lr}"] for ext in ("pdf", "png")],
    }


def _write_headline(runs, scores, tests, rows, majority, ans, cost, ctx: dict,
                    reports: Path) -> None:
    """``metrics/benchmark.json`` (``_headline`` and the tuning), the chosen values' figure, the
    cost table (``cost``: ``column_costs``; None without ``--seconds``) and the macros."""
    from termweight.experiments.comparisons import chosen_figure
    from termweight.reporting import save_figure, write_latex_table

    b, cfg, measures = ctx["b"], ctx["cfg"], ctx["measures"]
    learners, order, datasets = ctx["learners"], ctx["order"], ctx["datasets"]
    headline = _headline(runs, tests, rows, majority, ctx)
    tuning = tuning_summary(runs)
    if tuning:
        from termweight.learners.protocol import Protocol

        grid = Protocol.from_params(b.get("tuning"))
        for lr, t in tuning.items():
            t["grid"] = [f"{v:g}" for v in grid.values(lr)] if grid is not None else []
        headline["tuning"] = tuning
    save_figure(chosen_figure(tuning, LEARNER_NAMES), reports / "figures" / "benchmark_chosen",
                data=False)  # the counts: reports/metrics/benchmark.json, "tuning"
    if cost is not None:
        io.write_table(reports / "tables" / "benchmark_cost.csv", cost)
        write_latex_table(reports / "tables" / "benchmark_cost.tex", _cost_latex(cost),
                          "Benchmark: what each weighting's columns cost, summed over the "
                          "datasets: wall and CPU seconds of the whole command, and the wall "
                          "seconds of its encoding and of each learner's inner CV and refit; "
                          "measured when the grid was computed, one process per column, two "
                          "at a time on 2 cores (benchmarks/results/"
                          "benchmark\\_columns\\_seconds.csv).",
                          "tab:benchmark_cost", escape=False)
    io.write_json(reports / "metrics" / "benchmark.json", headline)
    macros = {"BenchDatasets": str(len(datasets)), "BenchWeightings": str(len(order)),
              "BenchLearnerText": learner_text(learners, b.get("C", DEFAULT_C),
                                                b.get("relative_C", False), b.get("tuning")),
              "BenchFloats": floats(learners, measures[0], cfg["baseline"]),
              "BenchProtocol": protocol_text(b.get("tuning"), tuning, scores, measures[0]),
              "BenchLearners": str(len(learners)), "BenchFits": f"{len(runs):,}".replace(",", "{,}"),
              "BenchAlpha": str(cfg["alpha"]), "BenchRope": f"{cfg['rope']:g}",
              "BenchBaseline": _w(cfg["baseline"]),
              "BenchDatasetList": ", ".join(_w(d) for d in datasets),
              "BenchComparisons": str(len(b.get("comparisons") or [])), **ans}
    lines = ["% The term-weighting benchmark: numbers and answers quoted by the report "
             "(generated; do not edit)."]
    lines += [f"\\newcommand{{\\{k}}}{{{v}}}" for k, v in macros.items()]
    io.write_text(reports / "macros" / "benchmark.tex", "\n".join(lines) + "\n")
    log.info("benchmark: %d datasets x %d weightings x %d learners, %d (run, split) rows",
             len(datasets), len(order), len(learners), len(runs))


def _write_comparisons(rows: list[dict], cfg: dict, measure: str, reports: Path) -> None:
    """The declared comparisons: ``tables/benchmark_comparisons.csv`` (every number), a LaTeX
    table (comparison, learner, wins/ties/losses, mean difference with its interval, Holm p,
    the two Bayesian tests) and the forest plot ``figures/benchmark_comparisons``."""
    from termweight.experiments.comparisons import forest_figure
    from termweight.reporting import save_figure, write_latex_table

    frame = pd.DataFrame(rows, columns=[
        "a", "b", "source", "outside", "learner", "measure", "n", "wins", "ties", "losses",
        "mean_diff", "ci_lo", "ci_hi", "wilcoxon_p", "wilcoxon_p_holm", "significant",
        "p_a_better", "p_rope", "p_b_better", "hier_n", "h_a_better", "h_rope", "h_b_better",
        "h_rhat", "h_ess_bulk", "h_ess_tail", "h_divergent", "h_problems", "size_rho",
        "size_p"])
    io.write_table(reports / "tables" / "benchmark_comparisons.csv", frame)
    table = pd.DataFrame([{
        "Comparison": f"{_w(r['a'])} vs {_w(r['b'])}" + (f" (outside {r['outside']})"
                                                         if r["outside"] else ""),
        "Source": r["source"], "Learner": LEARNER_NAMES.get(r["learner"], r["learner"]),
        "$N$": str(r["n"]), "W/T/L": f"{r['wins']}/{r['ties']}/{r['losses']}",
        "mean diff. [95\\%]": f"{r['mean_diff']:+.4f} [{r['ci_lo']:+.4f}, {r['ci_hi']:+.4f}]",
        "Holm $p$": _fmt_p(r["wilcoxon_p_holm"]),
        "signed-rank": f"{_prob(r['p_a_better'])}/{_prob(r['p_rope'])}/{_prob(r['p_b_better'])}",
        "hierarchical": ("not converged" if r.get("h_problems") else
                         f"{_prob(r['h_a_better'])}/{_prob(r['h_rope'])}/{_prob(r['h_b_better'])}"
                         if r["hier_n"] >= 2 else "--"),
    } for r in rows]) if rows else pd.DataFrame([{"Comparison": "none declared "
                                                                 "(benchmark.comparisons)"}])
    write_latex_table(reports / "tables" / "benchmark_comparisons.tex", table,
                      f"Benchmark: the comparisons declared in params.yaml (after earlier "
                      f"runs of the grid had been read: Section~\\ref{{sec:benchmark}}) "
                      f"({MEASURE_NAMES[measure]}). W/T/L over the datasets; the mean difference "
                      "a $-$ b with its 95\\% bootstrap interval over the datasets; Wilcoxon's "
                      "signed-rank p, Holm-adjusted over a learner's declared comparisons; "
                      "P(a better)/P(equivalent)/P(b better) with ROPE "
                      f"$\\pm${cfg['rope']:g} by the Bayesian signed-rank test on the dataset "
                      "means and by the hierarchical test on the split scores of the "
                      "cross-validated datasets (Corani et al. 2017)" + _hier_note(frame) + ".",
                      "tab:benchmark_comparisons", escape=False)
    save_figure(forest_figure(rows, cfg["rope"], LEARNER_NAMES, MEASURE_NAMES[measure]),
                reports / "figures" / "benchmark_comparisons",
                data=False)  # the numbers: tables/benchmark_comparisons.csv


def _write_size(rows: list[dict], gains: pd.DataFrame, sizes: pd.DataFrame, reports: Path
                ) -> str:
    """Gain against training-set size: Spearman's rho per declared row (``size_rho``,
    ``size_p`` set on ``rows``), ``figures/benchmark_size`` and the answer's sentence."""
    from termweight.experiments.comparisons import size_correlations, size_figure
    from termweight.reporting import save_figure

    corr = size_correlations(gains)
    for r in rows:
        m = corr[(corr["a"] == r["a"]) & (corr["b"] == r["b"]) & (corr["learner"] == r["learner"])
                 & (corr["outside"].fillna("") == (r["outside"] or ""))]
        r["size_rho"], r["size_p"] = ((float(m["size_rho"].iloc[0]), float(m["size_p"].iloc[0]))
                                      if len(m) else (float("nan"), float("nan")))
    save_figure(size_figure(gains, corr, LEARNER_NAMES), reports / "figures" / "benchmark_size")
    rho = corr["size_rho"].dropna()
    neg = corr[(corr["size_rho"] < 0) & (corr["size_p"] < 0.05)]
    pos = corr[(corr["size_rho"] > 0) & (corr["size_p"] < 0.05)]
    small = int((sizes["train_docs"] <= 1000).sum())
    strongest = corr.loc[corr["size_rho"].idxmin()] if len(rho) else None
    text = (f"The datasets train on {sizes['train_docs'].min():,.0f} to "
            f"{sizes['train_docs'].max():,.0f} documents per split ({small} of {len(sizes)} on "
            f"1,000 or fewer). Spearman's $\\rho$ between a dataset's training documents and a "
            f"declared comparison's gain is negative in {int((rho < 0).sum())} of {len(rho)} "
            f"(comparison, learner) rows, median {rho.median():+.2f}; {len(neg)} negative and "
            f"{len(pos)} positive at an unadjusted $p<0.05$")
    if strongest is not None:
        text += (f"; the strongest, {_w(strongest['a'])} against {_w(strongest['b'])} with "
                 f"{LEARNER_NAMES.get(strongest['learner'], strongest['learner'])}: "
                 f"$\\rho$ = {strongest['size_rho']:+.2f} over {int(strongest['n'])} datasets "
                 f"(p = {strongest['size_p']:.3f})")
    return (text + ". Read it as a direction, not a test: the datasets differ in more than "
            "their size (Figure~\\ref{fig:benchmark_size}).")


def _hier_note(frame: pd.DataFrame) -> str:
    """The hierarchical fits' diagnostics, for a caption: the bounds, the worst of the fits that
    met them, and how many were withheld ("not converged") and why."""
    from termweight.experiments import comparisons as C

    fits = frame[frame["h_rhat"].notna()] if "h_rhat" in frame else frame.iloc[:0]
    if fits.empty:
        return ""
    bad = fits[fits["h_problems"].fillna("") != ""]
    good = fits.drop(bad.index)
    text = (f"; {len(fits)} fits ({C.HIER_CHAINS} chains of {C.HIER_SAMPLES} draws, the model "
            f"non-centred, adapt delta {C.HIER_ADAPT_DELTA:g}), each checked against rank R-hat "
            rf"$\le$ {C.HIER_BOUNDS['rhat']}, bulk and tail ESS $\ge$ "
            f"{C.HIER_BOUNDS['ess_per_chain'] * C.HIER_CHAINS} and no divergent transition")
    if not good.empty:
        text += (f"; the {len(good)} that met them: R-hat at most {good['h_rhat'].max():.3f}, "
                 f"ESS at least {min(good['h_ess_bulk'].min(), good['h_ess_tail'].min()):.0f}")
    if not bad.empty:
        where = sorted({f"{a} vs {b} (over {n} datasets)" for a, b, n
                        in zip(bad["a"], bad["b"], bad["hier_n"], strict=True)})
        text += (f"; {len(bad)} did not and print ``not converged'' "
                 f"({int(bad['h_divergent'].sum())} divergent transitions in all; R-hat at most "
                 f"{bad['h_rhat'].max():.3f}): "
                 + ", ".join(where).replace("_", "\\_"))
    return text


def majority_table(runs: pd.DataFrame, scores: pd.DataFrame, measures, baseline: str
                   ) -> pd.DataFrame:
    """Per dataset: the majority-class baseline's accuracy and macro-F1 (mean over the splits,
    ``termweight.steps.results.majority``) and the best (weighting, learner)'s of the same
    measures; ``beaten``: whether that best beats the baseline on both."""
    base = runs[runs["encoding"] == baseline] if baseline in set(runs["encoding"]) else runs
    maj = base.groupby(["dataset", "split"])[["majority_accuracy", "majority_macro_f1"]].first()
    maj = maj.groupby("dataset").mean()
    headline = next((m for m in measures if "macro_f1" in m), measures[0])
    out = []
    for d, m in maj.iterrows():
        s = scores[scores["dataset"] == d]
        acc = s[s["measure"] == "accuracy"] if "accuracy" in set(s["measure"]) else s.iloc[:0]
        f1 = s[s["measure"] == headline]
        best_acc = acc.loc[acc["score"].idxmax()] if len(acc) else None
        best_f1 = f1.loc[f1["score"].idxmax()]
        out.append({"dataset": d, "majority_accuracy": float(m["majority_accuracy"]),
                    "best_accuracy": float(best_acc["score"]) if best_acc is not None else np.nan,
                    "best_accuracy_by": (f"{best_acc['weighting']}/{best_acc['learner']}"
                                         if best_acc is not None else ""),
                    "majority_macro_f1": float(m["majority_macro_f1"]),
                    "best_macro_f1": float(best_f1["score"]),
                    "best_macro_f1_by": f"{best_f1['weighting']}/{best_f1['learner']}"})
    frame = pd.DataFrame(out)
    frame["beaten"] = ((frame["best_accuracy"].isna()
                        | (frame["best_accuracy"] > frame["majority_accuracy"]))
                       & (frame["best_macro_f1"] > frame["majority_macro_f1"]))
    # per learner: how many of its weightings beat the majority's accuracy (and macro-F1)
    for lr in dict.fromkeys(scores["learner"]):
        counts = []
        for d, m in maj.iterrows():
            s = scores[(scores["dataset"] == d) & (scores["learner"] == lr)]
            acc = s[s["measure"] == "accuracy"].set_index("weighting")["score"]
            f1 = s[s["measure"] == headline].set_index("weighting")["score"]
            ok = f1 > float(m["majority_macro_f1"])
            if len(acc):
                ok &= acc.reindex(f1.index) > float(m["majority_accuracy"])
            counts.append(int(ok.sum()))
        frame[f"beating_{lr}"] = counts
        frame[f"of_{lr}"] = [int(((scores["dataset"] == d) & (scores["learner"] == lr)
                                  & (scores["measure"] == headline)).sum()) for d in maj.index]
    return frame


def _majority_text(t: pd.DataFrame) -> str:
    worse = t[~t["beaten"]]
    gap = (t["best_accuracy"] - t["majority_accuracy"]).idxmin()
    closest = t.loc[gap]
    text = (f"The majority-class baseline (Table~\\ref{{tab:benchmark_majority}}) is beaten in "
            f"accuracy and macro-F1 by the best method on {int(t['beaten'].sum())} of {len(t)} "
            f"datasets. The closest is {_w(closest['dataset'])}: accuracy "
            f"{closest['best_accuracy']:.4f} ({_w(closest['best_accuracy_by'])}) against "
            f"{closest['majority_accuracy']:.4f} for always predicting the majority class.")
    if len(worse):
        text += (" Not beaten on: " + ", ".join(_w(d) for d in worse["dataset"])
                 + "; read those datasets' ranks with that in mind.")
    learners = [c[len("beating_"):] for c in t.columns if c.startswith("beating_")]
    if learners:
        per = []
        for lr in learners:
            some = int((t[f"beating_{lr}"] > 0).sum())
            every = int((t[f"beating_{lr}"] == t[f"of_{lr}"]).sum())
            per.append(f"{LEARNER_NAMES.get(lr, lr)} on {some} (with some of its "
                       f"{int(t[f'of_{lr}'].max())} weightings; with every one on {every})")
        near = t.loc[gap]
        text += (" Counted per learner, a dataset on which at least one weighting beats both "
                 "the majority's accuracy and its macro-F1: " + ", ".join(per)
                 + f" of {len(t)}; on {_w(near['dataset'])}, "
                 + ", ".join(f"{int(near[f'beating_{lr}'])} of {int(near[f'of_{lr}'])} "
                             f"{LEARNER_NAMES.get(lr, lr)}" for lr in learners)
                 + " configurations do (the best of many configurations is biased upward).")
    return text


def _majority_latex(t: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame([{
        "Dataset": _w(r["dataset"]), "majority acc.": f"{r['majority_accuracy']:.4f}",
        "best acc.": f"{r['best_accuracy']:.4f}", "by": _w(r["best_accuracy_by"]),
        "majority macro-F1": f"{r['majority_macro_f1']:.4f}",
        "best macro-F1": f"{r['best_macro_f1']:.4f}", "by ": _w(r["best_macro_f1_by"]),
        "beaten": "yes" if r["beaten"] else "\\textbf{no}"} for r in t.to_dict("records")])


#: what benchmarks/results/benchmark_columns_seconds.csv holds per column (grid_part.py)
SECONDS_COLUMNS = ("kind", "dataset", "weighting", "splits", "command_wall_s", "command_cpu_s")


def column_costs(path, params: dict) -> pd.DataFrame:
    """Per weighting, summed over the benchmark's datasets: the grid columns' wall and CPU
    seconds and the wall seconds of the encoding and of each learner, from the measured file
    ``path`` (``benchmarks/results/benchmark_columns_seconds.csv``, a row per column, gathered
    from ``benchmark-column --out-seconds`` by ``benchmarks/grid_part.py``; checked when read);
    ``columns``: how many of the weighting's columns were measured."""
    from termweight.results_check import NONNEGATIVE, check_cells
    from termweight.settings import benchmark_runs

    f = io.read_table(path, required=SECONDS_COLUMNS)
    parts = [c for c in f.columns if c.endswith("_wall_s") and not c.startswith("command")]
    num = ["command_wall_s", "command_cpu_s", *parts]
    grid = {(e["dataset"], w) for e in benchmark_runs(params).values() for w in e["encodings"]}
    # a row per (kind, dataset, weighting), its seconds finite and >= 0; not every column of the
    # grid need be measured (the table counts those that are), and other kinds' rows may follow
    check_cells(path, f.copy(), {"kind": ["grid"], "dataset": sorted({d for d, _ in grid}),
                                 "weighting": sorted({w for _, w in grid})},
                dict.fromkeys(num, NONNEGATIVE), complete=False, extra_ok=True)
    f[num] = f[num].apply(pd.to_numeric, errors="coerce")
    in_grid = np.array([(d, w) in grid for d, w in zip(f["dataset"], f["weighting"],
                                                        strict=True)], dtype=bool)
    f = f[(f["kind"] == "grid").to_numpy() & in_grid]
    cost = f.groupby("weighting", sort=False)[num].sum()
    cost["columns"] = f.groupby("weighting", sort=False).size()
    cost = cost.rename(columns={"command_wall_s": "wall_s", "command_cpu_s": "cpu_s"})
    return cost.sort_values("wall_s", ascending=False, kind="stable").reset_index()


def _cost_latex(cost: pd.DataFrame) -> pd.DataFrame:
    if cost.empty:
        return pd.DataFrame([{"Weighting": "no column of this grid measured"}])
    parts = [c for c in cost.columns if c.endswith("_wall_s")]
    return pd.DataFrame([{"Weighting": _w(r["weighting"]), "columns": str(r["columns"]),
                          "wall s": f"{r['wall_s']:,.0f}", "CPU s": f"{r['cpu_s']:,.0f}",
                          **{c.removesuffix("_wall_s"): f"{r[c]:,.0f}" for c in parts}}
                         for r in cost.to_dict("records")])


def tuning_summary(runs: pd.DataFrame) -> dict:
    """Per learner under the tuned protocol: how often each grid value was chosen, and the
    fitted tasks (final and inner fits) that stopped at the iteration cap ({}: fixed C)."""
    if "value" not in runs.columns:
        return {}
    out = {}
    for learner, g in runs.groupby("learner", sort=False):
        chosen = g["value"].value_counts().sort_index()
        out[learner] = {"parameter": "alpha" if learner == "mnb" else "C",
                        "chosen": {f"{v:g}": int(n) for v, n in chosen.items()},
                        "fits": int(len(g)), "unconverged_tasks": int(g["unconverged"].sum()),
                        "inner_unconverged_tasks": int(g["inner_unconverged"].sum())}
    return out


def protocol_text(tuning_cfg: dict | None, tuning: dict, scores: pd.DataFrame,
                  measure: str) -> str:
    """The report's paragraph on what the ranks owe to the protocol (LaTeX), from the run: under
    the tuned protocol the share of runs whose chosen value is the modal one and at each end
    of the grid, the fitted tasks stopped at the iteration cap (final fits and inner fits), and
    how far apart ``tfidf`` and ``tf-idf`` (the same vectors at unit length) score; under fixed
    C, what the fixed values do to the ranks."""
    if not tuning_cfg:
        return ("$C$ and naive Bayes' smoothing are fixed, not tuned. With $C=1$ relative to the "
                "data scale, a weighting that puts its mass on a few discriminative terms is in "
                "effect less regularised than one that spreads it (binary, TF, TF-IDF). Naive "
                "Bayes' $\\alpha=1$ outweighs the fractional counts of unit-length rows "
                "(\\texttt{tfidf}, \\texttt{ltc}). Part of each rank is therefore the fixed "
                "hyper-parameter, not the weighting.")
    from termweight.learners.protocol import Protocol

    p = Protocol.from_params(tuning_cfg)
    parts = []
    for learner, t in tuning.items():
        grid = [f"{v:g}" for v in p.values(learner)]
        chosen, n = t["chosen"], t["fits"]
        mode = max(chosen, key=lambda v: (chosen[v], -float(v)))
        name = r"$\alpha$" if t["parameter"] == "alpha" else "$C$"
        edges = (f"{_pct(chosen.get(grid[0], 0), n)} at {grid[0]}, "
                 f"{_pct(chosen.get(grid[-1], 0), n)} at {grid[-1]}")
        parts.append(f"{LEARNER_NAMES.get(learner, learner)}: {name} = {mode} in "
                     f"{_pct(chosen[mode], n)} of {_num(n)} runs ({edges}); "
                     f"{_num(t['unconverged_tasks'])} fitted tasks of the final fits and "
                     f"{_num(t['inner_unconverged_tasks'])} of the inner fits stopped at the cap")
    text = (f"$C$ and $\\alpha$ are chosen on the training part of each split by "
            f"{p.inner_folds}-fold inner cross-validation, from the grids above, and the liblinear "
            f"fits stop at tolerance {p.tol:g} (LIBLINEAR's default for its dual solvers: 0.1), "
            f"capped at {_num(p.max_iter)} iterations. The chosen values and the fits at "
            "the cap, per learner: " + "; ".join(parts) + ".")
    if p.normalize == "l2":
        text += (" Every weighted document has unit length, so a weighting ranks by the "
                 "direction it gives each document, not by its scale.")
        from termweight.weighting import UNIT_LENGTH_ALIASES

        ran = set(scores["weighting"])
        same = [(a, w) for a, w in UNIT_LENGTH_ALIASES.items() if w in ran and a not in ran]
        if same:
            text += (" At unit length " + ", ".join(f"{_w(a)} is {_w(w)}" for a, w in same)
                     + " (their column scales are proportional on every task): each is run and "
                     "ranked once, under the second name, and every column checks on every "
                     "split that its aliases' unit-length rows are its own (to 1e-9).")
    else:
        text += " The weighted documents are not normalised (raw weights)."
    return text


def _pct(k: int, n: int) -> str:
    return rf"{100 * k / n:.0f}\%" if n else "--"


def _num(k: int) -> str:
    """An integer with LaTeX thousands separators (``12{,}345``)."""
    return f"{k:,}".replace(",", "{,}")


def _n_different(t: dict) -> int:
    """Pairs of weightings with a Holm-adjusted pairwise Wilcoxon p < alpha."""
    holm = t["wilcoxon_holm"].to_numpy()
    return int((holm[np.triu_indices(holm.shape[0], 1)] < t["alpha"]).sum())


def learner_text(learners, C, relative: bool = False, tuning: dict | None = None) -> str:
    """The learners as the section names them (LaTeX), C stated for the linear ones; under
    ``tuning`` (params.yaml's ``benchmark.tuning``) the grids and the inner folds."""
    if tuning:
        from termweight.learners.protocol import Protocol

        p = Protocol.from_params(tuning)
        how = f"by {p.inner_folds}-fold inner CV"

        def grid(name, lr):
            values = ", ".join(f"{v:g}" for v in p.grid(lr))
            ext = ", ".join(f"{v:g}" for v in p.extension(lr))
            more = f", then {ext} while the largest value tried scores best" if ext else ""
            return rf" ({name} from $\{{{values}\}}${more} {how})"

        names = [LEARNER_NAMES.get(lr, lr) + grid(r"$\alpha$" if lr == "mnb" else "$C$", lr)
                 for lr in learners]
        norm = ("; every weighted document at unit length" if p.normalize == "l2"
                else "; raw (unnormalised) weights")
        head = ", ".join(names[:-1])
        return (f"{head} and {names[-1]}" if head else names[0]) + norm
    how = "relative to the data scale" if relative else "fixed"
    names = [LEARNER_NAMES.get(lr, lr) + (f" ($C={C:g}$ {how})" if lr in ("linearsvc", "logreg")
                                           else "") for lr in learners]
    head = ", ".join(names[:-1])
    return f"{head} and {names[-1]}" if head else names[0]


def floats(learners, measure: str, baseline: str) -> str:
    """Each configured learner's leaderboard, CD diagram and heat map, as report macros."""
    out = ["\\twtable{benchmark_tests}"]
    for lr in learners:
        name = LEARNER_NAMES.get(lr, lr)
        out += [f"\\twtable{{benchmark_{lr}}}",
                f"\\twfigure{{benchmark_cd_{lr}_{measure}}}{{Critical-difference "
                f"diagram, {name}, {MEASURE_NAMES[measure]}: average ranks over the datasets; "
                "weightings joined by a bar are not significantly different (pairwise Wilcoxon "
                "signed-rank tests, Holm-adjusted over all pairs). With more than "
                f"{CD_MAX_LABELS} weightings, the {CD_TOP} best-ranked, both tf-idf controls, "
                "BNS and mix-ch are drawn.}",
                f"\\twfigure{{benchmark_heat_{lr}}}{{{MEASURE_NAMES[measure]} of each "
                f"weighting minus {_w(baseline)}'s, per dataset, {name} (blue: better than "
                f"{_w(baseline)}).}}"]
    return "%\n".join(out)


def _is_forman(dataset: str) -> bool:
    from termweight.datasets import DATASETS

    spec = DATASETS.get(dataset)
    return spec is not None and spec.description.startswith("Forman/")


def _round(x):
    return None if x is None or not np.isfinite(x) else round(float(x), 6)


def _clean(d: dict) -> dict:
    return {k: (_round(v) if isinstance(v, float) else v) for k, v in d.items()}


def register(sub) -> None:
    from termweight.steps.column import register as register_column

    register_column(sub)  # one weighting's column: the grid's jobs (termweight.steps.column)
    from termweight.steps.reference import register as register_reference

    register_reference(sub)  # fastText from scratch: the reference outside term weighting
    p = sub.add_parser("benchmark-report", help="the benchmark's statistics, tables and figures",
                       description=__doc__.splitlines()[0],
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--params", required=True, help="params.yaml (its benchmark: section)")
    p.add_argument("--runs", required=True,
                   help="runs.csv template with {run} and {learner}, written by aggregate")
    p.add_argument("--data", default="data/benchmark",
                   help="directory for scores.csv, tests.csv and pairwise.csv (default: %(default)s)")
    p.add_argument("--reports", default="reports", help="reports directory (default: %(default)s)")
    p.add_argument("--seconds", help="the columns' measured seconds, CSV "
                   "(benchmarks/results/benchmark_columns_seconds.csv): the cost table")
    p.add_argument("--columns", help="the columns, a template with {run} and {weighting} "
                   "(data/benchmark/columns/{run}/{weighting}.csv): the datasets' training sizes "
                   "and the gain-against-size figure")
    p.set_defaults(func=cmd_benchmark_report)
