"""Check every rule layer thoroughly (what `tokenjuice verify` prints)."""

from __future__ import annotations

from tokenjuice.patterns import PatternError
from tokenjuice.rules.loader import Problem, load_rules

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from tokenjuice.rules.loader import RuleSet


class VerifyReport:
    def __init__(self, rs: RuleSet) -> None:
        self.ruleset = rs
        self.problems: list[Problem] = list(rs.problems)
        self.layer_dirs: dict[str, str | None] = rs.layer_dirs
        self.layer_counts: dict[str, int] = rs.layer_counts
        self.skipped_layers = rs.skipped_layers
        self.rules = len(rs.rules)
        self.families = len({r.family for r in rs.rules})
        self.patterns = 0
        self.formatters = 0


def verify_rules(
    cwd: str | None = None,
    *,
    ruleset: RuleSet | None = None,
    project_gate: Callable[[str], str | None] | None = None,
) -> VerifyReport:
    from tokenjuice.reduction import formatters

    rs = ruleset or load_rules(cwd, project_gate=project_gate)
    report = VerifyReport(rs)
    used: set[str] = set()
    for rule in rs.rules:
        specs = list(rule.pipeline().all_specs())
        specs += [s for s in (rule.command_regex, rule.output_regex) if s is not None]
        for spec in specs:
            # spec.where is "<file>: rule '<id>': <field>"; Problem adds file and id itself.
            field = spec.where.rsplit(": ", 1)[-1]
            try:
                spec.compile()
                report.patterns += 1
            except PatternError as exc:
                message = str(exc).removeprefix(spec.where + ": ")
                report.problems.append(Problem(rule.path, f"{field}: {message}", rule.id, field))
                continue
            if rule.layer == "builtin" and spec.risky:
                report.problems.append(
                    Problem(
                        rule.path,
                        f"{field}: pattern {spec.source!r} could backtrack catastrophically ({spec.risky})",
                        rule.id,
                        field,
                    )
                )
        if rule.formatter:
            try:
                formatters.get(rule.formatter)
                used.add(rule.formatter)
            except formatters.UnknownFormatter:
                report.problems.append(
                    Problem(
                        rule.path,
                        f"formatter: unknown formatter {rule.formatter!r} "
                        f"(available: {', '.join(formatters.available())})",
                        rule.id,
                    )
                )
    report.formatters = len(used)
    return report
