"""Choose the rule for a run: every criterion of a rule's `match` must hold, and the
rule whose match says the most about this command wins.

Ranking is deterministic: higher `priority`, then higher specificity score, then the
higher layer (project > user > built-in), then the rule id.
"""

from __future__ import annotations

from tokenjuice import _log
from tokenjuice.patterns import PatternError
from tokenjuice.rules.rule import LAYER_RANK

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from tokenjuice.command import CommandInfo
    from tokenjuice.rules.loader import RuleSet
    from tokenjuice.rules.rule import Rule

# How much each satisfied criterion says about the command.
W_TOOL = 1
W_ARGV0 = 10
W_GIT_SUB = 10
W_SUBCOMMAND = 8
W_TOKEN = 3
W_EXCLUDE = 1
W_TERM = 2
W_COMMAND_REGEX = 6
W_EXIT = 2
W_OUTPUT_REGEX = 5

OUTPUT_SNIFF_CHARS = 65536


class Candidate:
    __slots__ = ("reasons", "rule", "score")

    def __init__(self, rule: Rule, score: int, reasons: list[str]) -> None:
        self.rule = rule
        self.score = score
        self.reasons = reasons

    def sort_key(self) -> tuple[float, int, int, str]:
        return (-self.rule.priority, -self.score, -LAYER_RANK[self.rule.layer], self.rule.id)

    def __repr__(self) -> str:
        return f"Candidate({self.rule.id!r}, score={self.score})"


def _has_term(haystack: str, term: str) -> bool:
    """Case-insensitive whole-word containment (`haystack` is already lower-case)."""
    start = 0
    n = len(term)
    while True:
        i = haystack.find(term, start)
        if i < 0:
            return False
        before_ok = (
            i == 0
            or not (haystack[i - 1].isalnum() or haystack[i - 1] == "_")
            or not (term[0].isalnum() or term[0] == "_")
        )
        j = i + n
        after_ok = (
            j >= len(haystack)
            or not (haystack[j].isalnum() or haystack[j] == "_")
            or not (term[-1].isalnum() or term[-1] == "_")
        )
        if before_ok and after_ok:
            return True
        start = i + 1


class MatchInput:
    """What selection looks at, computed once per run."""

    __slots__ = ("_sniff", "cmd", "command_lower", "exit_code", "output", "programs", "tool_name")

    def __init__(self, tool_name: str, cmd: CommandInfo, exit_code: int | None, output: str) -> None:
        self.tool_name = tool_name
        self.cmd = cmd
        self.exit_code = exit_code
        self.output = output
        self.programs = cmd.program_aliases()
        self.command_lower = cmd.text.lower()
        self._sniff: str | None = None

    @property
    def sniff(self) -> str:
        """The part of the output that `outputRegex` looks at (sliced once)."""
        if self._sniff is None:
            self._sniff = self.output[:OUTPUT_SNIFF_CHARS]
        return self._sniff


def match(rule: Rule, mi: MatchInput, *, output: bool = True) -> Candidate | None:
    """A candidate with its specificity score, or None when a criterion fails.

    With `output=False` the output regex is not searched: the candidate is scored as if
    it matched (see `best`).
    """
    reasons: list[str] = []
    score = 0
    for ok, weight, text in _criteria(rule, mi, output=output):
        if not ok:
            return None
        score += weight
        if text:
            reasons.append(text)
    if not reasons:
        reasons.append("matches every command")
    return Candidate(rule, score, reasons)


def _criteria(rule: Rule, mi: MatchInput, *, output: bool = True) -> Iterator[tuple[bool, int, str]]:
    """Each criterion the rule sets, in order: (met, weight, the reason it matched or
    why it did not). `match` stops at the first unmet one; near misses count them all."""
    cmd = mi.cmd
    if cmd.compound and not (rule.content_only or rule.is_empty_match):
        yield False, 0, f"compound command ({cmd.compound_reason})"
    if rule.tool_names is not None:
        ok = mi.tool_name in rule.tool_names
        yield (
            ok,
            W_TOOL,
            f"tool {mi.tool_name}" if ok else f"tool name {mi.tool_name!r} not in {sorted(rule.tool_names)}",
        )
    if rule.argv0 is not None:
        hit = next((p for p in mi.programs if p in rule.argv0), None)
        yield (
            hit is not None,
            W_ARGV0,
            f"argv0 {hit}" if hit else f"program {cmd.program!r} not in {sorted(rule.argv0)}",
        )
    if rule.git_subcommands is not None:
        ok = cmd.program.lower() == "git" and cmd.subcommand in rule.git_subcommands
        why = (
            f"git {cmd.subcommand}"
            if ok
            else f"git subcommand {cmd.subcommand!r} not in {sorted(rule.git_subcommands)}"
        )
        yield ok, W_GIT_SUB + (0 if rule.argv0 else W_ARGV0), why
    if rule.subcommands is not None:
        ok = cmd.subcommand in rule.subcommands
        why = (
            f"subcommand {cmd.subcommand}" if ok else f"subcommand {cmd.subcommand!r} not in {sorted(rule.subcommands)}"
        )
        yield ok, W_SUBCOMMAND, why
    if rule.argv_includes is not None:
        for group in rule.argv_includes:
            missing = [t for t in group if not cmd.has_token(t)]
            yield not missing, W_TOKEN * len(group), "" if not missing else f"argv lacks {' '.join(missing)}"
        yield True, 0, "argv has " + " + ".join(" ".join(g) for g in rule.argv_includes)
    if rule.argv_includes_any is not None:
        best = [g for g in rule.argv_includes_any if all(cmd.has_token(t) for t in g)]
        widest = max(best, key=len) if best else ()
        why = (
            "argv has " + " ".join(widest)
            if best
            else "argv has none of " + " | ".join(" ".join(g) for g in rule.argv_includes_any)
        )
        yield bool(best), W_TOKEN * len(widest), why
    if rule.argv_excludes is not None:
        bad = next((t for t in rule.argv_excludes if cmd.has_token(t)), None)
        yield bad is None, W_EXCLUDE, "" if bad is None else f"argv has the excluded {bad}"
    if rule.command_includes:
        missing = [t for t in rule.command_includes if not _has_term(mi.command_lower, t)]
        why = "command has " + ", ".join(rule.command_includes) if not missing else f"command lacks {missing[0]}"
        yield not missing, W_TERM * len(rule.command_includes), why
    if rule.command_includes_any:
        hits = [t for t in rule.command_includes_any if _has_term(mi.command_lower, t)]
        yield bool(hits), W_TERM, "command has " + hits[0] if hits else "command has none of its terms"
    if rule.exit_codes is not None:
        ok = mi.exit_code in rule.exit_codes
        yield ok, W_EXIT, f"exit code {mi.exit_code}" + ("" if ok else f" not in {sorted(rule.exit_codes)}")
    if rule.command_regex is not None:
        ok = _search(rule.command_regex, cmd.text)
        yield ok, W_COMMAND_REGEX, "command matches regex" if ok else "command does not match its regex"
    if rule.output_regex is not None:
        ok = not output or _search(rule.output_regex, mi.sniff)
        yield ok, W_OUTPUT_REGEX, "output matches regex" if ok else "output does not match its regex"


def _search(spec: object, text: str) -> bool:
    from tokenjuice.patterns import PatternSpec

    assert isinstance(spec, PatternSpec)
    try:
        return spec.matcher(None).search(text) is not None
    except PatternError as exc:
        _log.warn(f"{exc}; criterion treated as not matching")
        return False


def best(ruleset: RuleSet, mi: MatchInput) -> Candidate | None:
    """`rank(...)[0]`, searching output regexes only as far as needed.

    Candidates are ordered as if every output regex matched (a match only adds to the
    score); the first one whose output regex really matches, or that has none, wins.
    """
    hopefuls = [c for rule in ruleset.candidates(mi.programs) if (c := match(rule, mi, output=False))]
    hopefuls.sort(key=Candidate.sort_key)
    standby: Candidate | None = None  # a rule that yields the output to any other (genericUnless)
    for cand in hopefuls:
        spec = cand.rule.output_regex
        if spec is None or _search(spec, mi.sniff):
            if standby is None and cand.rule.pipeline().generic_for(mi.output):
                standby = cand
                continue
            return cand
    return standby


def best_list(ruleset: RuleSet, mi: MatchInput) -> list[Candidate]:
    """`[best(...)]`, or [] when no rule matches."""
    top = best(ruleset, mi)
    return [top] if top is not None else []


def rank(ruleset: RuleSet, mi: MatchInput) -> list[Candidate]:
    """All matching rules except the fallback, best first."""
    out = []
    for rule in ruleset.candidates(mi.programs):
        cand = match(rule, mi)
        if cand is not None:
            out.append(cand)
    out.sort(key=Candidate.sort_key)
    # A rule whose genericUnless pattern is not in the output yields to every other one.
    out.sort(key=lambda c: c.rule.pipeline().generic_for(mi.output))
    return out


def explain_misses(ruleset: RuleSet, mi: MatchInput, limit: int = 5) -> list[tuple[Rule, str]]:
    """Near misses: rules for this program that did not match, closest first (fewest
    unmet criteria, then the highest score of the ones met), with the first reason."""
    ranked: list[tuple[int, int, str, Rule, str]] = []
    for rule in ruleset.candidates(mi.programs):
        if not (rule.argv0 or rule.git_subcommands) or match(rule, mi) is not None:
            continue
        checks = list(_criteria(rule, mi))
        unmet = [why for ok, _, why in checks if not ok]
        met = sum(weight for ok, weight, _ in checks if ok)
        ranked.append((len(unmet), -met, rule.id, rule, unmet[0]))
    ranked.sort(key=lambda r: r[:3])
    return [(rule, why) for _, _, _, rule, why in ranked[:limit]]
