# Per split: training statistics -> metric scores -> encoded train/test matrices.


rule stats:
    input:
        code="src/termweight/statistics.py",
        corpus=corpus_files,
        split="data/splits/{exp}/{split}.npz",
    output:
        "data/stats/{exp}/{split}.npz",
    params:
        corpus=corpus_dir,
    log:
        "logs/stats/{exp}/{split}.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} stats --corpus {params.corpus} --split {input.split}"
        " --out {output} --names {wildcards.split}"


rule score:
    input:
        code="src/termweight/scoring.py",
        stats="data/stats/{exp}/{split}.npz",
    output:
        "data/scores/{exp}/{split}.npz",
    params:
        metrics=lambda w: " ".join(EXPERIMENTS[w.exp].get("scores", ["idf"])),
    log:
        "logs/score/{exp}/{split}.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} score --stats {input.stats} --metrics {params.metrics}"
        " --out {output} --names {wildcards.split}"


rule encode:
    input:
        code="src/termweight/encoding.py",
        corpus=corpus_files,
        split="data/splits/{exp}/{split}.npz",
        stats="data/stats/{exp}/{split}.npz",
        scores="data/scores/{exp}/{split}.npz",
    output:
        "data/encoded/{exp}/{encoding}/{split}.npz",
    params:
        corpus=corpus_dir,
    log:
        "logs/encode/{exp}/{encoding}/{split}.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} encode --corpus {params.corpus} --split {input.split}"
        " --stats {input.stats} --scores {input.scores} --encoding {wildcards.encoding}"
        " --out {output} --names {wildcards.split}"
