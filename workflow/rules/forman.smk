# forman: dvc.yaml's forman_* stages, a rule for each. `snakemake --cores 2 forman`.

rule forman:
    input:
        "reports/figures/forman_fig1.pdf",
        "reports/figures/forman_fig1.png",
        "reports/figures/forman_fig1.csv",
        "reports/figures/forman_fig2.pdf",
        "reports/figures/forman_fig2.png",
        "reports/figures/forman_fig2.csv",
        "reports/figures/forman_fig3.pdf",
        "reports/figures/forman_fig3.png",
        "reports/figures/forman_fig3.csv",
        "reports/figures/forman_fig4.pdf",
        "reports/figures/forman_fig4.png",
        "reports/figures/forman_fig4.csv",
        "reports/figures/forman_fig5.pdf",
        "reports/figures/forman_fig5.png",
        "reports/figures/forman_fig5.csv",
        "reports/figures/forman_fig6.pdf",
        "reports/figures/forman_fig6.png",
        "reports/figures/forman_fig6.csv",
        "reports/tables/forman_representations.tex",
        "reports/tables/forman_tests.tex",
        "reports/tables/forman_claims.tex",
        "reports/macros/forman.tex",
        "reports/metrics/forman.json",


rule forman_evaluate:
    input:
        "data/corpus/{key}/counts.npz",
        "data/corpus/{key}/meta.json",
        "data/corpus/{key}/terms.txt",
        weighting_file("acc"),
        weighting_file("acc2"),
        weighting_file("bns"),
        weighting_file("chi2"),
        weighting_file("f1"),
        weighting_file("ig"),
        weighting_file("logodds"),
        weighting_file("odds"),
        weighting_file("oddsnum"),
        weighting_file("pearson"),
        weighting_file("pmi"),
        weighting_file("power"),
        weighting_file("probratio"),
    output:
        directory("data/forman/evaluate/{key}"),
    params:
        code=code("termweight.experiments.forman"),
        tracked=tracked("seed", "forman.folds", "forman.repeats", "forman.bases", "forman.scalings", "forman.C", "forman.max_iter", "forman.learners?"),
    log:
        "logs/forman/evaluate/{key}.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} forman-evaluate --params params.yaml"
        " --dataset {wildcards.key} --out data/forman/evaluate/{wildcards.key}/r{{repeat}}.csv"


rule forman_select:
    input:
        "data/corpus/{key}/counts.npz",
        "data/corpus/{key}/meta.json",
        "data/corpus/{key}/terms.txt",
        weighting_file("bns"),
        weighting_file("ig"),
    output:
        directory("data/forman/select/{key}"),
    params:
        code=code("termweight.experiments.forman"),
        tracked=tracked("seed", "forman.folds", "forman.repeats", "forman.C", "forman.max_iter", "forman.selection"),
    log:
        "logs/forman/select/{key}.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} forman-select --params params.yaml"
        " --dataset {wildcards.key} --out data/forman/select/{wildcards.key}/r{{repeat}}.csv"


rule forman_report:
    input:
        expand("data/forman/evaluate/{key}", key=cfg("forman.datasets")),
        expand("data/forman/select/{key}", key=cfg("forman.datasets")),
        "src/termweight/experiments/forman/published.json",
    output:
        "reports/figures/forman_fig1.pdf",
        shown("forman", "reports/figures/forman_fig1.png"),
        "reports/figures/forman_fig1.csv",
        "reports/figures/forman_fig2.pdf",
        shown("forman", "reports/figures/forman_fig2.png"),
        "reports/figures/forman_fig2.csv",
        "reports/figures/forman_fig3.pdf",
        shown("forman", "reports/figures/forman_fig3.png"),
        "reports/figures/forman_fig3.csv",
        "reports/figures/forman_fig4.pdf",
        shown("forman", "reports/figures/forman_fig4.png"),
        "reports/figures/forman_fig4.csv",
        "reports/figures/forman_fig5.pdf",
        shown("forman", "reports/figures/forman_fig5.png"),
        "reports/figures/forman_fig5.csv",
        "reports/figures/forman_fig6.pdf",
        shown("forman", "reports/figures/forman_fig6.png"),
        "reports/figures/forman_fig6.csv",
        shown("forman", "reports/tables/forman_representations.tex"),
        shown("forman", "reports/tables/forman_tests.tex"),
        shown("forman", "reports/tables/forman_claims.tex"),
        "reports/macros/forman.tex",
        shown("forman", "reports/metrics/forman.json"),
    params:
        code=code("termweight.experiments.forman.report"),
        tracked=tracked("forman"),
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
