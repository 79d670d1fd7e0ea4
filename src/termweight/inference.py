"""The paired tests behind every paper's verdicts, in one place.

Each function takes the scores of two methods on the same units (splits, tasks, datasets) and
returns plain numbers; the papers' claim rules (``termweight.experiments.claims``) read them.

- ``paired_t``: Student's paired t over independent units (scipy ``ttest_rel``).
- ``corrected_resampled_t``: Nadeau & Bengio (2003, Machine Learning 52:239-281, Sec. 4.2),
  for k random train/test splits of one pool, which overlap and so are not independent: the
  variance of the mean difference is ``(1/k + n_test/n_train) s^2`` instead of ``s^2 / k``,
  with k - 1 degrees of freedom.
- ``wilcoxon_signed_rank``, ``wilcoxon_p``: the signed-rank test (scipy ``wilcoxon``, zero
  differences dropped); ``paired_tests``: paired t and Wilcoxon together, as tables print them.
- ``tost_p``: two one-sided t-tests (Schuirmann 1987) of ``|mean d| < margin``: the larger of
  the two one-sided p-values; "no difference" is claimed only when it is below alpha.
- ``one_sided_bound``, ``detectable_effect``: ``diff + z(0.95) se`` and ``(z(1 - alpha/2) +
  z(power)) se`` (normal approximations; ``claims.ONE_SIDED_Z`` and ``claims.POWER_Z``).
- ``holm``: Holm's step-down adjusted p-values (statsmodels ``multipletests``).

Examples
--------
>>> r = corrected_resampled_t([0.91, 0.93, 0.92, 0.94], [0.90, 0.90, 0.91, 0.92], 1.0)
>>> round(r["t"], 3), round(paired_t([0.91, 0.93, 0.92, 0.94], [0.90, 0.90, 0.91, 0.92])["t"], 3)
(1.635, 3.656)
>>> [round(float(p), 3) for p in holm([0.01, 0.04, 0.03])]
[0.03, 0.06, 0.06]
"""

from __future__ import annotations

import numpy as np

#: z(0.95): a one-sided 95% bound is the difference plus this many standard errors
ONE_SIDED_Z = 1.6449
#: z(1 - 0.05/2) + z(0.80): a difference of POWER_Z standard errors is detected with 80% power
POWER_Z = 2.8016


def _diffs(a, b) -> np.ndarray:
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if a.shape != b.shape or a.ndim != 1:
        raise ValueError(f"paired scores need two equal 1-d arrays, got {a.shape} and {b.shape}")
    return a - b


def _t_result(d: np.ndarray, var_factor: float) -> dict:
    """Mean difference, its standard error ``sqrt(var_factor * s^2)``, t and two-sided p on
    n - 1 degrees of freedom (t and p None with fewer than 2 units or constant differences)."""
    from scipy.stats import t as t_dist

    n = int(d.size)
    out = {"diff": float(d.mean()) if n else float("nan"), "se": None, "t": None, "p": None,
           "wins": int((d > 0).sum()), "n": n, "df": n - 1}
    if n > 1:
        se = float(np.sqrt(var_factor * np.var(d, ddof=1)))
        out["se"] = se
        if se > 0:
            t = out["diff"] / se
            out["t"], out["p"] = float(t), float(2 * t_dist.sf(abs(t), n - 1))
    return out


def paired_t(a, b) -> dict:
    """``a - b`` over independent units: mean ``diff``, ``se = s / sqrt(n)``, Student's paired
    ``t`` and two-sided ``p`` (= scipy.stats.ttest_rel), ``wins`` (units with a > b), ``n``."""
    from scipy.stats import ttest_rel

    d = _diffs(a, b)
    out = _t_result(d, 1.0 / max(d.size, 1))
    if out["t"] is not None:  # scipy's own numbers, to the last bit
        r = ttest_rel(np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64))
        out["t"], out["p"] = float(r.statistic), float(r.pvalue)
    return out


def corrected_resampled_t(a, b, test_train_ratio: float) -> dict:
    """``a - b`` over k random train/test splits of one pool (Nadeau & Bengio 2003): as
    ``paired_t`` but ``se = sqrt((1/k + n_test/n_train) s^2)``; ``test_train_ratio`` is
    ``n_test / n_train`` (1 for 50/50 splits)."""
    if not test_train_ratio >= 0:
        raise ValueError(f"n_test/n_train must be >= 0, got {test_train_ratio}")
    d = _diffs(a, b)
    return {**_t_result(d, 1.0 / max(d.size, 1) + float(test_train_ratio)),
            "test_train_ratio": float(test_train_ratio)}


def wilcoxon_signed_rank(a, b) -> dict:
    """Two-sided Wilcoxon signed-rank test of ``a - b`` (scipy ``wilcoxon``, zero differences
    dropped): ``w``, ``p`` and ``n`` nonzero differences; with none, W = 0 and p = 1."""
    from scipy.stats import wilcoxon

    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    n = int(np.count_nonzero(_diffs(a, b)))
    if n == 0:
        return {"w": 0.0, "p": 1.0, "n": 0}
    r = wilcoxon(a, b, zero_method="wilcox", alternative="two-sided")
    return {"w": float(r.statistic), "p": float(r.pvalue), "n": n}


def wilcoxon_p(a, b) -> float | None:
    """Two-sided Wilcoxon signed-rank p of ``a - b`` (``wilcoxon_signed_rank``; None when every
    difference is zero)."""
    r = wilcoxon_signed_rank(a, b)
    return None if r["n"] == 0 else r["p"]


def paired_tests(a, b) -> dict[str, float]:
    """Student's paired t and the Wilcoxon signed-rank p of matched samples, as the papers'
    tables print them: ``mean_diff``, ``t``, ``t_pvalue``, ``wilcoxon_pvalue``, ``n``. Constant
    differences (or fewer than 2): t is nan, both p-values 1 if the difference is 0, else 0."""
    from scipy import stats as sps

    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    d = a - b
    if d.size < 2 or np.allclose(d, d[0]):
        t_p = 1.0 if np.allclose(d, 0) else 0.0
        return {"mean_diff": float(d.mean()) if d.size else 0.0, "t": float("nan"),
                "t_pvalue": t_p, "wilcoxon_pvalue": t_p, "n": int(d.size)}
    t = sps.ttest_rel(a, b)
    w = sps.wilcoxon(a, b) if np.any(d != 0) else None
    return {"mean_diff": float(d.mean()), "t": float(t.statistic), "t_pvalue": float(t.pvalue),
            "wilcoxon_pvalue": float(w.pvalue) if w is not None else 1.0, "n": int(d.size)}


def tost_p(d, margin: float, var_factor: float | None = None) -> float | None:
    """Two one-sided t-tests of ``-margin < mean(d) < margin``: ``max(p_lower, p_upper)``, with
    the standard error ``sqrt(var_factor s^2)`` (default ``1/n``: independent units; pass
    ``1/k + n_test/n_train`` for resampled splits). None with fewer than 2 units."""
    from scipy.stats import t as t_dist

    d = np.asarray(d, dtype=np.float64)
    n = d.size
    if n < 2 or not margin > 0:
        return None
    se = float(np.sqrt((1.0 / n if var_factor is None else var_factor) * np.var(d, ddof=1)))
    m = float(d.mean())
    if se == 0:
        return 0.0 if abs(m) < margin else 1.0
    p_lower = t_dist.sf((m + margin) / se, n - 1)  # H0: mean <= -margin
    p_upper = t_dist.cdf((m - margin) / se, n - 1)  # H0: mean >= margin
    return float(max(p_lower, p_upper))


def one_sided_bound(diff: float, se: float | None, expected: int = 1) -> float | None:
    """The one-sided 95% upper bound of ``expected * diff`` (normal approximation)."""
    return None if se is None else expected * diff + ONE_SIDED_Z * se


def detectable_effect(se: float | None) -> float | None:
    """The difference a two-sided 5% test detects with 80% power: ``POWER_Z * se``."""
    return None if se is None else POWER_Z * se


def holm(pvalues) -> np.ndarray:
    """Holm's step-down adjusted p-values, in the input's order (statsmodels)."""
    from statsmodels.stats.multitest import multipletests

    p = np.asarray(pvalues, dtype=np.float64)
    return multipletests(p, method="holm")[1] if p.size else p
