"""What the benchmark may conclude, and against what: the tf-idf controls, corpus families, the
tie set of a "best" weighting, and a leave-one-family-out check of the top of a leaderboard.

Pure functions of a datasets x weightings score matrix ``D`` (rows: datasets, columns:
weightings, higher is better) and of ``rank_tests``' results; no file is read or written here.

- Controls: a "best" or "better" is stated against the stronger of the standard tf-idf controls
  (``benchmark.controls``), the one with the better average rank, not against the weakest.
- Families: datasets that share documents (R8, R52 and Reuters-21578; the Pang & Lee 3- and
  4-class labelings of the same reviews; the OHSUMED oh* and TREC tr* subsets) are not
  independent: the unit of a test is the corpus family (``benchmark.families``), one score per
  family, the mean of its datasets' scores (each dataset its own family unless listed).
- Tie set: the weightings whose Wilcoxon signed-rank test against the top-ranked one, Holm-
  adjusted over the k - 1 comparisons, is not significant at alpha (Benavoli, Corani & Mangili
  2016): a "best" is the top of that set, not a winner over it.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from termweight.runner.errors import ConfigError


def families_of(datasets, families: dict | None, known=None) -> dict[str, str]:
    """dataset -> its corpus family, for each of ``datasets`` (``families``: family -> its
    datasets; a dataset listed nowhere is a family of its own). A member that is not one of
    ``known`` (the configured datasets; default ``datasets``), or a dataset listed twice, is
    refused (ConfigError naming it); members the grid does not hold are left out."""
    datasets = list(datasets)
    known = set(datasets if known is None else known)
    out: dict[str, str] = {}
    for family, members in (families or {}).items():
        for d in members:
            if d in out:
                raise ConfigError(f"params.yaml: benchmark.families: {d!r} is in both {out[d]!r} and "
                                 f"{family!r}")
            out[d] = family
    unknown = sorted(set(out) - known)
    if unknown:
        raise ConfigError(f"params.yaml: benchmark.families: {unknown[0]!r} is not a configured dataset "
                         "(benchmark.datasets)")
    return {d: out.get(d, d) for d in datasets}


def family_matrix(D: pd.DataFrame, family: dict[str, str]) -> pd.DataFrame:
    """Families x weightings: each family's score is the mean of its datasets' scores."""
    return D.groupby(D.index.map(family), sort=True).mean()


def holm_against(pz: pd.DataFrame, control: str) -> pd.DataFrame:
    """Unadjusted p of every other weighting against ``control`` (row ``control`` of the
    all-pairs matrix ``pz``) and Holm's step-down adjustment over those k - 1 comparisons
    (``termweight.inference.holm``)."""
    from termweight.inference import holm

    p = pz.loc[control].drop(control)
    return pd.DataFrame({"p": p, "p_holm": holm(p.to_numpy()) if p.size else []}, index=p.index)


def against(t: dict, control: str) -> pd.DataFrame | None:
    """``holm_against`` on ``rank_tests``' all-pairs Wilcoxon matrix; None when nothing was
    tested or ``control`` is not in it."""
    raw = t.get("wilcoxon")
    if raw is None or control not in raw.index:
        return None
    return holm_against(raw, control)


def smallest_holm_p(n: int, m: int) -> float:
    """The smallest Holm-adjusted p that ``m`` two-sided exact Wilcoxon signed-rank tests over
    ``n`` pairs can give: each p is at least 2 / 2^n (every difference of one sign, no ties), and
    Holm multiplies the smallest by m."""
    return min(1.0, m * 2.0 / 2.0 ** n) if n > 0 else 1.0


def stronger_control(avg_rank: pd.Series, controls) -> str:
    """The control with the better (lower) average rank; the first listed on a tie."""
    present = [c for c in controls if c in avg_rank.index]
    if not present:
        raise ConfigError(f"params.yaml: benchmark.controls: none of {list(controls)} is a "
                          "weighting of the grid")
    return min(present, key=lambda c: (avg_rank[c], present.index(c)))


def tie_set(t: dict, alpha: float) -> list[str]:
    """The top-ranked weighting and every weighting not Holm-different from it (``rank_tests``'
    ``vs_best``: Holm-adjusted Wilcoxon p >= alpha), in rank order."""
    vb = t.get("vs_best")
    if vb is None:
        return list(t["avg_rank"].index)  # nothing tested: everything ties
    return [w for w in t["avg_rank"].index
            if w == t["best"] or (w in vb.index and vb.loc[w, "p_holm"] >= alpha)]


def overlapping_intervals(ci: pd.DataFrame, top: str) -> list[str]:
    """The other weightings whose rank interval (``rank_intervals``: lo, hi) overlaps the top's."""
    lo, hi = ci.loc[top, "lo"], ci.loc[top, "hi"]
    return [w for w in ci.index if w != top and ci.loc[w, "lo"] <= hi and ci.loc[w, "hi"] >= lo]


def leave_one_family_out(D: pd.DataFrame, family: dict[str, str], top: int = 5) -> pd.DataFrame:
    """For each of the ``top`` weightings by average rank over all datasets: in how many of the
    leave-one-family-out rankings (each family's datasets dropped in turn) it stays among the
    ``top``, and its best and worst rank there. Rows in the full ranking's order."""
    R = D.rank(axis=1, ascending=False, method="average")
    full = R.mean().sort_values(kind="stable")
    head = list(full.index[:top])
    fams = sorted(set(family[d] for d in D.index))
    stays = dict.fromkeys(head, 0)
    ranks: dict[str, list[float]] = {w: [] for w in head}
    n_rankings = 0
    for f in fams:
        keep = [d for d in D.index if family[d] != f]
        if not keep:  # a single family: nothing is left to rank
            continue
        n_rankings += 1
        avg = R.loc[keep].mean()
        order = avg.rank(method="min").sort_values(kind="stable")
        for w in head:
            ranks[w].append(float(order[w]))
            stays[w] += int(order[w] <= top)
    return pd.DataFrame({"weighting": head, "avg_rank": [float(full[w]) for w in head],
                         "stays": [stays[w] for w in head], "of": [n_rankings] * len(head),
                         "best_rank": [min(ranks[w], default=np.nan) for w in head],
                         "worst_rank": [max(ranks[w], default=np.nan) for w in head]})


def better_than(t: dict, control: str, alpha: float) -> list[str]:
    """The weightings Holm-significantly better than ``control`` (``against``: p_holm < alpha,
    and a positive median difference over the rows of ``t['scores']``), in rank order."""
    vc = against(t, control)
    if vc is None:
        return []
    D = t["scores"]
    return [w for w in t["avg_rank"].index if w in vc.index and vc.loc[w, "p_holm"] < alpha
            and float((D[w] - D[control]).median()) > 0]


def _unit(t: dict, controls, alpha: float) -> dict:
    """One unit's (datasets or families) answer: the top, its tie set, the controls' ranks, Holm
    p of each control against the top, the weightings better than each control."""
    vb = t.get("vs_best")
    return {"n": int(t["n_datasets"]), "k": int(t["k"]), "best": t["best"],
            "avg_rank": float(t["avg_rank"].iloc[0]), "friedman_p": t.get("friedman_p"),
            "tie_set": tie_set(t, alpha),
            "controls": {c: {"avg_rank": float(t["avg_rank"][c]),
                             "p_holm_vs_best": (None if vb is None or c not in vb.index
                                                else float(vb.loc[c, "p_holm"])),
                             "better": better_than(t, c, alpha)}
                         for c in controls if c in t["avg_rank"].index}}


def conclude(t: dict, t_families: dict, family: dict[str, str], controls, alpha: float) -> dict:
    """A learner's conclusions on one measure: over the datasets (``t``, ``rank_tests`` of the
    datasets x weightings matrix) and over the corpus families (``t_families``, of
    ``family_matrix``): the stronger control, the top and its tie set, the rank intervals that
    overlap the top's, and the leave-one-family-out check of the top five."""
    from termweight.experiments.comparisons import rank_intervals

    D = t["scores"]
    ci = rank_intervals(D)
    out = {"control": stronger_control(t["avg_rank"], controls),
           "datasets": _unit(t, controls, alpha),
           "families": _unit(t_families, controls, alpha),
           "family_of": dict(family),
           "overlapping": overlapping_intervals(ci, t["best"]),
           "leave_one_family_out": leave_one_family_out(D, family).to_dict("records")}
    out["family_control"] = stronger_control(t_families["avg_rank"], controls)
    return out
