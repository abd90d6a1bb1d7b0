"""The fuzz campaign on the `regelwerk` command (tests/fuzz_cli.py): mangled
definitions, records and options through every command, in-process; each must end
with exit status 0, 1 or 2, without an internal error, in bounded time.

The default suite runs a few cases to keep the harness working; the slow suite
(REGELWERK_SLOW=1) runs 20000. For longer campaigns:
`python -m tests.fuzz_cli --cases 200000 --seed 7 --jobs 8`.
"""
from __future__ import annotations

import os

import pytest

from tests.fuzz_cli import campaign

SLOW_CASES = 20_000


def _report(findings: dict) -> str:
    lines = []
    for summary, examples in findings.items():
        seed, details = examples[0]
        lines.append(f"{len(examples)}x {summary} (seed {seed}: regelwerk {' '.join(details['argv'])})")
    return "\n".join(lines)


def test_a_few_cases_of_the_cli_fuzz_campaign():
    counts, findings = campaign(40, seed=11, jobs=1, timeout=60)
    assert not findings, _report(findings)
    assert sum(counts.values()) == 40 and counts["ok"] and counts["refused"]


@pytest.mark.slow
def test_the_cli_fuzz_campaign():
    counts, findings = campaign(SLOW_CASES, seed=1, jobs=os.cpu_count() or 1, timeout=60)
    assert not findings, _report(findings)
    assert sum(counts.values()) == SLOW_CASES
