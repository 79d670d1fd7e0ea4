"""Reporting of the Ferreira & Figueiredo experiment (see ``termweight.experiments.ferreira``):
collect the per-replication errors into a summary and ``reports/metrics/ferreira.json`` (with the
paper's claims tested on our replications by ``claims.assess_claims``, the gap and cause of every published
number we compare, and Dexter's test mean l0 from its unlabelled rows); Figs. 2-4
(test error vs m, one line per method, one panel per classifier, +- s.e. bands, all-features
baselines dashed); LaTeX tables (best error per method with its m; Table 1 and Fig. 1 numbers,
ours / published) and ``reports/macros/ferreira.tex``.

Kept apart from the protocol module so that a change of the report does not rerun the experiment.
"""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np
import pandas as pd

from termweight.experiments.ferreira import (
    CLASSIFIERS,
    FIGURE_NUMBER,
    LABELS,
    PUBLISHED,
    TD_METHODS,
    TDI_METHODS,
    load_config,
)
from termweight.experiments.ferreira.claims import assess_claims, read_timings, unlabelled_l0
from termweight.results_check import (
    NONNEGATIVE,
    UNIT,
    check_cells,
    check_count,
    check_mapping,
    check_measures,
    check_range,
)
from termweight.runner import io
from termweight.runner.errors import DataError

log = logging.getLogger("termweight.ferreira")


def summarise(frame: pd.DataFrame) -> pd.DataFrame:
    """Mean, standard error and count of the error over replications, per grid point."""
    keys = ["dataset", "classifier", "representation", "method", "m"]
    g = frame.groupby(keys, sort=True)
    out = g["error"].agg(["mean", "std", "count"]).reset_index()
    out["se"] = (out["std"].fillna(0.0) / np.sqrt(out["count"])).astype(float)
    out["n_features"] = g["n_features"].mean().to_numpy()
    return out.drop(columns="std")


def best_per_method(summary: pd.DataFrame) -> pd.DataFrame:
    """Lowest mean error per (dataset, classifier, representation, method) and the m where it is
    reached (the smallest such m on ties)."""
    s = summary.sort_values(["dataset", "classifier", "representation", "method", "mean", "m"],
                            kind="stable")
    return s.groupby(["dataset", "classifier", "representation", "method"], sort=False).head(1)


_T1 = {"l0": "mean l0", "l0_neg": "mean l0(-1)", "l0_pos": "mean l0(+1)"}
#: the Example1 features whose l0 per class the paper's text quotes (Fig. 1)
FIG1_QUOTED = (6, 15)


def headline(cfg: dict, indexes: dict) -> dict:
    """Our values of the published ``headline`` keys: Table 1's mean l0 per subset and class, and
    the l0 per class of the Example1 features the text quotes (Fig. 1); ``indexes``: dataset ->
    its split index (``read_index``)."""
    out = {}
    for d in cfg["datasets"]:
        index = indexes[d]
        for row in index["characteristics"]:
            for k, lab in _T1.items():
                out[f"Table 1 {LABELS.get(d, d)} {row['subset']} {lab}"] = round(row[k], 4)
        if d == "svmlight_example1":
            ff = index["first_features"]
            for i in FIG1_QUOTED:
                out[f"Fig. 1 Example1 feature {i} l0(-1)"] = ff["l0_neg"][i - 1]
                out[f"Fig. 1 Example1 feature {i} l0(+1)"] = ff["l0_pos"][i - 1]
    return out


def dexter_test_l0(raw_dir) -> float | None:
    """Table 1's mean l0 of Dexter's 2,000 unlabelled test rows (None without ``raw_dir``)."""
    if not raw_dir:
        return None
    from termweight.datasets.vectors import read_dexter_test

    return unlabelled_l0(read_dexter_test(Path(raw_dir)))


# --------------------------------------------------------------------------------------------
# what the concluding steps read, checked against the params (termweight.results_check)

#: key columns of an errors table (``ferreira-run``, ``ferreira-multiclass``) and of the summary;
#: ``m`` is read as "p" for the all-features baseline (its m is the dataset's width)
ERROR_KEYS = ("dataset", "replication", "representation", "method", "classifier", "m")
SUMMARY_KEYS = ("dataset", "representation", "method", "classifier", "m")
ERROR_MEASURES = {"error": UNIT, "n_features": NONNEGATIVE}
MULTICLASS_MEASURES = {"error": UNIT, "micro_f1": UNIT, "macro_f1": UNIT,
                       "n_features": NONNEGATIVE}
SUMMARY_MEASURES = {"mean": UNIT, "se": NONNEGATIVE, "count": NONNEGATIVE,
                    "n_features": NONNEGATIVE}
#: Table 1's numbers per subset in a split index: counts and mean l0, all >= 0
CHARACTERISTICS = dict.fromkeys(("p", "patterns", "pos", "neg", "l0", "l0_neg", "l0_pos"),
                                NONNEGATIVE)


def curve_cells(dataset: str, dcfg: dict) -> list[tuple]:
    """``(dataset, representation, method, classifier, m)`` of every row ``ferreira-run`` writes
    per replication (``run_replication``): each representation's all-features baseline
    (m = "p") and every method x m of the grid, a method for its ``method_classifiers`` only."""
    clfs = [str(c) for c in dcfg.get("classifiers", CLASSIFIERS)]
    only = dcfg.get("method_classifiers", {})
    grid = [str(m) for m in sorted(int(m) for m in dcfg["m"])]
    cells = []
    for rep in ("td", "tdi"):
        cells += [(dataset, rep, "all", c, "p") for c in clfs]
        for method in dcfg.get(f"{rep}_methods", []):
            use = [c for c in clfs if c in only.get(method, clfs)]
            cells += [(dataset, rep, method, c, m) for m in grid for c in use]
    return cells


def multiclass_cells(mcfg: dict) -> list[tuple]:
    """``ERROR_KEYS`` of every row ``ferreira-multiclass`` writes (``cmd_multiclass``)."""
    from termweight.splits import split_names

    grid = [str(m) for m in sorted(int(m) for m in mcfg["m"])]
    methods = [("all", "p")] + [(x, m) for x in mcfg["methods"] for m in grid]
    return [(str(mcfg["dataset"]), name, rep, method, "svm", m)
            for name in split_names(mcfg["protocol"])
            for rep in mcfg.get("representations", ["tdi"]) for method, m in methods]


def _cell(keys, values) -> str:
    return ", ".join(f"{k}={v}" for k, v in zip(keys, values, strict=True))


def check_results(path, frame: pd.DataFrame, keys, cells: list[tuple], measures: dict):
    """``check_cells`` of a results table whose declared cells are a list, not a product (a
    method run for some classifiers only; the baseline at m = p): every cell of ``cells`` once,
    no other, every measure finite and in range. Returns the checked copy (keys as text, the
    baseline's m as "p", measures as floats); ``frame`` is left as read."""
    keys = list(keys)
    absent = [c for c in [*keys, *measures] if c not in frame.columns]
    if absent:
        raise DataError(path, f"missing column(s) {', '.join(map(repr, absent))}")
    view = frame[[*keys, *measures]].astype(dict.fromkeys(keys, str))
    num = pd.to_numeric(frame["m"], errors="coerce")
    whole = np.isfinite(num) & (num == num.round()) & (num.abs() < 2**53)  # 54.0 is m = 54
    view["m"] = view["m"].where(~whole, num.where(whole, 0).astype("int64").astype(str))
    view["m"] = view["m"].where(view["method"] != "all", "p")
    values = {k: list(dict.fromkeys(c[i] for c in cells)) for i, k in enumerate(keys)}
    view = check_cells(path, view, values, measures, complete=False)
    got = pd.MultiIndex.from_frame(view[keys])
    want = pd.MultiIndex.from_tuples(cells, names=keys)
    bad = np.flatnonzero(~got.isin(want))
    if bad.size:
        raise DataError(path, f"cell ({_cell(keys, got[bad[0]])}) is not declared by the params",
                        line=int(bad[0]) + 2)
    gone = np.flatnonzero(~want.isin(got))
    if gone.size:
        raise DataError(path, f"cell ({_cell(keys, cells[gone[0]])}) is missing: the params "
                              f"declare {len(cells)} cells, the file holds {len(view)}")
    return view


def read_errors(path, dataset: str, name: str, dcfg: dict) -> pd.DataFrame:
    """One replication's errors (``ferreira-run``), checked: every declared cell once, errors
    in [0, 1]."""
    frame = io.read_table(path)
    cells = [(d, name, *rest) for d, *rest in curve_cells(dataset, dcfg)]
    check_results(path, frame, ERROR_KEYS, cells, ERROR_MEASURES)
    return frame


def read_multiclass(path, cfg: dict) -> pd.DataFrame:
    """``ferreira-multiclass``'s errors, checked against ``ferreira.multiclass``: every
    declared cell once, error and F1 in [0, 1]."""
    if not cfg.get("multiclass"):
        raise DataError(path, "the params declare no ferreira.multiclass experiment")
    frame = io.read_table(path)
    check_results(path, frame, ERROR_KEYS, multiclass_cells(cfg["multiclass"]),
                  MULTICLASS_MEASURES)
    return frame


def read_summary(path, cfg: dict) -> pd.DataFrame:
    """``ferreira-collect``'s summary, checked: every declared cell once, mean error in [0, 1],
    s.e. >= 0, and each cell's count of replications equal to its dataset's protocol (what a
    caption states). Returns the summary as read."""
    from termweight.splits import split_names

    summary = io.read_table(path)
    cells = [c for d, dcfg in cfg["datasets"].items() for c in curve_cells(d, dcfg)]
    view = check_results(path, summary, SUMMARY_KEYS, cells, SUMMARY_MEASURES)
    reps = {d: len(split_names(dcfg["protocol"])) for d, dcfg in cfg["datasets"].items()}
    want = view["dataset"].map(reps).to_numpy()
    bad = np.flatnonzero(view["count"].to_numpy() != want)
    if bad.size:
        i = int(bad[0])
        cell = _cell(SUMMARY_KEYS, view[list(SUMMARY_KEYS)].iloc[i])
        check_count(path, f"replications of cell ({cell})",
                    want[i], summary["count"].iloc[i])
        # check_count compares int(read): 3.5 passes it
        raise DataError(path, f"replications of cell ({cell}): {summary['count'].iloc[i]} is not "
                              "a whole number")
    return summary


def _first_features(path, ff, n: int) -> None:
    """Fig. 1's counts in a split index: lists of at least ``n`` features, counts >= 0."""
    if not isinstance(ff, dict):
        raise DataError(path, "'first_features': expected an object")
    for k in ("term", "l0_neg", "l0_pos", "r"):
        v = ff.get(k)
        if not isinstance(v, list) or len(v) < n:
            raise DataError(path, f"first_features.{k}: expected a list of at least {n} features")
        if k == "term":
            continue
        x = pd.to_numeric(pd.Series(v, dtype=object), errors="coerce").to_numpy(float)
        bad = np.flatnonzero(~np.isfinite(x) | (x < 0))
        if bad.size:
            check_range(path, f"first_features.{k}", v[bad[0]], NONNEGATIVE,
                        where=f"feature {bad[0] + 1}")


def read_index(path, dataset: str, dcfg: dict) -> dict:
    """A split index (``ferreira-split``), checked: Table 1's characteristics, one row per
    subset (the protocol's train and test subsets among them), counts and mean l0 >= 0; for
    Example1, the l0 per class of at least the features the text quotes."""
    index = io.read_json_object(path)
    chars = index.get("characteristics")
    if not isinstance(chars, list) or not chars:
        raise DataError(path, "'characteristics': expected a non-empty list of subsets")
    subsets: dict = {}
    for i, row in enumerate(chars):
        if not isinstance(row, dict) or not isinstance(row.get("subset"), str):
            raise DataError(path, f"characteristics[{i}]: expected an object with a subset")
        where = f"characteristics (subset={row['subset']})"
        if row["subset"] in subsets:
            raise DataError(path, f"{where} appears twice")
        subsets[row["subset"]] = row
        check_measures(path, row, CHARACTERISTICS, where)
    proto = dcfg["protocol"]
    check_mapping(path, subsets, [proto[k] for k in ("train_subset", "test_subset") if k in proto],
                  "characteristics (subsets)")
    if dataset == "svmlight_example1":
        _first_features(path, index.get("first_features"), max(FIG1_QUOTED))
    return index


def _check_probe(path, probe: dict) -> dict:
    """The all-features probe's test errors, in [0, 1]."""
    runs = probe.get("runs")
    if not isinstance(runs, list):
        raise DataError(path, "'runs': expected a list")
    for r in runs:
        if not isinstance(r, dict):
            raise DataError(path, "'runs': expected a list of objects")
        d = r.get("dataset")
        for key in ("all_features_error", "relative_frequency_subsets_at_run_C"):
            for label, by in (r.get(key) or {}).items():
                if isinstance(by, dict):
                    for x, v in by.items():
                        check_range(path, key, v, UNIT, where=f"{d} {label} {x}")
    return probe


def cmd_collect(args) -> None:
    from termweight.splits import split_names

    _, cfg = load_config(args.params)
    frame = pd.concat([read_errors(args.errors.format(dataset=d, split=name), d, name, dcfg)
                       for d, dcfg in cfg["datasets"].items()
                       for name in split_names(dcfg["protocol"])], ignore_index=True)
    indexes = ({d: read_index(args.index.format(dataset=d), d, dcfg)
                for d, dcfg in cfg["datasets"].items()} if args.index else None)
    mc = read_multiclass(args.multiclass, cfg) if args.multiclass else None
    timings = read_timings(args.timings) if args.timings and args.index else None
    probe = (_check_probe(args.probe, io.read_json_object(args.probe))
             if args.probe and args.index else None)
    summary = summarise(frame)
    out = {"experiment": "ferreira", "measure": "test error rate (mean over replications)",
           "datasets": _best_metrics(summary)}
    dexter_l0 = dexter_test_l0(args.dexter_test)
    if indexes is not None:
        out["headline"] = headline(cfg, indexes)
        if dexter_l0 is not None:
            out["headline"]["Table 1 Dexter test mean l0"] = round(dexter_l0, 4)
        out["claims"], out["gaps"] = assess_claims(frame, cfg, indexes,
                                                   io.read_json(args.published), dexter_l0,
                                                   timings=timings, probe=probe)
    if mc is not None:
        out["multiclass"] = _multiclass_best(mc)
    with io.all_or_nothing():
        io.write_table(args.out_errors, frame)
        io.write_table(args.out_summary, summary)
        io.write_json(args.out_json, out)
    log.info("collected %d errors into %d grid points", len(frame), len(summary))


def _best_metrics(summary: pd.DataFrame) -> dict:
    """``{dataset: {classifier: {rep_method: best error, s.e., m, replications}}}``."""
    metrics: dict = {}
    for row in best_per_method(summary).itertuples():
        d = metrics.setdefault(row.dataset, {}).setdefault(row.classifier, {})
        d[f"{row.representation}_{row.method}"] = {
            "best_error": round(float(row.mean), 6), "se": round(float(row.se), 6),
            "m": int(row.m), "replications": int(row.count)}
    return metrics


def _multiclass_best(mc: pd.DataFrame) -> dict:
    """The multi-class experiment's lowest mean error per curve, with its macro-F1 and m."""
    mc_best = {}
    for (rep, method), grp in mc.groupby(["representation", "method"], sort=True):
        mean = grp.groupby("m")[["error", "macro_f1"]].mean()
        m = int(mean["error"].idxmin())
        mc_best[f"{rep}_{method}"] = {"best_error": round(float(mean.loc[m, "error"]), 6),
                                      "macro_f1": round(float(mean.loc[m, "macro_f1"]), 6),
                                      "m": m}
    return {"dataset": str(mc["dataset"].iloc[0]), "best": mc_best}


# --------------------------------------------------------------------------------------------
# figures and tables

_STYLE = {
    "method1": ("tab:blue", "o"), "method2": ("tab:orange", "s"), "fisher": ("tab:green", "^"),
    "rp_paper": ("tab:red", "v"), "rp_achlioptas": ("tab:pink", "<"), "mim": ("tab:purple", "D"),
    "cmim": ("tab:brown", "P"), "method2_entropy": ("tab:olive", "X"), "ig": ("tab:cyan", "*"),
    "chi2": ("tab:gray", "h"),
}


def _line_label(rep, method):
    return f"{LABELS.get(method, method)} ({rep.upper()})"


def error_figure(summary: pd.DataFrame, dataset: str, title: str, ylabel="test error rate",
                 measure="mean"):
    """One panel per classifier: error vs m per (representation, method), +- s.e. bands;
    all-features baselines as dashed horizontal lines."""
    from termweight.reporting import figure, legend_below

    d = summary[summary["dataset"] == dataset]
    clfs = [c for c in CLASSIFIERS if c in set(d["classifier"])]
    fig, axes = figure(1, len(clfs), height=3.6, squeeze=False)
    for ax, c in zip(axes[0], clfs, strict=True):
        dc = d[d["classifier"] == c]
        for (rep, method), g in dc.groupby(["representation", "method"], sort=False):
            g = g.sort_values("m")
            if method == "all":
                ax.axhline(float(g[measure].iloc[0]), ls="--" if rep == "td" else ":",
                           color="black" if rep == "td" else "dimgray", lw=1.2,
                           label=f"{rep.upper()}, all {int(g['m'].iloc[0])} features")
                continue
            color, marker = _STYLE.get(method, ("black", "."))
            ls = "-" if rep == "td" else "-."
            ax.plot(g["m"], g[measure], ls=ls, marker=marker, ms=4, color=color, lw=1.3,
                    label=_line_label(rep, method))
            if "se" in g and g["se"].gt(0).any():
                ax.fill_between(g["m"], g[measure] - g["se"], g[measure] + g["se"], color=color,
                                alpha=0.15, lw=0)
        ax.set_xlabel("m (features kept / projected dimension)")
        ax.set_ylabel(ylabel)
        ax.set_title(LABELS.get(c, c))
        ax.grid(alpha=0.3)
    fig.suptitle(title)
    legend_below(fig, axes[0], ncol=3, fontsize=6)  # a method may run with one classifier only
    return fig


def cmd_figures(args) -> None:
    from termweight.reporting import save_figure

    _, cfg = load_config(args.params)
    summary = read_summary(args.summary, cfg)
    mc = read_multiclass(args.multiclass, cfg) if args.multiclass else None
    out = Path(args.out_dir)
    with io.all_or_nothing():
        for dataset in cfg["datasets"]:
            n = int(summary.loc[summary["dataset"] == dataset, "count"].max())  # as checked
            fig = error_figure(summary, dataset,
                               f"{LABELS.get(dataset, dataset)} (cf. paper Fig. "
                               f"{FIGURE_NUMBER.get(dataset, '-')}): mean test error over {n} "
                               "replications, bands +- s.e.")
            save_figure(fig, out / f"ferreira_{dataset}")
        if mc is not None:
            _multiclass_figure(mc, out)
    log.info("figures written to %s", out)


def _multiclass_figure(mc: pd.DataFrame, out: Path) -> None:
    """The multi-class experiment's error vs m (mean over its splits, as read)."""
    from termweight.reporting import save_figure

    s = mc.groupby(["dataset", "classifier", "representation", "method", "m"],
                   sort=True)[["error", "macro_f1"]].mean().reset_index()
    s = s.rename(columns={"error": "mean"})
    s["se"] = 0.0
    dataset = str(s["dataset"].iloc[0])
    names = list(dict.fromkeys(mc["replication"].astype(str)))
    split = ("fixed train/test split" if names == ["fixed"] else
             f"mean over {len(names)} splits")
    fig = error_figure(s, dataset, f"{dataset}: K-class criteria (eqs. 5, 6) vs IG and Chi2, "
                                   f"one-vs-rest linear SVM, {split}")
    save_figure(fig, out / "ferreira_multiclass")


def _macro(*parts) -> str:
    words = {"0": "Zero", "1": "One", "2": "Two", "3": "Three", "4": "Four", "5": "Five",
             "6": "Six", "7": "Seven", "8": "Eight", "9": "Nine"}
    name = "Ferreira"
    for p in parts:
        for tok in str(p).replace("-", "_").split("_"):
            tok = "".join(words.get(ch, ch) for ch in tok if ch.isalnum())
            name += tok[:1].upper() + tok[1:]
    return name


def _pct(x) -> str:
    return f"{100 * float(x):.1f}"


def cmd_tables(args) -> None:
    _, cfg = load_config(args.params)
    summary = read_summary(args.summary, cfg)
    published = io.read_json(args.published)
    indexes = {d: read_index(args.index.format(dataset=d), d, dcfg)
               for d, dcfg in cfg["datasets"].items()}
    mc = read_multiclass(args.multiclass, cfg) if args.multiclass else None
    test_l0 = dexter_test_l0(args.dexter_test) if "dexter" in cfg["datasets"] else None
    tables = Path(args.out_dir) / "tables"
    macros: dict[str, str] = {}
    with io.all_or_nothing():
        _best_table(summary, cfg, tables / "ferreira_best.tex", macros)
        _datasets_table(indexes, published, test_l0, tables / "ferreira_datasets.tex", macros)
        fig1 = published.get("figure1_example1", {})
        if "svmlight_example1" in cfg["datasets"] and fig1:
            _fig1_table(indexes["svmlight_example1"]["first_features"], fig1,
                        tables / "ferreira_fig1.tex", macros)
        if mc is not None:
            _multiclass_table(mc, cfg, tables / "ferreira_multiclass.tex", macros)
        lines = [f"\\newcommand{{\\{k}}}{{{v}}}" for k, v in sorted(macros.items())]
        io.write_text(Path(args.out_dir) / "macros" / "ferreira.tex",
                      "% generated by `termweight ferreira-tables`; ours and published numbers\n"
                      + "\n".join(lines) + "\n")
    log.info("%d macros written", len(macros))


def _best_table(summary: pd.DataFrame, cfg: dict, path: Path, macros: dict) -> None:
    """Best test error per method, dataset and classifier, with its m; the caption states the
    replications read (``read_summary`` checked them per dataset)."""
    from termweight.reporting import latex_escape, write_latex_table

    best = best_per_method(summary)
    cols = [(d, c) for d in cfg["datasets"] for c in CLASSIFIERS
            if ((best["dataset"] == d) & (best["classifier"] == c)).any()]
    methods = list(dict.fromkeys(zip(best["representation"], best["method"], strict=True)))
    order = {("td", "all"): 0, ("tdi", "all"): 1}
    methods.sort(key=lambda rm: (order.get(rm, 2), rm[0], (TD_METHODS + TDI_METHODS).index(rm[1])
                                 if rm[1] in TD_METHODS + TDI_METHODS else 99))
    table = {"Method": [latex_escape(_line_label(r, m)) if m != "all" else
                        f"{r.upper()}, all features" for r, m in methods]}
    for d, c in cols:
        cells = []
        for r, m in methods:
            hit = best[(best["dataset"] == d) & (best["classifier"] == c)
                       & (best["representation"] == r) & (best["method"] == m)]
            if hit.empty:
                cells.append("--")
                continue
            row = hit.iloc[0]
            cell = f"{_pct(row['mean'])} $\\pm$ {_pct(row['se'])}"
            if m != "all":
                cell += f" ({int(row['m'])})"
            cells.append(cell)
            key = _macro(d, c, r, m)
            macros[key + "Err"] = _pct(row["mean"])
            if m != "all":
                macros[key + "M"] = str(int(row["m"]))
        table[f"{LABELS.get(d, d)} {'SVM' if c == 'svm' else 'AdaBoost'}"] = cells
    ns = sorted({int(n) for n in summary.groupby("dataset")["count"].max()})
    n = str(ns[0]) if len(ns) == 1 else f"{ns[0]}--{ns[-1]}"
    write_latex_table(path, pd.DataFrame(table),
                      f"Ferreira \\& Figueiredo: lowest mean test error (\\%, $\\pm$ s.e. over "
                      f"{n} replications) per method, with the m where it is reached in "
                      "parentheses; the paper prints no error values (Figs. 2-4 only).",
                      "tab:ferreira-best", escape=False)


def _datasets_table(indexes: dict, published: dict, test_l0, path: Path, macros: dict) -> None:
    """Dataset characteristics (paper Table 1): published beside ours."""
    from termweight.reporting import latex_escape, write_latex_table

    rows = []
    for d, index in indexes.items():
        pub = {(r["subset"]): r for r in published["table1"].get(d, [])}
        chars = list(index["characteristics"])
        if d == "dexter" and test_l0 is not None and "test" in pub:
            p0 = chars[0]
            chars.insert(1, {"subset": "test", "p": p0["p"], "patterns": pub["test"]["patterns"],
                             "pos": None, "neg": None, "l0": test_l0, "l0_neg": None,
                             "l0_pos": None})
        for ours in chars:
            sub = ours["subset"]
            p = pub.get(sub, {})
            row = {"Dataset": LABELS.get(d, d), "Subset": sub}
            for k, lab in (("p", "p"), ("patterns", "patterns"), ("pos", "+1"), ("neg", "-1"),
                           ("l0", "mean l0"), ("l0_neg", "mean l0(-1)"),
                           ("l0_pos", "mean l0(+1)")):
                v = ours[k]
                mine = "--" if v is None else f"{v:.1f}" if isinstance(v, float) else str(v)
                theirs = p.get(k)
                theirs = "--" if theirs is None else (f"{theirs:.1f}" if isinstance(theirs, float)
                                                      else str(theirs))
                row[latex_escape(lab)] = f"{mine} / {theirs}"
                macros[_macro(d, sub, k, "ours")] = mine
                if theirs != "--":
                    macros[_macro(d, sub, k, "published")] = theirs
            rows.append(row)
    write_latex_table(path, pd.DataFrame(rows),
                      "Dataset characteristics, ours / published (paper Table 1). Spam: the first "
                      "54 columns, all 4,601 rows. Mean l0 over the p features. The paper's "
                      "Example1 class columns l0(-1), l0(+1) match ours exchanged (its -1 and "
                      "+1 swapped; the claims table); Dexter test: the 2,000 unlabelled rows of "
                      "dexter\\_test.data (no class columns without labels).",
                      "tab:ferreira-datasets", escape=False)


def _fig1_table(ff: dict, fig1: dict, path: Path, macros: dict) -> None:
    """Fig. 1: l0 per class of the Example1 features the text quotes, published beside ours."""
    from termweight.reporting import latex_escape, write_latex_table

    frows = []
    for key, pub in fig1.items():
        if not key.startswith("feature"):
            continue
        i = int(key[len("feature"):]) - 1
        row = {"Feature": f"{i + 1} ({latex_escape(ff['term'][i])})"}
        for k, lab in (("l0_neg", "l0(-1)"), ("l0_pos", "l0(+1)"), ("r", "r")):
            theirs = pub[k] if k != "r" else abs(pub["l0_neg"] - pub["l0_pos"])
            row[latex_escape(lab)] = f"{ff[k][i]} / {theirs}"
            macros[_macro("figone", key, k, "ours")] = str(ff[k][i])
            macros[_macro("figone", key, k, "published")] = str(theirs)
        frows.append(row)
    differ = [f"feature {int(k[len('feature'):])} {lab} {ff[c][int(k[len('feature'):]) - 1]} "
              f"(printed {v[c]})" for k, v in fig1.items() if k.startswith("feature")
              for c, lab in (("l0_neg", "l0(-1)"), ("l0_pos", "l0(+1)"))
              if ff[c][int(k[len("feature"):]) - 1] != v[c]]
    note = (" The data differ from the print only in " + ", ".join(differ) + "; the other "
            "counts match exactly: a likely misprint in the paper." if differ else "")
    write_latex_table(path, pd.DataFrame(frows),
                      "Example1 training set (2,000 documents): the two features whose "
                      "$\\ell_0$ per class the paper's text quotes (Fig. 1), ours / published."
                      + latex_escape(note),
                      "tab:ferreira-fig1", escape=False)


def _multiclass_table(mc: pd.DataFrame, cfg: dict, path: Path, macros: dict) -> None:
    """The K-class extension: error / macro-F1 per method and m."""
    from termweight.reporting import latex_escape, write_latex_table

    mean = mc.groupby(["representation", "method", "m"], sort=True)[
        ["error", "macro_f1"]].mean().reset_index()
    grid = sorted(int(m) for m in set(mean["m"]) if m in set(cfg["multiclass"]["m"]))
    mrows = []
    for (rep, method), g in mean.groupby(["representation", "method"], sort=False):
        row = {"Method": latex_escape(_line_label(rep, method)) if method != "all"
               else f"{rep.upper()}, all features"}
        g = g.set_index("m")
        for m in grid:
            row[f"m={m}"] = (f"{_pct(g.loc[m, 'error'])} / {_pct(g.loc[m, 'macro_f1'])}"
                             if m in g.index and method != "all" else "--")
        if method == "all":
            row[f"m={grid[0]}"] = (f"{_pct(g['error'].iloc[0])} / "
                                   f"{_pct(g['macro_f1'].iloc[0])} (all {int(g.index[0])})")
        b = g["error"].idxmin()
        macros[_macro("mc", rep, method, "err")] = _pct(g.loc[b, "error"])
        macros[_macro("mc", rep, method, "m")] = str(int(b))
        mrows.append(row)
    write_latex_table(path, pd.DataFrame(mrows),
                      f"{latex_escape(str(mc['dataset'].iloc[0]))}: test error / macro-F1 "
                      "(\\%) of a one-vs-rest linear SVM with m features selected by the "
                      "K-class criteria of Method 2 (eq. 6; entropy eq. 5), Method 1, "
                      "multi-class IG and Chi2 (max over classes) -- beyond the paper.",
                      "tab:ferreira-multiclass", escape=False)


def register(sub) -> None:
    p = sub.add_parser("ferreira-collect", help="Ferreira: all errors -> summary and metrics")
    p.add_argument("--params", required=True)
    p.add_argument("--errors", required=True, help="template with {dataset} and {split}")
    p.add_argument("--multiclass", help="errors CSV of ferreira-multiclass")
    p.add_argument("--index", help="split index template with {dataset} (Table 1 headline)")
    p.add_argument("--published", default=str(PUBLISHED), help="the paper's numbers (claims)")
    p.add_argument("--dexter-test", help="raw Dexter directory (dexter_test.data): Table 1's "
                   "test mean l0, which needs no labels")
    p.add_argument("--timings", help="benchmarks/bench_selection.py --ferreira's JSON: each "
                   "method's measured seconds (the claim that Methods 1 and 2 are cheaper)")
    p.add_argument("--probe", help="benchmarks/probe_ferreira_all_features.py's JSON: the "
                   "all-features SVM on relative frequencies over a C sweep (a gap's cause)")
    p.add_argument("--out-errors", required=True)
    p.add_argument("--out-summary", required=True)
    p.add_argument("--out-json", required=True)
    p.set_defaults(func=cmd_collect)

    p = sub.add_parser("ferreira-figures", help="Ferreira: Figs. 2-4 (+ multi-class)")
    p.add_argument("--params", required=True)
    p.add_argument("--summary", required=True)
    p.add_argument("--multiclass")
    p.add_argument("--out-dir", required=True, help="e.g. reports/figures")
    p.set_defaults(func=cmd_figures)

    p = sub.add_parser("ferreira-tables", help="Ferreira: LaTeX tables and macros")
    p.add_argument("--params", required=True)
    p.add_argument("--summary", required=True)
    p.add_argument("--index", required=True, help="split index template with {dataset}")
    p.add_argument("--published", default=str(PUBLISHED))
    p.add_argument("--multiclass")
    p.add_argument("--dexter-test", help="raw Dexter directory (dexter_test.data)")
    p.add_argument("--out-dir", required=True, help="e.g. reports (tables/, macros/ inside)")
    p.set_defaults(func=cmd_tables)
