"""Forman (2008)'s report (``forman-report``): Figs. 1-6, the representations and tests tables,
the metrics with the claims and gaps (``termweight.experiments.forman.claims``) and the macros,
from the per-(dataset, seed) results of ``forman-evaluate`` and ``forman-select``."""

from __future__ import annotations

import logging

import pandas as pd

from termweight.experiments.forman import (
    BNS_BINARY,
    LEARNERS,
    PAPER_LEARNER,
    PUBLISHED,
    SIX,
    TFIDF,
    _units,
    argparse_suppress,
    config,
    label,
    learners_of,
)
from termweight.experiments.forman.claims import learner_results, selection_results
from termweight.experiments.forman.figures import fig1, fig2, fig3, fig4, fig5, fig6
from termweight.experiments.forman.results import (
    _learner_name,
    measurements,
    paired,
    read_results,
    selection_measurements,
    summarise,
)
from termweight.runner import io
from termweight.runner.errors import DataError

log = logging.getLogger("termweight.experiments.forman")



def tex_label(rep: str) -> str:
    """``label`` as LaTeX (TF$\\cdot$BNS)."""
    from termweight.reporting import latex_escape

    return latex_escape(label(rep)).replace("·", "$\\cdot$")


def _fmt(m, se, digits=4):
    return f"{m:.{digits}f} $\\pm$ {se:.{digits}f}"


def _macro_name(key: str) -> str:
    """``bns_binary_f1`` -> ``\\FormanBnsBinaryFOne`` (LaTeX macro names are letters only)."""
    digits = {"0": "Zero", "1": "One", "2": "Two", "3": "Three", "4": "Four", "5": "Five",
              "6": "Six", "7": "Seven", "8": "Eight", "9": "Nine"}
    parts = "".join(digits.get(ch, ch) for ch in key).replace("-", "_").split("_")
    return "\\Forman" + "".join(p[:1].upper() + p[1:] for p in parts if p)


def report(eval_paths, select_paths, cfg: dict, out: dict, units=None) -> dict:
    """Everything the paper shows, from the per-(dataset, seed) results (``units``: their
    (dataset, seed) pairs, default every dataset x seed of ``cfg``); returns the metrics.
    Every table is read and checked (``read_results``) before anything is written."""
    published = io.read_json(PUBLISHED)
    if units is None:
        units = [(d, r) for d in cfg["datasets"] for r in range(int(cfg["repeats"]))]
    evaluated, selected = read_results(eval_paths, select_paths, units, cfg)
    learners = [x for x in learners_of(cfg) if x in set(evaluated["learner"])]
    if not learners:
        raise DataError(eval_paths[0], f"no results of the learners {learners_of(cfg)}")
    meas_all = measurements(evaluated, ["learner", "rep"])
    # figures and tables: the first learner of the config; the claims compare every learner
    meas = meas_all[meas_all["learner"] == learners[0]].drop(columns="learner")
    reps = [f"{b}-{m}" for b in cfg["bases"] for m in cfg["scalings"]]
    summ = summarise(meas, ["rep"]).set_index("rep").loc[reps].reset_index()
    six = [r for r in SIX if r in reps]
    n = {"tasks": meas["task"].nunique(), "repeats": meas["repeat"].nunique(),
         "folds": int(evaluated["fold"].nunique())}  # checked: every table holds the declared folds
    edges, bin_tasks, selm, sel = _report_figures(meas, summ, six, reps, selected, cfg, out)
    ranked = summ.sort_values("f1", ascending=False)
    _representations_table(ranked, reps, n, cfg, out)
    tests, per, best_other, runner = _tests_table(meas, meas_all, ranked, reps, edges, learners,
                                                  out)
    metrics, sel_res = _report_metrics(summ, ranked, reps, meas, n, tests, per, best_other,
                                       runner, selm, sel, bin_tasks, published, learners)
    _claims_table(metrics, per, published, sel_res, meas, n, learners, out)
    io.write_json(out["metrics"], metrics)
    n["datasets"] = meas["dataset"].nunique()
    _report_macros(metrics, summ, ranked, six, n, tests, best_other, runner, published, cfg, out)
    return metrics


def _report_figures(meas, summ, six, reps, selected, cfg: dict, out: dict):
    """Figs. 1-6 of the paper (``meas`` gains its % positives ``bin``); returns the bins' edges,
    the tasks per bin and Fig. 6's selection measurements and summary."""
    from termweight.reporting import save_figure

    # Fig. 1, 2, 5
    save_figure(fig1(summ, six), out["fig"] + "1")
    save_figure(fig2(summ, six), out["fig"] + "2")
    save_figure(fig5(summ), out["fig"] + "5")
    # Fig. 3: % positives bins (edges from the config; the last bin is open)
    edges = [0.0, *[float(e) for e in cfg["positive_bins"]], 100.0]
    names = [f"{int(a)}-{int(b)}" for a, b in zip(edges[:-2], edges[1:-1], strict=True)]
    names.append(f">{int(edges[-2])}")
    meas["bin"] = pd.cut(meas["pct_pos"], edges, labels=names, include_lowest=True).astype(str)
    fig3_reps = [r for r in (BNS_BINARY, "binary-none", "binary-idf") if r in reps]
    bins = summarise(meas[meas["rep"].isin(fig3_reps)], ["rep", "bin"])
    bins["bin_mid"] = bins["bin"].map({n: i for i, n in enumerate(names)})
    bins = bins.sort_values(["rep", "bin_mid"])
    bin_tasks = meas[meas["rep"] == reps[0]].groupby("bin")["task"].nunique()
    save_figure(fig3(bins, fig3_reps), out["fig"] + "3")
    # Fig. 4
    per_ds = summarise(meas, ["rep", "dataset"])
    save_figure(fig4(per_ds, six), out["fig"] + "4")

    # Fig. 6
    selm = selection_measurements(selected)
    sel = summarise(selm, ["selector", "k", "scaling"]).sort_values(["selector", "scaling", "k"])
    save_figure(fig6(sel), out["fig"] + "6")

    return edges, bin_tasks, selm, sel


def _representations_table(ranked, reps, n: dict, cfg: dict, out: dict) -> None:
    """Fig. 5 as a table: every representation's mean and standard error, sorted by F."""
    from termweight.reporting import write_latex_table

    n_tasks, n_repeats, n_folds = n["tasks"], n["repeats"], n["folds"]
    frame = pd.DataFrame({
        "Representation": [tex_label(r) for r in ranked["rep"]],
        "Accuracy": [_fmt(m, s) for m, s in zip(ranked["accuracy"], ranked["accuracy_se"],
                                                strict=True)],
        "F-measure": [_fmt(m, s) for m, s in zip(ranked["f1"], ranked["f1_se"], strict=True)],
        "Precision": [f"{m:.4f}" for m in ranked["precision"]],
        "Recall": [f"{m:.4f}" for m in ranked["recall"]],
        "Not conv.": ranked["not_converged"].astype(str).tolist(),
    })
    write_latex_table(out["table"], frame,
                      f"Forman (2008) Fig. 5 as a table: LinearSVC (C=1) on {len(reps)} "
                      f"representations, {n_tasks} one-vs-rest tasks $\\times$ {n_repeats} seeds of "
                      f"{n_folds}-fold stratified CV (N={n_tasks * n_repeats} measurements); "
                      "mean $\\pm$ standard error, sorted by F-measure. ``Not conv.'': "
                      f"measurements with a fit stopped at {cfg['max_iter']} iterations.",
                      "tab:forman-representations", escape=False)


def _tests_table(meas, meas_all, ranked, reps, edges, learners, out: dict):
    """The paired tests of BNS against the best other representation and TF-IDF, per learner;
    returns the first learner's tests, every learner's results, the best other and the
    runner-up."""
    from termweight.reporting import write_latex_table

    bns_ok = BNS_BINARY in reps
    # The t-test pits BNS against the best other representation (the runner-up when BNS is best)
    best_other = next((r for r in ranked["rep"] if r != BNS_BINARY), None)
    runner = ranked["rep"].iloc[1] if len(ranked) > 1 else None
    tests = []
    if bns_ok:
        for other in dict.fromkeys([best_other, TFIDF]):
            if other in reps:
                for metric in ("f1", "accuracy"):
                    tests.append(paired(meas, BNS_BINARY, other, metric))
    per = {x: learner_results(meas_all[meas_all["learner"] == x], reps, edges) for x in learners}
    rows = [(learners[0], t) for t in tests]
    for x in learners[1:]:
        for key in ("bns_vs_best_other_f1", "bns_vs_tfidf_f1", "bns_vs_tfidf_accuracy"):
            if key in per[x]["tests"]:
                rows.append((x, per[x]["tests"][key]))
    tframe = pd.DataFrame({
        "Learner": [_learner_name(x).split(" ")[0] for x, _ in rows],
        "Comparison": ["BNS vs " + tex_label(t["b"]) for _, t in rows],
        "Measure": ["F-measure" if t["metric"] == "f1" else "accuracy" for _, t in rows],
        "Mean diff.": [f"{t['mean_diff']:+.4f}" for _, t in rows],
        "t": [f"{t['t']:.2f}" for _, t in rows],
        "p (t-test)": [f"{t['t_pvalue']:.2g}" for _, t in rows],
        "p (Wilcoxon)": [f"{t['wilcoxon_pvalue']:.2g}" for _, t in rows],
        "N": [str(t["n"]) for _, t in rows],
    })
    write_latex_table(out["tests"], tframe,
                      "Paired two-tailed t-tests (and Wilcoxon signed-rank tests) over the "
                      "tasks, each task's seeds averaged first: BNS-scaled binary features against the "
                      "best other representation and against TF$\\cdot$IDF (Forman 2008, section "
                      "4.5), with LinearSVC and with SMO (libsvm's exact solver of WEKA SMO's "
                      "problem: hinge loss, unregularised bias) on the same folds.",
                      "tab:forman-tests", escape=False)

    return tests, per, best_other, runner


def _report_metrics(summ, ranked, reps, meas, n: dict, tests, per, best_other, runner, selm,
                    sel, bin_tasks, published: dict, learners):
    """``metrics/forman.json`` without the claims and gaps; and the selection's results."""
    n_tasks, n_repeats, n_folds = n["tasks"], n["repeats"], n["folds"]
    bns_ok = BNS_BINARY in reps
    # Claims: published beside measured
    s = summ.set_index("rep")
    metrics = {"tasks": n_tasks, "repeats": n_repeats, "folds": n_folds,
               "datasets": sorted(meas["dataset"].unique()), "measurements": n_tasks * n_repeats,
               "representations": {r: {k: round(float(s.loc[r, k]), 6) for k in
                                       ("accuracy", "accuracy_se", "f1", "f1_se", "precision",
                                        "recall")} | {"not_converged": int(s.loc[r,
                                                                                  "not_converged"])}
                                   for r in reps},
               "ranking_by_f1": ranked["rep"].tolist(), "runner_up": runner,
               "best_other_than_bns": best_other,
               "tests": tests, "published": published["claims"]}
    if bns_ok and TFIDF in reps:
        d_acc = float(s.loc[BNS_BINARY, "accuracy"] - s.loc[TFIDF, "accuracy"])
        d_f = float(s.loc[BNS_BINARY, "f1"] - s.loc[TFIDF, "f1"])
        metrics |= {"bns_minus_tfidf_accuracy": round(d_acc, 6), "bns_minus_tfidf_f1": round(d_f, 6)}
    if bns_ok:
        ups = s.loc[BNS_BINARY, "f1"] > s.loc[[r for r in reps if r != BNS_BINARY], "f1"]
        metrics["bns_binary_beats_all_f1"] = bool(ups.all())
        below_none = [r for r in reps if r.startswith("binary-") and r != "binary-none"
                      and s.loc[r, "f1"] < s.loc["binary-none", "f1"]] if "binary-none" in reps \
            else []
        metrics["binary_scalings_below_no_scaling_f1"] = below_none
    sel_res = selection_results(selm, sel)
    if sel_res is not None:
        best_f = sel_res["f1"].get("best_level")
        metrics |= {"selection_all_bns_f1": sel_res["f1"]["all_bns"],
                    "selection_best_subset": best_f,
                    "selection_tests": sel_res}
    metrics["selection"] = [{k: (v.item() if hasattr(v, "item") else v) for k, v in r.items()
                             if k in ("selector", "k", "scaling", "f1", "accuracy")}
                            for r in sel.to_dict("records")]
    metrics["positive_bins"] = {b: int(n) for b, n in bin_tasks.items()}
    # headline numbers under the published JSON's claim keys (the report's summary table)
    metrics["headline"] = {"best_representation": ranked["rep"].iloc[0]}
    if "bns_minus_tfidf_f1" in metrics:
        metrics["headline"] |= {
            "bns_vs_tfidf_accuracy_gain_pct": round(100 * metrics["bns_minus_tfidf_accuracy"], 4),
            "bns_vs_tfidf_f1_gain_pct": round(100 * metrics["bns_minus_tfidf_f1"], 4)}
    # every learner: its means, rankings, tests and the same headline numbers
    metrics["learners"] = {}
    for x, r in per.items():
        h = {"best_representation": r["ranking_by_f1"][0],
             "runner_up": r.get("best_other_than_bns")}
        for key, tk in (("bns_vs_tfidf_f1_gain_pct", "bns_vs_tfidf_f1"),
                        ("bns_vs_tfidf_accuracy_gain_pct", "bns_vs_tfidf_accuracy")):
            if tk in r["tests"]:
                h[key] = round(100 * r["tests"][tk]["mean_diff"], 4)
        metrics["learners"][x] = {"headline": h, **r}
    # the summary's headline numbers are those of the learner the verdicts use (the paper's)
    verdict_learner = PAPER_LEARNER if PAPER_LEARNER in per else learners[0]
    metrics["headline"] = {k: v for k, v in metrics["learners"][verdict_learner]["headline"].items()
                           if k in metrics["headline"]}
    return metrics, sel_res


def _claims_table(metrics: dict, per, published: dict, sel_res, meas, n: dict, learners,
                  out: dict) -> None:
    """The claims and gaps into ``metrics``, and the gaps' table."""
    from termweight.experiments.claims import tex_escape
    from termweight.reporting import write_latex_table

    n_tasks, n_repeats = n["tasks"], n["repeats"]
    from termweight.experiments.forman.claims import claims_and_gaps

    claims, gaps = claims_and_gaps(per, published, sel_res, sorted(meas["dataset"].unique()),
                                   n_tasks)
    metrics["claims_learner"] = PAPER_LEARNER if PAPER_LEARNER in per else learners[0]
    metrics["claims"] = claims
    metrics["gaps"] = gaps
    gframe = pd.DataFrame({"Quantity": [tex_escape(g["quantity"]) for g in gaps],
                           "Learner": [_learner_name(g["learner"]).split(" ")[0] for g in gaps],
                           "Published": [tex_escape(g["published"]) for g in gaps],
                           "Ours": [tex_escape(g["ours"]) for g in gaps],
                           "Cause of the gap": [tex_escape(g["cause"]) for g in gaps]})
    write_latex_table(out["claims"], gframe,
                      f"Forman (2008)'s published numbers (237 tasks, 19 datasets, 8 seeds, WEKA "
                      f"SMO) beside ours ({n_tasks} tasks, {meas['dataset'].nunique()} datasets, "
                      f"{n_repeats} seed(s)) under each learner, with the cause of each gap "
                      f"(the claims and their verdicts: the claims table).",
                      "tab:forman-claims", escape=False,
                      column_format="p{3.6cm}lllp{6.2cm}")



def _report_macros(metrics: dict, summ, ranked, six, n: dict, tests, best_other, runner,
                   published: dict, cfg: dict, out: dict) -> None:
    """Macros of every number the report's text quotes (ours and published)."""
    n_tasks, n_repeats = n["tasks"], n["repeats"]
    pc = published["claims"]
    s = summ.set_index("rep")
    macro = {"tasks": str(n_tasks), "repeats": str(n_repeats),
             "datasets": str(n["datasets"]),
             "pub_tasks": str(published["setup"]["tasks"]),
             "pub_datasets": str(published["setup"]["datasets"]),
             "pub_repeats": str(published["setup"]["repeats"]),
             "pub_acc_gain": f"{pc['bns_vs_tfidf_accuracy_gain_pct']:g}",
             "pub_f_gain": f"{pc['bns_vs_tfidf_f1_gain_pct']:g}"}
    for r in six:
        key = r.replace("-", "_")
        macro[f"{key}_f"] = f"{s.loc[r, 'f1']:.4f}"
        macro[f"{key}_acc"] = f"{s.loc[r, 'accuracy']:.4f}"
    if "bns_minus_tfidf_f1" in metrics:
        macro["acc_gain"] = f"{100 * metrics['bns_minus_tfidf_accuracy']:.2f}"
        macro["f_gain"] = f"{100 * metrics['bns_minus_tfidf_f1']:.2f}"
    if runner:
        macro["runner_up"] = tex_label(runner)
    macro["best"] = tex_label(ranked["rep"].iloc[0])
    for tst in tests:
        other = "best_other" if tst["b"] == best_other else tst["b"].replace("-", "_")
        key = f"p_{other}_{tst['metric']}"
        macro[key] = f"{tst['t_pvalue']:.2g}"
    if "selection_best_subset" in metrics and metrics["selection_best_subset"]:
        b = metrics["selection_best_subset"]
        macro["sel_best_f"] = f"{b['f1']:.4f}"
        macro["sel_best_k"] = str(b["k"])
        macro["sel_best"] = f"{b['selector'].upper()}" + (
            f" + {b['scaling'].upper()} scaling" if b["scaling"] != "none" else "")
        macro["sel_all_bns_f"] = f"{metrics['selection_all_bns_f1']:.4f}"
    macro["not_converged"] = str(int(summ["not_converged"].sum()))
    macro["max_iter"] = str(cfg["max_iter"])
    for x in LEARNERS:  # per learner ("n/a" when not run), e.g. \FormanSmoFGain
        h = metrics["learners"].get(x, {}).get("headline", {})
        t = metrics["learners"].get(x, {}).get("tests", {})
        for key, name in (("bns_vs_tfidf_f1", "f_gain"), ("bns_vs_tfidf_accuracy", "acc_gain")):
            macro[f"{x}_{name}"] = f"{100 * t[key]['mean_diff']:+.2f}" if key in t else "n/a"
        macro[f"{x}_best"] = tex_label(h["best_representation"]) if h else "n/a"
    lines = ["% Generated by `termweight forman-report`; do not edit.\n"]
    lines += [f"\\newcommand{{{_macro_name(k)}}}{{{v}}}\n" for k, v in macro.items()]
    io.write_text(out["macros"], "".join(lines))


# --- CLI ---------------------------------------------------------------------------------------

def cmd_report(args) -> None:
    cfg, _ = config(args.params)
    units = _units(args, cfg)
    ev = [args.evaluate.format(dataset=d, repeat=r) for d, r in units]
    se = [args.select.format(dataset=d, repeat=r) for d, r in units]
    out = {"fig": args.figures, "table": args.table, "tests": args.tests, "claims": args.claims,
           "metrics": args.metrics, "macros": args.macros}
    m = report(ev, se, cfg, out, units)
    log.info("report: %d tasks x %d seeds; best %s; runner-up %s", m["tasks"], m["repeats"],
             m["ranking_by_f1"][0], m["runner_up"])


def register(sub) -> None:
    p = sub.add_parser("forman-report", help="Forman 2008: figures, tables, tests, metrics")
    p.add_argument("--params", required=True)
    p.add_argument("--dataset", nargs="+", help=argparse_suppress())
    p.add_argument("--repeat", type=int, nargs="+", help=argparse_suppress())
    p.add_argument("--evaluate", required=True, help="template with {dataset} and {repeat}")
    p.add_argument("--select", required=True, help="template with {dataset} and {repeat}")
    p.add_argument("--figures", required=True, help="figure stem prefix, e.g. reports/figures/forman_fig")
    p.add_argument("--table", required=True)
    p.add_argument("--tests", required=True)
    p.add_argument("--claims", required=True)
    p.add_argument("--metrics", required=True)
    p.add_argument("--macros", required=True)
    p.set_defaults(func=cmd_report)
