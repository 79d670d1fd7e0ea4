# Forman (2008) BNS feature scaling: src/termweight/experiments/forman.py.
# One job per dataset x CV seed does all 4 folds x 30 representations x the dataset's tasks
# (forman_evaluate) and the Fig. 6 selection grid (forman_select); forman_report pools them.

if "forman" in config:
    FORMAN = config["forman"]
    FORMAN_UNITS = dict(
        dataset=FORMAN["datasets"], repeat=[str(r) for r in range(FORMAN["repeats"])]
    )
    FORMAN_OUTPUTS = [
        *expand(
            "reports/figures/forman_fig{n}.{ext}", n=range(1, 7), ext=["pdf", "png"]
        ),
        "reports/tables/forman_representations.tex",
        "reports/tables/forman_tests.tex",
        "reports/tables/forman_claims.tex",
        "reports/metrics/forman.json",
        "reports/macros/forman.tex",
    ]
    PAPER_TARGETS.extend(FORMAN_OUTPUTS)

    rule forman_evaluate:
        wildcard_constraints:
            dataset="|".join(FORMAN["datasets"]),
            repeat="[0-9]+",
        input:
            code=code_of("forman-evaluate"),
            corpus=multiext("data/corpus/{dataset}/", "counts.npz", "meta.json", "terms.txt"),
        output:
            "data/forman/evaluate/{dataset}/r{repeat}.csv",
        params:
            tracked=[
                {k: v for k, v in FORMAN.items() if k not in ("datasets", "repeats", "selection",
                                                              "positive_bins")},
                config["seed"],
            ],
        log:
            "logs/forman/evaluate/{dataset}/r{repeat}.log",
        conda:
            ENV
        shell:
            "python -m termweight --log {log} forman-evaluate --params params.yaml"
            " --dataset {wildcards.dataset} --repeat {wildcards.repeat}"
            " --out {output}"

    rule forman_select:
        wildcard_constraints:
            dataset="|".join(FORMAN["datasets"]),
            repeat="[0-9]+",
        input:
            code=code_of("forman-select"),
            corpus=multiext("data/corpus/{dataset}/", "counts.npz", "meta.json", "terms.txt"),
        output:
            "data/forman/select/{dataset}/r{repeat}.csv",
        params:
            tracked=[
                {k: FORMAN[k] for k in ("folds", "C", "max_iter", "selection")},
                config["seed"],
            ],
        log:
            "logs/forman/select/{dataset}/r{repeat}.log",
        conda:
            ENV
        shell:
            "python -m termweight --log {log} forman-select --params params.yaml"
            " --dataset {wildcards.dataset} --repeat {wildcards.repeat}"
            " --out {output}"

    rule forman_report:
        input:
            code=code_of("forman-report"),
            published="src/termweight/experiments/published/forman.json",
            evaluate=expand("data/forman/evaluate/{dataset}/r{repeat}.csv", **FORMAN_UNITS),
            select=expand("data/forman/select/{dataset}/r{repeat}.csv", **FORMAN_UNITS),
        output:
            [
                # PNG figures, tables and metrics in `snakemake --report` (PDF: the same figures)
                (
                    report(
                        p,
                        category="Forman (2008)",
                        subcategory=p.split("/")[1].capitalize(),
                        caption="../report/forman.rst",
                    )
                    if p.endswith((".png", ".json")) or p.startswith("reports/tables/")
                    else p
                )
                for p in FORMAN_OUTPUTS
            ],
        params:
            tracked=FORMAN,
        log:
            "logs/forman/report.log",
        conda:
            ENV
        shell:
            "python -m termweight --log {log} forman-report --params params.yaml"
            " --evaluate 'data/forman/evaluate/{{dataset}}/r{{repeat}}.csv'"
            " --select 'data/forman/select/{{dataset}}/r{{repeat}}.csv'"
            " --figures reports/figures/forman_fig --table reports/tables/forman_representations.tex"
            " --tests reports/tables/forman_tests.tex --claims reports/tables/forman_claims.tex"
            " --metrics reports/metrics/forman.json --macros reports/macros/forman.tex"

    rule forman:
        input:
            FORMAN_OUTPUTS,
