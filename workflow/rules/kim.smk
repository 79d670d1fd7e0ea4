# Kim (2016): convex-hull mixture (mix-ch) and mini-max over five supervised term weightings.
# corpus -> random 50/50 splits -> C by hold-out in the training half -> refit + test counts
# -> Tables 1-3, per-problem figure, convergence figure, metrics and macros.
# (src/termweight/experiments/kim.py; config section `kim:` of params.yaml)

import os

if "kim" in config:
    KIM = config["kim"]
    KIM_KEYS = list(KIM["datasets"])
    # values every selection/fit depends on (rerun when they change)
    KIM_TRACKED = {k: v for k, v in KIM.items() if k not in ("datasets", "convergence")}

    KIM_SPLITS = {k: [f"r{r}" for r in range(int(d["repeats"]))] for k, d in KIM["datasets"].items()}
    KIM_CORPUS = {k: f"data/corpus/{d['dataset']}" for k, d in KIM["datasets"].items()}
    # what one split's selection/fit depends on (not the number of repeats)
    KIM_UNIT = {k: {n: v for n, v in d.items() if n != "repeats"} for k, d in KIM["datasets"].items()}

    # One split rule per dataset key: its outputs (split names) depend on the repeats.
    for _key in KIM_KEYS:

        rule:
            name:
                f"kim_split_{_key}"
            input:
                code=code_of("kim-split"),
                corpus=expand("{base}/{file}", base=KIM_CORPUS[_key],
                              file=["counts.npz", "meta.json", "terms.txt"]),
            output:
                index=f"data/kim/{_key}/splits/index.json",
                splits=expand(f"data/kim/{_key}/splits/{{split}}.npz",
                              split=KIM_SPLITS[_key]),
            params:
                key=_key,
                corpus=lambda w, input: os.path.dirname(input.corpus[0]),
                # the repeats are not tracked: r0 is the same whatever their number
                tracked=[KIM["datasets"][_key]["dataset"], KIM.get("train_fraction"),
                         KIM.get("stratified"), config["seed"]],
            log:
                f"logs/kim/split_{_key}.log",
            conda:
                ENV
            shell:
                "python -m termweight --log {log} kim-split --params params.yaml --key {params.key}"
                " --corpus {params.corpus} --out-dir data/kim/{params.key}/splits"

    rule kim_select:
        wildcard_constraints:
            kkey="|".join(KIM_KEYS),
        input:
            code=code_of("kim-select"),
            corpus=lambda w: [f"{KIM_CORPUS[w.kkey]}/{f}" for f in ("counts.npz", "meta.json", "terms.txt")],
            split="data/kim/{kkey}/splits/{split}.npz",
        output:
            "data/kim/{kkey}/select/{split}.csv",
        params:
            corpus=lambda w: KIM_CORPUS[w.kkey],
            tracked=lambda w: [KIM_TRACKED, KIM_UNIT[w.kkey], config["seed"]],
        log:
            "logs/kim/select/{kkey}/{split}.log",
        conda:
            ENV
        shell:
            "python -m termweight --log {log} kim-select --params params.yaml --key {wildcards.kkey}"
            " --corpus {params.corpus} --split {input.split} --out {output}"
            " --names {wildcards.split}"

    rule kim_fit:
        wildcard_constraints:
            kkey="|".join(KIM_KEYS),
        input:
            code=code_of("kim-fit"),
            corpus=lambda w: [f"{KIM_CORPUS[w.kkey]}/{f}" for f in ("counts.npz", "meta.json", "terms.txt")],
            split="data/kim/{kkey}/splits/{split}.npz",
            select="data/kim/{kkey}/select/{split}.csv",
        output:
            "data/kim/{kkey}/fit/{split}.csv",
        params:
            corpus=lambda w: KIM_CORPUS[w.kkey],
            tracked=lambda w: [KIM_TRACKED, KIM_UNIT[w.kkey]],
        log:
            "logs/kim/fit/{kkey}/{split}.log",
        conda:
            ENV
        shell:
            "python -m termweight --log {log} kim-fit --params params.yaml --key {wildcards.kkey}"
            " --corpus {params.corpus} --split {input.split} --select {input.select}"
            " --out {output} --names {wildcards.split}"

    rule kim_convergence:
        input:
            code=code_of("kim-convergence"),
            corpus=expand("{base}/{file}", base=KIM_CORPUS[KIM["convergence"]["dataset"]],
                          file=["counts.npz", "meta.json", "terms.txt"]),
            split=f"data/kim/{KIM['convergence']['dataset']}/splits/{KIM['convergence']['split']}.npz",
        output:
            "data/kim/convergence.json",
        params:
            corpus=lambda w, input: os.path.dirname(input.corpus[0]),
            tracked=[KIM["convergence"], KIM_TRACKED],
        log:
            "logs/kim/convergence.log",
        conda:
            ENV
        shell:
            "python -m termweight --log {log} kim-convergence --params params.yaml"
            " --corpus {params.corpus} --split {input.split} --out {output}"

    rule kim_report:
        input:
            code=code_of("kim-report"),
            published="src/termweight/experiments/published/kim.json",
            meta=[f"{KIM_CORPUS[k]}/meta.json" for k in KIM_KEYS],
            fits=[f"data/kim/{k}/fit/{s}.csv" for k in KIM_KEYS for s in KIM_SPLITS[k]],
            convergence="data/kim/convergence.json",
        output:
            runs="data/kim/runs.csv",
            metrics=report(
                "reports/metrics/kim.json",
                category="Kim (2016)",
                subcategory="Metrics",
                caption="../report/kim.rst",
            ),
            tables=[
                report(
                    f"reports/tables/kim_{k}.tex",
                    category="Kim (2016)",
                    subcategory="Tables",
                    caption="../report/kim.rst",
                )
                for k in KIM_KEYS
            ],
            figures=[
                # PNG in `snakemake --report` (PDF: the same figure)
                (
                    report(p, category="Kim (2016)", subcategory="Figures",
                           caption="../report/kim.rst")
                    if p.endswith(".png")
                    else p
                )
                for p in expand("reports/figures/kim_{name}.{ext}",
                                name=["per_problem", "convergence"], ext=["pdf", "png"])
            ],
            macros="reports/macros/kim.tex",
        params:
            tracked=[KIM_KEYS, {k: KIM["datasets"][k] for k in KIM_KEYS}],
        log:
            "logs/kim/report.log",
        conda:
            ENV
        shell:
            "python -m termweight --log {log} kim-report --params params.yaml"
            " --meta 'data/corpus/{{dataset}}/meta.json'"
            " --fits 'data/kim/{{key}}/fit/{{split}}.csv' --convergence {input.convergence}"
            " --out-runs {output.runs} --out-json {output.metrics} --tables reports/tables"
            " --figures reports/figures --macros {output.macros}"

    PAPER_TARGETS.extend(rules.kim_report.output)

    rule kim:
        input:
            rules.kim_report.output,
