# esuli: dvc.yaml's esuli_* stages, a rule for each. `snakemake --cores 2 esuli`.

rule esuli:
    input:
        "reports/tables/esuli_table1.tex",
        "reports/tables/esuli_features.tex",
        "reports/tables/esuli_notes.tex",
        "reports/macros/esuli.tex",
        "reports/metrics/esuli.json",
        "reports/figures/esuli_f1_rounds.pdf",
        "reports/figures/esuli_f1_rounds.png",
        "reports/figures/esuli_f1_rounds.csv",


rule esuli_features:
    input:
        f"data/corpus/{cfg('esuli.dataset')}/counts.npz",
        f"data/corpus/{cfg('esuli.dataset')}/terms.txt",
        f"data/corpus/{cfg('esuli.dataset')}/meta.json",
    output:
        directory("data/esuli/features"),
    params:
        code=code("termweight.experiments.esuli"),
        tracked=tracked("esuli.dataset", "esuli.representations"),
        esuli_dataset=cfg("esuli.dataset"),
    log:
        "logs/esuli/features.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} esuli-features --params params.yaml"
        " --corpus data/corpus/{params.esuli_dataset} --out data/esuli/features/{{rep}}.npz"
        " --summary data/esuli/features/summary.json"


rule esuli_boost:
    input:
        "data/esuli/features",
    output:
        directory("data/esuli/models"),
    params:
        code=code("termweight.experiments.esuli"),
        tracked=tracked("esuli.rounds", "esuli.learners", "esuli.representations"),
    log:
        "logs/esuli/boost.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} esuli-boost --params params.yaml"
        " --features data/esuli/features/{{rep}}.npz"
        " --out data/esuli/models/{{learner}}_{{rep}}.npz"


rule esuli_evaluate:
    input:
        f"data/corpus/{cfg('esuli.dataset')}/meta.json",
        "data/esuli/features",
        "data/esuli/models",
    output:
        directory("data/esuli/curves"),
        directory("data/esuli/categories"),
    params:
        code=code("termweight.experiments.esuli"),
        tracked=tracked("esuli.learners", "esuli.representations"),
        esuli_dataset=cfg("esuli.dataset"),
    log:
        "logs/esuli/evaluate.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} esuli-evaluate --params params.yaml"
        " --corpus data/corpus/{params.esuli_dataset} --features data/esuli/features/{{rep}}.npz"
        " --model data/esuli/models/{{learner}}_{{rep}}.npz"
        " --out-curve data/esuli/curves/{{learner}}_{{rep}}.csv"
        " --out-categories data/esuli/categories/{{run}}.csv"


rule esuli_svm:
    input:
        f"data/corpus/{cfg('esuli.dataset')}/meta.json",
        "data/esuli/features",
    output:
        directory("data/esuli/svm"),
    params:
        code=code("termweight.experiments.esuli"),
        tracked=tracked("esuli.svm_C", "esuli.svm_losses?"),
        esuli_dataset=cfg("esuli.dataset"),
    log:
        "logs/esuli/svm.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} esuli-svm --params params.yaml"
        " --corpus data/corpus/{params.esuli_dataset} --features data/esuli/features/tfidf.npz"
        " --out data/esuli/svm/{{run}}.csv"


rule esuli_report:
    input:
        "data/esuli/features",
        f"data/corpus/{cfg('esuli.dataset')}/counts.npz",
        "data/esuli/models",
        "data/esuli/categories",
        "data/esuli/curves",
        "data/esuli/svm",
        "src/termweight/experiments/esuli/published.json",
        weighting_file("ig"),
    output:
        shown("esuli", "reports/tables/esuli_table1.tex"),
        shown("esuli", "reports/tables/esuli_features.tex"),
        shown("esuli", "reports/tables/esuli_notes.tex"),
        "reports/macros/esuli.tex",
        shown("esuli", "reports/metrics/esuli.json"),
    params:
        code=code("termweight.experiments.esuli.report"),
        tracked=tracked("esuli.learners", "esuli.representations", "esuli.svm_losses?"),
        esuli_dataset=cfg("esuli.dataset"),
    log:
        "logs/esuli/report.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} esuli-report --params params.yaml"
        " --summary data/esuli/features/summary.json --corpus data/corpus/{params.esuli_dataset}"
        " --categories data/esuli/categories/{{run}}.csv --svm data/esuli/svm/{{run}}.csv"
        " --curves data/esuli/curves/{{run}}.csv --models data/esuli/models/{{run}}.npz"
        " --features data/esuli/features/{{rep}}.npz --out-table reports/tables/esuli_table1.tex"
        " --out-features reports/tables/esuli_features.tex"
        " --out-notes reports/tables/esuli_notes.tex --out-macros reports/macros/esuli.tex"
        " --out-metrics reports/metrics/esuli.json"


rule esuli_figure:
    input:
        "data/esuli/curves",
        "data/esuli/svm",
        "src/termweight/experiments/esuli/published.json",
    output:
        "reports/figures/esuli_f1_rounds.pdf",
        shown("esuli", "reports/figures/esuli_f1_rounds.png"),
        "reports/figures/esuli_f1_rounds.csv",
    params:
        code=code("termweight.experiments.esuli.report"),
        tracked=tracked("esuli.learners", "esuli.representations"),
    log:
        "logs/esuli/figure.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} esuli-figure --params params.yaml"
        " --curves data/esuli/curves/{{learner}}_{{rep}}.csv --svm data/esuli/svm/svm_tfidf.csv"
        " --out reports/figures/esuli_f1_rounds.pdf"
