"""Tables (LaTeX, booktabs, via pandas) and figures (matplotlib, PDF + PNG) from result frames.

Output bytes are kept stable across runs (no timestamps in PDF or PNG metadata) so that DVC sees
an unchanged figure as unchanged.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from termweight import io  # noqa: E402
from termweight.latex import latex_escape  # noqa: E402,F401  (re-exported)

PDF_META = {"CreationDate": None, "ModDate": None, "Producer": None, "Creator": "termweight"}
PNG_META = {"Software": None}


def latex_table(frame: pd.DataFrame, caption: str, label: str, float_format="%.4f",
                column_format: str | None = None, escape: bool = True) -> str:
    """A booktabs ``table`` environment (``\\toprule``/``\\midrule``/``\\bottomrule``).

    With ``escape=False`` the cells are taken as LaTeX (escape plain parts with
    ``latex_escape``).
    """
    return frame.to_latex(index=False, escape=escape, float_format=float_format.__mod__,
                          caption=caption, label=label, position="htbp",
                          column_format=column_format)


def write_latex_table(path, frame: pd.DataFrame, caption: str, label: str, **kw) -> None:
    io.write_text(path, latex_table(frame, caption, label, **kw))


def save_figure(fig, stem) -> list[Path]:
    """Save ``fig`` as ``stem.pdf`` and ``stem.png`` atomically; return the two paths."""
    stem = Path(stem)
    out = []
    with io.all_or_nothing():
        for ext, meta in ((".pdf", PDF_META), (".png", PNG_META)):
            path = stem.with_suffix(ext)
            with io.atomic_path(path) as tmp:
                fig.savefig(tmp, format=ext[1:], metadata=meta, dpi=150, bbox_inches="tight")
            out.append(path)
    plt.close(fig)
    return out


def bar_chart_with_errors(summary: pd.DataFrame, groups: list[str], metrics: list[str],
                          ylabel: str, title: str):
    """Grouped bars: one group per row ``groups`` label, one bar per metric, +- SE error bars.

    ``summary`` has, per group, columns ``<metric>_mean`` and ``<metric>_se``.
    """
    fig, ax = plt.subplots(figsize=(1.2 + 1.1 * len(groups), 3.2))
    width = 0.8 / len(metrics)
    for i, m in enumerate(metrics):
        xs = [g + (i - (len(metrics) - 1) / 2) * width for g in range(len(groups))]
        ax.bar(xs, summary[f"{m}_mean"], width, yerr=summary[f"{m}_se"], capsize=3,
               label=m.replace("_", " "))
    ax.set_xticks(range(len(groups)), groups, rotation=20)
    lo = float(summary[[f"{m}_mean" for m in metrics]].min().min())
    ax.set_ylim(max(0.0, lo - 0.1), 1.0)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8, loc="lower right")
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    return fig
