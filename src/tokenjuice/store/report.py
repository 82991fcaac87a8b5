"""Savings from the ledger: totals, groupings, the re-send model, and discover hints.

Re-send model: a tool result joins the conversation and is sent again with every later
prompt. Runs are numbered in their session by time (or by the turn the host gave);
in a session of N runs the result of run j is in N − j + 1 prompts (its own and every
later one), so a token saved there saves N − j + 1 prompt tokens. Runs without a
session count once.
"""

from __future__ import annotations

import time
from collections import defaultdict

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

LOW_SAVINGS_RATIO = 0.65
# The generic path "already saved nearly everything" below this kept ratio.
GENERIC_GOOD_RATIO = 0.25
# Findings smaller than this (tokens still reaching the model, and per run) are not
# worth a rule: a few hundred tokens cost less than the rule's upkeep.
MIN_AT_STAKE = 500
MIN_TOKENS_PER_RUN = 250
FALLBACK_ID = "generic/fallback"


class Group:
    __slots__ = ("lossy", "name", "raw_chars", "raw_tok", "red_chars", "red_tok", "resend_saved", "runs")

    def __init__(self, name: str) -> None:
        self.name = name
        self.runs = 0
        self.raw_tok = 0
        self.red_tok = 0
        self.raw_chars = 0
        self.red_chars = 0
        self.resend_saved = 0
        self.lossy = 0

    @property
    def saved(self) -> int:
        return max(self.raw_tok - self.red_tok, 0)

    @property
    def saved_pct(self) -> float:
        return 100.0 * self.saved / self.raw_tok if self.raw_tok else 0.0

    @property
    def ratio(self) -> float:
        return self.red_tok / self.raw_tok if self.raw_tok else 1.0

    def add(self, rec: dict[str, Any], multiplier: int) -> None:
        raw, red = int(rec.get("raw_tok", 0)), int(rec.get("red_tok", 0))
        self.runs += 1
        self.raw_tok += raw
        self.red_tok += red
        self.raw_chars += int(rec.get("raw_chars", 0))
        self.red_chars += int(rec.get("red_chars", 0))
        self.resend_saved += max(raw - red, 0) * multiplier
        self.lossy += 1 if rec.get("lossy") else 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "runs": self.runs,
            "raw_tokens": self.raw_tok,
            "reduced_tokens": self.red_tok,
            "saved_tokens": self.saved,
            "saved_percent": round(self.saved_pct, 1),
            "saved_tokens_with_resends": self.resend_saved,
            "raw_chars": self.raw_chars,
            "reduced_chars": self.red_chars,
        }


def multipliers(records: list[dict[str, Any]]) -> list[int]:
    """How many prompts each record's result appears in (see the module docstring)."""
    by_session: dict[str, list[int]] = defaultdict(list)
    for i, rec in enumerate(records):
        s = rec.get("session")
        if s:
            by_session[str(s)].append(i)
    out = [1] * len(records)
    for idxs in by_session.values():
        idxs.sort(key=lambda i: (records[i].get("turn") or 0, records[i].get("ts") or 0))
        n_turns = max([len(idxs), *(int(records[i].get("turn") or 0) for i in idxs)])
        for pos, i in enumerate(idxs):
            turn = records[i].get("turn")
            j = int(turn) if isinstance(turn, int) and turn > 0 else pos + 1
            out[i] = max(n_turns - j + 1, 1)
    return out


def key_of(rec: dict[str, Any], by: str) -> str:
    if by == "rule":
        return str(rec.get("rule") or "?")
    if by == "command":
        return str(rec.get("sig") or "?")
    if by == "day":
        return time.strftime("%Y-%m-%d", time.localtime(float(rec.get("ts", 0))))
    if by == "session":
        return str(rec.get("session") or "(none)")
    return str(rec.get("family") or "?")


class Summary:
    def __init__(self, records: list[dict[str, Any]], by: str = "family") -> None:
        self.records = records
        self.by = by
        mult = multipliers(records)
        self.total = Group("total")
        groups: dict[str, Group] = {}
        for rec, m in zip(records, mult, strict=True):
            self.total.add(rec, m)
            k = key_of(rec, by)
            g = groups.get(k)
            if g is None:
                g = groups[k] = Group(k)
            g.add(rec, m)
        self.groups = (
            sorted(groups.values(), key=lambda g: (-g.saved, g.name))
            if by != "day"
            else [groups[k] for k in sorted(groups)]
        )
        self.tokenizers = sorted({str(r.get("tokenizer", "?")) for r in records})
        self.sessions = len({r.get("session") for r in records if r.get("session")})
        self.first_ts = min((float(r.get("ts", 0)) for r in records), default=0.0)
        self.last_ts = max((float(r.get("ts", 0)) for r in records), default=0.0)

    def to_dict(self) -> dict[str, Any]:
        return {
            "tokenizers": self.tokenizers,
            "records": len(self.records),
            "sessions": self.sessions,
            "since": self.first_ts,
            "until": self.last_ts,
            "by": self.by,
            "total": self.total.to_dict(),
            "groups": [g.to_dict() for g in self.groups],
            "resend_model": "a result saved at run j of a session of N runs is in N - j + 1 prompts",
        }


class Finding:
    __slots__ = ("at_stake", "hint", "kind", "name", "ratio", "raw_tok", "red_tok", "runs")

    def __init__(self, kind: str, name: str, g: Group, hint: str) -> None:
        self.kind = kind
        self.name = name
        self.runs = g.runs
        self.raw_tok = g.raw_tok
        self.red_tok = g.red_tok
        self.ratio = g.ratio
        self.at_stake = g.red_tok  # what still reaches the model
        self.hint = hint

    def to_dict(self) -> dict[str, Any]:
        return {k: (round(getattr(self, k), 3) if k == "ratio" else getattr(self, k)) for k in self.__slots__}


def discover(records: Iterable[dict[str, Any]], limit: int = 20) -> list[Finding]:
    """Commands that met no rule, and rules that save little, most tokens at stake first."""
    generic: dict[str, Group] = {}
    rules: dict[str, Group] = {}
    modes: dict[str, set[str]] = defaultdict(set)
    for rec in records:
        if rec.get("mode") in ("raw",):
            continue
        rule = str(rec.get("rule") or "")
        if rule == FALLBACK_ID or rec.get("family") == "generic":
            sig = str(rec.get("sig") or "?")
            generic.setdefault(sig, Group(sig)).add(rec, 1)
            modes[sig].add(str(rec.get("mode")))
        else:
            rules.setdefault(rule, Group(rule)).add(rec, 1)
    out: list[Finding] = []
    for sig, g in generic.items():
        if g.ratio <= GENERIC_GOOD_RATIO or not _worth_it(g):
            continue
        if "compound" in sig:
            hint = "a compound command (pipe/chain) takes the generic path; run the tools separately"
        elif modes[sig] <= {"passthrough", "capped"}:
            hint = (
                f"dense output passed through unreduced: write a rule (tokenjuice explain -- {sig}; "
                "see docs/rules.md) or ask the tool for less (quiet flags, filters)"
            )
        else:
            hint = (
                f"the generic path keeps {g.ratio:.0%}: write a rule (tokenjuice explain -- {sig}; see docs/rules.md)"
            )
        out.append(Finding("no-rule", sig, g, hint))
    for rule, g in rules.items():
        if g.ratio >= LOW_SAVINGS_RATIO and _worth_it(g):
            hint = (
                f"keeps {g.ratio:.0%} of its output: check the rule's skip/keep patterns against real "
                f"output (tokenjuice explain), or prefer the tool's quiet or summary flags"
            )
            out.append(Finding("low-savings", rule, g, hint))
    out.sort(key=lambda f: (-f.at_stake, f.kind, f.name))
    return out[:limit]


def _worth_it(g: Group) -> bool:
    return g.red_tok >= MIN_AT_STAKE and g.raw_tok >= MIN_TOKENS_PER_RUN * g.runs


def parse_since(value: str) -> float:
    """`7d`, `24h`, `30m`, or a date `2026-11-01` → a unix time."""
    v = value.strip()
    units = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}
    if v and v[-1] in units and v[:-1].replace(".", "", 1).isdigit():
        return time.time() - float(v[:-1]) * units[v[-1]]
    try:
        return time.mktime(time.strptime(v, "%Y-%m-%d"))
    except ValueError:
        raise ValueError(f"--since takes 7d, 24h, 30m or a date like 2026-11-01, not {value!r}") from None
