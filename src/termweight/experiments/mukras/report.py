"""Mukras et al. (2007): what reports, apart from what computes (``termweight.experiments.mukras``).

``mukras-aggregate`` (curves, the paper's Table 1 statistic, its claims with verdicts, the gap of
every published number), ``mukras-tables``, ``mukras-figures``, ``mukras-macros`` and
``mukras-movers`` read the compute steps' outputs; their code is no dependency of those steps, so
a change to a claim's rule or a table reruns the report stages only. Each checks what it reads
against params.yaml's ``mukras`` section before it writes anything (``check_grid``: every declared
cell once, every score finite and in range; ``check_folds``: the declared number of folds).
"""

from __future__ import annotations

import re
from itertools import product
from pathlib import Path

import numpy as np
import pandas as pd

from termweight.experiments.mukras import (
    CLASSIFIER_LABELS,
    PUBLISHED,
    _log,
    baseline_of,
    fold_names,
    load_config,
    range_name,
    selector_label,
)
from termweight.experiments.mukras.claims import (
    assess_claims,
    example_scores,
    range_means,
)
from termweight.runner import io
from termweight.runner.errors import DataError


def curves(results: pd.DataFrame) -> pd.DataFrame:
    """Mean and standard error over folds of the MSE per unit x selector x classifier x k."""
    from termweight.evaluation import mean_se

    out = []
    keys = ["unit", "selector", "classifier", "k"]
    for key, grp in results.groupby(keys, sort=False):
        m, se = mean_se(grp["mse"])
        out.append({**dict(zip(keys, key, strict=True)), "mse_mean": m, "mse_se": se,
                    "k_used_min": int(grp["k_used"].min()), "folds": int(grp["fold"].nunique())})
    return pd.DataFrame(out)


def significance(per_fold: pd.DataFrame, alpha: float = 0.05) -> pd.DataFrame:
    """Paired tests across folds of each selector against its plain metric (``baseline_of``).

    One row per unit x classifier x range x selector with the mean and standard error over folds
    of the range-mean MSE, the baseline's mean, the paired t-test and Wilcoxon p-values (NaN for
    the baselines themselves) and ``better``: 'selector' / 'baseline' when p < alpha for the
    lower-MSE side, else ''.
    """
    from termweight.evaluation import mean_se
    from termweight.inference import paired_tests

    rows = []
    idx = ["unit", "classifier", "range"]
    for key, grp in per_fold.groupby(idx, sort=False):
        by_sel = {s: g.set_index("fold")["mse"] for s, g in grp.groupby("selector", sort=False)}
        for sel, v in by_sel.items():
            m, se = mean_se(v)
            row = {**dict(zip(idx, key, strict=True)), "selector": sel, "mse_mean": m,
                   "mse_se": se, "folds": int(v.size), "baseline": baseline_of(sel) or "",
                   "baseline_mean": np.nan, "t_pvalue": np.nan, "wilcoxon_pvalue": np.nan,
                   "better": ""}
            base = baseline_of(sel)
            if base is not None and base in by_sel:
                b = by_sel[base]
                common = v.index.intersection(b.index)
                t = paired_tests(v[common].to_numpy(), b[common].to_numpy())
                row.update(baseline_mean=float(b[common].mean()), t_pvalue=t["t_pvalue"],
                           wilcoxon_pvalue=t["wilcoxon_pvalue"])
                if t["t_pvalue"] < alpha:
                    row["better"] = "selector" if t["mean_diff"] < 0 else "baseline"
            rows.append(row)
    return pd.DataFrame(rows)


# ------------------------------------------------------------------------------------- reports


def _fmt(x: float, bold: bool = False, digits: int = 3) -> str:
    s = f"{x:.{digits}f}"
    return f"\\textbf{{{s}}}" if bold else s


def _p(p: float) -> str:
    if not np.isfinite(p):
        return "--"
    return "$<$0.001" if p < 0.001 else f"{p:.3f}"


def _two_lines(name: str) -> str:
    """A column heading broken at its last underscore (``pang\\_lee\\_`` over ``3class``)."""
    head, sep, tail = name.rpartition(r"\_")
    return rf"\shortstack[r]{{{head}{sep}\\{tail}}}" if head else name


def table1_latex(sig: pd.DataFrame, cfg: dict, published: dict) -> str:
    """The paper's Table 1 for our data (IG vs IG+PRP, NB and SVM), then the published one."""
    from termweight.reporting import latex_escape, latex_table

    units = list(cfg["datasets"])
    ranges = [range_name(lo, hi) for lo, hi in cfg["ranges"]]
    clfs = [c for c in ("nb", "svm") if c in cfg["classifiers"]]
    pairs = [("ig", "IG"), ("ig+linear", "IG+PRP")]
    cols = [(r, u) for r in ranges for u in units]
    rows = []
    for clf in clfs:
        for sel, label in pairs:
            name = latex_escape(CLASSIFIER_LABELS[clf]) if sel == "ig" else ""
            row = {"Classifier": name, "Selection": label}
            for r, u in cols:
                cell = sig[(sig.unit == u) & (sig.classifier == clf) & (sig.range == r)]
                mine = cell[cell.selector == sel]
                prp = cell[cell.selector == "ig+linear"]
                if mine.empty:
                    row[f"{r} {u}"] = "--"
                    continue
                better = prp["better"].iloc[0] if not prp.empty else ""
                bold = (better == "selector" and sel == "ig+linear") or (
                    better == "baseline" and sel == "ig")
                row[f"{r} {u}"] = _fmt(float(mine["mse_mean"].iloc[0]), bold)
            rows.append(row)
        prow = {"Classifier": "", "Selection": "$p$ (paired $t$)"}
        for r, u in cols:
            prp = sig[(sig.unit == u) & (sig.classifier == clf) & (sig.range == r)
                      & (sig.selector == "ig+linear")]
            prow[f"{r} {u}"] = _p(float(prp["t_pvalue"].iloc[0])) if not prp.empty else "--"
        rows.append(prow)
    frame = pd.DataFrame(rows)
    # two header rows (range, then dataset): one wide row of "range: dataset" headings set the
    # table sideways at 5 pt
    frame.columns = pd.MultiIndex.from_tuples(
        [("", "Classifier"), ("", "Selection")]
        + [(f"{r} features", _two_lines(latex_escape(u))) for r, u in cols])
    folds = int(sig["folds"].max())
    ours = latex_table(
        frame, f"Ours (reproduced): mean MSE over the feature counts in each range (both ends "
        f"included), mean over {folds} cross-validation folds; $p$: paired two-tailed $t$-test "
        "across folds of IG+PRP vs IG; bold: significantly lower MSE ($p<0.05$). Datasets: "
        + ", ".join(latex_escape(u) for u in units) + ".",
        "tab:mukras-table1", escape=False, column_format="ll" + "r" * len(cols))
    pub = published["table1"]["values"]
    pranges = list(published["table1"]["ranges"])
    pdata = list(published["table1"]["datasets"])
    prow = []
    for clf in ("nb", "svm"):
        for key, label in (("ig", "IG"), ("ig_prp", "IG+PRP")):
            name = latex_escape(CLASSIFIER_LABELS[clf]) if key == "ig" else ""
            row = {"Classifier": name, "Selection": label}
            for r in pranges:
                for d in pdata:
                    v = pub[clf][key][r][d]
                    row[f"{r}: {d}"] = f"{v:.3f}" if v < 10 else f"{v:.2f}"  # as printed
            prow.append(row)
    pframe = pd.DataFrame(prow)
    theirs = latex_table(
        pframe, "Published (Mukras et al., Table 1; Actors, Movies, Edmunds are no longer "
        "public). The printed bold marks are not recoverable from the paper's text.",
        "tab:mukras-table1-published", escape=False, column_format="ll" + "r" * (len(pframe.columns) - 2))
    return ours + "\n" + theirs


def grid_latex(sig: pd.DataFrame, cfg: dict) -> str:
    """Every selector x classifier: mean MSE per range, p-value vs its plain metric."""
    from termweight.reporting import latex_escape, latex_table

    ranges = [range_name(lo, hi) for lo, hi in cfg["ranges"]]
    rows = []
    for u in cfg["datasets"]:
        for clf in cfg["classifiers"]:
            for sel in cfg["selectors"]:
                cell = sig[(sig.unit == u) & (sig.classifier == clf) & (sig.selector == sel)]
                if cell.empty:
                    continue
                row = {"Dataset": latex_escape(u), "Classifier": latex_escape(CLASSIFIER_LABELS[clf]),
                       "Selection": latex_escape(selector_label(sel))}
                for r in ranges:
                    c = cell[cell.range == r].iloc[0]
                    row[f"MSE {r}"] = _fmt(c["mse_mean"], c["better"] == "selector") + \
                        f" $\\pm$ {c['mse_se']:.3f}"
                    row[f"$p$ {r}"] = _p(c["t_pvalue"])
                rows.append(row)
    frame = pd.DataFrame(rows)
    return latex_table(
        frame, "Beyond the paper: every selector and classifier; mean $\\pm$ s.e. over folds of the "
        "range-mean MSE; $p$: paired $t$-test vs the plain metric (IG or Chi2); bold: "
        "significantly lower than it. PRP = linear similarity (eq. 1), -exp = exp(-|i-j|), "
        "-step = 1 within distance 1, -conf = learned from cross-validated NB confusions on the "
        "training folds. Frank \\& Hall only for the selectors in fh\\_selectors.",
        "tab:mukras-grid", escape=False)


def example_latex() -> str:
    from termweight.reporting import latex_escape, latex_table

    f = example_scores()
    out = pd.DataFrame({"Term": [latex_escape(t) for t in f["term"]]})
    for c in f.columns[1:]:
        out[latex_escape(c)] = [f"{v:.4f} ({r})" for v, r in
                                zip(f[c], f[c].rank(ascending=False, method="min").astype(int),
                                    strict=True)]
    return latex_table(
        out, "The PRP on toy terms (5 equal classes of 100 documents; bits, rank in brackets). "
        "f1, f2: the paper's Fig. 1 (40 documents in each of two classes); g: 80 documents of one "
        "class. Linear and exponential PRP rank f2 above f1 as the paper intends; stepwise "
        "(distance $\\le 1$) does not; every PRP ranks an end-class term above a middle-class "
        "one, and shrinks the values (compare ranks, not scores).",
        "tab:mukras-example", escape=False)


def rank_changes(order_a, order_b, top: int = 3000, n: int = 5) -> pd.DataFrame:
    """Terms whose rank moves most from ranking ``a`` (IG) to ``b`` (IG+PRP), paper section 4.1.

    Only terms in the top ``top`` of either ranking count (the range the experiment selects
    from). Returns the ``n`` most demoted and ``n`` most promoted: column index, both 1-based
    ranks and ``shift = rank_b - rank_a`` (positive = demoted by the PRP).
    """
    order_a, order_b = np.asarray(order_a), np.asarray(order_b)
    rank_a = np.empty(order_a.size, dtype=np.int64)
    rank_b = np.empty(order_b.size, dtype=np.int64)
    rank_a[order_a] = np.arange(1, order_a.size + 1)
    rank_b[order_b] = np.arange(1, order_b.size + 1)
    cand = np.flatnonzero((rank_a <= top) | (rank_b <= top))
    shift = rank_b[cand] - rank_a[cand]
    by = np.lexsort((cand, -shift))  # most demoted first, ties by column
    pick = np.concatenate([cand[by[:n]], cand[by[::-1][:n]]])
    return pd.DataFrame({"column": pick, "rank_a": rank_a[pick], "rank_b": rank_b[pick],
                         "shift": rank_b[pick] - rank_a[pick],
                         "kind": ["demoted"] * min(n, cand.size) + ["promoted"] * min(n, cand.size)})


def movers_latex(frames: dict) -> str:
    """LaTeX table of ``rank_changes`` per dataset, with the terms' class document counts."""
    from termweight.reporting import latex_escape, latex_table

    rows = []
    for unit, f in frames.items():
        for r in f.itertuples():
            rows.append({"Dataset": latex_escape(unit), "Change": r.kind, "Term (stem)": latex_escape(r.term),
                         "Training docs per class": r.counts, "IG rank": r.rank_a,
                         "IG+PRP rank": r.rank_b, "Shift": f"{r.shift:+d}"})
    return latex_table(
        pd.DataFrame(rows), "Terms whose rank the PRP changes most (first fold's training rows; "
        "terms in the top 3000 of either ranking). The paper's example: ``2.7'' (Edmunds) was "
        "demoted by about 8,500 positions.", "tab:mukras-movers", escape=False)


def fig4(curves_frame: pd.DataFrame, cfg: dict, selectors, classifiers, title: str):
    import matplotlib.pyplot as plt

    from termweight.reporting import FIGURE_MAX_HEIGHT_IN, TEXT_WIDTH_IN, figure, legend_below

    units = list(cfg["datasets"])
    fig, axes = figure(len(units), len(classifiers), squeeze=False, sharex=True,
                       width=min(1.0, 3.3 * len(classifiers) / TEXT_WIDTH_IN),
                       height=min(FIGURE_MAX_HEIGHT_IN, 0.4 + 2.1 * len(units)))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    split = cfg["ranges"][0][1]
    for i, u in enumerate(units):
        for j, clf in enumerate(classifiers):
            ax = axes[i, j]
            for n, sel in enumerate(selectors):
                c = curves_frame[(curves_frame.unit == u) & (curves_frame.classifier == clf)
                                 & (curves_frame.selector == sel)].sort_values("k")
                if c.empty:
                    continue
                col = colors[n % len(colors)]
                ax.plot(c["k"], c["mse_mean"], marker="o", ms=2.5, lw=1.2, color=col,
                        label=selector_label(sel))
                ax.fill_between(c["k"], c["mse_mean"] - c["mse_se"], c["mse_mean"] + c["mse_se"],
                                color=col, alpha=0.15, lw=0)
            ax.axvline(split, color="grey", lw=0.6, ls="--")
            ax.set_xscale("log")
            ax.grid(alpha=0.3)
            ax.set_title(f"{u}: {CLASSIFIER_LABELS[clf]}", fontsize=7)
            if j == 0:
                ax.set_ylabel("MSE")
            if i == len(units) - 1:
                ax.set_xlabel("number of features")
    fig.suptitle(title)
    legend_below(fig, axes, ncol=4)  # a selector may run in some panels only
    return fig


def macro_name(*parts: str) -> str:
    """A LaTeX macro name (letters only) from parts: ``mukras`` + CamelCase, digits spelt out."""
    words = {"0": "Zero", "1": "One", "2": "Two", "3": "Three", "4": "Four", "5": "Five",
             "6": "Six", "7": "Seven", "8": "Eight", "9": "Nine"}
    out = "mukras"
    for p in parts:
        for tok in re.split(r"[^A-Za-z0-9]+", str(p)):
            out += "".join(words.get(ch, ch) for ch in tok[:1].upper() + tok[1:])
    return out


def macros_tex(sig: pd.DataFrame, sizes: dict, published: dict) -> str:
    lines = ["% Generated by `termweight mukras-macros`: numbers quoted by the report (ours and"
             " published)."]

    def add(name, value):
        lines.append(f"\\newcommand{{\\{name}}}{{{value}}}")

    for u, s in sizes.items():
        add(macro_name(u, "perclass"), s["per_class"])
        add(macro_name(u, "docs"), s["n_docs"])
        add(macro_name(u, "classes"), s["n_classes"])
    for r in sig.itertuples():
        base = (r.unit, r.classifier, r.selector, r.range)
        add(macro_name(*base, "mse"), f"{r.mse_mean:.3f}")
        if np.isfinite(r.t_pvalue):
            add(macro_name(*base, "p"), _p(r.t_pvalue))
    for clf, by_sel in published["table1"]["values"].items():
        for sel, by_range in by_sel.items():
            for rng, by_data in by_range.items():
                for d, v in by_data.items():
                    add(macro_name("published", d, clf, sel, rng), f"{v:g}")
    names = [ln.split("}")[0] for ln in lines[1:]]
    if len(set(names)) != len(names):
        raise AssertionError("duplicate macro names")
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------------------------- checks
# What the concluding steps read, checked against params.yaml's ``mukras`` section before
# anything is written (termweight.results_check): every declared cell exactly once, every score
# finite and in its range, every per-cell fold count the declared one.

#: a per-(unit, fold) evaluation: MSE over class indices >= 0, accuracy in [0, 1]
EVALUATION_MEASURES = {"mse": (0.0, float("inf")), "accuracy": (0.0, 1.0),
                       "k_used": (1.0, float("inf")), "n_test": (1.0, float("inf"))}
#: an aggregate over folds (curves.csv, tests.csv): mean and s.e. of MSE >= 0, a fold count
SUMMARY_MEASURES = {"mse_mean": (0.0, float("inf")), "mse_se": (0.0, float("inf")),
                    "folds": (1.0, float("inf"))}
#: tests.csv where a selector has a declared baseline: p-values in [0, 1], the baseline's MSE
TEST_MEASURES = {"t_pvalue": (0.0, 1.0), "wilcoxon_pvalue": (0.0, 1.0),
                 "baseline_mean": (0.0, float("inf"))}


def declared_selectors(cfg: dict, classifier: str) -> list[str]:
    """The selectors declared for ``classifier``: all, but ``fh`` only for ``fh_selectors``."""
    fh = cfg.get("fh_selectors")
    if classifier == "fh" and fh is not None:
        return [s for s in cfg["selectors"] if s in fh]
    return list(cfg["selectors"])


def _cell_text(frame: pd.DataFrame, keys, i: int) -> str:
    return ", ".join(f"{k}={v}" for k, v in zip(keys, frame[keys].iloc[i].astype(str),
                                                 strict=True))


def check_grid(path, frame: pd.DataFrame, cells: dict, measures: dict, cfg: dict) -> None:
    """Every declared cell of ``frame`` (read from ``path``) exactly once, nothing else, every
    measure finite and in range. ``cells`` maps key columns (among them ``selector`` and
    ``classifier``) to their declared values; ``fh`` is declared only with ``fh_selectors``."""
    from termweight.results_check import check_cells

    check_cells(path, frame.copy(), cells, measures, complete=False)
    keys = list(cells)
    clf = frame["classifier"].astype(str).to_numpy()
    fh = declared_selectors(cfg, "fh")
    extra = (clf == "fh") & ~frame["selector"].astype(str).isin(fh).to_numpy()
    if extra.any():
        i = int(np.flatnonzero(extra)[0])
        raise DataError(path, f"cell ({_cell_text(frame, keys, i)}) is not declared by the "
                        f"params (fh only for fh_selectors: {', '.join(fh) or 'none'})",
                        line=i + 2)
    rest = [c for c in cells["classifier"] if c != "fh"]
    groups = [{**cells, "classifier": rest}]
    if "fh" in cells["classifier"]:
        groups.append({**cells, "classifier": ["fh"], "selector": fh})
    declared = [c for g in groups for c in product(*([str(v) for v in g[k]] for k in keys))]
    seen = set(frame[keys].astype(str).itertuples(index=False, name=None))
    for want in declared:
        if want not in seen:
            cell = ", ".join(f"{k}={v}" for k, v in zip(keys, want, strict=True))
            raise DataError(path, f"cell ({cell}) is missing: the params declare "
                            f"{len(declared)} cells, the file holds {len(seen)}")


def check_folds(path, frame: pd.DataFrame, keys, cfg: dict) -> int:
    """Every row's ``folds`` is the number of folds the params declare; returns that number."""
    from termweight.results_check import check_count

    n = len(fold_names(cfg["folds"]))
    bad = frame["folds"].to_numpy(dtype=float) != n
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        check_count(path, f"folds at ({_cell_text(frame, list(keys), i)})", n,
                    frame["folds"].iloc[i])
    return int(frame["folds"].max()) if len(frame) else n


def read_evaluations(template: str, cfg: dict) -> pd.DataFrame:
    """Every declared unit x fold evaluation, each checked: every selector x classifier x k
    once, MSE >= 0, accuracy in [0, 1]; concatenated in params order."""
    frames = []
    for u in cfg["datasets"]:
        for f in fold_names(cfg["folds"]):
            path = template.format(unit=u, fold=f)
            frame = io.read_table(path)
            check_grid(path, frame, {"unit": [u], "fold": [f], "selector": cfg["selectors"],
                                     "classifier": cfg["classifiers"], "k": cfg["features"]},
                       EVALUATION_MEASURES, cfg)
            frames.append(frame)
    return pd.concat(frames, ignore_index=True)


def read_split_info(template: str, unit: str, cfg: dict) -> dict:
    """A unit's split summary (``<splits>.json``): sizes positive, the declared number of folds."""
    from termweight.results_check import check_count, check_mapping, check_range

    path = Path(template.format(unit=unit)).with_suffix(".json")
    info = io.read_json(path)
    check_mapping(path, info, ("dataset", "per_class", "n_docs", "n_classes", "class_sizes",
                               "folds"), "split summary")
    for key in ("per_class", "n_docs", "n_classes"):
        check_range(path, key, info[key], (1.0, float("inf")))
    check_count(path, "folds", len(fold_names(cfg["folds"])), len(info["folds"]))
    return info


def read_curves(path, cfg: dict) -> tuple[pd.DataFrame, int]:
    """curves.csv checked (every unit x selector x classifier x k once, mean and s.e. of MSE
    >= 0, every curve over the declared folds); returns it and its number of folds."""
    cur = io.read_table(path)
    cells = {"unit": list(cfg["datasets"]), "selector": cfg["selectors"],
             "classifier": cfg["classifiers"], "k": cfg["features"]}
    check_grid(path, cur, cells, SUMMARY_MEASURES, cfg)
    return cur, check_folds(path, cur, cells, cfg)


def read_tests(path, cfg: dict) -> pd.DataFrame:
    """tests.csv checked: every unit x classifier x range x selector once, mean and s.e. of MSE
    >= 0, the declared folds, p-values in [0, 1] wherever the selector's baseline is declared,
    ``better`` one of '', 'selector', 'baseline'."""
    from termweight.results_check import check_cells

    sig = io.read_table(path)
    cells = {"unit": list(cfg["datasets"]), "classifier": cfg["classifiers"],
             "range": [range_name(lo, hi) for lo, hi in cfg["ranges"]],
             "selector": cfg["selectors"]}
    check_grid(path, sig, cells, SUMMARY_MEASURES, cfg)
    check_folds(path, sig, cells, cfg)
    keys, cols = list(cells), [c for c in TEST_MEASURES if c in sig.columns]
    pairs = [(c, s) for c in cfg["classifiers"] for s in declared_selectors(cfg, c)
             if baseline_of(s) in declared_selectors(cfg, c)]
    tested = pd.MultiIndex.from_arrays([sig["classifier"].astype(str),
                                        sig["selector"].astype(str)]).isin(pairs)
    chk = sig[keys + cols].copy()
    chk.loc[~tested, cols] = 0.0  # no baseline: no test (NaN by design)
    check_cells(path, chk, cells, TEST_MEASURES, complete=False)
    if "better" not in sig.columns:
        raise DataError(path, "missing column(s) 'better'")
    bad = ~(sig["better"].isna() | sig["better"].isin(["", "selector", "baseline"])).to_numpy()
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise DataError(path, f"better at ({_cell_text(sig, keys, i)}) is "
                        f"{sig['better'].iloc[i]!r}, not '', 'selector' or 'baseline'", line=i + 2)
    return sig


# ------------------------------------------------------------------------------------- steps


def _metrics(cfg, folds, sig, cur, infos) -> dict:
    """reports/metrics/mukras.json without the claims: per dataset its sizes, range means and
    tests, and its best curve point."""
    metrics = {"folds": folds, "alpha": cfg["alpha"], "datasets": {}}
    for u in cfg["datasets"]:
        info = infos[u]
        entry = {"dataset": info["dataset"], "per_class": info["per_class"],
                 "n_docs": info["n_docs"], "class_sizes": info["class_sizes"], "results": {}}
        for r in sig[sig.unit == u].itertuples():
            d = entry["results"].setdefault(r.classifier, {}).setdefault(r.range, {})
            d[r.selector] = {"mse": round(r.mse_mean, 6), "se": round(r.mse_se, 6)}
            if np.isfinite(r.t_pvalue):
                d[r.selector]["t_pvalue"] = round(r.t_pvalue, 6)
        best = cur[cur.unit == u].sort_values(["mse_mean", "k"]).iloc[0]
        entry["best"] = {"selector": best["selector"], "classifier": best["classifier"],
                         "k": int(best["k"]), "mse": round(float(best["mse_mean"]), 6)}
        metrics["datasets"][u] = entry
    return metrics


def cmd_aggregate(args) -> None:
    _, cfg = load_config(args.params)
    results = read_evaluations(args.evaluations, cfg)
    infos = {u: read_split_info(args.splits, u, cfg) for u in cfg["datasets"]}
    folds = int(results.groupby("unit")["fold"].nunique().min())  # = the declared, checked
    per_fold = range_means(results, cfg["ranges"])
    sig = significance(per_fold, cfg["alpha"])
    cur = curves(results)
    metrics = _metrics(cfg, folds, sig, cur, infos)
    claims, gaps, headline = assess_claims(results, cfg, io.read_json(args.published),
                                           cfg["alpha"])
    metrics["headline"] = headline
    metrics["claims"] = claims
    metrics["gaps"] = gaps
    with io.all_or_nothing():
        io.write_table(args.out_results, results)
        io.write_table(args.out_curves, cur)
        io.write_table(args.out_tests, sig)
        io.write_json(args.out_metrics, metrics)
    _log().info("aggregated %d rows: %d tests", len(results), int(sig["t_pvalue"].notna().sum()))


def cmd_tables(args) -> None:
    _, cfg = load_config(args.params)
    sig = read_tests(args.tests, cfg).fillna({"better": "", "baseline": ""})
    published = io.read_json(args.published)
    with io.all_or_nothing():
        io.write_text(args.out_table1, table1_latex(sig, cfg, published))
        io.write_text(args.out_grid, grid_latex(sig, cfg))
        io.write_text(args.out_example, example_latex())


def cmd_figures(args) -> None:
    from termweight.reporting import save_figure

    _, cfg = load_config(args.params)
    cur, folds = read_curves(args.curves, cfg)
    paper = [c for c in ("nb", "svm") if c in cfg["classifiers"]]
    sels = [s for s in ("ig", "ig+linear") if s in cfg["selectors"]]
    with io.all_or_nothing():
        fig = fig4(cur, cfg, sels, paper, f"Fig. 4 reproduced: MSE vs number of features, mean "
                   f"$\\pm$ s.e. over {folds} folds")
        save_figure(fig, Path(args.out_fig4).with_suffix(""))
        fig = fig4(cur, cfg, cfg["selectors"], cfg["classifiers"],
                   "Beyond the paper: every selector and classifier (mean $\\pm$ s.e. over folds)")
        save_figure(fig, Path(args.out_grid).with_suffix(""))


def cmd_macros(args) -> None:
    _, cfg = load_config(args.params)
    sig = read_tests(args.tests, cfg)
    sizes = {u: read_split_info(args.splits, u, cfg) for u in cfg["datasets"]}
    io.write_text(args.out, macros_tex(sig, sizes, io.read_json(args.published)))


def _mover_orders(scores, columns, cfg: dict) -> dict:
    """The IG and IG+PRP rankings of a fold's scores file that the params declare (a declared
    one must be there), each checked as a permutation of the fold's training terms."""
    from termweight.intermediates import check

    if not np.array_equal(scores["columns"], columns):
        raise DataError(scores.path, "term columns differ from the fold's training terms")
    orders = {}
    for sel in ("ig", "ig+linear"):
        if sel in cfg["selectors"]:
            orders[sel] = scores[f"order_{sel}"]
            check("ranking", scores.path, {"order": orders[sel]}, n_terms=columns.size)
    return orders


def cmd_movers(args) -> None:
    from termweight.corpus import Corpus
    from termweight.experiments.mukras import _fold_data, _load_fold_splits, rank_terms
    from termweight.statistics import term_stats

    params, cfg = load_config(args.params)
    fold = fold_names(cfg["folds"])[0]
    frames = {}
    for unit in cfg["datasets"]:
        corpus = Corpus.load(args.corpus.format(dataset=cfg["datasets"][unit]["dataset"]))
        splits = _load_fold_splits(args.splits.format(unit=unit), corpus)
        scores = io.load_arrays(args.scores.format(unit=unit, fold=fold))
        columns, Xtr, ytr, _, _ = _fold_data(corpus, splits, fold)
        orders = _mover_orders(scores, columns, cfg)
        for sel in ("ig", "ig+linear"):
            if sel not in orders:  # not a declared selector: ranked here
                orders[sel] = rank_terms(Xtr, ytr, sel, len(corpus.classes), params["seed"],
                                         cfg["prp_columns"])[1]
        f = rank_changes(orders["ig"], orders["ig+linear"], top=max(cfg["features"]))
        Y = np.eye(len(corpus.classes))[ytr]
        tp = term_stats(Xtr[:, f["column"].to_numpy()], Y).tp
        f["term"] = [corpus.terms[columns[c]] for c in f["column"]]
        f["counts"] = ["/".join(str(v) for v in tp[:, i]) for i in range(len(f))]
        frames[unit] = f
    io.write_text(args.out, movers_latex(frames))


def register(sub) -> None:
    def base(name, func, help_):
        p = sub.add_parser(f"mukras-{name}", help=f"Mukras et al.: {help_}")
        p.add_argument("--params", required=True, help="params.yaml (section 'mukras')")
        p.set_defaults(func=func)
        return p

    p = base("aggregate", cmd_aggregate, "curves, range means, paired tests, metrics JSON")
    p.add_argument("--evaluations", required=True, help="template with {unit} and {fold}")
    p.add_argument("--splits", required=True, help="template with {unit}")
    p.add_argument("--out-results", required=True)
    p.add_argument("--out-curves", required=True)
    p.add_argument("--out-tests", required=True)
    p.add_argument("--out-metrics", required=True)
    p.add_argument("--published", default=str(PUBLISHED),
                   help="the paper's numbers (the claims' published column)")

    p = base("tables", cmd_tables, "Table 1 (+ published), grid table, toy example table")
    p.add_argument("--tests", required=True)
    p.add_argument("--published", default=str(PUBLISHED))
    p.add_argument("--out-table1", required=True)
    p.add_argument("--out-grid", required=True)
    p.add_argument("--out-example", required=True)

    p = base("figures", cmd_figures, "Fig. 4 and the grid figure (PDF + PNG)")
    p.add_argument("--curves", required=True)
    p.add_argument("--out-fig4", required=True)
    p.add_argument("--out-grid", required=True)

    p = base("movers", cmd_movers, "terms whose rank the PRP changes most (first fold)")
    p.add_argument("--corpus", required=True, help="template with {dataset}")
    p.add_argument("--splits", required=True, help="template with {unit}")
    p.add_argument("--scores", required=True, help="template with {unit} and {fold}")
    p.add_argument("--out", required=True)

    p = base("macros", cmd_macros, "LaTeX macros of the quoted numbers")
    p.add_argument("--tests", required=True)
    p.add_argument("--splits", required=True, help="template with {unit}")
    p.add_argument("--published", default=str(PUBLISHED))
    p.add_argument("--out", required=True)
