# Per split and encoding: fitted one-vs-rest models -> test predictions -> per-task metrics.


rule train:
    input:
        code="src/termweight/learners/linear.py",
        encoded="data/encoded/{exp}/{encoding}/{split}.npz",
    output:
        "data/models/{exp}/{encoding}/{split}.npz",
    params:
        C=lambda w: EXPERIMENTS[w.exp]["learner"].get("C", 1.0),
    log:
        "logs/train/{exp}/{encoding}/{split}.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} train --encoded {input.encoded} --C {params.C} --out {output}"
        " --encoding {wildcards.encoding} --names {wildcards.split}"


rule predict:
    input:
        encoded="data/encoded/{exp}/{encoding}/{split}.npz",
        model="data/models/{exp}/{encoding}/{split}.npz",
    output:
        "data/predictions/{exp}/{encoding}/{split}.npz",
    log:
        "logs/predict/{exp}/{encoding}/{split}.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} predict --encoded {input.encoded} --model {input.model}"
        " --out {output} --encoding {wildcards.encoding} --names {wildcards.split}"


rule evaluate:
    input:
        code="src/termweight/evaluation.py",
        meta=lambda w: f"{corpus_dir(w)}/meta.json",
        encoded="data/encoded/{exp}/{encoding}/{split}.npz",
        model="data/models/{exp}/{encoding}/{split}.npz",
        predictions="data/predictions/{exp}/{encoding}/{split}.npz",
    output:
        "data/metrics/{exp}/{encoding}/{split}.csv",
    log:
        "logs/evaluate/{exp}/{encoding}/{split}.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} evaluate --corpus-meta {input.meta} --encoded {input.encoded}"
        " --model {input.model} --predictions {input.predictions} --out {output}"
        " --encoding {wildcards.encoding} --names {wildcards.split}"
