"""Reporting of the Ferreira & Figueiredo experiment (see ``termweight.experiments.ferreira``):
collect the per-replication errors into a summary and ``reports/metrics/ferreira.json``; Figs. 2-4
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

from termweight import io
from termweight.experiments.ferreira import (
    CLASSIFIERS,
    FIGURE_NUMBER,
    LABELS,
    PUBLISHED,
    TD_METHODS,
    TDI_METHODS,
    load_config,
)

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


def headline(cfg: dict, index_template: str) -> dict:
    """Our values of the published ``headline`` keys: Table 1's mean l0 per subset and class, and
    the l0 per class of the Example1 features the text quotes (Fig. 1)."""
    out = {}
    for d in cfg["datasets"]:
        index = io.read_json(index_template.format(dataset=d))
        for row in index["characteristics"]:
            for k, lab in _T1.items():
                out[f"Table 1 {LABELS.get(d, d)} {row['subset']} {lab}"] = round(row[k], 4)
        if d == "svmlight_example1":
            ff = index["first_features"]
            for i in (6, 15):
                out[f"Fig. 1 Example1 feature {i} l0(-1)"] = ff["l0_neg"][i - 1]
                out[f"Fig. 1 Example1 feature {i} l0(+1)"] = ff["l0_pos"][i - 1]
    return out


def cmd_collect(args) -> None:
    _, cfg = load_config(args.params)
    frames = []
    for dataset, dcfg in cfg["datasets"].items():
        from termweight.splits import split_names

        for name in split_names(dcfg["protocol"]):
            frames.append(io.read_table(args.errors.format(dataset=dataset, split=name)))
    frame = pd.concat(frames, ignore_index=True)
    summary = summarise(frame)
    io.write_table(args.out_errors, frame)
    io.write_table(args.out_summary, summary)
    metrics: dict = {}
    best = best_per_method(summary)
    for row in best.itertuples():
        d = metrics.setdefault(row.dataset, {}).setdefault(row.classifier, {})
        d[f"{row.representation}_{row.method}"] = {
            "best_error": round(float(row.mean), 6), "se": round(float(row.se), 6),
            "m": int(row.m), "replications": int(row.count)}
    out = {"experiment": "ferreira", "measure": "test error rate (mean over replications)",
           "datasets": metrics}
    if args.index:
        out["headline"] = headline(cfg, args.index)
    if args.multiclass:
        mc = io.read_table(args.multiclass)
        mc_best = {}
        for (rep, method), grp in mc.groupby(["representation", "method"], sort=True):
            mean = grp.groupby("m")[["error", "macro_f1"]].mean()
            m = int(mean["error"].idxmin())
            mc_best[f"{rep}_{method}"] = {"best_error": round(float(mean.loc[m, "error"]), 6),
                                          "macro_f1": round(float(mean.loc[m, "macro_f1"]), 6),
                                          "m": m}
        out["multiclass"] = {"dataset": str(mc["dataset"].iloc[0]), "best": mc_best}
    io.write_json(args.out_json, out)
    log.info("collected %d errors into %d grid points", len(frame), len(summary))


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
    import matplotlib.pyplot as plt

    d = summary[summary["dataset"] == dataset]
    clfs = [c for c in CLASSIFIERS if c in set(d["classifier"])]
    fig, axes = plt.subplots(1, len(clfs), figsize=(5.2 * len(clfs), 4.0), squeeze=False)
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
        ax.set_title(LABELS.get(c, c), fontsize=10)
        ax.grid(alpha=0.3)
    handles = {}
    for ax in axes[0]:  # one legend for all panels (a method may run with one classifier only)
        for h, lab in zip(*ax.get_legend_handles_labels(), strict=True):
            handles.setdefault(lab, h)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout(rect=(0, 0.12, 1, 1))
    fig.legend(list(handles.values()), list(handles), loc="lower center", ncol=4, fontsize=7,
               frameon=False)
    return fig


def cmd_figures(args) -> None:
    from termweight.reporting import save_figure

    _, cfg = load_config(args.params)
    summary = io.read_table(args.summary)
    out = Path(args.out_dir)
    for dataset in cfg["datasets"]:
        n = int(summary.loc[summary["dataset"] == dataset, "count"].max())
        fig = error_figure(summary, dataset,
                           f"{LABELS.get(dataset, dataset)} (cf. paper Fig. "
                           f"{FIGURE_NUMBER.get(dataset, '-')}): mean test error over {n} "
                           "replications, bands +- s.e.")
        save_figure(fig, out / f"ferreira_{dataset}")
    if args.multiclass:
        mc = io.read_table(args.multiclass)
        s = mc.groupby(["dataset", "classifier", "representation", "method", "m"],
                       sort=True)[["error", "macro_f1"]].mean().reset_index()
        s = s.rename(columns={"error": "mean"})
        s["se"] = 0.0
        dataset = str(s["dataset"].iloc[0])
        fig = error_figure(s, dataset, f"{dataset}: K-class criteria (eqs. 5, 6) vs IG and Chi2, "
                                       "one-vs-rest linear SVM, fixed train/test split")
        save_figure(fig, out / "ferreira_multiclass")
    log.info("figures written to %s", out)


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
    from termweight.reporting import latex_escape, write_latex_table

    _, cfg = load_config(args.params)
    summary = io.read_table(args.summary)
    published = io.read_json(args.published)
    macros: dict[str, str] = {}

    # -- best test error per method, dataset and classifier, with its m
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
    n = int(summary["count"].max())
    write_latex_table(Path(args.out_dir) / "tables" / "ferreira_best.tex", pd.DataFrame(table),
                      f"Ferreira \\& Figueiredo: lowest mean test error (\\%, $\\pm$ s.e. over "
                      f"{n} replications) per method, with the m where it is reached in "
                      "parentheses; the paper prints no error values (Figs. 2-4 only).",
                      "tab:ferreira-best", escape=False)

    # -- dataset characteristics (paper Table 1): published beside ours
    rows = []
    for d in cfg["datasets"]:
        index = io.read_json(args.index.format(dataset=d))
        pub = {(r["subset"]): r for r in published["table1"].get(d, [])}
        for ours in index["characteristics"]:
            sub = ours["subset"]
            p = pub.get(sub, {})
            row = {"Dataset": LABELS.get(d, d), "Subset": sub}
            for k, lab in (("p", "p"), ("patterns", "patterns"), ("pos", "+1"), ("neg", "-1"),
                           ("l0", "mean l0"), ("l0_neg", "mean l0(-1)"),
                           ("l0_pos", "mean l0(+1)")):
                v = ours[k]
                mine = f"{v:.1f}" if isinstance(v, float) else str(v)
                theirs = p.get(k)
                theirs = "--" if theirs is None else (f"{theirs:.1f}" if isinstance(theirs, float)
                                                      else str(theirs))
                row[latex_escape(lab)] = f"{mine} / {theirs}"
                macros[_macro(d, sub, k, "ours")] = mine
                if theirs != "--":
                    macros[_macro(d, sub, k, "published")] = theirs
            rows.append(row)
    write_latex_table(Path(args.out_dir) / "tables" / "ferreira_datasets.tex", pd.DataFrame(rows),
                      "Dataset characteristics, ours / published (paper Table 1). Spam: the first "
                      "54 columns, all 4,601 rows. Mean l0 over the p features.",
                      "tab:ferreira-datasets", escape=False)

    # -- Fig. 1: l0 per class of Example1 features (the two the text quotes), published beside ours
    fig1 = published.get("figure1_example1", {})
    if "svmlight_example1" in cfg["datasets"] and fig1:
        ff = io.read_json(args.index.format(dataset="svmlight_example1"))["first_features"]
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
        write_latex_table(Path(args.out_dir) / "tables" / "ferreira_fig1.tex", pd.DataFrame(frows),
                          "Example1 training set (2,000 documents): the two features whose "
                          "$\\ell_0$ per class the paper's text quotes (Fig. 1), ours / published.",
                          "tab:ferreira-fig1", escape=False)

    # -- K-class extension
    if args.multiclass:
        mc = io.read_table(args.multiclass)
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
        write_latex_table(Path(args.out_dir) / "tables" / "ferreira_multiclass.tex",
                          pd.DataFrame(mrows),
                          f"{latex_escape(str(mc['dataset'].iloc[0]))}: test error / macro-F1 "
                          "(\\%) of a one-vs-rest linear SVM with m features selected by the "
                          "K-class criteria of Method 2 (eq. 6; entropy eq. 5), Method 1, "
                          "multi-class IG and Chi2 (max over classes) -- beyond the paper.",
                          "tab:ferreira-multiclass", escape=False)
    lines = [f"\\newcommand{{\\{k}}}{{{v}}}" for k, v in sorted(macros.items())]
    io.write_text(Path(args.out_dir) / "macros" / "ferreira.tex",
                  "% generated by `termweight ferreira-tables`; ours and published numbers\n"
                  + "\n".join(lines) + "\n")
    log.info("%d macros written", len(macros))


def register(sub) -> None:
    p = sub.add_parser("ferreira-collect", help="Ferreira: all errors -> summary and metrics")
    p.add_argument("--params", required=True)
    p.add_argument("--errors", required=True, help="template with {dataset} and {split}")
    p.add_argument("--multiclass", help="errors CSV of ferreira-multiclass")
    p.add_argument("--index", help="split index template with {dataset} (Table 1 headline)")
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
    p.add_argument("--out-dir", required=True, help="e.g. reports (tables/, macros/ inside)")
    p.set_defaults(func=cmd_tables)
