# Ferreira & Figueiredo (2012): l0-norm feature selection vs Fisher ratio, random projection, MIM,
# CMIM (src/termweight/experiments/ferreira.py). One job per dataset x replication evaluates every
# method, m and classifier (ferreira_run); collect -> figures (Figs. 2-4) and tables.

import os

if "ferreira" in config:
    FERREIRA = config["ferreira"]
    FERREIRA_DATASETS = list(FERREIRA["datasets"])
    FERREIRA_MC = FERREIRA.get("multiclass")

    FERREIRA_SPLITS = {
        d: split_names(FERREIRA["datasets"][d]["protocol"]) for d in FERREIRA_DATASETS
    }
    FERREIRA_ERRORS = [
        f"data/ferreira/errors/{d}/{s}.csv" for d in FERREIRA_DATASETS for s in FERREIRA_SPLITS[d]
    ]

    FERREIRA_MC_OUT = ["data/ferreira/multiclass/errors.csv"] if FERREIRA_MC else []
    # Table 1's Dexter test mean l0 needs only the unlabelled rows (data/raw/dexter, fetched by
    # `prepare`; its corpus is the input that orders the steps)
    FERREIRA_DEXTER = "dexter" in FERREIRA_DATASETS
    FERREIRA_DEXTER_IN = ["data/corpus/dexter/meta.json"] if FERREIRA_DEXTER else []
    FERREIRA_DEXTER_ARG = "--dexter-test data/raw/dexter" if FERREIRA_DEXTER else ""
    FERREIRA_MC_ARG = (
        "--multiclass data/ferreira/multiclass/errors.csv" if FERREIRA_MC else ""
    )
    FERREIRA_FIGURES = expand(
        "reports/figures/ferreira_{name}.{ext}",
        name=FERREIRA_DATASETS + (["multiclass"] if FERREIRA_MC else []),
        ext=["pdf", "png"],
    )
    FERREIRA_TABLES = expand(
        "reports/tables/ferreira_{name}.tex",
        name=["best", "datasets"]
        + (["fig1"] if "svmlight_example1" in FERREIRA_DATASETS else [])
        + (["multiclass"] if FERREIRA_MC else []),
    )
    FERREIRA_OUTPUTS = [
        "reports/metrics/ferreira.json",
        "reports/macros/ferreira.tex",
        *FERREIRA_FIGURES,
        *FERREIRA_TABLES,
    ]
    PAPER_TARGETS.extend(FERREIRA_OUTPUTS)

    # One split rule per dataset: its outputs (the replications) depend on the protocol.
    for _ds in FERREIRA_DATASETS:

        rule:
            name:
                f"ferreira_split_{_ds}"
            input:
                code=code_of("ferreira-split"),
                corpus=multiext(f"data/corpus/{_ds}/", "counts.npz", "meta.json", "terms.txt"),
            output:
                index=f"data/ferreira/splits/{_ds}/index.json",
                splits=expand(
                    f"data/ferreira/splits/{_ds}/{{split}}.npz", split=FERREIRA_SPLITS[_ds]
                ),
            params:
                dataset=_ds,
                tracked=[FERREIRA["datasets"][_ds], config["seed"]],
            log:
                f"logs/ferreira/split/{_ds}.log",
            conda:
                ENV
            shell:
                "python -m termweight --log {log} ferreira-split --params params.yaml"
                " --dataset {params.dataset} --corpus data/corpus/{params.dataset}"
                " --out-dir data/ferreira/splits/{params.dataset}"

    rule ferreira_run:
        wildcard_constraints:
            dataset="|".join(FERREIRA_DATASETS),
            split="r[0-9]+",
        input:
            code=code_of("ferreira-run"),
            corpus=multiext("data/corpus/{dataset}/", "counts.npz", "meta.json", "terms.txt"),
            split="data/ferreira/splits/{dataset}/{split}.npz",
        output:
            errors="data/ferreira/errors/{dataset}/{split}.csv",
            rankings="data/ferreira/rankings/{dataset}/{split}.npz",
        params:
            tracked=lambda w: [
                FERREIRA["datasets"][w.dataset],
                FERREIRA["svm_C"],
                FERREIRA["modest_rounds"],
                config["seed"],
            ],
        log:
            "logs/ferreira/run/{dataset}/{split}.log",
        conda:
            ENV
        shell:
            "python -m termweight --log {log} ferreira-run --params params.yaml"
            " --dataset {wildcards.dataset} --corpus data/corpus/{wildcards.dataset}"
            " --split data/ferreira/splits/{wildcards.dataset}/{{split}}.npz"
            " --names {wildcards.split} --out data/ferreira/errors/{wildcards.dataset}/{{split}}.csv"
            " --rankings data/ferreira/rankings/{wildcards.dataset}/{{split}}.npz"

    if FERREIRA_MC:

        rule ferreira_multiclass:
            input:
                code=code_of("ferreira-multiclass"),
                corpus=multiext(
                    f"data/corpus/{FERREIRA_MC['dataset']}/",
                    "counts.npz",
                    "meta.json",
                    "terms.txt",
                ),
            output:
                "data/ferreira/multiclass/errors.csv",
            params:
                corpus=lambda w, input: os.path.dirname(input.corpus[0]),
                tracked=[FERREIRA_MC, FERREIRA["svm_C"], config["seed"]],
            log:
                "logs/ferreira/multiclass.log",
            conda:
                ENV
            shell:
                "python -m termweight --log {log} ferreira-multiclass --params params.yaml"
                " --corpus {params.corpus} --out {output}"

    rule ferreira_collect:
        input:
            code=code_of("ferreira-collect"),
            errors=FERREIRA_ERRORS,
            index=expand("data/ferreira/splits/{dataset}/index.json", dataset=FERREIRA_DATASETS),
            multiclass=FERREIRA_MC_OUT,
            published="src/termweight/experiments/published/ferreira.json",
            dexter=FERREIRA_DEXTER_IN,
        output:
            errors="data/ferreira/all_errors.csv",
            summary="data/ferreira/summary.csv",
            metrics=report(
                "reports/metrics/ferreira.json",
                category="Ferreira & Figueiredo (2012)",
                subcategory="Metrics",
                caption="../report/ferreira.rst",
            ),
        params:
            mc=FERREIRA_MC_ARG,
            dexter=FERREIRA_DEXTER_ARG,
        log:
            "logs/ferreira/collect.log",
        conda:
            ENV
        shell:
            "python -m termweight --log {log} ferreira-collect --params params.yaml"
            " --errors 'data/ferreira/errors/{{dataset}}/{{split}}.csv' {params.mc}"
            " --index 'data/ferreira/splits/{{dataset}}/index.json'"
            " --published {input.published} {params.dexter}"
            " --out-errors {output.errors} --out-summary {output.summary}"
            " --out-json {output.metrics}"

    rule ferreira_figures:
        input:
            code=code_of("ferreira-figures"),
            summary="data/ferreira/summary.csv",
            multiclass=FERREIRA_MC_OUT,
        output:
            [
                # PNG figures, tables and metrics in `snakemake --report` (PDF: the same figures)
                (
                    report(
                        p,
                        category="Ferreira & Figueiredo (2012)",
                        subcategory=p.split("/")[1].capitalize(),
                        caption="../report/ferreira.rst",
                    )
                    if p.endswith((".png", ".json")) or p.startswith("reports/tables/")
                    else p
                )
                for p in FERREIRA_FIGURES
            ],
        params:
            mc=FERREIRA_MC_ARG,
        log:
            "logs/ferreira/figures.log",
        conda:
            ENV
        shell:
            "python -m termweight --log {log} ferreira-figures --params params.yaml"
            " --summary {input.summary} {params.mc} --out-dir reports/figures"

    rule ferreira_tables:
        input:
            code=code_of("ferreira-tables"),
            published="src/termweight/experiments/published/ferreira.json",
            summary="data/ferreira/summary.csv",
            index=expand("data/ferreira/splits/{dataset}/index.json", dataset=FERREIRA_DATASETS),
            multiclass=FERREIRA_MC_OUT,
            dexter=FERREIRA_DEXTER_IN,
        output:
            tables=[
                report(p, category="Ferreira & Figueiredo (2012)", subcategory="Tables", caption="../report/ferreira.rst")
                for p in FERREIRA_TABLES
            ],
            macros="reports/macros/ferreira.tex",
        params:
            mc=FERREIRA_MC_ARG,
            dexter=FERREIRA_DEXTER_ARG,
        log:
            "logs/ferreira/tables.log",
        conda:
            ENV
        shell:
            "python -m termweight --log {log} ferreira-tables --params params.yaml"
            " --summary {input.summary} --published {input.published}"
            " --index 'data/ferreira/splits/{{dataset}}/index.json' {params.mc}"
            " {params.dexter} --out-dir reports"

    rule ferreira:
        input:
            FERREIRA_OUTPUTS,
