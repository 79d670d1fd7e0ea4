# Mukras et al. (2007): IG vs IG + Probability Re-distribution (PRP), ordinal text classification.
# corpus -> balanced subsample + 10-fold splits -> term rankings per fold (training rows only)
# -> MSE per selector x classifier x number of features -> curves, Table 1 tests, metrics
# -> tables, figures, macros. (src/termweight/experiments/mukras.py; config section `mukras:`)

if "mukras" in config:
    MUKRAS = config["mukras"]
    MUKRAS_UNITS = list(MUKRAS["datasets"])
    MUKRAS_FOLDS = split_names({"type": "kfold", "folds": MUKRAS["folds"]})
    MUKRAS_PUBLISHED = "src/termweight/experiments/published/mukras.json"
    MUKRAS_SPLITS = "data/mukras/splits/{unit}.npz"
    MUKRAS_SCORES = "data/mukras/scores/{unit}/{fold}.npz"
    MUKRAS_EVALS = "data/mukras/evaluations/{unit}/{fold}.csv"
    MUKRAS_TABLES = [
        f"reports/tables/mukras_{name}.tex" for name in ("table1", "grid", "example")
    ]
    MUKRAS_FIGURES = [
        f"reports/figures/mukras_{name}.{ext}"
        for name in ("fig4", "grid")
        for ext in ("pdf", "png")
    ]
    MUKRAS_OUTPUTS = (
        [
            "reports/metrics/mukras.json",
            "reports/macros/mukras.tex",
            "reports/tables/mukras_movers.tex",
        ]
        + MUKRAS_TABLES
        + MUKRAS_FIGURES
    )
    PAPER_TARGETS.extend(MUKRAS_OUTPUTS)

    # input function: the corpus files of a dataset entry's corpus
    MUKRAS_CORPUS_FILES = lambda w: expand(
        "data/corpus/{dataset}/{file}",
        dataset=MUKRAS["datasets"][w.unit]["dataset"],
        file=["counts.npz", "meta.json", "terms.txt"],
    )

    rule mukras_split:
        wildcard_constraints:
            unit="|".join(MUKRAS_UNITS),
        input:
            code=code_of("mukras-split"),
            corpus=MUKRAS_CORPUS_FILES,
        output:
            splits=MUKRAS_SPLITS,
            info="data/mukras/splits/{unit}.json",
        params:
            tracked=lambda w: [MUKRAS["datasets"][w.unit], MUKRAS["folds"], config["seed"]],
        log:
            "logs/mukras/split/{unit}.log",
        conda:
            ENV
        shell:
            "python -m termweight --log {log} mukras-split --params params.yaml"
            " --unit {wildcards.unit} --corpus 'data/corpus/{{dataset}}' --out {output.splits}"

    rule mukras_score:
        wildcard_constraints:
            unit="|".join(MUKRAS_UNITS),
            fold="|".join(MUKRAS_FOLDS),
        input:
            code=code_of("mukras-score"),
            corpus=MUKRAS_CORPUS_FILES,
            splits=MUKRAS_SPLITS,
        output:
            MUKRAS_SCORES,
        params:
            tracked=[MUKRAS["selectors"], MUKRAS["prp_columns"], config["seed"]],
        log:
            "logs/mukras/score/{unit}/{fold}.log",
        conda:
            ENV
        shell:
            "python -m termweight --log {log} mukras-score --params params.yaml"
            " --unit {wildcards.unit} --fold {wildcards.fold} --corpus 'data/corpus/{{dataset}}'"
            " --splits {input.splits} --out {output}"

    rule mukras_evaluate:
        wildcard_constraints:
            unit="|".join(MUKRAS_UNITS),
            fold="|".join(MUKRAS_FOLDS),
        input:
            code=code_of("mukras-evaluate"),
            corpus=MUKRAS_CORPUS_FILES,
            splits=MUKRAS_SPLITS,
            scores=MUKRAS_SCORES,
        output:
            MUKRAS_EVALS,
        params:
            tracked=[
                MUKRAS["selectors"],
                MUKRAS["features"],
                MUKRAS["classifiers"],
                MUKRAS["fh_selectors"],
                MUKRAS["svm_C"],
                config["seed"],
            ],
        log:
            "logs/mukras/evaluate/{unit}/{fold}.log",
        conda:
            ENV
        shell:
            "python -m termweight --log {log} mukras-evaluate --params params.yaml"
            " --unit {wildcards.unit} --fold {wildcards.fold} --corpus 'data/corpus/{{dataset}}'"
            " --splits {input.splits} --scores {input.scores} --out {output}"

    rule mukras_aggregate:
        input:
            code=code_of("mukras-aggregate"),
            evaluations=expand(MUKRAS_EVALS, unit=MUKRAS_UNITS, fold=MUKRAS_FOLDS),
            info=expand("data/mukras/splits/{unit}.json", unit=MUKRAS_UNITS),
            published=MUKRAS_PUBLISHED,
        output:
            results="data/mukras/results.csv",
            curves="data/mukras/curves.csv",
            tests="data/mukras/tests.csv",
            metrics=report(
                "reports/metrics/mukras.json",
                category="Mukras et al. (2007)",
                subcategory="Metrics",
                caption="../report/mukras.rst",
            ),
        params:
            evaluations=lambda w: MUKRAS_EVALS,
            splits=lambda w: MUKRAS_SPLITS,
            tracked=[MUKRAS["ranges"], MUKRAS["alpha"]],
        log:
            "logs/mukras/aggregate.log",
        conda:
            ENV
        shell:
            "python -m termweight --log {log} mukras-aggregate --params params.yaml"
            " --evaluations '{params.evaluations}' --splits '{params.splits}'"
            " --out-results {output.results} --out-curves {output.curves}"
            " --out-tests {output.tests} --out-metrics {output.metrics}"
            " --published {input.published}"

    rule mukras_tables:
        input:
            code=code_of("mukras-tables"),
            tests="data/mukras/tests.csv",
            published=MUKRAS_PUBLISHED,
        output:
            table1=report(
                MUKRAS_TABLES[0],
                category="Mukras et al. (2007)",
                subcategory="Tables",
                caption="../report/mukras.rst",
            ),
            grid=report(
                MUKRAS_TABLES[1],
                category="Mukras et al. (2007)",
                subcategory="Tables",
                caption="../report/mukras.rst",
            ),
            example=report(
                MUKRAS_TABLES[2],
                category="Mukras et al. (2007)",
                subcategory="Tables",
                caption="../report/mukras.rst",
            ),
        params:
            tracked=MUKRAS,
        log:
            "logs/mukras/tables.log",
        conda:
            ENV
        shell:
            "python -m termweight --log {log} mukras-tables --params params.yaml"
            " --tests {input.tests} --published {input.published} --out-table1 {output.table1}"
            " --out-grid {output.grid} --out-example {output.example}"

    rule mukras_figures:
        input:
            code=code_of("mukras-figures"),
            curves="data/mukras/curves.csv",
        output:
            [
                # PNG figures, tables and metrics in `snakemake --report` (PDF: the same figures)
                (
                    report(
                        p,
                        category="Mukras et al. (2007)",
                        subcategory=p.split("/")[1].capitalize(),
                        caption="../report/mukras.rst",
                    )
                    if p.endswith((".png", ".json")) or p.startswith("reports/tables/")
                    else p
                )
                for p in MUKRAS_FIGURES
            ],
        params:
            tracked=MUKRAS,
        log:
            "logs/mukras/figures.log",
        conda:
            ENV
        shell:
            "python -m termweight --log {log} mukras-figures --params params.yaml"
            " --curves {input.curves} --out-fig4 reports/figures/mukras_fig4.pdf"
            " --out-grid reports/figures/mukras_grid.pdf"

    rule mukras_movers:
        input:
            code=code_of("mukras-movers"),
            corpus=[
                f"data/corpus/{spec['dataset']}/{name}"
                for spec in MUKRAS["datasets"].values()
                for name in ("counts.npz", "meta.json", "terms.txt")
            ],
            splits=expand(MUKRAS_SPLITS, unit=MUKRAS_UNITS),
            scores=expand(MUKRAS_SCORES, unit=MUKRAS_UNITS, fold=MUKRAS_FOLDS[0]),
        output:
            report(
                "reports/tables/mukras_movers.tex",
                category="Mukras et al. (2007)",
                subcategory="Tables",
                caption="../report/mukras.rst",
            ),
        params:
            splits=lambda w: MUKRAS_SPLITS,
            scores=lambda w: MUKRAS_SCORES,
            tracked=MUKRAS,
        log:
            "logs/mukras/movers.log",
        conda:
            ENV
        shell:
            "python -m termweight --log {log} mukras-movers --params params.yaml"
            " --corpus 'data/corpus/{{dataset}}' --splits '{params.splits}'"
            " --scores '{params.scores}' --out {output}"

    rule mukras_macros:
        input:
            code=code_of("mukras-macros"),
            tests="data/mukras/tests.csv",
            info=expand("data/mukras/splits/{unit}.json", unit=MUKRAS_UNITS),
            published=MUKRAS_PUBLISHED,
        output:
            "reports/macros/mukras.tex",
        params:
            splits=lambda w: MUKRAS_SPLITS,
            tracked=MUKRAS,
        log:
            "logs/mukras/macros.log",
        conda:
            ENV
        shell:
            "python -m termweight --log {log} mukras-macros --params params.yaml"
            " --tests {input.tests} --splits '{params.splits}' --published {input.published}"
            " --out {output}"

    rule mukras:
        input:
            MUKRAS_OUTPUTS,
