# Per experiment: per-run averages and DVC metrics -> LaTeX table and figure.


rule aggregate:
    message:
        JOB_LINE
    input:
        per_run("data/metrics/{exp}/{encoding}/{split}.csv"),
        code=code_of("aggregate"),
    output:
        tasks="data/results/{exp}/tasks.csv",
        runs="data/results/{exp}/runs.csv",
        metrics=report(
            "reports/metrics/{exp}.json",
            category="Offline default",
            subcategory="{exp}",
            caption="../report/experiment_metrics.rst",
        ),
    params:
        template=lambda w: f"data/metrics/{w.exp}/{{encoding}}/{{split}}.csv",
        tracked=lambda w: EXPERIMENTS[w.exp],  # rerun when the experiment changes
    log:
        "logs/aggregate/{exp}.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} aggregate --params params.yaml --exp {wildcards.exp}"
        " --metrics '{params.template}' --out-tasks {output.tasks} --out-runs {output.runs}"
        " --out-json {output.metrics}"


rule table:
    message:
        JOB_LINE
    input:
        code=code_of("table"),
        runs="data/results/{exp}/runs.csv",
    output:
        report(
            "reports/tables/{exp}.tex",
            category="Offline default",
            subcategory="{exp}",
            caption="../report/experiment_table.rst",
        ),
    params:
        tracked=lambda w: EXPERIMENTS[w.exp],
    log:
        "logs/table/{exp}.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} table --params params.yaml --exp {wildcards.exp} --runs {input.runs}"
        " --out {output}"


rule figure:
    message:
        JOB_LINE
    input:
        code=code_of("figure"),
        runs="data/results/{exp}/runs.csv",
    output:
        pdf="reports/figures/{exp}.pdf",
        data="reports/figures/{exp}.csv",
        png=report(
            "reports/figures/{exp}.png",
            category="Offline default",
            subcategory="{exp}",
            caption="../report/experiment_figure.rst",
        ),
    params:
        tracked=lambda w: EXPERIMENTS[w.exp],
    log:
        "logs/figure/{exp}.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} figure --params params.yaml --exp {wildcards.exp} --runs {input.runs}"
        " --out {output.pdf}"
