"""The benchmark's analyses registered before their runs (``registrations.yaml``, beside this module).

Each entry (``id``, ``registered``, ``analysis``, ``hypothesis``, ``rule``, ``seen_before``,
``results``) is committed before the run that answers it and not edited once its results are
seen (a later change is a deviations-log entry). The analysis that answers an entry decides its
outcome by the entry's ``rule`` and states both in the report (``outcome``): the hypothesis as
registered, and for which learners it held.
"""

from __future__ import annotations

from pathlib import Path

from termweight.runner.errors import ConfigError

REGISTRY = Path(__file__).with_name("registrations.yaml")
FIELDS = ("id", "registered", "analysis", "hypothesis", "rule", "seen_before", "results")


def load(path: Path | str = REGISTRY) -> dict[str, dict]:
    """The entries by id, checked: every field of ``FIELDS``, ``results`` a list, unique ids;
    one error naming the file and entry."""
    import yaml

    path = Path(path)
    try:
        entries = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as e:
        raise ConfigError(f"{path}: cannot read the registrations ({e})") from None
    if not isinstance(entries, list):
        raise ConfigError(f"{path}: expected a list of entries")
    out: dict[str, dict] = {}
    for i, e in enumerate(entries):
        where = f"{path}: entry {i} ({e.get('id', '?') if isinstance(e, dict) else '?'})"
        if not isinstance(e, dict):
            raise ConfigError(f"{where}: expected a mapping")
        missing = [f for f in FIELDS if f not in e]
        if missing:
            raise ConfigError(f"{where}: missing {', '.join(missing)}")
        if not isinstance(e["results"], list) or not e["results"]:
            raise ConfigError(f"{where}: 'results' must be a non-empty list of paths")
        if e["id"] in out:
            raise ConfigError(f"{where}: id {e['id']!r} appears twice")
        out[e["id"]] = e
    return out


def outcome(entry_id: str, held: dict[str, bool], names: dict | None = None) -> dict:
    """``{id, registered, hypothesis, held, text}``: ``held`` maps each learner to whether the
    hypothesis held for it (by the entry's rule); ``text`` the report's sentence."""
    e = load()[entry_id]
    names = names or {}
    yes = [names.get(k, k) for k, v in held.items() if v]
    no = [names.get(k, k) for k, v in held.items() if not v]
    verdict = ("not decided: the run has nothing the hypothesis names" if not held else
               "it held for every learner" if not no else "it held for no learner" if not yes
               else f"it held for {', '.join(yes)}, not for {', '.join(no)}")
    from termweight.reporting import latex_escape

    hypothesis = " ".join(str(e["hypothesis"]).split())
    text = (f"Registered before the run ({e['registered']}, \\texttt{{{latex_escape(entry_id)}}}): "
            f"{latex_escape(hypothesis)} Outcome: {verdict}.")
    return {"id": entry_id, "registered": str(e["registered"]), "hypothesis": hypothesis,
            "held": held, "text": text}
