"""The benchmark's declared comparisons: the pairs the papers claim, tested as declared.

``benchmark.comparisons`` in params.yaml names, before the run, each pair ``a`` against ``b``
(and optionally the paper whose own datasets are left out). For each pair and learner, on the
first measure, over the datasets:

- wins/ties/losses and the mean difference ``a - b`` with a 95% percentile bootstrap interval
  over the datasets (``bootstrap_mean_ci``; ``BOOT_SAMPLES`` resamples, seeded);
- Wilcoxon's signed-rank p (``scipy.stats.wilcoxon``), Holm-adjusted over the declared rows of
  that learner (``statsmodels``' ``multipletests``), so none is chosen after seeing the ranks;
- the Bayesian signed-rank test on the per-dataset means (Benavoli et al. 2017, JMLR 18(77);
  ``termweight.experiments.benchmark.bayes_signed_rank``);
- the Bayesian hierarchical correlated t-test on the split scores of the cross-validated
  datasets (Corani, Benavoli, Demsar, Mangili & Zaffalon 2017, "Statistical comparison of
  classifiers through Bayesian hierarchical modelling", Machine Learning 106:1817-1837;
  ``hierarchical_test``): it models each dataset's mean difference as drawn from a Student-t
  around a shared mean and each split's difference around its dataset's mean with the
  correlation ``rho = 1 / folds`` of cross-validation, so the split-to-split noise enters.

Average ranks get percentile bootstrap intervals over the datasets (``rank_intervals``).
"""

from __future__ import annotations

import contextlib
import fcntl
import io as _io
import tempfile
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pandas as pd

#: bootstrap resamples of the datasets and their seed (same inputs, same intervals)
BOOT_SAMPLES = 10000
BOOT_SEED = 0
#: the hierarchical test's posterior draws per chain, chains and Stan seed
HIER_SAMPLES = 2500
HIER_CHAINS = 4
HIER_SEED = 0
#: the sampler's target acceptance rate (Stan's default 0.8; higher: smaller steps, fewer
#: divergences) and the bounds a fit must meet to be reported (Vehtari et al. 2021, "Rank-
#: normalization, folding, and localization: an improved R-hat", Bayesian Analysis 16(2): rank
#: R-hat <= 1.01, bulk and tail ESS >= 100 per chain; no divergent transition). Measured on the
#: benchmark's 30 declared rows (2026-12-02, benchmarks/results/hierarchical_diagnostics.json):
#: baycomp's centred model at 0.8 gave R-hat up to 1.36, bulk ESS down to 9 and hundreds of
#: divergences (measured 2026-12-01, not in that file: `--model centred` reruns it);
#: non-centred at 0.95, R-hat <= 1.010 and ESS >= 147, divergences in 16 rows (up to 240); at
#: 0.99, R-hat <= 1.004 and ESS >= 1,015, divergences in 8 rows: the 6 over 4 datasets (9 to 25)
#: and 2 over 15 (one each)
HIER_ADAPT_DELTA = 0.99
HIER_BOUNDS = {"rhat": 1.01, "ess_per_chain": 100, "divergent": 0}
#: the model: Corani et al.'s, non-centred (the file's header says why)
HIER_MODEL = Path(__file__).with_name("hierarchical_t_test.stan")


class Hierarchical(NamedTuple):
    """The hierarchical test's answer and its sampler's diagnostics: posterior probabilities
    (x better, practically equivalent, y better); the largest rank R-hat and smallest bulk and
    tail ESS over ``delta0``, ``std0`` and ``nu`` (the parameters the probabilities use); the
    number of divergent transitions and of draws. Without a fit (no split noise), NaN and 0."""
    a_better: float
    rope: float
    b_better: float
    rhat: float = float("nan")
    ess_bulk: float = float("nan")
    ess_tail: float = float("nan")
    divergent: int = 0
    draws: int = 0


#: Monte-Carlo draws and seed of the Bayesian signed-rank test (fixed: same inputs, same numbers)
BAYES_SAMPLES = 50000
BAYES_SEED = 0


def bayes_signed_rank(x, y, rope: float, nsamples: int = BAYES_SAMPLES,
                      seed: int = BAYES_SEED) -> tuple[float, float, float]:
    """Bayesian signed-rank test (Benavoli et al. 2014 ICML; 2017 JMLR 18(77)) of the scores ``x``
    against ``y`` over datasets: the posterior probabilities (x practically better, practically
    equivalent, y practically better) for the region of practical equivalence ``|x - y| <= rope``.

    baycomp's ``SignedRankTest``: a Dirichlet process posterior over the paired differences
    ``z = x - y`` (prior strength 0.5 on the pseudo-observation z_0 = 0); each of ``nsamples``
    Dirichlet draws w gives ``theta_x = sum_ij w_i w_j [z_i + z_j > 2 rope]``, ``theta_y`` likewise
    with ``< -2 rope`` and ``theta_rope = 1 - theta_x - theta_y`` (the Walsh averages against the
    ROPE); each probability is the share of draws in which that region's theta is the largest.
    The draws come from ``numpy.random.RandomState(seed)`` (baycomp's ``random_state``), so the
    same inputs give the same numbers."""
    from baycomp import SignedRankTest

    post = SignedRankTest(np.asarray(x, float), np.asarray(y, float), rope, nsamples=nsamples,
                          random_state=seed)
    left, eq, right = post.probs(with_rope=True)
    # baycomp's differences are y - x: its "left" region (y - x < -rope) is x better
    return float(left), float(eq), float(right)


def bootstrap_mean_ci(diff, level: float = 0.95, n: int = BOOT_SAMPLES,
                      seed: int = BOOT_SEED) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean of ``diff`` (resampling its entries, the
    datasets, with replacement): ``(lo, hi)``; NaN for fewer than two entries."""
    d = np.asarray(diff, dtype=np.float64)
    if d.size < 2:
        return float("nan"), float("nan")
    idx = np.random.RandomState(seed).randint(0, d.size, size=(n, d.size))
    means = d[idx].mean(axis=1)
    q = (1 - level) / 2
    return float(np.quantile(means, q)), float(np.quantile(means, 1 - q))


def rank_intervals(D: pd.DataFrame, level: float = 0.95, n: int = BOOT_SAMPLES,
                   seed: int = BOOT_SEED) -> pd.DataFrame:
    """Percentile bootstrap interval of every weighting's average rank (columns of the datasets
    x weightings matrix ``D``, 1 = best) over resampled datasets: columns ``lo``, ``hi``. A
    dataset's ranks do not depend on the other datasets, so each resample averages rows of the
    rank matrix."""
    R = D.rank(axis=1, ascending=False, method="average").to_numpy()
    idx = np.random.RandomState(seed).randint(0, R.shape[0], size=(n, R.shape[0]))
    means = R[idx].mean(axis=1)
    q = (1 - level) / 2
    return pd.DataFrame({"lo": np.quantile(means, q, axis=0),
                         "hi": np.quantile(means, 1 - q, axis=0)}, index=D.columns)


def sampler_diagnostics(draws: dict[str, np.ndarray], divergent) -> dict:
    """Rank R-hat (largest), bulk and tail ESS (smallest, tail at the 5% and 95% quantiles) over
    the chains x draws arrays ``draws`` (``arviz_stats``, Vehtari et al. 2021), and the number of
    ``divergent`` transitions."""
    from arviz_stats.base import array_stats

    def over(f):
        return [float(f(a)) for a in draws.values()]

    return {"rhat": max(over(lambda a: array_stats.rhat(a, method="rank"))),
            "ess_bulk": min(over(lambda a: array_stats.ess(a, method="bulk"))),
            "ess_tail": min(over(lambda a: array_stats.ess(a, method="tail", prob=(0.05, 0.95)))),
            "divergent": int(np.sum(divergent))}


def sampler_problems(h: Hierarchical, chains: int = HIER_CHAINS) -> list[str]:
    """How a fit misses ``HIER_BOUNDS`` (empty when it meets them, or when there was no fit):
    a fit that misses them gives no estimate of the posterior's probabilities."""
    if h.draws == 0:
        return []
    bad = []
    if not h.rhat <= HIER_BOUNDS["rhat"]:
        bad.append(f"R-hat {h.rhat:.3f} > {HIER_BOUNDS['rhat']}")
    need = HIER_BOUNDS["ess_per_chain"] * chains
    if not min(h.ess_bulk, h.ess_tail) >= need:
        bad.append(f"ESS bulk {h.ess_bulk:.0f}, tail {h.ess_tail:.0f} < {need}")
    if h.divergent > HIER_BOUNDS["divergent"]:
        bad.append(f"{h.divergent} divergent transitions")
    return bad


@contextlib.contextmanager
def _one_build_at_a_time():
    """httpstan compiles a model once per machine into a shared cache; two processes compiling
    the same model at once corrupt it, so builds take a lock file in the temporary directory."""
    with open(Path(tempfile.gettempdir()) / "termweight-stan-build.lock", "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def hierarchical_test(x, y, rope: float, runs: int, nsamples: int = HIER_SAMPLES,
                      chains: int = HIER_CHAINS, seed: int = HIER_SEED) -> Hierarchical:
    """Bayesian hierarchical correlated t-test (Corani et al. 2017) of the split scores ``x``
    against ``y`` (datasets x splits, ``runs`` repetitions of a k-fold CV): the posterior
    probabilities (x practically better, practically equivalent, y practically better) that the
    mean difference on a new dataset lies beyond ``rope`` or within it.

    The published model as baycomp ships it (``baycomp/hierarchical-t-test.stan``), sampled
    non-centred (``HIER_MODEL``: the same posterior), and the data prepared as
    ``baycomp.HierarchicalTest`` does (differences scaled by their mean within-dataset standard
    deviation, ``rho = 1 / folds``), sampled by pystan with the fixed ``seed`` and
    ``HIER_ADAPT_DELTA``: baycomp's own call passes no seed to Stan (its numbers change run to
    run) and caches its last sample in the working directory, so it is not called itself. The
    answer carries the sampler's diagnostics (``sampler_diagnostics``; ``sampler_problems``)."""
    import stan
    from scipy import stats

    # C order: numpy's sums run in memory order, and the sampler amplifies a last-bit change
    # of the scaled data into another Monte Carlo estimate; a pivot's array is Fortran-ordered
    diff = np.ascontiguousarray(np.asarray(y, dtype=np.float64) - np.asarray(x, dtype=np.float64))
    n_data, n_scores = diff.shape
    std_diff = float(np.mean(np.std(diff, axis=1)))
    if std_diff == 0:  # the same difference on every split: no noise to model
        d = float(diff.mean())
        return Hierarchical(*((1.0, 0.0, 0.0) if d < -rope else (0.0, 0.0, 1.0) if d > rope
                              else (0.0, 1.0, 0.0)))
    rope, diff = rope / std_diff, diff / std_diff
    rng = np.random.RandomState(seed)
    half = n_scores // 2
    for row in diff:  # as baycomp: a dataset without variance gets symmetric noise in the rope
        if np.var(row) == 0:
            row[:half] = rng.uniform(-rope, rope, half)
            row[half:2 * half] = -row[:half]
    std_within = float(np.mean(np.std(diff, axis=1)))
    std_among = float(np.std(np.mean(diff, axis=1))) if n_data > 1 else 0.0
    # one dataset, or the same mean difference on every dataset: baycomp's bound on the
    # datasets' spread would be 0 (a degenerate posterior); the within-dataset spread instead
    std_among = std_among if std_among > 0 else std_within
    maxdiff = float(np.max(np.abs(diff)))
    data = {"x": diff, "Nsamples": n_scores, "q": n_data, "rho": 1 / (n_scores / runs),
            "deltaLow": -maxdiff, "deltaHi": maxdiff, "lowerAlpha": 1, "upperAlpha": 2,
            "lowerBeta": 0.01, "upperBeta": 0.1, "stdLow": 0, "stdHi": std_within * 1000,
            "std0Low": 0, "std0Hi": std_among * 1000}
    with contextlib.redirect_stdout(_io.StringIO()), contextlib.redirect_stderr(_io.StringIO()):
        with _one_build_at_a_time():
            model = stan.build(HIER_MODEL.read_text(), data=data, random_seed=seed)
        fit = model.sample(num_chains=chains, num_samples=nsamples, delta=HIER_ADAPT_DELTA)
    mu, sd, nu = fit["delta0"][0], fit["std0"][0], fit["nu"][0]
    left = stats.t.cdf(-rope, nu, mu, sd)  # y - x < -rope: x better
    right = 1 - stats.t.cdf(rope, nu, mu, sd)
    regions = np.stack([left, 1 - left - right, right], axis=1)
    share = np.bincount(regions.argmax(axis=1), minlength=3) / len(regions)
    # pystan's draws run chain-interleaved (draw i of chain c at i * chains + c)
    per_chain = {k: v.reshape(-1, chains).T for k, v in (("delta0", mu), ("std0", sd), ("nu", nu))}
    diag = sampler_diagnostics(per_chain, fit.to_frame()["divergent__"].to_numpy())
    return Hierarchical(float(share[0]), float(share[1]), float(share[2]), draws=len(mu), **diag)


def split_matrix(runs: pd.DataFrame, learner: str, measure: str, weighting: str,
                 datasets) -> pd.DataFrame:
    """Datasets x splits of one learner's ``measure`` for ``weighting`` (the split scores)."""
    r = runs[(runs["learner"] == learner) & (runs["encoding"] == weighting)
             & runs["dataset"].isin(list(datasets))]
    return r.pivot(index="dataset", columns="split", values=measure).sort_index()


def hierarchical_fields(h: Hierarchical) -> dict:
    """A declared row's hierarchical columns: a fit outside ``HIER_BOUNDS`` is withheld (its
    diagnostics and ``h_problems`` kept, its probabilities NaN), so no table prints them."""
    problems = sampler_problems(h)
    keep = not problems
    return {"h_a_better": h.a_better if keep else float("nan"),
            "h_rope": h.rope if keep else float("nan"),
            "h_b_better": h.b_better if keep else float("nan"),
            "h_rhat": h.rhat, "h_ess_bulk": h.ess_bulk, "h_ess_tail": h.ess_tail,
            "h_divergent": h.divergent, "h_problems": "; ".join(problems)}


def hierarchical_row(runs: pd.DataFrame, learner: str, measure: str, a: str, b: str, keep,
                     rope: float, repeats: int) -> tuple[int, Hierarchical | None]:
    """The hierarchical test of ``a`` against ``b`` over the datasets of ``keep`` whose splits
    are cross-validation (two or more splits scored for both, all the same number): their
    number, and the test (None for fewer than two such datasets)."""
    Xa = split_matrix(runs, learner, measure, a, keep)
    Xb = split_matrix(runs, learner, measure, b, keep).reindex_like(Xa)
    both = Xa.notna() & Xb.notna()  # a split scored for both weightings
    cv = both.sum(axis=1)
    cv_sets = cv[(cv >= 2) & (cv == cv.max())].index
    if len(cv_sets) < 2:
        return len(cv_sets), None
    # their own splits only: a fixed-split dataset's ``test`` column is not theirs
    splits = Xa.columns[both.loc[cv_sets].all()]
    return len(cv_sets), hierarchical_test(Xa.loc[cv_sets, splits].to_numpy(),
                                           Xb.loc[cv_sets, splits].to_numpy(), rope, repeats)


def declared(D: pd.DataFrame, runs: pd.DataFrame, learner: str, measure: str, comparisons,
             own: dict[str, set], rope: float, repeats: int, alpha: float) -> list[dict]:
    """Every declared comparison for one learner: a row per ``benchmark.comparisons`` entry
    (see the module docstring); ``D`` datasets x weightings of ``measure``; ``own``: paper ->
    its datasets (``outside``); the hierarchical test over the datasets whose splits are
    ``repeats`` x folds cross-validation (two or more splits, all the same number)."""
    from scipy.stats import wilcoxon
    from statsmodels.stats.multitest import multipletests

    rows = []
    for c in comparisons:
        a, b = c["a"], c["b"]
        keep = [d for d in D.index if d not in own.get(c.get("outside"), set())]
        diff = (D.loc[keep, a] - D.loc[keep, b]).to_numpy()
        lo, hi = bootstrap_mean_ci(diff)
        row = {"a": a, "b": b, "source": c["source"], "outside": c.get("outside"),
               "learner": learner, "measure": measure, "n": len(keep),
               "wins": int((diff > 0).sum()), "ties": int((diff == 0).sum()),
               "losses": int((diff < 0).sum()), "mean_diff": float(diff.mean()),
               "ci_lo": lo, "ci_hi": hi,
               "wilcoxon_p": (float(wilcoxon(diff).pvalue) if (diff != 0).any() and len(keep) > 1
                              else 1.0)}
        row["p_a_better"], row["p_rope"], row["p_b_better"] = (
            bayes_signed_rank(D.loc[keep, a].to_numpy(), D.loc[keep, b].to_numpy(), rope)
            if len(keep) > 1 else (float("nan"),) * 3)
        row["hier_n"], h = hierarchical_row(runs, learner, measure, a, b, keep, rope, repeats)
        row.update(hierarchical_fields(h or Hierarchical(*(float("nan"),) * 3)))
        rows.append(row)
    if rows:
        holm = multipletests([r["wilcoxon_p"] for r in rows], method="holm")[1]
        for r, p in zip(rows, holm, strict=True):
            r["wilcoxon_p_holm"] = float(p)
            r["significant"] = bool(p < alpha)
    return rows


def _message_figure(text: str):
    """A figure that only says ``text`` (a declared output with nothing to draw)."""
    from termweight.reporting import figure

    fig, ax = figure(height=0.8)
    ax.text(0.5, 0.5, text, ha="center", transform=ax.transAxes)
    ax.set_axis_off()
    return fig


def forest_figure(rows: list[dict], rope: float, names: dict[str, str], measure_name: str):
    """The declared comparisons as a forest plot: per comparison (a row) and learner (a marker),
    the mean difference over the datasets with its 95% bootstrap interval; the shaded band is
    the region of practical equivalence, filled markers are Holm-significant."""
    from termweight.reporting import FIGURE_MAX_HEIGHT_IN, figure

    if not rows:
        return _message_figure("no comparison declared (benchmark.comparisons)")
    frame = pd.DataFrame(rows)
    pairs = list(dict.fromkeys(zip(frame["a"], frame["b"], frame["outside"].fillna(""),
                                   strict=True)))
    learners = list(dict.fromkeys(frame["learner"]))
    fig, ax = figure(height=min(FIGURE_MAX_HEIGHT_IN, 0.9 + 0.4 * len(pairs)))
    ax.axvspan(-rope, rope, color="0.9", zorder=0)
    ax.axvline(0, color="0.5", lw=0.8, zorder=1)
    marks = "osD^v"
    for j, learner in enumerate(learners):
        f = frame[frame["learner"] == learner]
        for i, (a, b, out) in enumerate(pairs):
            r = f[(f["a"] == a) & (f["b"] == b) & (f["outside"].fillna("") == out)]
            if r.empty:
                continue
            r = r.iloc[0]
            y = i + (j - (len(learners) - 1) / 2) * 0.22
            ax.errorbar(r["mean_diff"], y, xerr=[[r["mean_diff"] - r["ci_lo"]],
                                                 [r["ci_hi"] - r["mean_diff"]]],
                        fmt=marks[j % len(marks)], color=f"C{j}", ms=4, lw=1,
                        mfc=f"C{j}" if r["significant"] else "white",
                        label=names.get(learner, learner) if i == 0 else None)
    labels = [f"{a} vs {b}" + (f" (outside {out})" if out else "") for a, b, out in pairs]
    ax.set_yticks(range(len(pairs)), labels)
    ax.invert_yaxis()
    ax.set_xlabel(f"mean difference of {measure_name} over the datasets (a - b), 95% bootstrap "
                  "interval")
    ax.legend(loc="lower right")
    ax.set_title(f"Declared comparisons; band: ROPE $\\pm${rope:g}; filled: Holm p < alpha")
    fig.tight_layout()
    return fig


def chosen_figure(tuning: dict, names: dict[str, str]):
    """How often each grid value was chosen, per learner (``benchmark.json``'s ``tuning``): a bar
    per value, the grid's two ends hatched."""
    from termweight.reporting import figure

    if not tuning:
        return _message_figure("C and alpha fixed: nothing chosen")
    fig, axes = figure(1, len(tuning), height=2.0, squeeze=False)
    for ax, (learner, t) in zip(axes[0], tuning.items(), strict=True):
        values = sorted(t["chosen"], key=float)
        grid = t.get("grid") or values
        counts = [t["chosen"].get(f"{float(v):g}", 0) for v in grid]
        bars = ax.bar(range(len(grid)), [c / t["fits"] for c in counts], color="C0")
        for i in (0, len(grid) - 1):
            bars[i].set_hatch("//")
        ax.set_xticks(range(len(grid)), [f"{float(v):g}" for v in grid], fontsize=6, rotation=45)
        ax.set_title(f"{names.get(learner, learner)}: {t['parameter']}")
        ax.set_ylim(0, 1)
        ax.tick_params(axis="y", labelsize=6)
    axes[0][0].set_ylabel("share of fits")
    fig.tight_layout()
    return fig


def size_gains(D: pd.DataFrame, learner: str, comparisons, own: dict[str, set],
               sizes: pd.DataFrame) -> pd.DataFrame:
    """Each declared comparison's gain ``a - b`` per dataset (``D``: datasets x weightings of
    one learner's first measure; the datasets its ``outside`` paper used left out) beside the
    dataset's training documents (``sizes``, ``termweight.experiments.benchmark.training_sizes``)."""
    rows = []
    for c in comparisons:
        for d in D.index:
            if d in own.get(c.get("outside"), set()):
                continue
            rows.append({"learner": learner, "a": c["a"], "b": c["b"], "outside": c.get("outside"),
                         "dataset": d, "gain": float(D.loc[d, c["a"]] - D.loc[d, c["b"]]),
                         "train_docs": float(sizes.loc[d, "train_docs"]),
                         "single_label": bool(sizes.loc[d, "single_label"])})
    return pd.DataFrame(rows, columns=["learner", "a", "b", "outside", "dataset", "gain",
                                       "train_docs", "single_label"])


def size_correlations(gains: pd.DataFrame) -> pd.DataFrame:
    """Spearman's rank correlation between the training documents and the gain over the datasets,
    per comparison and learner (``scipy.stats.spearmanr``; rho and its two-sided p, NaN for a
    constant gain or fewer than three datasets): negative when the gain shrinks with size."""
    from scipy.stats import spearmanr

    out = []
    for key, g in gains.groupby(["a", "b", "outside", "learner"], sort=False, dropna=False):
        ok = len(g) >= 3 and g["gain"].nunique() > 1
        rho, p = spearmanr(g["train_docs"], g["gain"]) if ok else (np.nan, np.nan)
        out.append(dict(zip(["a", "b", "outside", "learner"], key, strict=True),
                        n=len(g), size_rho=float(rho), size_p=float(p)))
    return pd.DataFrame(out, columns=["a", "b", "outside", "learner", "n", "size_rho", "size_p"])


def size_figure(gains: pd.DataFrame, corr: pd.DataFrame, names: dict[str, str]):
    """A panel per declared comparison: the gain ``a - b`` (in the benchmark's first measure: the
    caption names it) on each dataset against its training documents (log scale), a marker per
    learner (open: a multi-label corpus, whose count is of label assignments), each learner's
    Spearman rho in the panel's title."""
    from termweight.reporting import FIGURE_MAX_HEIGHT_IN, figure, legend_below

    if gains.empty:
        return _message_figure("no comparison declared (benchmark.comparisons)")
    pairs = list(dict.fromkeys(zip(gains["a"], gains["b"], gains["outside"].fillna(""),
                                   strict=True)))
    learners = list(dict.fromkeys(gains["learner"]))
    ncols = 3
    nrows = -(-len(pairs) // ncols)
    fig, axes = figure(nrows, ncols, height=min(FIGURE_MAX_HEIGHT_IN, 0.5 + 1.3 * nrows),
                       squeeze=False)
    lo, hi = gains["train_docs"].min() / 1.5, gains["train_docs"].max() * 1.5
    marks = "osD^v"
    for k, ax in enumerate(axes.flat):
        if k >= len(pairs):
            ax.set_axis_off()
            continue
        a, b, out = pairs[k]
        g = gains[(gains["a"] == a) & (gains["b"] == b) & (gains["outside"].fillna("") == out)]
        ax.axhline(0, color="0.5", lw=0.6)
        rhos = []
        for j, learner in enumerate(learners):
            f = g[g["learner"] == learner]
            ax.plot(f["train_docs"], f["gain"], ls="none", ms=3, marker=marks[j % len(marks)],
                    color=f"C{j}", mew=0.6, label=names.get(learner, learner))
            multi = f[~f["single_label"].astype(bool)]
            ax.plot(multi["train_docs"], multi["gain"], ls="none", ms=3, mew=0.6,
                    marker=marks[j % len(marks)], mfc="white", mec=f"C{j}", label="_multi")
            r = corr[(corr["a"] == a) & (corr["b"] == b) & (corr["learner"] == learner)
                     & (corr["outside"].fillna("") == out)]["size_rho"]
            rhos.append(f"{r.iloc[0]:+.2f}" if len(r) and np.isfinite(r.iloc[0]) else "--")
        ax.set_xscale("log")
        ax.set_xlim(lo, hi)
        ax.set_title(f"{a} vs {b}\n" + (f"(outside {out}) " if out else "")
                     + "$\\rho$ " + " / ".join(rhos), fontsize=6.5)
        ax.tick_params(labelsize=6)
        if k % ncols == 0:
            ax.set_ylabel("gain a $-$ b", fontsize=6.5)
        if k >= len(pairs) - ncols:
            ax.set_xlabel("training documents", fontsize=6.5)
    legend_below(fig, axes, ncol=len(learners), fontsize=6.5)
    return fig
