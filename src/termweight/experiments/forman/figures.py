"""Forman (2008)'s Figs. 1-6 drawn from the summaries (``termweight.experiments.forman.report``
writes them); nothing here computes a run."""

from __future__ import annotations

import logging

import numpy as np
import pandas as pd

from termweight.experiments.forman import BNS_BINARY, label

log = logging.getLogger("termweight.experiments.forman")


def _errorbar_panel(ax, summ, reps, metric, ylabel):
    s = summ.set_index("rep").loc[list(reps)]
    ax.errorbar(range(len(reps)), s[metric], yerr=s[f"{metric}_se"], fmt="o", capsize=4)
    ax.set_xticks(range(len(reps)), [label(r) for r in reps], rotation=30)
    ax.set_ylabel(ylabel)
    ax.grid(axis="y", alpha=0.3)


def fig1(summ, reps):
    from termweight.reporting import figure

    fig, axes = figure(1, 2, height=2.9)
    _errorbar_panel(axes[0], summ, reps, "accuracy", "Accuracy")
    _errorbar_panel(axes[1], summ, reps, "f1", "F-measure")
    fig.suptitle("Fig. 1: SVM accuracy and F-measure (mean $\\pm$ s.e.)")
    fig.tight_layout()
    return fig


def fig2(summ, reps):
    from termweight.reporting import figure

    s = summ.set_index("rep").loc[list(reps)]
    lo = float(min(s["precision"].min(), s["recall"].min())) - 0.05
    hi = min(1.0, float(max(s["precision"].max(), s["recall"].max())) + 0.05)
    fig, ax = figure(width=0.62, height=3.9)
    r = np.linspace(0.01, 1, 400)
    for f in np.arange(0.5, 1.0, 0.05):
        p = f * r / (2 * r - f)
        ok = (r > f / 2) & (p > 0) & (p <= 1)
        ax.plot(r[ok], p[ok], ":", color="grey", lw=0.7)
    for rep in reps:
        ax.errorbar(s.loc[rep, "recall"], s.loc[rep, "precision"], xerr=s.loc[rep, "recall_se"],
                    yerr=s.loc[rep, "precision_se"], fmt="o", capsize=3, label=label(rep))
    ax.set_xlim(lo, hi)
    ax.set_ylim(lo, hi)
    ax.set_xlabel("Recall")
    ax.set_ylabel("Precision")
    ax.set_aspect("equal")
    ax.legend(fontsize=7, loc="lower right")
    ax.set_title("Fig. 2: precision vs recall (dotted: iso-F)")
    fig.tight_layout()
    return fig


def fig3(bins: pd.DataFrame, reps):
    from termweight.reporting import figure

    fig, ax = figure(width=0.75, height=3.0)
    for rep in reps:
        b = bins[bins["rep"] == rep]
        ax.errorbar(b["bin_mid"], b["f1"], yerr=b["f1_se"], marker="o", capsize=3,
                    label=label(rep))
    ticks = bins.drop_duplicates("bin_mid")
    ax.set_xticks(ticks["bin_mid"], ticks["bin"])
    ax.set_xlabel("% positives")
    ax.set_ylabel("F-measure")
    ax.legend()
    ax.grid(alpha=0.3)
    ax.set_title("Fig. 3: F-measure by percentage of positives")
    fig.tight_layout()
    return fig


def fig4(per_ds: pd.DataFrame, reps):
    from termweight.reporting import TEXT_WIDTH_IN, figure

    order = (per_ds[per_ds["rep"] == BNS_BINARY].sort_values("f1")["dataset"].tolist()
             if BNS_BINARY in set(per_ds["rep"]) else sorted(per_ds["dataset"].unique()))
    fig, ax = figure(width=min(1.0, (1.2 + 0.5 * len(order)) / TEXT_WIDTH_IN), height=3.2)
    for rep in reps:
        d = per_ds[per_ds["rep"] == rep].set_index("dataset").loc[order]
        ax.plot(range(len(order)), d["f1"], marker="o", label=label(rep))
    ax.set_xticks(range(len(order)), order, rotation=45)
    ax.set_ylabel("F-measure")
    ax.legend(fontsize=7, ncol=2)
    ax.grid(alpha=0.3)
    ax.set_title("Fig. 4: F-measure per dataset (sorted by BNS)")
    fig.tight_layout()
    return fig


def fig5(summ):
    from termweight.reporting import FIGURE_MAX_HEIGHT_IN, figure

    s = summ.sort_values("f1")
    fig, ax = figure(width=0.8, height=min(FIGURE_MAX_HEIGHT_IN, 0.16 * len(s) + 0.9))
    colors = ["C0" if r.startswith("binary") else "C1" for r in s["rep"]]
    ax.barh(range(len(s)), s["f1"], xerr=s["f1_se"], color=colors, capsize=2)
    ax.set_yticks(range(len(s)), [label(r) for r in s["rep"]])
    ax.set_xlim(max(0.0, float(s["f1"].min()) - 0.05), min(1.0, float(s["f1"].max()) + 0.03))
    ax.set_xlabel("F-measure (blue: binary, orange: TF)")
    ax.grid(axis="x", alpha=0.3)
    ax.set_title(f"Fig. 5: F-measure of {len(s)} representations")
    fig.tight_layout()
    return fig


def fig6(sel: pd.DataFrame):
    from termweight.reporting import figure

    fig, axes = figure(1, 2, height=3.0)
    alls = sel[sel["selector"] == "all"]
    kmax = int(sel.loc[sel["selector"] != "all", "k"].max()) if (sel["selector"] != "all").any() \
        else 10
    x_all = kmax * 3
    for ax, metric, name in ((axes[0], "f1", "F-measure"), (axes[1], "accuracy", "Accuracy")):
        for selector in [s for s in sel["selector"].unique() if s != "all"]:
            for scaling in sel["scaling"].unique():
                d = sel[(sel["selector"] == selector) & (sel["scaling"] == scaling)]
                a = alls[alls["scaling"] == scaling]
                xs = list(d["k"]) + [x_all] * len(a)
                ys = list(d[metric]) + list(a[metric])
                es = list(d[f"{metric}_se"]) + list(a[f"{metric}_se"])
                lab = f"{selector.upper()} selection" + (
                    f" + {scaling.upper()} scaling" if scaling != "none" else "")
                ax.errorbar(xs, ys, yerr=es, marker="o", ms=3, capsize=2, label=lab,
                            ls="-" if scaling != "none" else "--")
        ax.set_xscale("log")
        ticks = sorted(set(sel.loc[sel["selector"] != "all", "k"])) + [x_all]
        # turned: at half the page's width, 1000 / 2000 / 5000 / all run into each other level
        ax.set_xticks(ticks, [str(t) for t in ticks[:-1]] + ["all"], rotation=45, ha="right",
                      rotation_mode="anchor")
        ax.minorticks_off()
        ax.set_xlabel("number of features selected (binary features)")
        ax.set_ylabel(name)
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=7)
    fig.suptitle("Fig. 6: feature selection with and without BNS scaling")
    fig.tight_layout()
    return fig
