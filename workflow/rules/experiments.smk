# The generic experiments of params.yaml's `experiments:`: split and training statistics per
# experiment, scores, then per encoding: encode, train, predict, evaluate; the aggregate, a table
# and a figure. dvc.yaml: split, stats, score, encode, train, predict, evaluate, aggregate, table,
# figure (written out there for the experiment `slice`).


rule split:
    input:
        experiment_corpus,
    output:
        directory("data/splits/{exp}"),
    params:
        code=code("termweight.steps.split"),
        tracked=tracked("seed", "experiments.{exp}.protocol"),
        dataset=lambda w: EXPERIMENTS[w.exp]["dataset"],
    log:
        "logs/split/{exp}.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} split --params params.yaml --exp {wildcards.exp}"
        " --corpus data/corpus/{params.dataset} --out-dir {output}"


rule stats:
    input:
        experiment_corpus,
        "data/splits/{exp}",
    output:
        directory("data/stats/{exp}"),
    params:
        code=code("termweight.steps.features"),
        tracked=tracked("experiments.{exp}.protocol"),
        dataset=lambda w: EXPERIMENTS[w.exp]["dataset"],
    log:
        "logs/stats/{exp}.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} stats --params params.yaml --exp {wildcards.exp}"
        " --corpus data/corpus/{params.dataset} --split data/splits/{wildcards.exp}/{{split}}.npz"
        " --out data/stats/{wildcards.exp}/{{split}}.npz"


rule score:
    input:
        "data/stats/{exp}",
        score_modules,
    output:
        directory("data/scores/{exp}"),
    params:
        code=code("termweight.steps.features"),
        tracked=tracked("experiments.{exp}.protocol", "experiments.{exp}.scores"),
    log:
        "logs/score/{exp}.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} score --params params.yaml --exp {wildcards.exp}"
        " --stats data/stats/{wildcards.exp}/{{split}}.npz --out data/scores/{wildcards.exp}/{{split}}.npz"


rule encode:
    input:
        experiment_corpus,
        "data/splits/{exp}",
        "data/stats/{exp}",
        "data/scores/{exp}",
    output:
        directory("data/encoded/{exp}/{encoding}"),
    params:
        code=code("termweight.steps.features"),
        tracked=tracked("experiments.{exp}.protocol"),
        dataset=lambda w: EXPERIMENTS[w.exp]["dataset"],
    log:
        "logs/encode/{exp}_{encoding}.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} encode --params params.yaml --exp {wildcards.exp}"
        " --encoding {wildcards.encoding} --corpus data/corpus/{params.dataset}"
        " --split data/splits/{wildcards.exp}/{{split}}.npz --stats data/stats/{wildcards.exp}/{{split}}.npz"
        " --scores data/scores/{wildcards.exp}/{{split}}.npz"
        " --out data/encoded/{wildcards.exp}/{{encoding}}/{{split}}.npz"


rule train:
    input:
        "data/encoded/{exp}/{encoding}",
    output:
        directory("data/models/{exp}/{encoding}"),
    params:
        code=code("termweight.steps.learn"),
        tracked=tracked("experiments.{exp}.protocol", "experiments.{exp}.learner"),
    log:
        "logs/train/{exp}_{encoding}.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} train --params params.yaml --exp {wildcards.exp}"
        " --encoding {wildcards.encoding} --encoded data/encoded/{wildcards.exp}/{{encoding}}/{{split}}.npz"
        " --out data/models/{wildcards.exp}/{{encoding}}/{{split}}.npz"


rule predict:
    input:
        "data/encoded/{exp}/{encoding}",
        "data/models/{exp}/{encoding}",
    output:
        directory("data/predictions/{exp}/{encoding}"),
    params:
        code=code("termweight.steps.learn"),
        tracked=tracked("experiments.{exp}.protocol"),
    log:
        "logs/predict/{exp}_{encoding}.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} predict --params params.yaml --exp {wildcards.exp}"
        " --encoding {wildcards.encoding} --encoded data/encoded/{wildcards.exp}/{{encoding}}/{{split}}.npz"
        " --model data/models/{wildcards.exp}/{{encoding}}/{{split}}.npz"
        " --out data/predictions/{wildcards.exp}/{{encoding}}/{{split}}.npz"


rule evaluate:
    input:
        lambda w: f"data/corpus/{EXPERIMENTS[w.exp]['dataset']}/meta.json",
        "data/encoded/{exp}/{encoding}",
        "data/models/{exp}/{encoding}",
        "data/predictions/{exp}/{encoding}",
    output:
        directory("data/metrics/{exp}/{encoding}"),
    params:
        code=code("termweight.steps.learn"),
        tracked=tracked("experiments.{exp}.protocol"),
        dataset=lambda w: EXPERIMENTS[w.exp]["dataset"],
    log:
        "logs/evaluate/{exp}_{encoding}.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} evaluate --params params.yaml --exp {wildcards.exp}"
        " --encoding {wildcards.encoding} --corpus-meta data/corpus/{params.dataset}/meta.json"
        " --encoded data/encoded/{wildcards.exp}/{{encoding}}/{{split}}.npz"
        " --model data/models/{wildcards.exp}/{{encoding}}/{{split}}.npz"
        " --predictions data/predictions/{wildcards.exp}/{{encoding}}/{{split}}.npz"
        " --out data/metrics/{wildcards.exp}/{{encoding}}/{{split}}.csv"


rule aggregate:
    input:
        lambda w: expand("data/metrics/{exp}/{encoding}", exp=w.exp,
                         encoding=EXPERIMENTS[w.exp]["encodings"]),
    output:
        tasks="data/results/{exp}/tasks.csv",
        runs="data/results/{exp}/runs.csv",
        metrics=report("reports/metrics/{exp}.json", category="Offline default",
                       subcategory="{exp}", caption="../report/experiment_metrics.rst"),
    params:
        code=code("termweight.steps.results"),
        tracked=tracked("experiments.{exp}"),
    log:
        "logs/aggregate/{exp}.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} aggregate --params params.yaml --exp {wildcards.exp}"
        " --metrics data/metrics/{wildcards.exp}/{{encoding}}/{{split}}.csv"
        " --out-tasks {output.tasks} --out-runs {output.runs} --out-json {output.metrics}"


rule table:
    input:
        "data/results/{exp}/runs.csv",
    output:
        report("reports/tables/{exp}.tex", category="Offline default", subcategory="{exp}",
               caption="../report/experiment_table.rst"),
    params:
        code=code("termweight.steps.results"),
        tracked=tracked("experiments.{exp}"),
    log:
        "logs/table/{exp}.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} table --params params.yaml --exp {wildcards.exp}"
        " --runs data/results/{wildcards.exp}/runs.csv --out {output}"


rule figure:
    input:
        "data/results/{exp}/runs.csv",
    output:
        pdf="reports/figures/{exp}.pdf",
        png=report("reports/figures/{exp}.png", category="Offline default", subcategory="{exp}",
                   caption="../report/experiment_figure.rst"),
        data="reports/figures/{exp}.csv",
    params:
        code=code("termweight.steps.results"),
        tracked=tracked("experiments.{exp}"),
    log:
        "logs/figure/{exp}.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} figure --params params.yaml --exp {wildcards.exp}"
        " --runs data/results/{wildcards.exp}/runs.csv --out {output.pdf}"
