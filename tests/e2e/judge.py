"""Judging a hooked session against the same host's baseline session.

The baseline is the same host running the same command without tokenjuice. A case
expects one of three things of the hooked run:

* `REDUCED`: the command went through `tokenjuice wrap`; the model got a much shorter
  text with the case's key lines, the same exit code and failure flag as the baseline,
  an `exit N` line when N is not 0, and a handle whose `tokenjuice cat ID` (run as a
  second tool call) gives back the baseline's output;
* `UNCHANGED`: the hook left the command alone (nothing was wrapped) and the model got
  exactly the baseline's result;
* `SAME`: whether wrapped or not, the command did what the baseline did: the same exit
  code, failure flag and output (tokenjuice may add only an `exit N` first line).
"""

from __future__ import annotations

import difflib
import itertools
import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from tests.e2e.hosts import Host, Outcome, Session, base_env, tokenjuice
from tests.e2e.scripted_model import Call, ToolResult

REDUCED, UNCHANGED, SAME = "reduced", "unchanged", "same"
HANDLE = re.compile(r"tokenjuice cat ([0-9a-f]{12})\b")
# A reduction worth having: the standards' "never worse" threshold.
MAX_REDUCED_SHARE = 0.75


@dataclass(frozen=True)
class Case:
    """One command of the battery. `volatile` masks what differs between two runs of
    it (durations, fresh commit hashes); `check(hooked_ws, baseline_ws)` looks at what
    the command left behind; `per_host` replaces `expect` for the hosts it names."""

    id: str
    command: str
    expect: str
    keep: tuple[str, ...] = ()
    volatile: str | None = None
    check: Callable[[Path, Path], None] | None = None
    per_host: tuple[tuple[str, str], ...] = ()

    def on(self, host: str) -> Case:
        """The case as `host` must pass it."""
        return replace(self, expect=dict(self.per_host).get(host, self.expect))


def read_back(results: list[ToolResult]) -> str | None:
    """The second step of a REDUCED case: run the read-back command the first result names."""
    m = HANDLE.search(results[0].text)
    return f"tokenjuice cat {m.group(1)}" if m else None


def wraps() -> int:
    """How many commands went through `tokenjuice wrap` in this test (its ledger)."""
    env = base_env(Path(os.environ.get("HOME", "/")))
    out = tokenjuice("stats", "--format", "json", env=env).stdout
    return int(json.loads(out)["records"]) if out.strip().startswith("{") else 0


def mask(text: str, volatile: str | None, places: tuple[Path, ...] = ()) -> str:
    """`text` without what differs between two runs: the `volatile` pattern's matches and
    the run's own workspace folder."""
    for place in places:
        text = text.replace(str(place), "<workspace>")
    return re.sub(volatile, "<volatile>", text) if volatile else text


def without_exit_line(out: Outcome) -> str:
    """The output without the `exit N` first line tokenjuice adds to a failed command."""
    first, _, rest = out.output.partition("\n")
    return rest if out.exit_code and first == f"exit {out.exit_code}" else out.output


def short(out: Outcome, keep: int = 600) -> str:
    text = out.output if len(out.output) <= 2 * keep else f"{out.output[:keep]}…{out.output[-keep:]}"
    return f"exit {out.exit_code}, failed={out.failed}, notes={list(out.notes)}: {text!r}"


def diff(a: str, b: str) -> str:
    lines = difflib.unified_diff(a.splitlines(), b.splitlines(), "baseline", "hooked", n=1, lineterm="")
    return "\n".join(itertools.islice(lines, 40))


def results_of(session: Session, count: int) -> list[ToolResult]:
    assert not session.errors, session.describe()
    assert len(session.results) >= count, f"expected {count} tool result(s)\n{session.describe()}"
    return session.results


def judge(host: Host, case: Case, base: Session, hooked: Session, wrapped: int, places: tuple[Path, ...] = ()) -> None:
    b = host.outcome(results_of(base, 1)[0])
    h = host.outcome(results_of(hooked, 1)[0])
    context = f"{host.name} {case.id}:\nbaseline {short(b)}\nhooked   {short(h)}"
    if case.expect == UNCHANGED:
        assert wrapped == 0, f"the hook routed a command it must leave alone through wrap\n{context}"
        assert (h.exit_code, h.failed, h.notes) == (b.exit_code, b.failed, b.notes), f"result differs\n{context}"
        expected, got = mask(b.output, None, places), mask(h.output, None, places)
        assert got == expected, f"output differs\n{context}\n{diff(expected, got)}"
        return
    assert (h.exit_code, h.failed) == (b.exit_code, b.failed), f"exit code or failure flag differs\n{context}"
    if case.expect == SAME:
        expected, got = mask(b.output, case.volatile, places), mask(without_exit_line(h), case.volatile, places)
        assert got == expected, f"output differs\n{context}\n{diff(expected, got)}"
        return
    assert case.expect == REDUCED, case.expect
    assert len(h.output) <= MAX_REDUCED_SHARE * len(b.output), f"not reduced\n{context}"
    for line in case.keep:
        assert line in b.output, f"{line!r} is not even in the baseline: the case is wrong\n{context}"
        assert line in h.output, f"{line!r} was dropped\n{context}"
    if b.exit_code:
        assert f"exit {b.exit_code}" in h.output.splitlines(), f"no `exit {b.exit_code}` line\n{context}"
    assert HANDLE.search(h.output), f"no read-back handle\n{context}"
    back = host.outcome(results_of(hooked, 2)[1])
    assert back.exit_code == 0, f"read-back failed: {short(back)}"
    # The same lines in the same order: wrap reads the command's stdout and stderr from
    # one pipe, as the host's shell tool does, so an error line is where it was printed.
    # A host that runs commands on a terminal is compared line for line in any order:
    # under wrap the command writes to a pipe, and a program that buffers its stdout on
    # a pipe (Python does) writes its two streams in another order there. So is a host
    # that joins two pipes in arrival order (Codex): its own order depends on scheduling.
    expected, got = mask(b.output, case.volatile, places), mask(back.output, case.volatile, places)
    arrange = sorted if host.terminal or host.two_pipes else list
    assert arrange(got.splitlines()) == arrange(expected.splitlines()), (
        f"`tokenjuice cat` did not give back the baseline's output\n{diff(expected, got)}"
    )
    assert wrapped >= 1, f"the reduced run is missing from tokenjuice's ledger\n{context}"


def script_steps(case: Case) -> list[Call | str | Callable[[list[ToolResult]], str | None]]:
    steps: list[Call | str | Callable[[list[ToolResult]], str | None]] = [case.command]
    if case.expect == REDUCED:
        steps.append(read_back)
    return steps
