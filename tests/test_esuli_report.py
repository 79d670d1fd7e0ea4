

def test_the_svm_probe_quoted_in_the_gaps_is_the_committed_one():
    """The gap causes quote benchmarks/probe_esuli_svm.py --libsvm's macro- and micro-F1: the
    numbers in ``BIAS_PROBE`` are those of its committed result file."""
    import json
    from pathlib import Path

    from termweight.experiments.esuli.claims import BIAS_PROBE

    repo = Path(__file__).resolve().parents[1]
    probe = json.loads((repo / "benchmarks/results/probe_esuli_svm.json").read_text())
    exact, logtf = probe["libsvm"]
    hinge10 = next(r for r in probe["runs"] if r["intercept_scaling"] == 10.0)
    for value in (exact["macro_f1"], hinge10["macro_f1"], logtf["micro_f1"], logtf["macro_f1"]):
        assert f"{value:.3f}" in BIAS_PROBE, value
