"""The PDF's front section, "Answers first": a page a reader can stop after.

- Did each paper reproduce? Per paper, its claims' tally (``claims.tally_text``) and the README's
  headline rows (published, ours, difference: ``report.summary_rows``).
- Which weighting, for which learner? Per learner of the benchmark, on its headline measure: the
  best-ranked weighting, the tie set (the weightings whose Wilcoxon signed-rank test against it
  over the datasets, Holm-adjusted over the k - 1 comparisons, is not significant at alpha:
  ``benchmark.rank_tests``, as the leaderboards compute it) and both tf-idf controls, the
  pipeline's ``tfidf`` (raw tf x log N/df) and scikit-learn's sublinear tf-idf, with their ranks
  and Holm p against the best. Read from ``reports/tables/benchmark_datasets.csv`` (the mean score
  of every dataset, learner and weighting) and ``reports/metrics/benchmark.json``.
"""

from __future__ import annotations

from pathlib import Path

from termweight.experiments import claims
from termweight.experiments.papers import tex_escape
from termweight.runner import io

#: the two tf-idf controls every benchmark answer is stated against
CONTROLS = ("tfidf", "sklearn_sublinear_tfidf")
LEARNER_NAMES = {"linearsvc": "LinearSVC", "logreg": "logistic regression",
                 "mnb": "naive Bayes (one-vs-rest)"}


def paper_rows(rows: list[tuple], keep: set[str], by_paper: dict) -> list[str]:
    """LaTeX rows: per paper a heading row (its title and claims tally across the table), then
    its headline quantities (published, ours, difference), from the summary's rows
    (``report.summary_rows``), the keys to keep (the README's rows) and each paper's claims
    (``report.paper_claims``)."""
    out, title, shown = [], "", set()
    for r in rows:
        title = r[0] or title
        if r[6] not in keep:
            continue
        paper = r[6].split(":", 1)[0]
        if paper not in shown:
            shown.add(paper)
            tally = ("not run" if by_paper.get(paper) is None
                     else tex_escape(claims.tally_text(by_paper[paper])))
            out.append((r"\addlinespace " if len(shown) > 1 else "")
                       + rf"\multicolumn{{4}}{{@{{}}l}}{{\textbf{{{title}}} (reproduced: {tally})}} \\")
        where = f" ({r[2]})" if r[2] else ""
        out.append(" & ".join([r"\leftskip=1em " + r[1] + where, r[3], r[4], r[5]]) + r" \\")
    return out


def benchmark_answers(reports: Path) -> list[dict] | None:
    """Per learner: best weighting, its average rank, the tie set, and the controls' ranks and
    Holm p against the best (None when the benchmark has not run)."""
    import pandas as pd

    from termweight.experiments.benchmark import rank_tests, score_matrix
    from termweight.results_check import UNIT, check_cells

    path = reports / "tables" / "benchmark_datasets.csv"
    mpath = reports / "metrics" / "benchmark.json"
    if not path.exists() or not mpath.exists():
        return None
    meta = io.read_json_object(mpath)
    measure, alpha = meta["measures"][0], float(meta["alpha"])
    frame = io.read_table(path, required=("learner", "dataset", "weighting", f"{measure}_mean"))
    learners, datasets = meta["grid"]["learners"], meta["grid"]["datasets"]
    check_cells(path, frame, {"learner": learners, "dataset": datasets,
                              "weighting": sorted(frame["weighting"].unique())},
                {f"{measure}_mean": UNIT})
    scores = pd.DataFrame({"dataset": frame["dataset"], "learner": frame["learner"],
                           "weighting": frame["weighting"], "measure": measure,
                           "score": frame[f"{measure}_mean"]})
    order = sorted(frame["weighting"].unique())
    out = []
    for learner in learners:
        t = rank_tests(score_matrix(scores, learner, measure, order), CONTROLS[0], alpha)
        vs = t["vs_best"]
        if vs is None:  # too few datasets or weightings to test: no answer to state
            return None
        ties = [w for w in t["avg_rank"].index[1:] if vs.loc[w, "p_holm"] >= alpha]
        controls = {c: (float(t["avg_rank"][c]), list(t["avg_rank"].index).index(c) + 1,
                        float(vs.loc[c, "p_holm"]) if c != t["best"] else 1.0)
                    for c in CONTROLS if c in t["avg_rank"].index}
        fam = (meta.get("conclusions") or {}).get(learner, {}).get("families")
        out.append({"learner": learner, "measure": measure, "best": t["best"],
                    "best_rank": float(t["avg_rank"].iloc[0]), "ties": ties, "k": t["k"],
                    "n": t["n_datasets"], "controls": controls, "alpha": alpha,
                    "families": fam})
    return out


def _family_row(a: dict) -> str:
    """Over the corpus families (``benchmark.json``'s ``conclusions``): the best, its tie set's
    size, the stronger control's rank and Holm p against the best."""
    f = a["families"]
    ctl = min(f["controls"], key=lambda c: f["controls"][c]["avg_rank"])
    p = f["controls"][ctl]["p_holm_vs_best"]
    return (f"{LEARNER_NAMES.get(a['learner'], tex_escape(a['learner']))} & "
            rf"\texttt{{{tex_escape(f['best'])}}} ({f['avg_rank']:.2f}) & "
            f"{len(f['tie_set']) - 1} of {f['k'] - 1} & "
            rf"\texttt{{{tex_escape(ctl)}}} ({f['controls'][ctl]['avg_rank']:.2f}), "
            + (r"the best" if p is None else claims.p_text(p, math=True)) + r" \\")


def _answer_row(a: dict) -> str:
    shown = ", ".join(rf"\texttt{{{tex_escape(w)}}}" for w in a["ties"][:4])
    more = f", \\dots{{}} ({len(a['ties'])} in all)" if len(a["ties"]) > 4 else ""
    ctl = "; ".join(rf"\texttt{{{tex_escape(c)}}} {pos} of {a['k']}, {claims.p_text(p, math=True)}"
                    for c, (_, pos, p) in a["controls"].items())
    return (f"{LEARNER_NAMES.get(a['learner'], tex_escape(a['learner']))} & "
            rf"\texttt{{{tex_escape(a['best'])}}} ({a['best_rank']:.2f}) & "
            f"{len(a['ties'])}: {shown}{more} & {ctl} \\\\")


def front_section(reports: Path, rows: list[tuple], keep: set[str], by_paper: dict) -> str:
    """LaTeX of the front section (``generated/front.tex``)."""
    lines = [r"\section*{Answers first}", r"\addcontentsline{toc}{section}{Answers first}",
             r"\paragraph{Did each paper reproduce?} Claims: "
             + tex_escape(claims.TALLY_RULE)
             + r" (Appendix~\ref{sec:claims} gives each claim, its test and its cause), and "
             r"each paper's headline numbers as printed and as regenerated here "
             r"(Appendix~\ref{sec:summary} has every headline number).",
             r"{\footnotesize\setlength{\tabcolsep}{3pt}"
             r"\begin{longtable}{@{}L{10.6cm}rrr@{}}",
             r"\toprule Paper (claims reproduced) and quantity & Published & Ours & Difference \\"
             r" \midrule\endhead",
             *paper_rows(rows, keep, by_paper),
             r"\bottomrule\end{longtable}}"]
    answers = benchmark_answers(reports)
    if answers:
        a0 = answers[0]
        lines += [
            r"\paragraph{Which weighting, for which learner?} On the benchmark "
            rf"(Section~\ref{{sec:benchmark}}), {a0['k']} weightings over {a0['n']} datasets, "
            f"ranked by {tex_escape(a0['measure']).replace('_', ' ')} averaged over each dataset's "
            r"splits. The best-ranked weighting is a tie of many: its tie set is every weighting "
            r"whose Wilcoxon signed-rank test against it over the datasets is not significant "
            rf"(Holm over the $k-1$ comparisons, $\alpha={a0['alpha']:g}$). The controls are "
            r"the pipeline's \texttt{tfidf} (raw tf $\times \log N/\mathit{df}$) and "
            r"scikit-learn's sublinear tf-idf, each with its position and Holm $p$ against the "
            r"best. The datasets are not all independent (R8 and R52 are subsets of Reuters; "
            r"the Pang \& Lee labelings share their reviews; the oh and tr subsets share "
            r"OHSUMED and TREC documents), so the second table counts corpus families.",
            r"{\footnotesize\setlength{\tabcolsep}{3pt}"
            r"\begin{longtable}{@{}L{2.4cm}L{3.0cm}L{5.6cm}L{4.6cm}@{}}",
            r"\toprule Learner & Best (average rank) & Not different from the best & Controls "
            r"(position, Holm $p$ vs best) \\ \midrule\endhead",
            *(_answer_row(a) for a in answers),
            r"\bottomrule\end{longtable}}"]
        if all(a["families"] for a in answers):
            from termweight.experiments.conclusions import smallest_holm_p

            f0 = answers[0]["families"]
            floor = smallest_holm_p(f0["n"], f0["k"] - 1)
            lines += [
                rf"Counted by corpus family ({f0['n']} families, each scored by the mean of its "
                r"datasets; Section~\ref{sec:benchmark})"
                + (rf": with {f0['n']} units and {f0['k'] - 1} comparisons no Holm-adjusted "
                   rf"Wilcoxon $p$ can fall below {floor:.3f}, above $\alpha$, so every "
                   r"weighting ties with the best: this table says how little the benchmark can "
                   r"separate, not that all weightings are equal."
                   if floor >= answers[0]["alpha"] else "."),
                r"{\footnotesize\setlength{\tabcolsep}{3pt}"
                r"\begin{longtable}{@{}L{2.4cm}L{3.6cm}L{3.4cm}L{6.2cm}@{}}",
                r"\toprule Learner & Best over families (rank) & Not different from it & "
                r"Stronger control (rank), Holm $p$ vs best \\ \midrule\endhead",
                *(_family_row(a) for a in answers),
                r"\bottomrule\end{longtable}}"]
    return "\n".join(lines) + "\n"
