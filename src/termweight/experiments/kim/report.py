"""Kim (2016) report: Tables 1-3 beside the published numbers, figures, metrics and macros.

``kim-report`` reads the per-split test counts of ``kim-fit`` (src/termweight/experiments/kim/__init__.py)
for every dataset key of ``kim:``, and the ``kim-convergence`` traces, and writes
``reports/tables/kim_<key>.tex`` (mean +- sd over the runs of micro-F, Kim's macro-F
``2P'R'/(P'+R')`` and the mean of per-problem F1, with the paper's Table 1-3 numbers beside ours,
labelled "published"), ``reports/figures/kim_per_problem.{pdf,png}`` (per-problem F1, the five
bases vs the two combinations), ``reports/figures/kim_convergence.{pdf,png}`` (its time axis is
measured, so it is not byte-reproducible), ``reports/metrics/kim.json`` and
``reports/macros/kim.tex``. Kept apart from the protocol module so that editing a report does not
invalidate the (expensive) fits. Before it writes anything, it checks what it reads against the
params (``_read_inputs``, ``termweight.results_check``): a missing, duplicated, non-finite or
out-of-range cell is one line naming the file and the cell, exit status 2, nothing written.

Data (documented choices): R8 is Cardoso-Cachopo's ``r8-*-all-terms`` (7,674 documents; the paper:
"about 7,000"), WebKB her ``webkb-*-stemmed`` (4,199 pages, 4 classes; the only WebKB variant in
the mirror), 20 Newsgroups the bydate postings (18,846): subject and body as distributed (key
``news20``, the text the paper points to; the primary verdicts) and without headers, quotes and
signatures (``news20_stripped``, a sensitivity row whose verdicts are stated beside the primary
ones where they differ). The splits are random 50/50 partitions of one pool, so every test over
them is the corrected resampled t of Nadeau & Bengio (2003; ``termweight.inference``). All three go
through the generic ``prepare_text -> tokenize -> count`` steps, i.e. our tokenizer (stop list +
Porter) runs on the Cachopo files too: R8 all-terms is unstemmed (23,585 distinct words -> 17,609
stems; the paper: ~16,000), and on the already-stemmed WebKB a second Porter pass changes 260 of
its 7,770 distinct stems (3.3%, e.g. ``decreas -> decrea``) and the stop list drops 59, leaving
7,649 terms (the paper: ~8,000). Re-stemming was kept for one uniform pipeline; its effect is a few
merged rare stems.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from termweight.experiments.kim import (
    BASE_METHODS,
    COMBINED,
    LABELS,
    _config,
    c_values,
    log,
    mean_sd,
    methods_of,
    run_summary,
    settings_of,
    split_names_of,
)
from termweight.experiments.kim.claims import (
    SENSITIVITY,
    averaging_probe,
    kim_claims,
    paired,
    split_ratio,
    text_sensitivity,
)
from termweight.results_check import (
    NONNEGATIVE,
    REAL,
    UNIT,
    check_cells,
    check_count,
    check_mapping,
    check_range,
)
from termweight.runner import io

PUBLISHED = Path(__file__).with_name("published.json")


# --- report -------------------------------------------------------------------------------------

def _fmt(m, s) -> str:
    return f"{m:.4f} $\\pm$ {s:.4f}"


def _macro_name(*parts) -> str:
    words = {"0": "zero", "1": "one", "2": "two", "3": "three", "4": "four", "5": "five",
             "6": "six", "7": "seven", "8": "eight", "9": "nine"}
    out = []
    for p in parts:
        s = "".join(words.get(ch, ch) if ch.isalnum() else " " for ch in str(p))
        out.append("".join(w[0].upper() + w[1:] for w in s.split()))
    return "Kim" + "".join(out)


def _summaries(runs: pd.DataFrame, published: dict) -> dict:
    summary = {}
    for (key, method), grp in runs.groupby(["dataset", "method"], sort=False):
        row = {"runs": int(grp["split"].nunique())}
        for col in ("micro_f", "kim_macro_f", "macro_f1"):
            row[col], row[f"{col}_sd"] = (round(v, 6) for v in mean_sd(grp[col]))
        pub = published.get(SENSITIVITY.get(key, key), {}).get("methods", {}).get(method)
        if pub:
            row["published_micro_f"], row["published_micro_f_sd"] = pub["micro_f"]
            row["published_macro_f"], row["published_macro_f_sd"] = pub["macro_f"]
        summary.setdefault(key, {})[method] = row
    return summary


def versus_best_base(runs: pd.DataFrame, ratio: float) -> dict:
    """The paper's claim, tested: each combination against the best single weighting of its key.

    Per dataset key with base methods: ``best`` = the base with the highest mean micro-F; for each
    combination, ``diff`` = mean over splits of (combination - best) micro-F, ``p`` = two-sided
    corrected resampled t-test over the splits (``paired``; ``ratio`` = n_test / n_train; None
    with fewer than 2 splits or constant differences), ``wins`` = splits where the combination is
    higher.
    """
    out = {}
    for key, grp in runs.groupby("dataset", sort=False):
        table = grp.pivot(index="split", columns="method", values="micro_f")
        bases = [m for m in BASE_METHODS if m in table]
        if not bases:
            continue
        best = max(bases, key=lambda m: table[m].mean())
        for method in (m for m in COMBINED if m in table):
            s = paired(table[method], table[best], ratio)
            out.setdefault(key, {})[method] = {"best": best, "diff": round(s["diff"], 6),
                                               "p": s["p"], "wins": s["wins"],
                                               "splits": s["n"]}
    return out


def _p_text(p) -> str:
    if p is None:
        return "$p$ n/a"
    return "$p < 0.001$" if p < 0.001 else f"$p = {p:.3f}$"


def _variant(kim: dict, key: str) -> str:
    """What dataset key ``key`` overrides (methods, C grid, mini-max settings), or ''."""
    d = kim["datasets"][key]
    # a methods list naming every method of the paper's tables is no variant (news20 drops only
    # the subgradient solver, for its cost)
    paper = {*BASE_METHODS, "mix-ch", "mini-max"}
    parts = [f"{n}: {v}" for n in ("methods", "C_grid") if n in d
             and not (n == "methods" and paper <= set(d[n]))
             for v in [", ".join(map(str, d[n]))]]
    parts += [f"minimax {n} = {v}" for n, v in d.get("minimax", {}).items()]
    if "tf_norm" in d:
        parts.append(f"documents: {'raw tf' if d['tf_norm'] == 'none' else 'tf/||tf||'}")
    return "; ".join(parts)


def gap_note(gaps: list[dict], key: str) -> str:
    """One sentence per kind of gap of dataset ``key`` (the first cause of each kind), for the
    table's caption: single weightings, mix-ch, mini-max, and R8's macro-F."""
    rows = [g for g in gaps if g["dataset"] == key]
    if not rows:
        return ""
    out = []
    for label, pick in (("single weightings", lambda g: g["method"] in BASE_METHODS),
                        ("mix-ch", lambda g: g["method"] == "mix-ch"),
                        ("mini-max", lambda g: g["method"] == "mini-max")):
        sel = [g for g in rows if pick(g) and g["quantity"] == "micro_f"]
        if sel:
            d = [g["diff"] for g in sel]
            cause = sel[0]["cause"].split("; and the paper's R8")[0]
            out.append(f"{label} micro-F {min(d):+.4f} to {max(d):+.4f} from the published "
                       f"({cause})")
    macro = [g for g in rows if g["quantity"] == "macro_f" and "R8 macro-F" in g["cause"]]
    if macro:
        out.append("macro-F: " + macro[0]["cause"].split("; and ")[-1])
    return "Gaps: " + "; ".join(out) + "."


def _table(path, key, rows: dict, dataset_info: dict, pub_table: dict | None,
           variant: str = "", note: str = "") -> None:
    from termweight.reporting import latex_escape, write_latex_table

    frame = pd.DataFrame({
        "Method": [latex_escape(LABELS.get(m, m)) for m in rows],
        "Micro-F": [_fmt(r["micro_f"], r["micro_f_sd"]) for r in rows.values()],
        "Micro-F (published)": [_fmt(r["published_micro_f"], r["published_micro_f_sd"])
                                if "published_micro_f" in r else "--" for r in rows.values()],
        "Macro-F": [_fmt(r["kim_macro_f"], r["kim_macro_f_sd"]) for r in rows.values()],
        "Macro-F (published)": [_fmt(r["published_macro_f"], r["published_macro_f_sd"])
                                if "published_macro_f" in r else "--" for r in rows.values()],
        "mean F1": [_fmt(r["macro_f1"], r["macro_f1_sd"]) for r in rows.values()],
    })
    n = next(iter(rows.values()))["runs"]
    published = (f"Published: Kim (2016) {latex_escape(pub_table['source'])}." if pub_table
                 else "The paper has no such table.")
    label = (f"{latex_escape(dataset_info['name'])}, variant \\texttt{{{latex_escape(key)}}} "
             f"({latex_escape(variant)})" if variant else latex_escape(dataset_info["name"]))
    caption = (f"{label} ({dataset_info['docs']:,} documents, "
               f"{dataset_info['classes']} one-vs-others problems): test F-scores, mean $\\pm$ sd "
               f"over {n} random 50/50 splits, C by hold-out validation in the training half. "
               f"Macro-F is Kim's $2P'R'/(P'+R')$; mean F1 is the mean of per-problem F1. "
               f"{published} {latex_escape(note)}")
    write_latex_table(path, frame, caption, f"tab:kim_{key}", escape=False)


def _panels(kim: dict, keys: list[str]) -> dict[str, list[str]]:
    """Figure panels: a variant key (one with overrides) joins the panel of the plain key of its
    corpus (same splits and problems), a ``SENSITIVITY`` key the panel of its paper key (the same
    documents and problems, another text), else it gets a panel of its own."""
    plain = {}
    for k in keys:
        if not _variant(kim, k):
            plain.setdefault(kim["datasets"][k]["dataset"], k)
    panels: dict[str, list[str]] = {}
    for k in keys:
        host = plain.get(kim["datasets"][k]["dataset"], k) if _variant(kim, k) else k
        if k in SENSITIVITY and SENSITIVITY[k] in keys:  # another text of the same corpus
            host = SENSITIVITY[k]
        panels.setdefault(host, []).append(k)
    return panels


def _per_problem_figure(fits: pd.DataFrame, panels: dict[str, list[str]], stem) -> None:
    from termweight.reporting import FIGURE_MAX_HEIGHT_IN, figure, legend_below, save_figure

    per = fits.copy()
    denom = 2 * per["tp"] + per["fp"] + per["fn"]
    per["f1"] = np.where(denom > 0, 2 * per["tp"] / denom.where(denom > 0, 1), 0.0)
    keys = list(panels)
    fig, axes = figure(len(keys), 1, height=FIGURE_MAX_HEIGHT_IN if len(keys) > 2
                       else 1.7 * len(keys) + 1.0, squeeze=False)
    colors = {"mix-ch": "tab:red", "mini-max": "tab:blue", "mini-max-sg": "tab:cyan"}
    markers = {"idf": "o", "chi2": "s", "ig": "^", "rf": "v", "or": "D"}
    for ax, key in zip(axes[:, 0], keys, strict=True):
        sub = per[per["dataset"] == key]
        tasks = list(dict.fromkeys(sub["task"].astype(str)))
        mean = sub.groupby(["method", "task"], sort=False)["f1"].mean()
        xs = np.arange(len(tasks))
        for method in dict.fromkeys(sub["method"]):
            ys = [mean[(method, t)] for t in tasks]
            if method in markers:
                ax.plot(xs, ys, linestyle="none", marker=markers[method], color="0.55",
                        markersize=4, label=method)
            else:
                ax.plot(xs, ys, marker="o", markersize=4, lw=1.6, color=colors.get(method, "k"),
                        label=LABELS.get(method, method))
        for var in panels[key][1:]:  # variants on the same splits: dashed
            vsub = per[per["dataset"] == var]
            vmean = vsub.groupby(["method", "task"], sort=False)["f1"].mean()
            for method in dict.fromkeys(vsub["method"]):
                if var in SENSITIVITY and method not in colors:
                    continue  # another text: its combinations only, the panel stays readable
                ys = [vmean.get((method, t), np.nan) for t in tasks]
                ax.plot(xs, ys, marker="x", markersize=4, lw=1.2, ls="--",
                        color=colors.get(method, "k"), label=f"{LABELS.get(method, method)} ({var})")
        ax.set_xticks(xs, tasks, rotation=35 if len(tasks) > 8 else 0, ha="right"
                      if len(tasks) > 8 else "center")
        ax.set_ylabel("test F1")
        n = sub["split"].nunique()
        ax.set_title(f"{key}: per-problem test F1 (mean over {n} split{'s' if n > 1 else ''})")
        ax.grid(alpha=0.3)
    legend_below(fig, axes[:, 0], ncol=4, fontsize=6)  # every method and variant once
    save_figure(fig, stem)


def _convergence_figure(conv: dict, stem) -> None:
    from termweight.reporting import FIGURE_MAX_HEIGHT_IN, figure, save_figure

    runs = conv["runs"]
    fig, axes = figure(len(runs), 3, height=min(FIGURE_MAX_HEIGHT_IN, 2.4 * len(runs)),
                       squeeze=False)
    for i, (row, r) in enumerate(zip(axes, runs, strict=True)):
        C, mx, sg, ex = r["C"], r["mixch"], r["subgradient"], r["exact"]
        ax = row[0]
        it = np.arange(1, len(mx["objective"]) + 1)
        ax.plot(it, mx["objective"], "o-", label="after SVM step")
        ax.plot(it, mx["objective_after_alpha"], "s--", label="after alpha (LP) step")
        ax.set_xlabel("mix-ch round")
        ax.set_ylabel("objective (Kim's scale)")
        ax.set_title(f"mix-ch, C={C:g}")
        ax2 = ax.twinx()
        alpha = np.asarray(mx["alpha"])
        for j, name in enumerate(conv["bases"]):
            ax2.plot(it, alpha[:, j], ":", lw=1, label=f"alpha {name}")
        ax2.set_ylim(-0.02, 1.02)
        ax2.set_ylabel("alpha")
        if i == 0:  # one legend per panel kind: the rows differ only in C
            ax.legend(fontsize=6, loc="upper right")
            ax2.legend(fontsize=6, loc="center right")
        lb = ex["lower_bound"][-1]
        for ax, xkey, xlabel in ((row[1], None, "iteration"), (row[2], "time", "seconds")):
            for name, h, style in (("subgradient (1/k)", sg, "-"), ("exact (bundle)", ex, "-")):
                x = (np.arange(1, len(h["objective"]) + 1) if xkey is None
                     else np.asarray(h["time"]))
                rel = np.maximum((np.asarray(h["best_objective"]) - lb) / abs(lb), 1e-7)
                ax.plot(x, rel, style, label=f"{name}: best so far")
            x = (np.arange(1, len(ex["lower_bound"]) + 1) if xkey is None
                 else np.asarray(ex["time"]))
            gap = np.maximum((np.asarray(ex["best_objective"]) - np.asarray(ex["lower_bound"]))
                             / abs(lb), 1e-7)
            ax.plot(x, gap, "--", color="0.4", label="exact: certified gap")
            ax.set_yscale("log")
            ax.set_xscale("log")
            ax.set_xlabel(xlabel)
            ax.set_ylabel("(F - F*) / F*")
            ax.set_title(f"mini-max objective, C={C:g}")
            ax.grid(alpha=0.3, which="both")
            if i == 0:
                ax.legend(fontsize=6)
    fig.suptitle(f"{conv['dataset']} {conv['split']}, task '{conv['task']}' "
                 f"({conv['n_docs']} training docs, {conv['n_terms']} terms)")
    fig.tight_layout()
    save_figure(fig, stem)


# --- the inputs, checked against the params (termweight.results_check) --------------------------

#: the test counts of a kim-fit table
COUNTS = ("tp", "fp", "fn", "tn")
#: per run of the kim-convergence JSON: the numbers the report quotes, with their ranges
CONV_SCALARS = {**{f"{s} test_f1": UNIT for s in ("mixch", "subgradient", "exact")},
                **{f"{s} time_s": NONNEGATIVE for s in ("mixch", "subgradient", "exact")},
                "mixch n_iter": NONNEGATIVE, "exact n_iter": NONNEGATIVE}
#: per run and solver: the traces the convergence figure draws (one value per round or iteration)
CONV_TRACES = {"mixch": {"objective": NONNEGATIVE, "objective_after_alpha": NONNEGATIVE,
                         "alpha": UNIT},
               "subgradient": {"objective": NONNEGATIVE, "best_objective": NONNEGATIVE,
                               "time": NONNEGATIVE},
               "exact": {"objective": NONNEGATIVE, "best_objective": NONNEGATIVE,
                         "lower_bound": REAL, "time": NONNEGATIVE}}


def _read_fits(args, kim: dict, key: str, classes) -> list[pd.DataFrame]:
    """The kim-fit tables of dataset ``key``, one per split of its protocol, each checked: every
    (split, method, task) of the split x ``methods_of`` x the corpus classes exactly once, the
    counts and C finite and >= 0, C on the key's C grid, ``fit_time`` finite and >= 0 where a
    model was fitted (status ``ok``: a constant prediction has none)."""
    from termweight.runner.errors import DataError

    methods = methods_of(kim, key)
    grid = [c for part in c_values(settings_of(kim, key)) for c in part]
    frames = []
    for name in split_names_of(kim, key):
        path = args.fits.format(key=key, split=name)
        f = io.read_table(path, required=("status", "fit_time"))
        cells = {"split": [name], "method": methods, "task": classes}
        g = f.copy()
        g["fit_time"] = g["fit_time"].where(g["status"].astype(str) == "ok", 0.0)
        g = check_cells(path, g, cells, dict.fromkeys((*COUNTS, "C", "fit_time"), NONNEGATIVE))
        off = np.flatnonzero(~g["C"].isin(grid))
        if off.size:
            i = int(off[0])
            cell = ", ".join(f"{k}={g[k].astype(str).iloc[i]}" for k in cells)
            raise DataError(path, f"'C' at ({cell}) = {g['C'].iloc[i]:g} is not on the C grid "
                            f"of {key} ({', '.join(f'{c:g}' for c in grid)})", line=i + 2)
        f.insert(0, "dataset", key)
        frames.append(f)
    return frames


def _json_cells(path, frame, cells, measures, **kw):
    """``check_cells`` on rows taken from a JSON file: its message counts entries (from 1), not
    CSV lines."""
    import re

    from termweight.runner.errors import DataError

    try:
        return check_cells(path, frame, cells, measures, **kw)
    except DataError as exc:
        detail = re.sub(r"\(lines (\d+) and (\d+)\)",
                        lambda m: f"(entries {int(m[1]) - 1} and {int(m[2]) - 1})", exc.detail)
        raise DataError(path, detail) from None


def _num(value) -> str:
    """A C value as a cell name: ``1.0`` and ``1`` alike."""
    try:
        return f"{float(value):g}" if not isinstance(value, bool) else repr(value)
    except (TypeError, ValueError):
        return repr(value)


def _trace(path, values, name: str, bounds, where: str) -> int:
    """One trace of the convergence JSON: a non-empty array of finite numbers within ``bounds``;
    returns its length."""
    from termweight.runner.errors import DataError

    try:
        if np.asarray(values).dtype.kind in "USb":  # text or true/false: no numbers
            raise ValueError
        a = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise DataError(path, f"{name} at {where} is not an array of numbers") from None
    if a.ndim == 0 or a.size == 0:
        raise DataError(path, f"{name} at {where} is missing or empty")
    lo, hi = bounds
    with np.errstate(invalid="ignore"):
        bad = ~np.isfinite(a) | (a < lo) | (a > hi)
    if bad.any():
        i = np.unravel_index(int(np.flatnonzero(bad)[0]), a.shape)
        check_range(path, f"{name}[{', '.join(map(str, i))}]", a[i], bounds, where=where)
    return len(a)


def _check_convergence(path, conv, cv: dict) -> dict:
    """The kim-convergence JSON against ``kim.convergence``: its dataset, split and task; one run
    per declared C, each once; per run the test F1 of mix-ch, the subgradient and the exact
    solver in [0, 1], times and iteration counts >= 0 (``CONV_SCALARS``), every drawn trace
    finite, in range and as long as the others of its solver (``CONV_TRACES``; mix-ch's alpha one
    value per base), the exact solver's last lower bound > 0 (the relative excess divides by
    it)."""
    from termweight.runner.errors import DataError

    check_mapping(path, conv, ("dataset", "split", "task", "n_docs", "n_terms", "bases", "runs"),
                  "kim-convergence")
    for name in ("dataset", "split", "task"):
        if str(conv[name]) != str(cv[name]):
            raise DataError(path, f"{name} {conv[name]!r}: the params (kim.convergence.{name}) "
                            f"declare {cv[name]!r}")
    runs = conv["runs"]
    if not isinstance(runs, list) or not all(
            isinstance(r, dict) and all(isinstance(r.get(s), dict) for s in CONV_TRACES)
            for r in runs):
        raise DataError(path, "runs: expected a list of objects, each with "
                        + ", ".join(map(repr, CONV_TRACES)))
    frame = pd.DataFrame([{"C": _num(r.get("C")), **{m: r[m.split()[0]].get(m.split()[1])
                                                     for m in CONV_SCALARS}} for r in runs],
                         columns=["C", *CONV_SCALARS])
    _json_cells(path, frame, {"C": [_num(c) for c in cv["C"]]}, CONV_SCALARS)
    for r in runs:
        where = f"(C={_num(r['C'])})"
        for solver, traces in CONV_TRACES.items():
            n = {m: _trace(path, r[solver].get(m), f"{solver} {m}", b, where)
                 for m, b in traces.items()}
            if len(set(n.values())) > 1:
                raise DataError(path, f"{solver} at {where}: traces of different lengths {n}")
        if np.shape(r["mixch"]["alpha"])[1:] != (len(conv["bases"]),):
            raise DataError(path, f"mixch alpha at {where}: not one value per base "
                            f"({len(conv['bases'])})")
        if r["exact"]["lower_bound"][-1] <= 0:
            raise DataError(path, f"exact lower_bound at {where} ends at "
                            f"{r['exact']['lower_bound'][-1]:g}: the relative excess over it "
                            f"needs a bound > 0")
        if "converged" not in r["exact"]:
            raise DataError(path, f"exact at {where}: 'converged' is missing")
    return conv


def _check_probe(path, probe, keys) -> dict:
    """benchmarks/probe_kim_single_sg.py's JSON: each dataset key of the params at most once; in
    the run of such a key every single weighting exactly once, the published micro-F and the
    subgradient micro-F of every step budget finite and in [0, 1]."""
    from termweight.runner.errors import DataError

    check_mapping(path, probe, ("steps", "runs"), "probe")
    steps, runs = probe["steps"], probe["runs"]
    if not (isinstance(steps, list) and isinstance(runs, list)
            and all(isinstance(r, dict) and isinstance(r.get("rows"), list)
                    and all(isinstance(x, dict) for x in r["rows"]) for r in runs)):
        raise DataError(path, "expected 'steps' and 'runs' lists, each run with a list of 'rows'")
    try:
        cols = ["published_micro_f", *(f"sg{int(n)}_micro_f" for n in steps)]
    except (TypeError, ValueError):
        raise DataError(path, f"steps: expected whole numbers, found {steps!r}") from None
    _json_cells(path, pd.DataFrame({"key": [str(r.get("key")) for r in runs]}, dtype=object),
                {"key": keys}, {}, complete=False, extra_ok=True)
    for r in (r for r in runs if r.get("key") in keys):
        rows = pd.DataFrame(r["rows"], columns=list(dict.fromkeys(["method", *cols, *(
            k for x in r["rows"] for k in x)])))
        _json_cells(path, rows.assign(key=r["key"]), {"key": [r["key"]],
                                                      "method": list(BASE_METHODS)},
                    dict.fromkeys(cols, UNIT))
    return probe


def _read_inputs(args, kim: dict, keys) -> tuple:
    """Everything the report reads, checked before anything is written: the corpus facts per
    dataset key, the kim-fit tables (``_read_fits``), the convergence JSON
    (``_check_convergence``) and the optional sg probe (``_check_probe``). Returns
    ``(fits, info, conv, sg_probe)``."""
    frames, info = [], {}
    for key in keys:
        meta = io.read_json(args.meta.format(dataset=kim["datasets"][key]["dataset"]))
        info[key] = {"name": meta["name"], "docs": int(meta["n_docs"]),
                     "classes": len(meta["classes"]), "terms": int(meta["n_terms"])}
        frames += _read_fits(args, kim, key, meta["classes"])
    fits = pd.concat(frames, ignore_index=True)
    fits["task"] = fits["task"].astype(str)
    conv = _check_convergence(args.convergence, io.read_json(args.convergence),
                              kim["convergence"])
    sg_probe = (_check_probe(args.sg_probe, io.read_json_object(args.sg_probe), keys)
                if args.sg_probe else None)
    return fits, info, conv, sg_probe


def _solver_rows(conv: dict) -> list[dict]:
    """The kim-convergence runs as the report quotes them: the subgradient method against the
    exact optimum, per C."""
    solver = []
    for r in conv["runs"]:
        sg, ex = r["subgradient"], r["exact"]
        solver.append({"C": r["C"], "subgradient_iterations": len(sg["objective"]) - 1,
                       "subgradient_objective": sg["best_objective"][-1],
                       "subgradient_time_s": round(sg["time_s"], 3),
                       "exact_iterations": r["exact"]["n_iter"],
                       "exact_objective": ex["best_objective"][-1],
                       "exact_lower_bound": ex["lower_bound"][-1],
                       "exact_converged": ex["converged"], "exact_time_s": round(ex["time_s"], 3),
                       "subgradient_excess_rel": (sg["best_objective"][-1] - ex["lower_bound"][-1])
                       / abs(ex["lower_bound"][-1]),
                       "mixch_rounds": r["mixch"]["n_iter"],
                       "mixch_alpha": r["mixch"]["alpha"][-1],
                       "test_f1": {"mix-ch": r["mixch"]["test_f1"],
                                   "subgradient": sg["test_f1"], "exact": ex["test_f1"]}})
    return solver


def cmd_report(args) -> None:
    """kim-report: every input checked against the params (``_read_inputs``), then the tables,
    figures, metrics and macros, written together or not at all."""
    params = _config(args.params)
    kim = params["kim"]
    published = json.loads(PUBLISHED.read_text(encoding="utf-8"))["tables"]
    keys = list(kim["datasets"])
    fits, info, conv, sg_probe = _read_inputs(args, kim, keys)  # checked: nothing written yet
    # the splits read per key, as the captions, metrics and macros state them
    n_splits = {k: int(fits.loc[fits["dataset"] == k, "split"].nunique()) for k in keys}
    for k in keys:
        check_count(args.fits, f"splits of {k}", len(split_names_of(kim, k)), n_splits[k])
    runs = run_summary(fits)
    summary = _summaries(runs, published)
    solver = _solver_rows(conv)
    claims, gaps, micro_macro = kim_claims(runs, fits, published, kim, solver, sg_probe)
    sensitivity = text_sensitivity(runs, fits, published, kim, claims, solver, sg_probe)
    fit_cost = fits.groupby(["dataset", "method"], sort=False)["fit_time"].mean()
    alphas = fits[fits["method"] == "mix-ch"]["alpha"].dropna().astype(str)
    uniform = float(np.mean([np.allclose([float(a) for a in s.split(";")], 0.2, atol=1e-3)
                             for s in alphas])) if len(alphas) else float("nan")
    c_sets = {k: c_values(settings_of(kim, k)) for k in keys}
    grids = {k: g for k, (g, _) in c_sets.items()}
    # share of the (split, method, task) fits whose chosen C is each value tried (edge check)
    chosen_c = {k: {f"{c:g}": round(float(np.mean(fits.loc[fits["dataset"] == k, "C"] == c)), 4)
                    for c in g + e} for k, (g, e) in c_sets.items()}
    versus = versus_best_base(runs, split_ratio(kim))
    conv_rows = runs.groupby(["dataset", "method"], sort=False)[
        ["fits", "unconverged", "finished"]].sum()
    convergence = {f"{k}/{m}": {"fits": int(r["fits"]), "unconverged": int(r["unconverged"]),
                                "finished": int(r["finished"])}
                   for (k, m), r in conv_rows.iterrows()}
    metrics = {"experiment": "kim", "datasets": {k: {**info[k], "runs": n_splits[k],
                                                     "C_grid": grids[k], "C_extend": c_sets[k][1],
                                                     "chosen_C": chosen_c[k],
                                                     "methods": summary[k]} for k in keys},
               "solver_comparison": {"dataset": conv["dataset"], "task": conv["task"],
                                     "rows": solver},
               "mixch_uniform_alpha_fraction": round(uniform, 4),
               "versus_best_base": versus,
               "averaging_probe": averaging_probe(runs, fits, published, keys),
               "mean_fit_time_s": {f"{k}/{m}": round(float(v), 4)
                                   for (k, m), v in fit_cost.items()},
               "convergence": convergence,
               "micro_macro": micro_macro,
               "gaps": gaps,
               "text_sensitivity": sensitivity,
               "claims": claims}
    # headline numbers for the report's published-vs-reproduced summary (termweight report)
    metrics["headline"] = {f"{k}/{m}/{col}": r[src] for k in keys for m, r in summary[k].items()
                           for col, src in (("micro_f", "micro_f"), ("macro_f", "kim_macro_f"))}
    lines = _macro_lines(kim, metrics, uniform)
    tables = Path(args.tables)
    with io.all_or_nothing():  # every output, or none
        io.write_table(args.out_runs, runs)
        for key in keys:
            _table(tables / f"kim_{key}.tex", key, summary[key], info[key],
                   published.get(SENSITIVITY.get(key, key)),
                   _variant(kim, key) or (f"sensitivity: {kim['datasets'][key]['dataset']}, "
                                          f"headers, quotes and signatures removed"
                                          if key in SENSITIVITY else ""), gap_note(gaps, key))
        _per_problem_figure(fits, _panels(kim, keys), Path(args.figures) / "kim_per_problem")
        _convergence_figure(conv, Path(args.figures) / "kim_convergence")
        io.write_json(args.out_json, metrics)
        io.write_text(args.macros, "\n".join(lines) + "\n")
    log.info("report: %d datasets, %d runs, tables in %s", len(keys), len(runs), tables)


def _macro_lines(kim: dict, metrics: dict, uniform: float) -> list[str]:
    """The lines of reports/macros/kim.tex: the numbers of ``metrics`` the report quotes
    (``uniform``: the unrounded share of uniform mix-ch alphas)."""
    from termweight.reporting import latex_escape

    lines = ["% Kim (2016) reproduction: numbers quoted by the report (generated; do not edit)."]

    def macro(name, value):
        lines.append(f"\\newcommand{{\\{name}}}{{{value}}}")

    macro(_macro_name("validation", "percent"), f"{100 * float(kim['validation']['fraction']):g}")
    for key, d in metrics["datasets"].items():
        macro(_macro_name(key, "runs"), d["runs"])
        macro(_macro_name(key, "docs"), f"{d['docs']:,}".replace(",", "{,}"))
        macro(_macro_name(key, "terms"), f"{d['terms']:,}".replace(",", "{,}"))
        macro(_macro_name(key, "C", "grid"), ", ".join(f"{c:g}" for c in d["C_grid"]))
        # chosen at the grid's top or above it (the extension entered), and at the last value
        top = d["C_grid"][-1]
        at_top = sum(v for c, v in d["chosen_C"].items() if float(c) >= top)
        macro(_macro_name(key, "top", "C", "percent"), f"{100 * at_top:.0f}")
        macro(_macro_name(key, "C", "extend"), ", ".join(f"{c:g}" for c in d.get("C_extend", []))
              or "none")
        last = f"{(d['C_grid'] + d.get('C_extend', []))[-1]:g}"
        macro(_macro_name(key, "last", "C", "percent"), f"{100 * d['chosen_C'][last]:.0f}")
        for method, r in d["methods"].items():
            for col, label in (("micro_f", "MicroF"), ("kim_macro_f", "MacroF"),
                               ("macro_f1", "MeanFone")):
                macro(_macro_name(key, method, label), f"{r[col]:.4f}")
                macro(_macro_name(key, method, label, "sd"), f"{r[f'{col}_sd']:.4f}")
            if "published_micro_f" in r:
                macro(_macro_name(key, method, "pub", "MicroF"), f"{r['published_micro_f']:.4f}")
                macro(_macro_name(key, method, "pub", "MacroF"), f"{r['published_macro_f']:.4f}")
    versus = metrics["versus_best_base"]
    for key, methods in versus.items():
        for method, v in methods.items():
            macro(_macro_name(key, method, "vs", "best"), f"{v['diff']:+.4f}".replace("-", "$-$"))
            macro(_macro_name(key, method, "vs", "best", "base"), v["best"])
            macro(_macro_name(key, method, "vs", "best", "p"), _p_text(v["p"]))
            macro(_macro_name(key, method, "vs", "best", "wins"), f"{v['wins']}/{v['splits']}")
    for method in COMBINED:
        tested = [m[method] for m in versus.values() if method in m]
        if tested:  # datasets where the combination beats the best base at the 5% level
            sig = sum(v["diff"] > 0 and v["p"] is not None and v["p"] < 0.05 for v in tested)
            macro(_macro_name(method, "beats", "best"), f"{sig} of {len(tested)}")
    for r in metrics["solver_comparison"]["rows"]:
        c = f"C{r['C']:g}".replace(".", "p")
        macro(_macro_name("solver", c, "sg", "objective"), f"{r['subgradient_objective']:.4f}")
        macro(_macro_name("solver", c, "exact", "objective"), f"{r['exact_objective']:.4f}")
        macro(_macro_name("solver", c, "excess"), f"{100 * r['subgradient_excess_rel']:.2f}")
    macro(_macro_name("mixch", "uniform", "percent"), f"{100 * uniform:.1f}")
    for km, c in metrics["convergence"].items():  # task fits stopped at a solver's cap
        macro(_macro_name(*km.split("/"), "unconverged"), f"{c['unconverged']} of {c['fits']}")
        macro(_macro_name(*km.split("/"), "finished"), f"{c['finished']} of {c['fits']}")
    for key, g in metrics["micro_macro"].items():  # the micro/macro arithmetic (micro_macro_gap)
        macro(_macro_name(key, "macro", "bound"), f"{g['bound']:.4f}")
        macro(_macro_name(key, "macro", "a"), f"{g['a']:.3f}")
        if g["recall_gap_small_minus_large"] is not None:
            macro(_macro_name(key, "recall", "gap"),
                  f"{g['recall_gap_small_minus_large']:+.4f}".replace("-", "$-$"))
        for name, d in (("kim", g["micro_minus_kim_macro"]),
                        ("weighted", g["micro_minus_weighted_macro"])):
            lo, hi = min(d.values()), max(d.values())
            macro(_macro_name(key, "micro", "minus", name, "macro"),
                  f"{lo:+.4f} to {hi:+.4f}".replace("-", "$-$"))
        macro(_macro_name(key, "test", "classes"), ", ".join(
            f"{latex_escape(t)} {n:,.0f}" for t, n in g["test_class_sizes"].items()))
    return lines


# --- parser -------------------------------------------------------------------------------------

def register(sub) -> None:
    p = sub.add_parser("kim-report", help="Kim: tables, figures, metrics and macros")
    p.add_argument("--params", required=True)
    p.add_argument("--meta", required=True, help="corpus meta.json template with {dataset}")
    p.add_argument("--fits", required=True, help="kim-fit CSV template with {key} and {split}")
    p.add_argument("--convergence", required=True)
    p.add_argument("--sg-probe", help="benchmarks/probe_kim_single_sg.py's JSON: the single "
                   "weightings trained by the paper's subgradient method (a gap's cause)")
    p.add_argument("--out-runs", required=True)
    p.add_argument("--out-json", required=True)
    p.add_argument("--tables", required=True, help="directory of reports/tables")
    p.add_argument("--figures", required=True, help="directory of reports/figures")
    p.add_argument("--macros", required=True)
    p.set_defaults(func=cmd_report)
