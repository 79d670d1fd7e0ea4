"""Esuli & Sebastiani's claims: the paired tests over the categories, the verdicts, the gaps to
the published numbers and the claims list (the rules are in ``termweight.experiments.esuli.report``'s
docstring). The report (``report.py``) writes them; nothing here writes a file."""

from __future__ import annotations

import numpy as np

from termweight.experiments.claims import POWER_Z, Claim, directional_verdict, p_text
from termweight.experiments.esuli import (
    MEASURES,
    SVM_LOSSES,
    SVM_RUN,
    TOLERANCE,
    modapte_split,
    published_key,
    run_name,
    training_terms,
)
from termweight.runner import io

ALPHA = 0.05
P1 = "macro_precision_no_prediction_as_one"
N_RESAMPLES = 9999
#: relative tolerance of the feature-count claim (values per term against the paper's 2.34)
FEATURE_TOLERANCE = 0.05
RANK = {"reproduced": 0, "partly": 1, "inconclusive": 2, "not reproduced": 3}
BIAS_PROBE = ("(not the solver, nor the bias penalty: libsvm's exact solution of SVM-light's "
              "problem (hinge loss, unpenalised bias, C = 1) gives macro-F1 0.445 on these "
              "features, as liblinear's hinge loss with a 100x weaker bias penalty does (0.445); "
              "the term frequency may be: with tf = 1 + ln(count) libsvm gives micro-F1 0.858 "
              "and macro-F1 0.404, against the paper's 0.853 and 0.415; "
              "benchmarks/probe_esuli_svm.py --libsvm)")
WORDS = {"micro_precision": "micro-precision", "micro_recall": "micro-recall",
         "micro_f1": "micro-F1", "macro_precision": "macro-precision",
         "macro_recall": "macro-recall", "macro_f1": "macro-F1"}


def _is_svm(run: str) -> bool:
    return run in SVM_LOSSES.values()


LEAST_SHARE = 0.5


def pivot_check(models: str, features: str, learners, reps) -> dict:
    """Sec. 2, "if some of the features we generate are non-discriminative, they will never be
    chosen by the boosting algorithm": per boosting run, how many of the model's pivots (the
    feature chosen at each round; MP-Boost: per round and category) are non-discriminative for
    the categories they serve (AdaBoost.MH: for every category): in the least informative
    ``LEAST_SHARE`` of the features by information gain on the training rows
    (``termweight.scoring``), and with no information gain at all (IG <= 1e-12 bits)."""
    from scipy.stats import rankdata

    from termweight.intermediates import load
    from termweight.scoring import score
    from termweight.statistics import term_stats

    out = {}
    for rep in reps:
        feats, _ = load("encoded", features.format(rep=rep))
        ig = score("ig", term_stats(feats["X_train"], feats["Y_train"]))  # (categories, features)
        zero = ig <= 1e-12
        least = rankdata(ig, axis=1) <= LEAST_SHARE * ig.shape[1]  # per category, ties averaged
        for learner in learners:
            run = run_name(learner, rep)
            piv = io.load_arrays(models.format(run=run), ["pivots"])["pivots"]
            if piv.ndim == 1:  # one pivot per round for all categories
                picked_zero, picked_least = zero[:, piv].all(axis=0), least[:, piv].all(axis=0)
            else:  # (rounds, categories)
                cats = np.arange(piv.shape[1])[None, :]
                picked_zero, picked_least = zero[cats, piv], least[cats, piv]
            out[run] = {"pivots": int(piv.size), "zero_ig": int(picked_zero.sum()),
                        "least_informative": int(picked_least.sum()),
                        "features": int(ig.shape[1]), "categories": int(ig.shape[0]),
                        "cells_zero_ig": int(zero.sum()),
                        "distinct_chosen": int(np.unique(piv).size)}
    return out


def pivots_claim(check, reps) -> Claim:
    """Sec. 2's "non-discriminative features will never be chosen" is an argument, not a
    measurement the paper reports, and it has no operational reading its text supports:
    boosting picks each round's pivot by its edge on the current row weights, so whether a
    feature is discriminative depends on the round; under the one fixed reading (IG = 0 on the
    training rows) almost no feature qualifies, and "the least informative half" is our notion,
    not the paper's. The claim is "not testable"; the pivots are described in its result."""
    common = dict(
        id="nondiscriminative_never_chosen",
        claim="If some of the features we generate are non-discriminative, they will never be "
              "chosen by the boosting algorithm, and will play no role in classification "
              "decisions", where="Sec. 2", published="",
        test="none decides it: the paper gives no operational notion of a non-discriminative "
             "feature, and boosting picks by weighted edge; described instead: the fitted "
             "boosters' pivots (the feature chosen per round; MP-Boost per round and category) "
             "against each feature's information gain on the training rows for the categories "
             f"it serves (AdaBoost.MH: all), IG = 0 and the least informative "
             f"{100 * LEAST_SHARE:g}% of the features")
    cause = ("Sec. 2 is an argument: boosting chooses a pivot by its edge under each round's row "
             "weights, so 'non-discriminative' is relative to a round; the fixed reading IG = 0 "
             "qualifies almost no feature (zero pivots can meet it), and 'the least informative "
             "half by unweighted IG' is not the paper's notion")
    if check is None:
        return Claim(**common, result="not run (esuli-report without --models and --features)",
                     verdict="not testable", cause=cause)
    result = "; ".join(
        f"{r}: {c['least_informative']:,} of {c['pivots']:,} pivots in the least informative "
        f"half, {c['zero_ig']:,} with IG = 0 ({c['cells_zero_ig']:,} of the {c['features']:,} "
        f"x {c['categories']} feature-category cells have IG = 0; {c['distinct_chosen']:,} "
        "distinct features chosen)" for r, c in check.items())
    return Claim(**common, result=result, verdict="not testable", cause=cause)




# --- statistical tests and verdicts (pure functions) --------------------------------------------

def _counts(frame) -> np.ndarray:
    return np.column_stack([np.asarray(frame[c], dtype=np.float64) for c in ("tp", "fp", "fn")])


def _same_categories(a, b) -> None:
    if len(a) != len(b) or ("category" in a and "category" in b
                            and list(a["category"]) != list(b["category"])):
        raise ValueError("the two runs' per-category tables list different categories")


def micro_f1_test(a, b, n_resamples: int = N_RESAMPLES, seed: int = 0) -> dict:
    """Micro-F1 of run ``a`` minus run ``b`` and its two-sided p-value: a paired randomisation test
    over categories (each category's tp, fp, fn swapped between the runs at random;
    ``scipy.stats.permutation_test`` with ``permutation_type="samples"``). ``a``, ``b``: tables with
    columns tp, fp, fn, one row per category, in the same order."""
    from scipy.stats import permutation_test

    _same_categories(a, b)
    table = np.vstack([_counts(a), _counts(b)])
    k = len(a)

    def f1(ix, axis):
        c = table[ix].sum(axis=axis if axis >= 0 else ix.ndim + axis)
        tp, fp, fn = c[..., 0], c[..., 1], c[..., 2]
        den = 2 * tp + fp + fn
        return np.where(den > 0, 2 * tp / np.where(den > 0, den, 1), 0.0)

    def stat(x, y, axis=-1):
        return f1(x, axis) - f1(y, axis)

    res = permutation_test((np.arange(k), np.arange(k, 2 * k)), stat, vectorized=True,
                           permutation_type="samples", n_resamples=n_resamples,
                           alternative="two-sided", rng=np.random.default_rng(seed))
    return {"diff": float(res.statistic), "p": float(res.pvalue), "n": k,
            "resamples": n_resamples, "mde": POWER_Z * float(np.std(res.null_distribution))}


def macro_f1_test(a, b) -> dict:
    """Macro-F1 of run ``a`` minus run ``b`` (the mean per-category F1 difference) and the
    Wilcoxon signed-rank test on the per-category F1 pairs (zero differences dropped; with none
    left, W = 0 and p = 1)."""
    from termweight.inference import wilcoxon_signed_rank

    _same_categories(a, b)
    fa, fb = (np.asarray(t["f1"], dtype=np.float64) for t in (a, b))
    d = fa - fb
    res = wilcoxon_signed_rank(fa, fb)
    w, p, nonzero = res["w"], res["p"], res["n"]
    se = float(np.std(d, ddof=1) / np.sqrt(d.size)) if d.size > 1 else float("inf")
    return {"diff": float(d.mean()), "w": w, "p": p, "n": nonzero, "categories": int(d.size),
            "mde": POWER_Z * se}


def paired_test(a, b, measure: str) -> dict:
    return micro_f1_test(a, b) if measure == "micro_f1" else macro_f1_test(a, b)


def weakest(verdicts) -> str:
    return max(verdicts, key=RANK.__getitem__)


def stat_text(t: dict) -> str:
    """One comparison's statistic as text."""
    if "w" in t:
        return (f"{t['diff']:+.3f}, Wilcoxon W = {t['w']:g}, {p_text(t['p'])}, n = {t['n']} of "
                f"{t['categories']} categories with different F1{_mde(t)}")
    return (f"{t['diff']:+.3f}, paired randomisation test {p_text(t['p'])}, n = {t['n']} categories, "
            f"{t['resamples']:,} resamples{_mde(t)}")


def _mde(t: dict) -> str:
    return f", detectable with 80% power: {t['mde']:.3f}" if "mde" in t else ""


TEST_MICRO = ("micro-F1 difference; paired randomisation test over the categories (each "
              "category's tp/fp/fn swapped between the two runs at random, 9,999 resamples, "
              "two-sided)")
TEST_MACRO = ("macro-F1 difference (mean per-category F1 difference); Wilcoxon signed-rank test "
              "on the per-category F1 pairs (two-sided)")
PROTOCOL = ("Reuters-21578 ModApte test set, 90 categories, boosting at 1,000 rounds; paired over "
            "categories because there is one fixed split (no folds) and the pipeline keeps "
            "per-category counts. ")
RULE = (" Reproduced if the sign is the paper's and p < 0.05; with p >= 0.05, inconclusive if the"
        " smallest difference detectable with 80% power exceeds the paper's, else partly.")


def log_tf_check(corpus_dir) -> dict:
    """Section 2: thresholds on ``log(1 + count)`` against thresholds on the counts (the text's
    distinct training values), on the ModApte training and test rows of ``corpus_dir``."""
    import scipy.sparse as sp

    from termweight.encoding import ThresholdEncoder

    arrays = io.load_arrays(f"{corpus_dir}/counts.npz")
    train, test = modapte_split(arrays["subset"])
    X = sp.csr_matrix(arrays["X"])
    X = X[:, training_terms(X[train])]
    L = X.astype(np.float64)
    L.data = np.log1p(L.data)
    out = {}
    for name, rows in (("train", train), ("test", test)):
        a = ThresholdEncoder().fit(X[train]).transform(X[rows])
        b = ThresholdEncoder().fit(L[train]).transform(L[rows])
        same = a.shape == b.shape and (sp.csr_matrix(a) != sp.csr_matrix(b)).nnz == 0
        out[name] = {"same": bool(same), "features": int(a.shape[1]), "nnz": int(a.nnz),
                     "log_features": int(b.shape[1])}
    return out


# --- gaps to the published numbers ---------------------------------------------------------------

def gaps(data) -> list[dict]:
    """Every compared number: ``{quantity, published, ours, difference, cause}``.

    The cause is the measured one where a run of this pipeline measures it (the 0/0 convention of
    macro-precision; the SVM's loss, when the hinge-loss run closes at least a quarter of a gap,
    and at least 0.005; the feature-count reading), else "unexplained" with what we know."""
    rows = data["published"]["table1"]["rows"]
    summ, pubf = data["summary"], data["published"]["features"]
    out = []
    hinge = data["runs"].get(SVM_LOSSES["hinge"], {}).get("scores")
    inputs = (f"the boosters match the authors' MP-Boost++ within 0.001 F1 on identical input "
              f"files (issue 18), so not the learner; our input has {summ['terms_before']:,} "
              f"terms against the paper's {pubf['terms_before']:,}")
    for run, r in data["runs"].items():
        key = r["published_row"]
        if key not in rows:
            continue
        s = r["scores"]
        for m in MEASURES:
            pub = rows[key][m]
            if pub is None:
                continue
            diff = s[m] - pub
            if m == "macro_precision":
                d1 = s[P1] - pub
                cause = (f"0/0 convention: {s['categories_never_predicted']} of {r['categories']} "
                         "categories get no positive test prediction and count as precision 0 "
                         f"here; counting 0/0 as 1 (the convention the paper's high macro-"
                         f"precision beside its low macro-recall implies) gives {s[P1]:.3f} "
                         f"({d1:+.3f})")
                if abs(d1) > TOLERANCE:
                    cause += "; the rest unexplained"
            elif (run == SVM_RUN and hinge is not None  # the loss closes a real part of it
                  and abs(diff) - abs(hinge[m] - pub) >= max(TOLERANCE / 4, abs(diff) / 4)):
                dh = hinge[m] - pub
                cause = (f"loss: SVM-light minimises the hinge loss, LinearSVC by default the "
                         f"squared hinge; our hinge-loss run gives {hinge[m]:.3f} ({dh:+.3f})")
                if abs(dh) > TOLERANCE:
                    cause += ("; the rest unexplained " + BIAS_PROBE)
            elif abs(diff) <= TOLERANCE:
                cause = f"unexplained (within the tolerance {TOLERANCE})"
            elif _is_svm(run):
                cause = ("unexplained: solver (liblinear against SVM-light) and input ("
                         f"{summ['terms_before']:,} against {pubf['terms_before']:,} terms) "
                         "differ " + BIAS_PROBE)
            else:
                cause = f"unexplained: {inputs}"
            if key == "mp_boost/binary":
                cause += ("; the paper's row is damaged in its text: only this cell survives, "
                          "and its tab-separated fields put it in the micro-F1 column")
            out.append({"quantity": f"{run} {m}", "published": pub, "ours": round(s[m], 6),
                        "difference": round(diff, 6), "cause": cause})
    d, e = summ["distinct_train"], summ["every_train"]
    out.append({"quantity": "terms before encoding", "published": pubf["terms_before"],
                "ours": summ["terms_before"],
                "difference": summ["terms_before"] - pubf["terms_before"],
                "cause": "unexplained: tokeniser, stop list and stemmer details the paper does "
                         "not give"})
    for q, k, spec in (("features after encoding", "features_after", ",d"),
                       ("values per term", "values_per_term", ".2f")):
        ours, every = d[k], e[k]
        out.append({"quantity": f"{q} (distinct training values, the text's reading)",
                    "published": pubf[k], "ours": ours, "difference": round(ours - pubf[k], 6),
                    "cause": (f"reading: the paper's number matches thresholds at every integer "
                              f"1..max (ours {every:{spec}}, {every - pubf[k]:+{spec}}), not one "
                              "per distinct training value as its text says")})
    return out


# --- the paper's claims --------------------------------------------------------------------------

def _cmp(data, a, b, m) -> dict | None:
    f = data["frames"]
    if a not in f or b not in f:
        return None
    return paired_test(f[a], f[b], m)


def _comparison_claim(data, cid, claim, where, published_text, pairs, m, cause_extra="",
                      paper=None):
    """A claim "A beats B" over one or more (A, B) pairs: the weakest verdict over the pairs.
    ``paper``: the paper's A - B per pair (None where it printed no number)."""
    tests = [(a, b, _cmp(data, a, b, m)) for a, b in pairs]
    tests = [(a, b, t) for a, b, t in tests if t is not None]
    test = PROTOCOL + (TEST_MICRO if m == "micro_f1" else TEST_MACRO) + "." + RULE
    if not tests:
        return Claim(id=cid, claim=claim, where=where, published=published_text, test=test,
                     result="runs missing", verdict="not testable",
                     cause="the runs it compares are not in this pipeline's configuration")
    s = {r: v["scores"] for r, v in data["runs"].items()}
    paper = dict(zip(pairs, paper or [None] * len(pairs), strict=True))
    parts, verdicts = [], []
    for a, b, t in tests:
        parts.append(f"{a} {s[a][m]:.3f} vs {b} {s[b][m]:.3f}: {stat_text(t)}")
        verdicts.append(directional_verdict(t["diff"], t["p"], mde=t.get("mde"),
                                            paper=paper[(a, b)]))
    verdict = weakest(verdicts)
    cause = ""
    if verdict == "partly":
        weak = [f"{a} vs {b} ({p_text(t['p'])})" for (a, b, t), v in zip(tests, verdicts, strict=True)
                if v == "partly"]
        cause = ("the paper's sign, but not significant at 0.05 over 90 categories: "
                 + "; ".join(weak) + "; the paper reports no test")
    elif verdict == "inconclusive":
        weak = [f"{a} vs {b}: {t['diff']:+.3f} ({p_text(t['p'])}), detectable {t['mde']:.3f}, "
                f"the paper's {paper[(a, b)]:+.3f}" for (a, b, t), v in
                zip(tests, verdicts, strict=True) if v == "inconclusive"]
        cause = ("too little data to tell: the smallest difference these 90 categories detect "
                 "with 80% power at 0.05 is larger than the paper's own (" + "; ".join(weak) + ")")
    elif verdict == "not reproduced":
        bad = [f"{a} vs {b} ({t['diff']:+.3f})" for (a, b, t), v in
               zip(tests, verdicts, strict=True) if v == "not reproduced"]
        cause = "unexplained: the opposite sign in " + "; ".join(bad)
    if cause and cause_extra:
        cause += "; " + cause_extra
    return Claim(id=cid, claim=claim, where=where, published=published_text, test=test,
                 result="; ".join(parts), verdict=verdict, cause=cause)


def _pub(rows, key, m) -> str:
    v = rows.get(key, {}).get(m)
    return "not printed" if v is None else f"{v:.3f}"


def claims_list(data) -> list[dict]:
    """The paper's claims with our test, result and verdict (decision rules: module docstring)."""
    rows = data["published"]["table1"]["rows"]
    runs = data["runs"]
    svms = [r for r in data["svm_runs"] if r in runs]
    ada_b, ada_o = run_name("adaboost_mh", "binary"), run_name("adaboost_mh", "ordinal")
    mp_b, mp_o = run_name("mp_boost", "binary"), run_name("mp_boost", "ordinal")
    one = 1 / 90
    rev = rows["adaboost_mh/binary"]["macro_f1"] - rows["adaboost_mh/ordinal"]["macro_f1"]

    def paper(pairs, m):
        """The paper's A - B for each pair (None where Table 1 prints no number)."""
        out = []
        for a, b in pairs:
            va, vb = (rows.get(published_key(r) or "", {}).get(m) for r in (a, b))
            out.append(None if va is None or vb is None else va - vb)
        return out

    out = []
    for cid, learner, b, o, m, where in (
            ("ordinal_beats_binary_adaboost_micro", "AdaBoost.MH", ada_b, ada_o, "micro_f1",
             "Abstract; Sec. 3, Table 1"),
            ("ordinal_beats_binary_mpboost_micro", "MP-Boost", mp_b, mp_o, "micro_f1",
             "Abstract; Sec. 3, Table 1"),
            ("ordinal_beats_binary_mpboost_macro", "MP-Boost", mp_b, mp_o, "macro_f1",
             "Sec. 3, Table 1")):
        key = "adaboost_mh" if learner == "AdaBoost.MH" else "mp_boost"
        out.append(_comparison_claim(
            data, cid, f"Ordinal features encoded as binary beat standard binary features for "
            f"{learner} in {WORDS[m]}", where,
            f"{_pub(rows, key + '/ordinal', m)} vs {_pub(rows, key + '/binary', m)}",
            [(o, b)], m, paper=paper([(o, b)], m)))
    out.append(_comparison_claim(
        data, "binary_beats_ordinal_adaboost_macro", "The trend is reversed only for AdaBoost.MH "
        "with macro-F1: binary features beat ordinal ones there", "Sec. 3, Table 1",
        f"{_pub(rows, 'adaboost_mh/binary', 'macro_f1')} vs "
        f"{_pub(rows, 'adaboost_mh/ordinal', 'macro_f1')}", [(ada_b, ada_o)], "macro_f1",
        paper=paper([(ada_b, ada_o)], "macro_f1"),
        cause_extra=f"the paper's reversal ({rev:.3f}) is about one category's weight in a "
                    f"macro average of 90 (1/90 = {one:.3f})"))
    competitors = [r for r in (ada_b, ada_o, mp_b, *svms) if r in runs]
    for m in ("micro_f1", "macro_f1"):
        nxt, val = max(((k, v[m]) for k, v in rows.items()
                        if k != "mp_boost/ordinal" and v[m] is not None), key=lambda kv: kv[1])
        published_text = (f"MP-Boost ordinal {_pub(rows, 'mp_boost/ordinal', m)}; next best "
                          f"{nxt.replace('/', ' ')} {val:.3f}")
        out.append(_comparison_claim(
            data, f"mpboost_ordinal_best_{m.split('_')[0]}", "MP-Boost with ordinal features is "
            f"the best performer of Table 1 in {WORDS[m]}", "Sec. 3, Table 1", published_text,
            [(mp_o, r) for r in competitors], m,
            paper=paper([(mp_o, r) for r in competitors], m)))
    for m in ("micro_f1", "macro_f1"):
        out.append(_comparison_claim(
            data, f"mpboost_ordinal_beats_svm_{m.split('_')[0]}", "Once endowed with ordinal "
            f"features, MP-Boost outperforms an SVM with cosine-normalised tf-idf input "
            f"({WORDS[m]}); the SVM rows: squared hinge (LinearSVC's default) and hinge "
            "(SVM-light's loss)", "Abstract; Sec. 3, Table 1",
            f"{_pub(rows, 'mp_boost/ordinal', m)} vs {_pub(rows, 'svm/tfidf', m)}",
            [(mp_o, r) for r in svms], m, paper=paper([(mp_o, r) for r in svms], m)))
    for m in ("micro_f1", "macro_f1"):
        pubs = "; ".join(f"{rep} {_pub(rows, 'mp_boost/' + rep, m)} vs "
                         f"{_pub(rows, 'adaboost_mh/' + rep, m)}" for rep in ("binary", "ordinal"))
        out.append(_comparison_claim(
            data, f"mpboost_beats_adaboost_{m.split('_')[0]}", "MP-Boost obtains considerable "
            f"effectiveness improvements over AdaBoost.MH ({WORDS[m]}, on binary and on ordinal "
            "features)", "Sec. 3 (citing [3]); Table 1", pubs, [(mp_b, ada_b), (mp_o, ada_o)], m,
            paper=paper([(mp_b, ada_b), (mp_o, ada_o)], m)))
    out.append(feature_claim(data))
    out.append(log_tf_claim(data.get("log_tf")))
    out.append(pivots_claim(data.get("pivots"), data["reps"]))
    out.append(Claim(
        id="multinomial_beats_bernoulli_nb", claim="Multinomial naive Bayes (term frequencies) "
        "substantially outperforms Bernoulli naive Bayes (presence/absence)",
        where="Sec. 1 (citing McCallum and Nigam [2])", test="none",
        result="not run", verdict="not testable",
        cause="a cited result used as motivation; this experiment runs no naive Bayes learner"))
    return [c.as_dict() for c in out]


def feature_claim(data) -> Claim:
    summ, pubf = data["summary"], data["published"]["features"]
    d, e = summ["distinct_train"], summ["every_train"]
    rel_d = d["values_per_term"] / pubf["values_per_term"] - 1
    rel_e = e["values_per_term"] / pubf["values_per_term"] - 1
    reps = summ.get("representations", {})
    nnz = ""
    if "binary" in reps and "ordinal" in reps:
        nnz = (f"; training nonzeros x{reps['ordinal']['train_nnz'] / reps['binary']['train_nnz']:.2f}"
               " of the binary matrix")
    if abs(rel_d) <= FEATURE_TOLERANCE:
        verdict, cause = "reproduced", ""
    elif abs(rel_e) <= FEATURE_TOLERANCE:
        verdict = "partly"
        cause = ("the printed counts match thresholds at every integer 1..max training count "
                 "(ordinal_every), not one per distinct training value as the text says "
                 "(data/esuli/features/summary.json); on training rows both give the same "
                 "splits")
    else:
        verdict, cause = "not reproduced", "unexplained: neither reading gives the printed count"
    return Claim(
        id="feature_counts", claim="The encoding increases the features from 20,123 to 47,087: "
        "on average 2.34 different nonzero values per term in the training set, a "
        "computationally non-prohibitive increase", where="Sec. 3",
        published=f"{pubf['terms_before']:,} -> {pubf['features_after']:,}, "
                  f"{pubf['values_per_term']:.2f} per term",
        test="ModApte training set, our tokenisation; features under the text's reading "
             "(distinct training values) and under every integer 1..max. Reproduced if the "
             "text's reading is within 5% of 2.34 values per term; partly if only the other is",
        result=(f"{summ['terms_before']:,} terms; distinct values: {d['features_after']:,} "
                f"features, {d['values_per_term']:.2f} per term ({rel_d:+.1%}); every integer: "
                f"{e['features_after']:,}, {e['values_per_term']:.2f} per term ({rel_e:+.1%})"
                + nnz),
        verdict=verdict, cause=cause)


def log_tf_claim(check) -> Claim:
    common = dict(
        id="monotone_tf_equivalent", claim="Every monotone non-decreasing tf form is equivalent: "
        "thresholds on log(1 + #(t, d)) give the same binary features as thresholds on the "
        "counts", where="Sec. 2", published="",
        test="ModApte, the text's reading (distinct training values): the binary matrices of "
             "both encodings, fitted on the training rows, compared entry by entry on the "
             "training and the test rows. Reproduced if identical")
    if check is None:
        return Claim(**common, result="not run (esuli-report without --corpus)",
                     verdict="not testable", cause="the report was run without the corpus counts")
    same = check["train"]["same"] and check["test"]["same"]
    result = "; ".join(f"{k} rows: {v['features']:,} features and {v['nnz']:,} nonzeros, "
                       f"{'identical' if v['same'] else 'different'} "
                       f"({v['log_features']:,} log features)" for k, v in check.items())
    return Claim(**common, result=result, verdict="reproduced" if same else "not reproduced",
                 cause="" if same else "unexplained")
