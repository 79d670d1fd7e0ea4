# Esuli & Sebastiani (ECIR 2009): ordinal-to-binary encoding for AdaBoost.MH and MP-Boost vs an
# SVM on tf-idf, Reuters-21578 ModApte. corpus -> features -> boosters -> per-round and
# per-category results (+ LinearSVC) -> Table 1, feature counts, notes, macros, metrics, figure.
import os

if "esuli" in config:
    ESULI = config["esuli"]
    ESULI_CORPUS = f"data/corpus/{ESULI['dataset']}"
    ESULI_LEARNERS = ESULI["learners"]
    ESULI_REPS = ESULI["representations"]
    ESULI_FEATURES = ESULI_REPS + [r for r in ["tfidf"] if r not in ESULI_REPS]
    # one SVM run per loss (termweight.experiments.esuli.SVM_LOSSES)
    ESULI_SVM_RUNS = [
        {"squared_hinge": "svm_tfidf", "hinge": "svm_tfidf_hinge"}[loss]
        for loss in ESULI.get("svm_losses", ["squared_hinge"])
    ]
    ESULI_REPORTS = [
        "reports/tables/esuli_table1.tex",
        "reports/tables/esuli_features.tex",
        "reports/tables/esuli_notes.tex",
        "reports/macros/esuli.tex",
        "reports/metrics/esuli.json",
    ]
    ESULI_FIGURE = ["reports/figures/esuli_f1_rounds.pdf", "reports/figures/esuli_f1_rounds.png"]
    PAPER_TARGETS.extend(ESULI_REPORTS + ESULI_FIGURE)

    rule esuli_features:
        input:
            code=code_of("esuli-features"),
            corpus=expand(
                "{base}/{file}",
                base=ESULI_CORPUS,
                file=["counts.npz", "meta.json", "terms.txt"],
            ),
        output:
            features=expand("data/esuli/features/{rep}.npz", rep=ESULI_FEATURES),
            summary="data/esuli/features/summary.json",
        params:
            corpus=lambda w, input: os.path.dirname(input.corpus[0]),
            reps=" ".join(ESULI_REPS),
        log:
            "logs/esuli/features.log",
        conda:
            ENV
        shell:
            "python -m termweight --log {log} esuli-features --params params.yaml"
            " --corpus {params.corpus} --out 'data/esuli/features/{{rep}}.npz'"
            " --summary {output.summary}"

    rule esuli_boost:
        wildcard_constraints:
            learner="|".join(ESULI_LEARNERS),
            rep="|".join(ESULI_REPS),
        input:
            code=code_of("esuli-boost"),
            features="data/esuli/features/{rep}.npz",
        output:
            "data/esuli/models/{learner}_{rep}.npz",
        params:
            rounds=ESULI["rounds"],
        log:
            "logs/esuli/boost/{learner}_{rep}.log",
        conda:
            ENV
        shell:
            "python -m termweight --log {log} esuli-boost --params params.yaml"
            " --features {input.features} --out {output}"
            " --learners {wildcards.learner} --reps {wildcards.rep}"

    rule esuli_evaluate:
        wildcard_constraints:
            learner="|".join(ESULI_LEARNERS),
            rep="|".join(ESULI_REPS),
        input:
            code=code_of("esuli-evaluate"),
            meta=f"{ESULI_CORPUS}/meta.json",
            features="data/esuli/features/{rep}.npz",
            model="data/esuli/models/{learner}_{rep}.npz",
        output:
            curve="data/esuli/curves/{learner}_{rep}.csv",
            categories="data/esuli/categories/{learner}_{rep}.csv",
        params:
            corpus=lambda w, input: os.path.dirname(input.meta),
        log:
            "logs/esuli/evaluate/{learner}_{rep}.log",
        conda:
            ENV
        shell:
            "python -m termweight --log {log} esuli-evaluate --params params.yaml"
            " --corpus {params.corpus} --features {input.features} --model {input.model}"
            " --out-curve {output.curve} --out-categories {output.categories}"
            " --learners {wildcards.learner} --reps {wildcards.rep}"

    rule esuli_svm:
        input:
            code=code_of("esuli-svm"),
            meta=f"{ESULI_CORPUS}/meta.json",
            features="data/esuli/features/tfidf.npz",
        output:
            expand("data/esuli/svm/{run}.csv", run=ESULI_SVM_RUNS),
        params:
            corpus=lambda w, input: os.path.dirname(input.meta),
            C=ESULI["svm_C"],
            losses=ESULI.get("svm_losses", ["squared_hinge"]),
        log:
            "logs/esuli/svm.log",
        conda:
            ENV
        shell:
            "python -m termweight --log {log} esuli-svm --params params.yaml"
            " --corpus {params.corpus} --features {input.features}"
            " --out 'data/esuli/svm/{{run}}.csv'"

    rule esuli_report:
        input:
            code=code_of("esuli-report"),
            published="src/termweight/experiments/published/esuli.json",
            summary="data/esuli/features/summary.json",
            categories=expand(
                "data/esuli/categories/{learner}_{rep}.csv", learner=ESULI_LEARNERS, rep=ESULI_REPS
            ),
            svm=expand("data/esuli/svm/{run}.csv", run=ESULI_SVM_RUNS),
            curves=expand(
                "data/esuli/curves/{learner}_{rep}.csv", learner=ESULI_LEARNERS, rep=ESULI_REPS
            ),
            counts=f"{ESULI_CORPUS}/counts.npz",
        output:
            table=report(
                "reports/tables/esuli_table1.tex",
                category="Esuli & Sebastiani (2009)",
                subcategory="Tables",
                caption="../report/esuli.rst",
            ),
            features=report(
                "reports/tables/esuli_features.tex",
                category="Esuli & Sebastiani (2009)",
                subcategory="Tables",
                caption="../report/esuli.rst",
            ),
            notes=report(
                "reports/tables/esuli_notes.tex",
                category="Esuli & Sebastiani (2009)",
                subcategory="Tables",
                caption="../report/esuli.rst",
            ),
            macros="reports/macros/esuli.tex",
            metrics=report(
                "reports/metrics/esuli.json",
                category="Esuli & Sebastiani (2009)",
                subcategory="Metrics",
                caption="../report/esuli.rst",
            ),
        params:
            learners=" ".join(ESULI_LEARNERS),
            reps=" ".join(ESULI_REPS),
            corpus=lambda w, input: os.path.dirname(input.counts),
        log:
            "logs/esuli/report.log",
        conda:
            ENV
        shell:
            "python -m termweight --log {log} esuli-report --params params.yaml"
            " --summary {input.summary} --corpus {params.corpus}"
            " --categories 'data/esuli/categories/{{run}}.csv' --svm 'data/esuli/svm/{{run}}.csv'"
            " --curves 'data/esuli/curves/{{run}}.csv'"
            " --out-table {output.table} --out-features {output.features}"
            " --out-notes {output.notes} --out-macros {output.macros} --out-metrics {output.metrics}"

    rule esuli_figure:
        input:
            code=code_of("esuli-figure"),
            published="src/termweight/experiments/published/esuli.json",
            curves=expand(
                "data/esuli/curves/{learner}_{rep}.csv", learner=ESULI_LEARNERS, rep=ESULI_REPS
            ),
            svm="data/esuli/svm/svm_tfidf.csv",
        output:
            pdf=ESULI_FIGURE[0],
            png=report(
                ESULI_FIGURE[1],
                category="Esuli & Sebastiani (2009)",
                subcategory="Figures",
                caption="../report/esuli.rst",
            ),
        params:
            learners=" ".join(ESULI_LEARNERS),
            reps=" ".join(ESULI_REPS),
        log:
            "logs/esuli/figure.log",
        conda:
            ENV
        shell:
            "python -m termweight --log {log} esuli-figure --params params.yaml"
            " --curves 'data/esuli/curves/{{learner}}_{{rep}}.csv'"
            " --svm {input.svm} --out {output.pdf}"

    rule esuli:
        input:
            ESULI_REPORTS + ESULI_FIGURE,
