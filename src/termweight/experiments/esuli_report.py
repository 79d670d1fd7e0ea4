"""Esuli & Sebastiani report: Table 1 beside the published numbers, feature counts, notes on every
difference larger than 0.02, LaTeX macros, the metrics JSON and the F1-against-round figure.

Everything here is computed from the pipeline's files (per-category counts, per-round curves and
the feature summary) and from ``published/esuli.json``; no number of ours is typed in.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from termweight import io
from termweight.experiments.esuli import (
    LEARNERS,
    MEASURES,
    REPRESENTATIONS,
    SVM_RUN,
    TOLERANCE,
    _lists,
    common_options,
    macro_precision_no_prediction_as_one,
    published,
    published_key,
    run_name,
    run_scores,
)

HEAD = {"micro_precision": r"$\pi^\mu$", "micro_recall": r"$\rho^\mu$", "micro_f1": r"$F_1^\mu$",
        "macro_precision": r"$\pi^M$", "macro_recall": r"$\rho^M$", "macro_f1": r"$F_1^M$"}
WORDS = {"micro_precision": "micro-precision", "micro_recall": "micro-recall",
         "micro_f1": "micro-F1", "macro_precision": "macro-precision",
         "macro_recall": "macro-recall", "macro_f1": "macro-F1"}


def _runs(learners, reps) -> list[str]:
    return [run_name(learner, rep) for learner in learners for rep in reps] + [SVM_RUN]


def _label(run: str) -> tuple[str, str]:
    if run == SVM_RUN:
        return "LinearSVC", REPRESENTATIONS["tfidf"]
    for learner, name in LEARNERS.items():
        if run.startswith(learner + "_"):
            return name, REPRESENTATIONS[run[len(learner) + 1:]]
    return run, ""


def _camel(text: str) -> str:
    digits = {"1": "one", "0": "zero", "2": "two"}
    text = "".join(digits.get(ch, ch) for ch in text)
    return "".join(w.capitalize() for w in re.split(r"[^A-Za-z]+", text) if w)


def _fmt(v) -> str:
    return "--" if v is None or (isinstance(v, float) and np.isnan(v)) else f"{v:.3f}"


def collect(args) -> dict:
    """Scores of every run (ours), the published rows, differences and diagnostics."""
    learners = _lists(args, "learners", "learners")
    reps = _lists(args, "reps", "representations")
    pub = published()
    rows = pub["table1"]["rows"]
    runs = {}
    for run in _runs(learners, reps):
        path = args.svm if run == SVM_RUN else args.categories.format(run=run)
        frame = io.read_table(path)
        s = run_scores(frame)
        never = frame["tp"].to_numpy() + frame["fp"].to_numpy() == 0
        s["macro_precision_no_prediction_as_one"] = macro_precision_no_prediction_as_one(
            frame["tp"].to_numpy(), frame["fp"].to_numpy())
        s["categories_never_predicted"] = int(never.sum())
        s["categories_f1_zero"] = int((frame["f1"].to_numpy() == 0).sum())
        if run != SVM_RUN:
            curve = io.read_table(args.curves.format(run=run))
            half = curve.iloc[len(curve) // 2 - 1] if len(curve) > 1 else curve.iloc[0]
            s["rounds"] = int(curve["round"].iloc[-1])
            s["half_rounds"] = int(half["round"])
            s["micro_f1_gain_second_half"] = float(curve["micro_f1"].iloc[-1] - half["micro_f1"])
            s["macro_f1_gain_second_half"] = float(curve["macro_f1"].iloc[-1] - half["macro_f1"])
        key = published_key(run)
        diffs = {}
        if key in rows:
            for m in MEASURES:
                if rows[key][m] is not None:
                    diffs[m] = round(s[m] - rows[key][m], 6)
        runs[run] = {"scores": {k: (round(v, 6) if isinstance(v, float) else v)
                                for k, v in s.items()},
                     "published_row": key, "difference": diffs,
                     "categories": int(len(frame))}
    return {"learners": learners, "reps": reps, "runs": runs, "published": pub,
            "summary": io.read_json(args.summary)}


def table1(data) -> pd.DataFrame:
    rows = data["published"]["table1"]["rows"]
    out = []
    order = _runs(data["learners"], data["reps"])
    for i, run in enumerate(order):
        learner, rep = _label(run)
        s = data["runs"][run]["scores"]
        out.append({"Learner": learner, "Representation": rep, "": "ours",
                    **{HEAD[m]: _fmt(s[m]) for m in MEASURES}})
        key = published_key(run)
        nxt = published_key(order[i + 1]) if i + 1 < len(order) else None
        if key in rows and nxt != key:  # the published row after the last run it compares with
            lname = learner
            pname = {"binary": "Binary", "ordinal": "Ordinal", "tfidf": "Weighted"}[
                key.split("/")[1]]
            out.append({"Learner": lname if run != SVM_RUN else "SVM-light",
                        "Representation": pname, "": "published",
                        **{HEAD[m]: _fmt(rows[key][m]) for m in MEASURES}})
    return pd.DataFrame(out)


def features_table(data) -> pd.DataFrame:
    summ, pub = data["summary"], data["published"]["features"]
    rows = [("published", "as printed (text: distinct training values)", pub["terms_before"], pub),
            ("ours", "distinct training values (default)", summ["terms_before"],
             summ["distinct_train"]),
            ("ours", "every integer 1..max training count", summ["terms_before"],
             summ["every_train"]),
            ("ours", "distinct values in training + test (diagnostic)", summ["terms_before"],
             summ["distinct_train_and_test"])]
    return pd.DataFrame([{"Source": source, "Thresholds": thresholds, "Terms": f"{terms:,}",
                          "Features": f"{c['features_after']:,}",
                          "Values/term": f"{c['values_per_term']:.2f}"}
                         for source, thresholds, terms, c in rows])


def notes(data) -> str:
    """LaTeX notes: every difference > TOLERANCE, with amounts and what we found about why."""
    summ, pubf = data["summary"], data["published"]["features"]
    d, e = summ["distinct_train"], summ["every_train"]
    lines = [r"% Generated by termweight esuli-report; do not edit.", r"\begin{itemize}"]
    lines.append(
        r"\item \textbf{Feature counts.} The paper prints " f"{pubf['terms_before']:,} terms "
        f"$\\to$ {pubf['features_after']:,} features ({pubf['values_per_term']:.2f} values per "
        f"term). We have {summ['terms_before']:,} training terms "
        f"({summ['terms_before'] - pubf['terms_before']:+,}; tokeniser and stop list differ in "
        "detail). The paper's text (section 2, and section 3's ``average number of different "
        "nonzero values'') asks for one threshold per DISTINCT nonzero training value; that gives "
        f"{d['features_after']:,} features ({d['values_per_term']:.2f} per term, "
        f"{d['values_per_term'] - pubf['values_per_term']:+.2f} against the paper). Thresholds at "
        f"EVERY integer $1..\\max$ give {e['features_after']:,} ({e['values_per_term']:.2f} per "
        f"term, {e['values_per_term'] - pubf['values_per_term']:+.2f}), close to the printed "
        "numbers: the authors' implementation most likely generated every integer threshold up to "
        f"the maximum count (the maximum training count is {summ['max_training_count']}; "
        f"{summ['terms_with_one_value']:,} terms only ever occur once per document). We keep the "
        "text's reading as the default (\\texttt{ordinal}) and report the other as "
        "\\texttt{ordinal\\_every}. On the training documents both give the same distinct "
        "columns, so the boosters pick the same splits; they differ only in where a test count "
        "that lies strictly between two training values falls.")
    found = []
    for run, r in data["runs"].items():
        big = {m: v for m, v in r["difference"].items() if abs(v) > TOLERANCE}
        if not big:
            continue
        learner, rep = _label(run)
        s = r["scores"]
        pub = data["published"]["table1"]["rows"][r["published_row"]]
        parts = [f"{WORDS[m]} {s[m]:.3f} vs.\\ {pub[m]:.3f} ({v:+.3f})" for m, v in big.items()]
        why = []
        if "macro_precision" in big:
            why.append(
                f"{s['categories_never_predicted']} of {r['categories']} categories receive no "
                "positive test prediction; we count their precision 0/0 as 0. Counting it as 1 "
                f"gives macro-precision {s['macro_precision_no_prediction_as_one']:.3f} "
                f"({s['macro_precision_no_prediction_as_one'] - pub['macro_precision']:+.3f}), "
                "which is what the paper's high $\\pi^M$ beside a low $\\rho^M$ suggests it did")
        others = [m for m in big if m != "macro_precision"]
        if any(m.startswith("macro") for m in others):
            why.append(
                f"macro averages are dominated by the rare categories: {s['categories_f1_zero']} "
                "categories have F1 = 0 in our run, and a category with one or two test "
                f"positives moves macro-F1 by up to 1/{r['categories']} = "
                f"{1 / r['categories']:.3f} on its own")
        if others and run == SVM_RUN:
            why.append(
                "our SVM is LinearSVC (liblinear: squared hinge loss, penalised bias, C = 1), "
                "the paper's is SVM-light (hinge loss, unpenalised bias, default C = "
                "$1/\\overline{\\|x\\|^2}$ = 1 on cosine-normalised vectors)")
        elif others:
            flat = max(abs(s["micro_f1_gain_second_half"]),
                       abs(s["macro_f1_gain_second_half"])) < 0.01
            why.append(
                f"from round {s['half_rounds']} to round {s['rounds']} our micro-F1 changed by "
                f"{s['micro_f1_gain_second_half']:+.3f} and macro-F1 by "
                f"{s['macro_f1_gain_second_half']:+.3f} (the F1-against-round figure): "
                + ("the run has settled, so the gap is not a matter of the round count"
                   if flat else "the run still improves slowly where the paper, too, stops")
                + "; what remains is what the boosters are given (our "
                f"{summ['terms_before']:,} vs.\\ {pubf['terms_before']:,} terms) and "
                "the input files: the boosters themselves follow the authors' MP-Boost++ code "
                "(per-label weight normalisation, smoothing $1/(mk)$, the lowest feature index "
                "winning ties), which on identical input files gives the same micro-F1 "
                "and macro-F1 within 0.001 (issue 18)")
        found.append(f"\\item \\textbf{{{learner}, {rep}.}} " + "; ".join(parts) + ". "
                     + ("What we found: " + "; ".join(why) + "." if why else ""))
    lines.append(claims(data))
    if found:
        lines.extend(found)
    else:
        lines.append(f"\\item Every reproduced number is within {TOLERANCE} of the paper's.")
    lines.append(r"\end{itemize}")
    return "\n".join(lines) + "\n"


def claims(data) -> str:
    """The paper's qualitative claims (section 3) checked on our numbers and on its own."""
    runs = {r: v["scores"] for r, v in data["runs"].items()}

    def ours(run, m):
        return runs.get(run, {}).get(m)

    checks = []
    for learner in ("adaboost_mh", "mp_boost"):
        for m in ("micro_f1", "macro_f1"):
            b, o = run_name(learner, "binary"), run_name(learner, "ordinal")
            checks.append((f"{LEARNERS[learner]}: ordinal $>$ binary in {WORDS[m]}", b, o, m))
    # section 3: ordinal beats binary "for both boosting devices and for both F1 (this trend is
    # reversed only for AdaBoost.MH with F1^M)"
    text_says = {("adaboost_mh_ordinal", "macro_f1"): False}
    parts = []
    for text, b, o, m in checks:
        if ours(b, m) is None or ours(o, m) is None:
            continue
        parts.append(f"{text}: ours {'yes' if ours(o, m) > ours(b, m) else 'no'} "
                     f"({ours(o, m):.3f} vs.\\ {ours(b, m):.3f}), paper "
                     f"{'yes' if text_says.get((o, m), True) else 'no'}")
    best = "mp_boost_ordinal"
    paper_runs = [r for r in runs if not r.endswith("_ordinal_every")]
    if best in runs:
        for m in ("micro_f1", "macro_f1"):
            top = max(paper_runs, key=lambda r, m=m: runs[r][m])
            parts.append(f"MP-Boost, Ordinal is the best of the paper's five runs in {WORDS[m]}: ours "
                         f"{'yes' if top == best else 'no (' + top.replace('_', ' ') + ')'}, "
                         "paper yes")
            if SVM_RUN in runs:
                parts.append(f"MP-Boost, Ordinal $>$ SVM in {WORDS[m]}: ours "
                             f"{'yes' if runs[best][m] > runs[SVM_RUN][m] else 'no'} "
                             f"({runs[best][m]:.3f} vs.\\ {runs[SVM_RUN][m]:.3f}), paper yes")
    return ("\\item \\textbf{The paper's claims (section 3).} " + "; ".join(parts) + ".")


def macros(data) -> str:
    out = [r"% Generated by termweight esuli-report; do not edit."]

    def add(name, value):
        out.append(f"\\newcommand{{\\esuli{name}}}{{{value}}}")

    rows = data["published"]["table1"]["rows"]
    for run, r in data["runs"].items():
        for m in MEASURES:
            add(f"Ours{_camel(run)}{_camel(m)}", f"{r['scores'][m]:.3f}")
    for key, row in rows.items():
        for m in MEASURES:
            if row[m] is not None:
                add(f"Pub{_camel(key)}{_camel(m)}", f"{row[m]:.3f}")
    summ, pubf = data["summary"], data["published"]["features"]
    add("PubTerms", f"{pubf['terms_before']:,}")
    add("PubFeatures", f"{pubf['features_after']:,}")
    add("PubValuesPerTerm", f"{pubf['values_per_term']:.2f}")
    add("OursTerms", f"{summ['terms_before']:,}")
    for name, key in (("Distinct", "distinct_train"), ("Every", "every_train"),
                      ("DistinctTrainTest", "distinct_train_and_test")):
        add(f"OursFeatures{name}", f"{summ[key]['features_after']:,}")
        add(f"OursValuesPerTerm{name}", f"{summ[key]['values_per_term']:.2f}")
    return "\n".join(out) + "\n"


def write_report(args) -> None:
    from termweight.reporting import write_latex_table

    data = collect(args)
    frame = table1(data)
    write_latex_table(args.out_table, frame,
                      "Esuli \\& Sebastiani, Table 1: Reuters-21578 ModApte, 90 categories; "
                      "boosting at the last round; ``published'' rows are the paper's (-- = not "
                      "printed); macro-F1 is the mean of per-category F1.",
                      "tab:esuli-table1", escape=False, column_format="llrrrrrrr")
    write_latex_table(args.out_features, features_table(data),
                      "Esuli \\& Sebastiani: features before and after ordinal-to-binary "
                      "encoding (ModApte training set).", "tab:esuli-features")
    io.write_text(args.out_notes, notes(data))
    io.write_text(args.out_macros, macros(data))
    summ = data["summary"]
    io.write_json(args.out_metrics, {
        "experiment": "esuli", "dataset": summ["dataset"],
        "train_docs": summ["train_docs"], "test_docs": summ["test_docs"],
        "categories": summ["categories"],
        "runs": {run: {**r["scores"], "difference_from_published": r["difference"],
                       "published_row": r["published_row"]} for run, r in data["runs"].items()},
        "features": {k: summ[k] for k in ("terms_before", "distinct_train", "every_train",
                                          "distinct_train_and_test")},
        "published": {"table1": data["published"]["table1"]["rows"],
                      "features": data["published"]["features"]},
        "tolerance": TOLERANCE,
        "differences_over_tolerance": sum(abs(v) > TOLERANCE for r in data["runs"].values()
                                          for v in r["difference"].values()),
    })


def write_figure(args) -> None:
    from pathlib import Path

    import matplotlib.pyplot as plt

    from termweight.reporting import save_figure

    learners = _lists(args, "learners", "learners")
    reps = _lists(args, "reps", "representations")
    rows = published()["table1"]["rows"]
    colours = {"adaboost_mh": "tab:blue", "mp_boost": "tab:red"}
    styles = {"binary": "-", "ordinal": "--", "ordinal_every": ":"}
    svm = run_scores(io.read_table(args.svm))
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8), sharex=True)
    for ax, m in zip(axes, ("micro_f1", "macro_f1"), strict=True):
        last = 1
        for learner in learners:
            for rep in reps:
                curve = io.read_table(args.curves.format(learner=learner, rep=rep))
                last = max(last, int(curve["round"].iloc[-1]))
                ax.plot(curve["round"], curve[m], color=colours[learner], ls=styles[rep], lw=1.2,
                        label=f"{LEARNERS[learner]}, {REPRESENTATIONS[rep]}")
        ax.axhline(svm[m], color="0.4", lw=1, label="LinearSVC, tf-idf")
        for key, row in rows.items():
            learner, rep = key.split("/")
            if row[m] is None or (learner not in colours and learner != "svm"):
                continue
            ax.plot([last], [row[m]], marker="o" if rep == "binary" else "s", ms=6,
                    mfc="none", color=colours.get(learner, "0.4"), ls="none",
                    label=f"published: {key.replace('/', ', ')}")
        ax.set_xlabel("boosting round")
        ax.set_ylabel(m.replace("_f1", "-F1"))
        ax.set_ylim(0, 1)
        ax.grid(alpha=0.3)
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="center left", bbox_to_anchor=(1.0, 0.5), fontsize=7)
    fig.suptitle("Reuters-21578 ModApte: F1 against boosting round (markers: published, at the "
                 "last round)", fontsize=10)
    fig.tight_layout()
    save_figure(fig, Path(args.out).with_suffix(""))


# --- CLI steps -----------------------------------------------------------------------------------

def cmd_report(args) -> None:
    write_report(args)


def cmd_figure(args) -> None:
    write_figure(args)


def register(sub) -> None:
    """``esuli-report`` and ``esuli-figure`` (the other ``esuli-*`` steps:
    ``termweight.experiments.esuli.register``)."""
    p = sub.add_parser("esuli-report", help="Esuli: Table 1, feature counts, notes, macros, "
                                            "metrics")
    p.add_argument("--summary", required=True)
    p.add_argument("--categories", required=True, help="template with {run} (boosting runs)")
    p.add_argument("--svm", required=True, help="per-category results of the SVM")
    p.add_argument("--curves", required=True, help="per-round results, template with {run}")
    p.add_argument("--out-table", required=True)
    p.add_argument("--out-features", required=True)
    p.add_argument("--out-notes", required=True)
    p.add_argument("--out-macros", required=True)
    p.add_argument("--out-metrics", required=True)
    common_options(p)
    p.set_defaults(func=cmd_report)

    p = sub.add_parser("esuli-figure", help="Esuli: micro/macro-F1 against boosting round")
    p.add_argument("--curves", required=True, help="template with {learner} and {rep}")
    p.add_argument("--svm", required=True, help="per-category results of the SVM")
    p.add_argument("--out", required=True, help="output stem or .pdf path")
    common_options(p)
    p.set_defaults(func=cmd_figure)
