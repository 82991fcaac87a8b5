"""The reducer: classify a run, apply its rule, compose the text, and fail open.

`Reducer` loads the rule layers once per project directory and keeps compiled
patterns between calls; `tokenjuice.reduce()` uses a shared default instance.
"""

from __future__ import annotations

import gc
import time

from tokenjuice import _log, _recache
from tokenjuice.command import analyze, is_raw_request, with_script_from_output
from tokenjuice.model import Classification, Reduction, ToolRun
from tokenjuice.patterns import DEFAULT_PATTERN_BUDGET_S
from tokenjuice.patterns import Budget as PatternBudget
from tokenjuice.reduction import audit, compose, generic, inline, pipeline, spooled, window
from tokenjuice.reduction.binary import describe, is_binary
from tokenjuice.reduction.window import Budget
from tokenjuice.rules import select

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence
    from typing import Any

    from tokenjuice.command import CommandInfo
    from tokenjuice.redact import Redactor
    from tokenjuice.rules.loader import RuleSet
    from tokenjuice.rules.rule import Rule
    from tokenjuice.rules.select import Candidate
    from tokenjuice.store.artifacts import Store

DEFAULT_DENSITY_THRESHOLD = 0.3
# What fail-open passes on at most: head and tail of the original around a marker.
FAIL_OPEN_MAX_CHARS = 64_000
# Outputs above this reduce with the cyclic garbage collector paused (see `reduce_run`).
GC_PAUSE_ABOVE = 256_000
# After an output passed whole because no store could keep it for a reduction.
UNSTORED_NOTE = "[shown whole: the full output could not be stored, so nothing was left out]"


class Selection:
    """The rule chosen for a run, the other candidates, and what the command was."""

    __slots__ = ("candidates", "cmd", "forced", "rule")

    def __init__(self, rule: Rule, candidates: list[Candidate], cmd: CommandInfo, forced: bool) -> None:
        self.rule = rule
        self.candidates = candidates
        self.cmd = cmd
        self.forced = forced

    @property
    def score(self) -> int:
        return self.candidates[0].score if self.candidates and not self.forced else 0


class Reducer:
    """Reduce tool outputs with compiled rules; reuse one instance for many calls.

    Budgets: `max_inline_chars` / `max_inline_tokens` bound the body of the text (signal
    lines may exceed it, up to a multiple); `density_threshold` decides, when no rule
    matches, whether output is dense enough to pass through unreduced.
    `project_gate(rules_dir)` may refuse a project's rule layer; by default a project's
    rules load only once trusted (`tokenjuice trust`, see `tokenjuice.rules.trust`).
    `store`: keep the raw output of lossy reductions in the artifact store and point to
    it from the text (default on; `TOKENJUICE_STORE=0` turns it off; a `Store` instance
    chooses where). `record`: append one ledger record per reduction for
    `tokenjuice stats` (default on; `TOKENJUICE_LEDGER=0` turns it off). `redactor`:
    secrets are replaced before anything else sees the output (default on; see
    `tokenjuice.redact`). `min_saved_tokens`, `min_saved_share`: what a text that
    changes the output must save, else the output comes back as it is (default 100
    tokens and a quarter of them; 0: any text shorter than the output; a negative
    `min_saved_tokens` turns the check off, to see what the rule makes of any output).
    """

    def __init__(
        self,
        *,
        cwd: str | None = None,
        rules: RuleSet | None = None,
        max_inline_chars: int | None = None,
        max_inline_tokens: int | None = None,
        max_line_chars: int | None = None,
        density_threshold: float | None = None,
        pattern_budget_s: float | None = None,
        user_rules: bool = True,
        project_rules: bool = True,
        project_gate: Callable[[str], str | None] | None = None,
        store: bool | Store | None = None,
        record: bool | None = None,
        redactor: bool | Redactor | None = None,
        min_saved_tokens: int | None = None,
        min_saved_share: float | None = None,
    ) -> None:
        self.cwd = cwd
        self.min_saved_tokens = compose.MIN_SAVED_TOKENS if min_saved_tokens is None else min_saved_tokens
        self.min_saved_share = compose.MIN_SAVED_SHARE if min_saved_share is None else min_saved_share
        self._fixed_rules = rules
        self._rulesets: dict[str | None, RuleSet] = {}
        self.max_inline_chars = max_inline_chars
        self.max_inline_tokens = max_inline_tokens
        self.max_line_chars = max_line_chars
        self.density_threshold = DEFAULT_DENSITY_THRESHOLD if density_threshold is None else density_threshold
        self.pattern_budget_s = DEFAULT_PATTERN_BUDGET_S if pattern_budget_s is None else pattern_budget_s
        self.user_rules = user_rules
        self.project_rules = project_rules
        if project_gate is None:
            from tokenjuice.rules.trust import gate

            project_gate = gate
        self.project_gate = project_gate
        import os

        if store is None:
            store = os.environ.get("TOKENJUICE_STORE", "1") not in ("0", "false", "no", "off")
        self._store_enabled = bool(store)
        self._store: Store | None = store if not isinstance(store, bool) else None
        if record is None:
            record = os.environ.get("TOKENJUICE_LEDGER", "1") not in ("0", "false", "no", "off")
        self.record = record
        # None/True: the configured redactor (config.toml, TOKENJUICE_REDACT); False: off.
        self.redactor = redactor

    @property
    def store(self) -> Store | None:
        """The artifact store, opened on first use (None when disabled)."""
        if not self._store_enabled:
            return None
        if self._store is None:
            from tokenjuice.store.artifacts import Store

            self._store = Store()
        return self._store

    # ------------------------------------------------------------------ rules

    def ruleset(self, cwd: str | None = None) -> RuleSet:
        """The merged rules for `cwd` (the project layer depends on it); cached."""
        if self._fixed_rules is not None:
            return self._fixed_rules
        from tokenjuice.rules.loader import find_project_rules_dir, load_rules

        where = cwd or self.cwd
        key = None
        if self.project_rules:
            import os

            pdir = find_project_rules_dir(where if where is not None else os.getcwd())
            key = pdir
        rs = self._rulesets.get(key)
        if rs is None:
            rs = load_rules(where, user=self.user_rules, project=self.project_rules, project_gate=self.project_gate)
            self._rulesets[key] = rs
        return rs

    def select(
        self, run: ToolRun, cmd: CommandInfo | None = None, classifier: str | None = None, *, rank_all: bool = False
    ) -> Selection:
        """Choose the rule for `run` (`classifier` forces a rule id); `rank_all` also
        ranks every other matching rule (for `tokenjuice explain`)."""
        rs = self.ruleset(run.cwd)
        if cmd is None:
            cmd = with_script_from_output(analyze(run.command, run.argv, run.cwd), run.combined or "")
        if classifier:
            forced = rs.by_id.get(classifier)
            if forced is not None:
                return Selection(forced, [], cmd, True)
            _log.warn(f"classifier {classifier!r} is not a known rule id; choosing normally")
        choose = select.rank if rank_all else select.best_list
        cands = choose(rs, select.MatchInput(run.tool_name, cmd, run.exit_code, run.combined))
        if cmd.unresolved is not None and (not cands or cands[0].rule.pipeline().generic_for(run.combined)):
            # The script body has no rule of its own (or one that yields): the `npm run` rule applies.
            cands = choose(rs, select.MatchInput(run.tool_name, cmd.unresolved, run.exit_code, run.combined)) or cands
        return Selection(cands[0].rule if cands else rs.fallback, cands, cmd, False)

    # ----------------------------------------------------------------- reduce

    def reduce(
        self,
        output: str | ToolRun | None = None,
        *,
        command: str | None = None,
        argv: Sequence[str] | None = None,
        exit_code: int | None = 0,
        stdout: str | None = None,
        stderr: str | None = None,
        tool_name: str = "exec",
        cwd: str | None = None,
        session_id: str | None = None,
        duration_ms: float | None = None,
        metadata: Mapping[str, Any] | None = None,
        bypass: bool = False,
        classifier: str | None = None,
        max_inline_chars: int | None = None,
        max_inline_tokens: int | None = None,
    ) -> Reduction:
        """Reduce one output. `output` is the combined text or a `ToolRun`."""
        if isinstance(output, ToolRun):
            run = output
        else:
            run = ToolRun(
                tool_name=tool_name,
                command=command,
                argv=argv,
                cwd=cwd,
                stdout=stdout,
                stderr=stderr,
                combined=output,
                exit_code=exit_code,
                duration_ms=duration_ms,
                session_id=session_id,
                metadata=metadata,
            )
        return self.reduce_run(
            run,
            bypass=bypass,
            classifier=classifier,
            max_inline_chars=max_inline_chars,
            max_inline_tokens=max_inline_tokens,
        )

    def reduce_run(
        self,
        run: ToolRun,
        *,
        bypass: bool = False,
        classifier: str | None = None,
        max_inline_chars: int | None = None,
        max_inline_tokens: int | None = None,
    ) -> Reduction:
        t0 = time.perf_counter()
        _recache.load()
        warnings: list[str] = []
        listener = warnings.append
        _log.add_listener(listener)
        redactions: dict[str, int] = {}
        # Full cyclic collections walk every live object, so over a large output's line
        # lists they add up faster than the input grows; a reduction makes no cycles
        # worth collecting, so the collector waits until it ends.
        paused = len(run.combined) > GC_PAUSE_ABOVE and gc.isenabled()
        if paused:
            gc.disable()
        try:
            run, redactions = self._redact(run)
            raw = run.combined
            cmd = with_script_from_output(analyze(run.command, run.argv, run.cwd), raw)
            if bypass or is_raw_request(cmd.argv) or is_raw_request(run.argv):
                red = self._raw(run, raw, "raw")
            elif is_binary(raw):
                red = self._binary(run, raw)
            else:
                try:
                    red = self._reduce(run, raw, cmd, classifier, max_inline_chars, max_inline_tokens)
                except Exception as exc:  # noqa: BLE001 - fail open: the agent gets its output
                    _log.warn(
                        f"reduction failed ({type(exc).__name__}: {exc}); passing the original output",
                        key=f"fail-open:{type(exc).__name__}:{exc}",
                    )
                    red = self._raw(run, raw, "fail-open")
        finally:
            _log.remove_listener(listener)
            if paused:
                gc.enable()
        red.warnings = warnings
        red.redactions = redactions
        red.duration_ms = (time.perf_counter() - t0) * 1000
        if self.record:
            self._record(run, red, cmd)
        return red

    def _redact(self, run: ToolRun) -> tuple[ToolRun, dict[str, int]]:
        """Replace detected secrets in the output, the kept bytes and the command line
        (before anything else; never raises: see `tokenjuice.redact`)."""
        redactor = self._redactor()
        if redactor is None:
            return run, {}
        from tokenjuice.redact import redact_run

        return redact_run(redactor, run)

    def _redactor(self) -> Redactor | None:
        if self.redactor is False:
            return None
        if self.redactor is None or self.redactor is True:
            from tokenjuice.redact import default_redactor

            return default_redactor()
        return self.redactor

    def _record(self, run: ToolRun, red: Reduction, cmd: CommandInfo | None) -> None:
        try:
            from tokenjuice.store import ledger

            ledger.append(ledger.make_record(run, red, cmd))
        except Exception as exc:  # noqa: BLE001 - the ledger never costs a reduction
            _log.debug(f"ledger record skipped: {exc}")

    def _keep_raw(self, run: ToolRun, red: Reduction, raw: str) -> str | None:
        """Store the raw output; the pointer text for the footer.

        A spooled output (see `tokenjuice.spooling`) is stored from its spool file, with
        bounded memory; `raw` is then only its sample.
        """
        store = self.store
        if store is None:
            return None  # turned off on purpose: nothing to point to, nothing to apologise for
        spool = run.metadata.get("spooled")
        put: Callable[..., str]
        if spool is not None:
            path = spool.path
            if path is None:  # the spool file was given up while the command ran
                return f"full output not kept: {spool.lost}"

            def put(store: Store, **meta: Any) -> str:
                return store.put_file(path, **meta)
        else:

            def put(store: Store, **meta: Any) -> str:
                if run.raw_bytes is not None:
                    return store.put(run.raw_bytes, **meta)
                return store.put_text(raw, **meta)  # encoded a slice at a time

        from tokenjuice.store.artifacts import StoreError
        from tokenjuice.store.ledger import signature

        try:
            aid = put(
                store,
                session=run.session_id,
                command=run.command_text()[:500] or signature(None),
                rule=red.rule_id,
                exit_code=run.exit_code,
                lines=red.lines_total,
            )
        except StoreError as exc:
            _log.warn(str(exc), key="store-error")
            return "raw output not kept (store unavailable)"
        red.artifact = aid
        return f"full output: tokenjuice cat {aid}"

    def _reduce(
        self,
        run: ToolRun,
        raw: str,
        cmd: CommandInfo,
        classifier: str | None,
        max_chars: int | None,
        max_tokens: int | None,
    ) -> Reduction:
        from tokenjuice.tokens import counter

        sel = self.select(run, cmd, classifier)
        rule = sel.rule
        budget = Budget(max_chars or self.max_inline_chars, max_tokens or self.max_inline_tokens, self.max_line_chars)
        ctx = pipeline.Context(run, cmd, raw, budget, PatternBudget(self.pattern_budget_s))
        tok = counter()
        raw_tokens = tok.count(raw)
        if raw_tokens:
            ctx.chars_per_token = max(1.0, len(raw) / raw_tokens)
        if rule.is_fallback or rule.pipeline().generic_for(raw):
            out = generic.apply_generic(rule, ctx, self.density_threshold)
        else:
            out = pipeline.apply_rule(rule, ctx)

        confidence = min(1.0, round(sel.score / 30, 2)) if not rule.is_fallback else 0.0
        via = "classifier" if sel.forced else ("generic" if rule.is_fallback else "command")
        if rule.is_fallback:
            reasons: Sequence[str] = (f"no specific rule; {out.mode}",)
        elif sel.forced:
            reasons = ("forced by classifier",)
        else:
            reasons = sel.candidates[0].reasons
        cls = Classification(
            rule.family,
            rule.id,
            confidence=confidence,
            matched_via=cmd.source,
            matched_command=cmd.text or None,
            reasons=reasons,
            selected_by=via,
        )

        spool = run.metadata.get("spooled")
        if spool is not None:
            # Only a sample was in memory: the rest of the output is accounted for here,
            # and a count is stated only when it holds for the whole output.
            out.facts = spooled.recount(rule, spool.path, ctx.pattern_budget)
            if out.headline is not None and not spooled.told_by_tool(out.headline, raw):
                out.headline = None
            out.drop("spooled", spool.missing_lines)
            out.body.insert(0, spooled.note(spool))
            raw_tokens = int(spool.total_bytes * 0.3 + 0.999)

        # No joined copy of the body (or of the raw text) just to see whether it is blank.
        has_body = any(map(str.strip, out.body))
        failed = bool(run.exit_code)
        facts = out.headline or (pipeline.facts_line(out.facts) if (out.omitted or failed) else None)
        if failed and out.body and not out.lines_kept and out.body == [rule.data.get("onEmpty")]:
            # An onEmpty message ("no problems") must not stand in for a failing run.
            has_body = False
            facts = None
        if not has_body and not facts and raw and not raw.isspace() and spool is None:
            return self._raw(run, raw, "original", cls, out.facts)
        limit = budget.chars(ctx.chars_per_token)
        cap = limit * ((rule.data.get("summarize") or {}).get("maxFactor") or window.MAX_FACTOR)
        au = compose.audited(raw, out.body, cap, budget.max_line_chars, failed, spool)
        red = Reduction(
            text="",
            rule_id=rule.id,
            family=rule.family,
            classification=cls,
            facts=out.facts,
            raw_chars=len(raw) if spool is None else spool.total_bytes,
            raw_tokens=raw_tokens,
            tokens_exact=tok.is_exact(raw) and spool is None,
            tokenizer=tok.name,
            lines_total=au.total,
            lines_kept=au.total - au.omitted,
            omitted=out.omitted,
            mode=out.mode,
            exit_code=run.exit_code,
        )
        foot = compose.Footer(au, out.omitted, out.shortened)
        if spool is None:
            # Judged before anything is stored: a text that does not pay for itself
            # gives way to the raw output, and nothing is kept for it.
            probe = foot.compose(run, facts, compose.POINTER_PROBE if au.lossy and self._store_enabled else None)
            if not compose.worth_it(raw, probe, run, self.min_saved_tokens, self.min_saved_share):
                return self._raw(run, raw, "original", cls, out.facts)
        pointer = None
        if spool is not None or au.lossy:
            pointer = self._keep_raw(run, red, raw)
            if red.artifact is None and pointer is not None and spool is None:
                # Nothing could keep the raw output: what the reduction drops would be lost.
                return self._raw(run, raw, "unstored", cls, out.facts)
        text = foot.compose(run, facts, pointer)
        if text == raw:
            return self._raw(run, raw, "original", cls, out.facts)
        red.text = text
        red.preview = inline.compose(None, facts, au.body)
        red.reduced_chars = len(text)
        red.reduced_tokens = tok.count(text)
        return red

    def _binary(self, run: ToolRun, raw: str) -> Reduction:
        """Binary output: its kind and size, and a pointer to the bytes in the store."""
        from tokenjuice.tokens import counter

        tok = counter()
        n_lines = audit.count_lines(raw)
        cls = Classification("binary", None, selected_by="binary")
        red = Reduction(
            text="",
            rule_id="binary",
            family="binary",
            classification=cls,
            raw_chars=len(raw),
            raw_tokens=tok.count(raw),
            tokens_exact=tok.is_exact(raw),
            tokenizer=tok.name,
            lines_total=n_lines,
            lines_kept=0,
            omitted={"binary": n_lines} if n_lines else {},
            mode="binary",
            exit_code=run.exit_code,
        )
        spool = run.metadata.get("spooled")
        what = describe(raw, run.raw_bytes) if spool is None else f"binary data, {spool.total_bytes:,} bytes"
        parts = [inline.exit_line(run.exit_code, compose.exit_note(run)), f"[binary output ({what}) not shown"]
        probe = "\n".join(p for p in parts if p) + f" · {compose.POINTER_PROBE}]"
        if spool is None and not compose.worth_it(raw, probe, run, self.min_saved_tokens, self.min_saved_share):
            return self._raw(run, raw, "original", cls)  # a few bytes: their summary would cost more
        pointer = self._keep_raw(run, red, raw)
        text = "\n".join(p for p in parts if p) + (f" · {pointer}]" if pointer else "]")
        red.text = text
        red.reduced_chars = len(text)
        red.reduced_tokens = tok.count(text)
        return red

    def _raw(
        self, run: ToolRun, raw: str, mode: str, cls: Classification | None = None, facts: dict[str, int] | None = None
    ) -> Reduction:
        """The original output byte for byte (only an `exit N` line before it), or on
        fail-open for a huge output its head and tail around the range left out.
        `facts`: the chosen rule's counts, stated even when its text gives way."""
        from tokenjuice.tokens import counter

        tok = counter()
        body = raw
        total = audit.count_lines(raw)
        kept = total
        omitted: dict[str, int] = {}
        gap: tuple[int, int] | None = None
        if mode in ("fail-open", "unstored") and len(body) > FAIL_OPEN_MAX_CHARS:
            body, gap = compose.cap(body, FAIL_OPEN_MAX_CHARS)
            if gap is not None:
                kept -= gap[1] - gap[0] + 1
                omitted["middle"] = gap[1] - gap[0] + 1
        spool = run.metadata.get("spooled")
        if spool is not None:
            total = spool.total_lines
            kept = audit.count_lines(raw)
            omitted["spooled"] = total - kept
            body = spooled.note(spool) + "\n" + body
        head = inline.exit_line(run.exit_code, compose.exit_note(run))
        text = f"{head}\n{body}" if head else body
        cls = cls or Classification("raw" if mode == "raw" else "generic", None, selected_by=mode)
        red = Reduction(
            text=text,
            rule_id=cls.matched_reducer or mode,
            family=cls.family,
            classification=cls,
            facts=facts,
            raw_chars=len(raw),
            raw_tokens=tok.count(raw),
            reduced_tokens=tok.count(text),
            tokens_exact=tok.is_exact(raw),
            tokenizer=tok.name,
            lines_total=total,
            lines_kept=kept,
            omitted=omitted,
            mode=mode,
            exit_code=run.exit_code,
        )
        if omitted or mode == "unstored":
            if omitted:
                pointer = self._keep_raw(run, red, raw)
                foot = inline.footer(total - kept, total, omitted, pointer=pointer)
                red.text = text.rstrip("\n") + "\n" + (foot or "")
            else:
                red.text = text + ("" if text.endswith("\n") else "\n") + UNSTORED_NOTE
            red.reduced_chars = len(red.text)
            red.reduced_tokens = tok.count(red.text)
        return red


_default: Reducer | None = None


def default_reducer() -> Reducer:
    global _default
    if _default is None:
        _default = Reducer()
    return _default


def reduce(
    output: str | ToolRun,
    *,
    command: str | None = None,
    exit_code: int | None = 0,
    **more: Any,
) -> Reduction:
    """Reduce one tool output with the default rules.

    >>> tokenjuice.reduce(text, command="pytest -q", exit_code=1).text
    """
    return default_reducer().reduce(output, command=command, exit_code=exit_code, **more)
