"""Tables (LaTeX, booktabs, via pandas) and figures (matplotlib, PDF + PNG) from result frames.

Output bytes are kept stable across runs (no timestamps in PDF or PNG metadata) so that DVC sees
an unchanged figure as unchanged.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from termweight.latex import latex_escape  # noqa: E402,F401  (re-exported)
from termweight.runner import io  # noqa: E402

PDF_META = {"CreationDate": None, "ModDate": None, "Producer": None, "Creator": "termweight"}
PNG_META = {"Software": None}

# --- figure size and type: one place --------------------------------------------------------------
#: the report's page: A4 with 2.2 cm margins (reports/paper.tex's geometry; tests/test_report.py
#: reads the margin from there and checks the rendered pages against these numbers)
PAGE_CM = (21.0, 29.7)
MARGIN_CM = 2.2
TEXT_WIDTH_IN = (PAGE_CM[0] - 2 * MARGIN_CM) / 2.54  # 6.54 in
TEXT_HEIGHT_IN = (PAGE_CM[1] - 2 * MARGIN_CM) / 2.54  # 9.96 in
#: paper.tex's \twfigure places a figure at its own size, shrunk only to fit the line's width or
#: this share of the text height
FIGURE_MAX_HEIGHT_IN = 0.58 * TEXT_HEIGHT_IN
#: the smallest type a printed figure may carry (an A4 page read at arm's length)
MIN_TEXT_PT = 6.0
#: the type of every figure, in points as printed (a figure is drawn at its printed size)
STYLE = {"font.size": 8.0, "axes.titlesize": 8.0, "axes.labelsize": 8.0,
         "xtick.labelsize": 7.0, "ytick.labelsize": 7.0, "legend.fontsize": 7.0,
         "legend.title_fontsize": 7.0, "figure.titlesize": 8.5}
matplotlib.rcParams.update(STYLE)


#: the white border savefig(bbox_inches="tight") keeps around a figure, inches
FIGURE_PAD_IN = 0.1


def figure(nrows: int = 1, ncols: int = 1, *, height: float, width: float = 1.0, **kw):
    """``plt.subplots`` at the size the figure prints: ``width`` a share of the text width (at
    most 1), ``height`` in inches (at most ``FIGURE_MAX_HEIGHT_IN``), each less the border
    ``save_figure`` adds; the type is ``STYLE``."""
    if not 0 < width <= 1 or not 0 < height <= FIGURE_MAX_HEIGHT_IN:
        raise ValueError(f"figure {width} x {height:.2f} in: width is a share of the text width "
                         f"(0, 1], height at most {FIGURE_MAX_HEIGHT_IN:.2f} in")
    pad = 2 * FIGURE_PAD_IN
    return plt.subplots(nrows, ncols, figsize=(width * TEXT_WIDTH_IN - pad, height - pad), **kw)


def wrap(text: str, fig, size: float | None = None) -> str:
    """``text`` broken into lines that fit ``fig``'s width at ``size`` points (default: the
    title's), about 0.55 em a character (DejaVu Sans)."""
    import textwrap

    size = size or matplotlib.rcParams["axes.titlesize"]
    chars = max(20, int(fig.get_size_inches()[0] * 72 / (0.55 * size)))
    return "\n".join(textwrap.fill(line, chars) for line in text.split("\n"))


def legend_below(fig, axes, *, ncol: int, fontsize: float | None = None) -> None:
    """One legend under all panels: every label of ``axes`` once (the first handle drawn for it;
    a series may appear in some panels only), ``ncol`` to a row, the panels laid out above it
    (``tight_layout`` with the rows' height reserved at the bottom)."""
    handles: dict[str, object] = {}
    for ax in np.ravel(axes):
        for h, lab in zip(*ax.get_legend_handles_labels(), strict=True):
            handles.setdefault(lab, h)
    size = fontsize or matplotlib.rcParams["legend.fontsize"]
    rows = -(-len(handles) // ncol)
    fig.tight_layout(rect=(0, (0.1 + rows * 1.6 * size / 72) / fig.get_size_inches()[1], 1, 1))
    fig.legend(list(handles.values()), list(handles), loc="lower center", ncol=ncol,
               fontsize=size, frameon=False)


def printed_type(fig, pad: float = FIGURE_PAD_IN) -> tuple[float, str, float]:
    """(smallest type in points as printed, its text, the scale \\twfigure applies): the figure's
    tight box (``savefig(bbox_inches="tight")``, ``pad`` inches around it) shrunk to the text
    width and ``FIGURE_MAX_HEIGHT_IN`` if larger, times each visible text's size."""
    import matplotlib.text

    renderer = fig.canvas.get_renderer()
    box = fig.get_tightbbox(renderer).padded(pad)
    scale = min(1.0, TEXT_WIDTH_IN / box.width, FIGURE_MAX_HEIGHT_IN / box.height)
    texts = [t for t in fig.findobj(matplotlib.text.Text)
             if t.get_visible() and t.get_text().strip() and t.get_figure() is not None]
    if not texts:
        return float("inf"), "", scale
    small = min(texts, key=lambda t: t.get_fontsize())
    return small.get_fontsize() * scale, small.get_text(), scale


def latex_table(frame: pd.DataFrame, caption: str, label: str, float_format="%.4f",
                column_format: str | None = None, escape: bool = True) -> str:
    """A booktabs ``table`` environment (``\\toprule``/``\\midrule``/``\\bottomrule``).

    With ``escape=False`` the cells are taken as LaTeX (escape plain parts with
    ``latex_escape``). Two-level columns (a ``MultiIndex``) give two header rows, the first
    centred over its group.
    """
    return frame.to_latex(index=False, escape=escape, float_format=float_format.__mod__,
                          caption=caption, label=label, position="htbp",
                          column_format=column_format, multicolumn_format="c")


def write_latex_table(path, frame: pd.DataFrame, caption: str, label: str, **kw) -> None:
    io.write_text(path, latex_table(frame, caption, label, **kw))


def save_figure(fig, stem, data: bool = True) -> list[Path]:
    """Save ``fig`` as ``stem.pdf`` and ``stem.png`` and, with ``data``, the plotted numbers as
    ``stem.csv`` (``figure_data``: what ``dvc plots diff`` compares), all or none; return the
    paths."""
    stem = Path(stem)
    fig.canvas.draw()
    size, text, scale = printed_type(fig)
    if size < MIN_TEXT_PT - 1e-6:
        plt.close(fig)
        raise ValueError(f"{stem}.pdf: the text {text!r} would print at {size:.1f} pt (figure "
                         f"shrunk to {scale:.0%} to fit the page), below {MIN_TEXT_PT:g} pt: draw "
                         "it with reporting.figure at its printed size and the type of STYLE")
    # the PDF says its smallest type as drawn: tests/test_report.py checks every committed figure
    # at the size paper.tex places it
    pdf_meta = PDF_META | {"Subject": f"termweight figure; smallest type {size / scale:.2f} pt"}
    out = []
    with io.all_or_nothing():
        for ext, meta in ((".pdf", pdf_meta), (".png", PNG_META)):
            path = stem.with_suffix(ext)
            with io.atomic_path(path) as tmp:
                fig.savefig(tmp, format=ext[1:], metadata=meta, dpi=150, bbox_inches="tight",
                            pad_inches=FIGURE_PAD_IN)
            out.append(path)
        if data:
            io.write_table(stem.with_suffix(".csv"), figure_data(fig))
            out.append(stem.with_suffix(".csv"))
    plt.close(fig)
    return out


FIGURE_DATA_COLUMNS = ("panel", "series", "x", "y", "label")


def _category_ticks(positions, labels):
    """x -> the text of the tick nearest to x (within half the tick spacing) when the ticks name
    categories; "" for numeric ticks."""
    pos = np.asarray(positions, dtype=float)
    texts = [t.get_text() for t in labels]

    def numeric(text):
        try:
            float(text.replace("\N{MINUS SIGN}", "-"))
        except ValueError:
            return False
        return True

    if len(pos) == 0 or all(numeric(t) or not t for t in texts):
        return lambda x: ""
    half = np.min(np.diff(np.sort(pos))) / 2 if len(pos) > 1 else 0.5

    def label(x):
        i = int(np.argmin(np.abs(pos - x)))
        return texts[i] if abs(pos[i] - x) <= half else ""

    return label


def figure_data(fig) -> pd.DataFrame:
    """The numbers a drawn figure shows, one row per point: ``panel`` (the axes' title, else
    ``axes<i>``), ``series`` (the legend label, else ``line<j>``/``bars<j>``), ``x``, ``y`` and
    ``label`` (the tick label at ``x``, for categories).

    Read from the artists in data coordinates: lines (``plot``, the data line of ``errorbar``)
    and bars (``bar``: x = position, y = height; ``barh``: x = position, y = width). Reference
    lines drawn in axes coordinates (``axhline``), shaded bands and error bars are left out.
    """
    from matplotlib.container import BarContainer, ErrorbarContainer

    rows = []
    for i, ax in enumerate(fig.get_axes()):
        panel = ax.get_title() or f"axes{i}"
        skip, names = set(), {}
        for c in ax.containers:
            if isinstance(c, ErrorbarContainer):
                line, caps, _ = c.lines
                skip.update(map(id, caps))
                if line is not None:
                    names[id(line)] = c.get_label()
        ticks = {"x": _category_ticks(ax.get_xticks(), ax.get_xticklabels()),
                 "y": _category_ticks(ax.get_yticks(), ax.get_yticklabels())}
        for j, line in enumerate(ax.get_lines()):
            if id(line) in skip or line.get_transform() != ax.transData:
                continue
            name = names.get(id(line), line.get_label())
            series = f"line{j}" if name.startswith("_") else name
            x = np.asarray(line.get_xdata(), dtype=float)
            y = np.asarray(line.get_ydata(), dtype=float)
            rows += [(panel, series, a, b, ticks["x"](a)) for a, b in zip(x, y, strict=True)]
        for j, c in enumerate(ax.containers):
            if not isinstance(c, BarContainer):
                continue
            series = f"bars{j}" if c.get_label().startswith("_") else c.get_label()
            horizontal = c.orientation == "horizontal"
            for patch in c.patches:
                if horizontal:
                    pos, value, axis = patch.get_y() + patch.get_height() / 2, patch.get_width(), "y"
                else:
                    pos, value, axis = patch.get_x() + patch.get_width() / 2, patch.get_height(), "x"
                rows.append((panel, series, pos, value, ticks[axis](pos)))
    return pd.DataFrame(rows, columns=list(FIGURE_DATA_COLUMNS))


def bar_chart_with_errors(summary: pd.DataFrame, groups: list[str], metrics: list[str],
                          ylabel: str, title: str):
    """Grouped bars: one group per row ``groups`` label, one bar per metric, +- SE error bars.

    ``summary`` has, per group, columns ``<metric>_mean`` and ``<metric>_se``.
    """
    fig, ax = figure(height=3.0, width=min(1.0, (1.2 + 0.9 * len(groups)) / TEXT_WIDTH_IN))
    width = 0.8 / len(metrics)
    for i, m in enumerate(metrics):
        xs = [g + (i - (len(metrics) - 1) / 2) * width for g in range(len(groups))]
        ax.bar(xs, summary[f"{m}_mean"], width, yerr=summary[f"{m}_se"], capsize=3,
               label=m.replace("_", " "))
    ax.set_xticks(range(len(groups)), groups, rotation=20)
    lo = float(summary[[f"{m}_mean" for m in metrics]].min().min())
    ax.set_ylim(max(0.0, lo - 0.1), 1.0)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(loc="lower right")
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    return fig
