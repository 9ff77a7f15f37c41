"""The fuzz layer: seeded mutations of the shipped rulesets (tests/fuzz_mutations.py) checked as a user would
check them. Every mutant goes through `validate_file` in this process, and one in ten through `ruledeck
validate` in a subprocess; what must hold:

- `validate_file` returns findings and raises nothing; every error is located (file:line:col) unless its code
  is one of the documented whole-file findings; the findings' text is bounded, and so is the time taken;
- `ruledeck validate` exits 0 or 1 (1 exactly when a file has an error), with bounded output, no internal
  error and no traceback, every finding printed as `PATH:LINE:COL: severity[code]: ...`;
- a mutant that still validates plays a short match with random bots to its end or a step bound, keeping every
  card, with no error other than a located `RulesetRuntimeError`.

A failure names the seed and the mutations; `python tests/fuzz_mutations.py SEED` writes that mutant out. The
number of mutants and the first seed can be changed for a longer run: RULEDECK_FUZZ_MUTANTS=5000
RULEDECK_FUZZ_SEED=100000.
"""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

import pytest

from interpreter import CHANCE
from interpreter.engine.errors import RulesetRuntimeError
from interpreter.engine.game import Game
from interpreter.errors import Diagnostic, Location, SourceText, render_findings
from interpreter.loader import check_file
from tests.fuzz_mutations import Mutant, copy_sources, make_mutant
from tests.test_engine_properties import all_cards

MUTANTS = int(os.environ.get("RULEDECK_FUZZ_MUTANTS", "200"))
FIRST_SEED = int(os.environ.get("RULEDECK_FUZZ_SEED", "0"))
CLI_SHARE = 10  # one mutant in ten also goes through the command line
CLI_BATCH = 8  # mutants per `ruledeck validate` run
FILE_LEVEL = {"file-missing", "file-empty", "file-binary", "file-too-large"}  # docs/ruleset-format.md
MAX_OUTPUT = 100_000  # characters of findings for one file
MAX_LINE = 1_000  # characters of one printed line
MAX_SECONDS = 60  # for one mutant, in this process: generous, for a loaded machine
PLAY_STEPS = 200
FINDING = re.compile(r"^.+?:\d+:\d+: (error|warning)\[[a-z-]+\]: ")
ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Tally:
    tried: int = 0
    valid: int = 0
    played: int = 0
    runtime_errors: int = 0
    cli_runs: int = 0
    cli_files: int = 0
    failures: list[str] = field(default_factory=list)
    seconds: float = 0.0


class TooSlow(Exception):
    pass


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Raise TooSlow in this (the main) thread once `seconds` have passed."""
    def expired(signum: int, frame: FrameType | None) -> None:
        raise TooSlow

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def check_findings(findings: list[Diagnostic]) -> list[str]:
    """What is wrong with the findings of one file (nothing, for good findings)."""
    problems = []
    for finding in findings:
        if finding.severity not in ("error", "warning") or not finding.code:
            problems.append(f"a finding without a severity or code: {finding!r}"[:300])
        where = finding.location
        if where is None:
            if finding.code not in FILE_LEVEL:
                problems.append(f"error[{finding.code}] has no location: {finding.message[:200]}")
        elif not (1 <= where.line <= len(where.source.lines) + 1 and where.column >= 1):
            problems.append(f"error[{finding.code}] is placed at {where.line}:{where.column}, outside its file")
    text = render_findings(findings)
    if len(text) > MAX_OUTPUT:
        problems.append(f"{len(text):,} characters of findings")
    if text and max(len(line) for line in text.splitlines()) > MAX_LINE:
        problems.append(f"a line of findings longer than {MAX_LINE} characters")
    return problems


def play_mutant(game: Game, seed: int) -> str | None:
    """A short match with random bots: None when it ran (or stopped at a located runtime error), else what
    went wrong."""
    rng = random.Random(seed)
    allowed = game.ruleset.players
    state = game.new_initial_state(seed=seed, players=rng.randint(allowed.minimum, allowed.maximum))
    deck = Counter(game.deck.cards(state.player_count))
    try:
        for _ in range(PLAY_STEPS):
            if state.is_terminal:
                break
            if state.current_player == CHANCE:
                state.apply_chance()
            else:
                state.apply(rng.choice(state.legal_actions()))
        if state.is_terminal:
            state.returns()
    except RulesetRuntimeError as error:
        if error.location is None:
            return f"a runtime error without a place in the file: {error}"
        raise
    if all_cards(state) != deck:
        return "a card was lost or duplicated"
    return None


def try_mutant(mutant: Mutant, path: Path, tally: Tally) -> bool | None:
    """Check one mutant in this process, recording what fails in `tally`; whether it has errors (None when it
    could not be told)."""
    tally.tried += 1
    problems: list[str] = []
    has_errors: bool | None = None
    try:
        with deadline(MAX_SECONDS):
            findings, ruleset = check_file(path)
            problems += check_findings(findings)
            has_errors = any(finding.severity == "error" for finding in findings)
            if ruleset is None and not has_errors:
                problems.append("no ruleset, and no error to say why")
            if ruleset is not None and not has_errors:
                tally.valid += 1
                try:
                    failure = play_mutant(Game(ruleset), mutant.seed)
                    tally.played += 1
                except RulesetRuntimeError as error:  # located (see play_mutant), or naming its YAML path
                    tally.runtime_errors += 1
                    failure = None if error.location is not None or error.where else f"unplaced: {error}"
                if failure:
                    problems.append(f"in play: {failure}")
    except TooSlow:
        problems.append(f"took more than {MAX_SECONDS} s")
    except Exception as error:  # anything escaping is what this layer looks for
        problems.append(f"{type(error).__name__}: {str(error)[:300]}")
    tally.failures += [f"{mutant.describe()}: {problem}" for problem in problems]
    return has_errors


def try_command_line(batch: list[tuple[Mutant, Path, bool | None]], tally: Tally) -> None:
    """`ruledeck validate` on a batch of mutants in a subprocess, compared with what this process found."""
    tally.cli_runs += 1
    tally.cli_files += len(batch)
    named = "; ".join(mutant.describe() for mutant, _, _ in batch)
    try:
        run = subprocess.run([sys.executable, "-m", "interpreter", "validate", *(str(path) for _, path, _ in batch)],
                             capture_output=True, timeout=MAX_SECONDS * 2, cwd=ROOT,
                             env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    except subprocess.TimeoutExpired:
        tally.failures.append(f"ruledeck validate took more than {MAX_SECONDS * 2} s on: {named}")
        return
    output = run.stdout.decode("utf-8", errors="replace") + run.stderr.decode("utf-8", errors="replace")
    expected = 1 if any(errors for _, _, errors in batch) else 0
    problems = []
    if run.returncode != expected:
        problems.append(f"exit status {run.returncode}, not {expected}")
    if len(output) > MAX_OUTPUT * len(batch):
        problems.append(f"{len(output):,} characters of output")
    if "Traceback" in output or "internal error" in output:
        problems.append("an internal error: " + output[-500:])
    for line in output.splitlines():
        if len(line) > MAX_LINE:
            problems.append(f"a line of {len(line):,} characters")
        if re.search(r"(error|warning)\[[a-z-]+\]: ", line) and not FINDING.match(line) and \
                not line.startswith("... and "):
            problems.append(f"a finding not located as PATH:LINE:COL: {line[:200]}")
    for mutant, path, errors in batch:
        if errors and path.name not in output:
            problems.append(f"nothing printed about {mutant.describe()}")
    tally.failures += [f"ruledeck validate on [{named}]: {problem}" for problem in problems]


def test_mutated_rulesets_get_a_located_answer(tmp_path: Path) -> None:
    copy_sources(tmp_path)
    tally = Tally()
    started = time.monotonic()
    batch: list[tuple[Mutant, Path, bool | None]] = []
    for seed in range(FIRST_SEED, FIRST_SEED + MUTANTS):
        mutant = make_mutant(seed)
        path = mutant.write(tmp_path)
        errors = try_mutant(mutant, path, tally)
        if seed % CLI_SHARE == 0:
            batch.append((mutant, path, errors))
        if len(batch) == CLI_BATCH:
            try_command_line(batch, tally)
            batch = []
    if batch:
        try_command_line(batch, tally)
    tally.seconds = time.monotonic() - started
    print(f"\nfuzz: {tally.tried} mutants (seeds {FIRST_SEED} to {FIRST_SEED + MUTANTS - 1}), {tally.valid} still "
          f"valid, {tally.played} played, {tally.runtime_errors} stopped by a located runtime error; "
          f"{tally.cli_files} through `ruledeck validate` in {tally.cli_runs} runs; {len(tally.failures)} "
          f"failures; {tally.seconds:.1f} s")
    assert not tally.failures, "\n".join(tally.failures[:30])


@pytest.mark.parametrize("seed", [3, 17, 29])
def test_a_mutant_is_made_again_from_its_seed(seed: int) -> None:
    assert make_mutant(seed) == make_mutant(seed)


def test_the_checks_refuse_a_finding_without_a_place() -> None:
    source = SourceText("x.yaml", "format: 1\n")
    assert check_findings([Diagnostic("schema", "no place")]) == ["error[schema] has no location: no place"]
    assert check_findings([Diagnostic("schema", "far", Location(source, 9, 1, 9, 2))])
    assert check_findings([Diagnostic("file-empty", "file is empty", path="x.yaml"),
                           Diagnostic("schema", "here", Location(source, 1, 1, 1, 7))]) == []
