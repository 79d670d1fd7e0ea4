"""The probes' results quoted in the papers' gap causes (Kim's subgradient-trained single
weightings, Ferreira's all-features baseline on relative frequencies): the committed files are
read, and the conclusion follows the numbers (each flipped by a made-up result)."""

import copy
import json
from pathlib import Path

import pytest

RESULTS = Path(__file__).resolve().parents[1] / "benchmarks" / "results"


def test_kim_sg_probe_rules_out_an_undertrained_solver_and_flips_when_the_order_matches():
    from termweight.experiments.kim.claims import sg_probe_note

    probe = json.loads((RESULTS / "probe_kim_single_sg.json").read_text())
    note = sg_probe_note(probe, "r8")
    assert "ruled out" in note
    for n in probe["steps"]:
        assert f"{n:,} steps" in note
    assert sg_probe_note(probe, "news20") == ""  # not probed: nothing said
    assert sg_probe_note(None, "r8") == ""
    fake = copy.deepcopy(probe)
    for r in next(x for x in fake["runs"] if x["key"] == "r8")["rows"]:
        r[f"sg{fake['steps'][0]}_micro_f"] = r["published_micro_f"] - 0.01  # the paper's order
    assert "gives the paper's order" in sg_probe_note(fake, "r8")


def test_ferreira_probe_note_follows_the_numbers():
    from termweight.experiments.ferreira.claims import all_features_probe_note
    from termweight.runner.errors import DataError

    probe = json.loads((RESULTS / "probe_ferreira_all_features.json").read_text())
    note = all_features_probe_note(probe)
    assert "Dexter" in note and "neither the representation nor C" in note
    fake = copy.deepcopy(probe)
    run = next(r for r in fake["runs"] if r["dataset"] == "dexter")
    run["relative_frequency_subsets_at_run_C"]["method1"]["500"] = 0.01
    assert "beats all features on Dexter" in all_features_probe_note(fake)
    assert all_features_probe_note(None) == ""
    del run["all_features_error"]
    with pytest.raises(DataError, match="probe_ferreira_all_features.json"):
        all_features_probe_note(fake)
