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
    cmd = mi.cmd
    if cmd.compound and not (rule.content_only or rule.is_empty_match):
        return None
    if rule.tool_names is not None:
        if mi.tool_name not in rule.tool_names:
            return None
        score += W_TOOL
        reasons.append(f"tool {mi.tool_name}")
    if rule.argv0 is not None:
        hit = next((p for p in mi.programs if p in rule.argv0), None)
        if hit is None:
            return None
        score += W_ARGV0
        reasons.append(f"argv0 {hit}")
    if rule.git_subcommands is not None:
        if cmd.program.lower() != "git" or cmd.subcommand not in rule.git_subcommands:
            return None
        score += W_GIT_SUB + (0 if rule.argv0 else W_ARGV0)
        reasons.append(f"git {cmd.subcommand}")
    if rule.subcommands is not None:
        if cmd.subcommand not in rule.subcommands:
            return None
        score += W_SUBCOMMAND
        reasons.append(f"subcommand {cmd.subcommand}")
    if rule.argv_includes is not None:
        for group in rule.argv_includes:
            if not all(cmd.has_token(t) for t in group):
                return None
            score += W_TOKEN * len(group)
        reasons.append("argv has " + " + ".join(" ".join(g) for g in rule.argv_includes))
    if rule.argv_includes_any is not None:
        best = [g for g in rule.argv_includes_any if all(cmd.has_token(t) for t in g)]
        if not best:
            return None
        group = max(best, key=len)
        score += W_TOKEN * len(group)
        reasons.append("argv has " + " ".join(group))
    if rule.argv_excludes is not None:
        bad = next((t for t in rule.argv_excludes if cmd.has_token(t)), None)
        if bad is not None:
            return None
        score += W_EXCLUDE
    if rule.command_includes:
        if not all(_has_term(mi.command_lower, t) for t in rule.command_includes):
            return None
        score += W_TERM * len(rule.command_includes)
        reasons.append("command has " + ", ".join(rule.command_includes))
    if rule.command_includes_any:
        hits = [t for t in rule.command_includes_any if _has_term(mi.command_lower, t)]
        if not hits:
            return None
        score += W_TERM
        reasons.append("command has " + hits[0])
    if rule.exit_codes is not None:
        if mi.exit_code not in rule.exit_codes:
            return None
        score += W_EXIT
        reasons.append(f"exit code {mi.exit_code}")
    if rule.command_regex is not None:
        if not _search(rule.command_regex, cmd.text):
            return None
        score += W_COMMAND_REGEX
        reasons.append("command matches regex")
    if rule.output_regex is not None:
        if output and not _search(rule.output_regex, mi.sniff):
            return None
        score += W_OUTPUT_REGEX
        reasons.append("output matches regex")
    if not reasons:
        reasons.append("matches every command")
    return Candidate(rule, score, reasons)


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
    for cand in hopefuls:
        spec = cand.rule.output_regex
        if spec is None or _search(spec, mi.sniff):
            return cand
    return None


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
    return out


def explain_misses(ruleset: RuleSet, mi: MatchInput, limit: int = 5) -> list[tuple[Rule, str]]:
    """Near misses: rules for this program that did not match, and the first reason."""
    misses: list[tuple[Rule, str]] = []
    by_prog = [r for r in ruleset.candidates(mi.programs) if r.argv0 or r.git_subcommands]
    for rule in by_prog:
        if match(rule, mi) is not None:
            continue
        misses.append((rule, _first_failure(rule, mi)))
        if len(misses) >= limit:
            break
    return misses


def _first_failure(rule: Rule, mi: MatchInput) -> str:
    cmd = mi.cmd
    if cmd.compound and not rule.content_only:
        return f"compound command ({cmd.compound_reason})"
    if rule.tool_names is not None and mi.tool_name not in rule.tool_names:
        return f"tool name {mi.tool_name!r} not in {sorted(rule.tool_names)}"
    if rule.git_subcommands is not None and cmd.subcommand not in rule.git_subcommands:
        return f"git subcommand {cmd.subcommand!r} not in {sorted(rule.git_subcommands)}"
    if rule.subcommands is not None and cmd.subcommand not in rule.subcommands:
        return f"subcommand {cmd.subcommand!r} not in {sorted(rule.subcommands)}"
    for group in rule.argv_includes or ():
        missing = [t for t in group if not cmd.has_token(t)]
        if missing:
            return f"argv lacks {' '.join(missing)}"
    if rule.argv_includes_any is not None:
        return "argv has none of " + " | ".join(" ".join(g) for g in rule.argv_includes_any)
    if rule.argv_excludes is not None:
        return "argv has an excluded token"
    if rule.exit_codes is not None and mi.exit_code not in rule.exit_codes:
        return f"exit code {mi.exit_code} not in {sorted(rule.exit_codes)}"
    return "command or output criteria not met"
