"""Input and result types of one reduction.

Plain `__slots__` classes rather than dataclasses: `dataclasses` pulls in `inspect`,
which every CLI start would import for nothing.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any

STDOUT = 0
STDERR = 1


class ToolRun:
    """One tool execution as seen by the reducer.

    `combined` is the output in arrival order. When only `stdout`/`stderr` are given it
    is derived from them (stdout first). `interleave` optionally records the arrival
    order as `(channel, length)` chunks over `combined` (0 = stdout, 1 = stderr); the
    generic path uses it to tell which line came from which channel.
    """

    __slots__ = (
        "_combined",
        "argv",
        "command",
        "cwd",
        "duration_ms",
        "exit_code",
        "interleave",
        "metadata",
        "raw_bytes",
        "session_id",
        "stderr",
        "stdout",
        "tool_name",
    )

    def __init__(
        self,
        *,
        tool_name: str = "exec",
        command: str | None = None,
        argv: Sequence[str] | None = None,
        cwd: str | None = None,
        stdout: str | None = None,
        stderr: str | None = None,
        combined: str | None = None,
        exit_code: int | None = 0,
        duration_ms: float | None = None,
        session_id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        interleave: Sequence[tuple[int, int]] | None = None,
        raw_bytes: bytes | None = None,
    ) -> None:
        self.tool_name = tool_name or "exec"
        self.command = command
        self.argv = tuple(argv) if argv else ()
        self.cwd = cwd
        self.stdout = stdout
        self.stderr = stderr
        self._combined = combined
        self.exit_code = exit_code
        self.duration_ms = duration_ms
        self.session_id = session_id
        self.metadata: dict[str, Any] = dict(metadata or {})
        self.interleave = tuple(interleave) if interleave else None
        # The output exactly as captured (wrap), stored byte for byte when lossy.
        self.raw_bytes = raw_bytes

    @property
    def combined(self) -> str:
        if self._combined is not None:
            return self._combined
        out, err = self.stdout or "", self.stderr or ""
        if not out or not err:
            return out or err
        sep = "" if out.endswith("\n") else "\n"
        return out + sep + err

    @property
    def has_combined(self) -> bool:
        return self._combined is not None

    @property
    def failed(self) -> bool:
        return bool(self.exit_code)

    def command_text(self) -> str:
        if self.command:
            return self.command
        if self.argv:
            import shlex

            return shlex.join(self.argv)
        return ""

    def __repr__(self) -> str:
        return (
            f"ToolRun(tool_name={self.tool_name!r}, command={self.command_text()!r}, "
            f"exit_code={self.exit_code!r}, chars={len(self.combined)})"
        )


class Classification:
    """Which rule reduced the output, and how it was chosen."""

    __slots__ = ("confidence", "family", "matched_command", "matched_reducer", "matched_via", "reasons", "selected_by")

    def __init__(
        self,
        family: str,
        matched_reducer: str | None,
        *,
        confidence: float = 0.0,
        matched_via: str = "original",
        matched_command: str | None = None,
        reasons: Sequence[str] = (),
        selected_by: str = "command",
    ) -> None:
        self.family = family
        self.matched_reducer = matched_reducer
        self.confidence = confidence
        # As the TypeScript tokenjuice: the command as given, a shell body, or unwrapped.
        self.matched_via = matched_via
        # Ours: `command` (match), `classifier` (forced), `generic`, or a pass-through mode.
        self.selected_by = selected_by
        self.matched_command = matched_command
        self.reasons = tuple(reasons)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"family": self.family, "confidence": self.confidence}
        if self.matched_reducer:
            d["matchedReducer"] = self.matched_reducer
        d["matchedVia"] = self.matched_via
        if self.matched_command:
            d["matchedCommand"] = self.matched_command
        d["selectedBy"] = self.selected_by
        return d

    def __repr__(self) -> str:
        return f"Classification(family={self.family!r}, matched_reducer={self.matched_reducer!r})"


class Reduction:
    """The result of reducing one tool output.

    `text` is what the model should see. Sizes are of the raw (combined) output and of
    `text`; token figures are exact only when `tokens_exact` is true (see
    `tokenjuice.tokens`). `omitted` maps a reason (noise, filtered, middle, summarized,
    …) to the number of raw non-blank lines it accounts for.
    """

    __slots__ = (
        "artifact",
        "classification",
        "duration_ms",
        "exit_code",
        "facts",
        "family",
        "lines_kept",
        "lines_total",
        "mode",
        "omitted",
        "preview",
        "raw_chars",
        "raw_tokens",
        "redactions",
        "reduced_chars",
        "reduced_tokens",
        "rule_id",
        "text",
        "tokenizer",
        "tokens_exact",
        "warnings",
    )

    def __init__(
        self,
        *,
        text: str,
        rule_id: str,
        family: str,
        classification: Classification,
        facts: Mapping[str, int] | None = None,
        raw_chars: int = 0,
        reduced_chars: int | None = None,
        raw_tokens: int = 0,
        reduced_tokens: int = 0,
        tokens_exact: bool = False,
        tokenizer: str = "estimate",
        lines_total: int = 0,
        lines_kept: int = 0,
        omitted: Mapping[str, int] | None = None,
        mode: str = "rule",
        exit_code: int | None = 0,
        duration_ms: float = 0.0,
        warnings: Sequence[str] = (),
    ) -> None:
        self.text = text
        self.rule_id = rule_id
        self.family = family
        self.classification = classification
        self.facts: dict[str, int] = dict(facts or {})
        self.raw_chars = raw_chars
        self.reduced_chars = len(text) if reduced_chars is None else reduced_chars
        self.raw_tokens = raw_tokens
        self.reduced_tokens = reduced_tokens
        self.tokens_exact = tokens_exact
        self.tokenizer = tokenizer
        self.lines_total = lines_total
        self.lines_kept = lines_kept
        self.omitted: dict[str, int] = dict(omitted or {})
        self.mode = mode
        self.exit_code = exit_code
        self.duration_ms = duration_ms
        self.warnings = list(warnings)
        # Filled by the store when the raw output was kept (see tokenjuice.store).
        self.artifact: str | None = None
        # Secrets replaced before reduction, by kind (see tokenjuice.redact).
        self.redactions: dict[str, int] = {}
        # The facts line and body without the `exit N` line and the footer (set by the
        # engine on a rule's reduction; otherwise the text after its `exit N` line).
        self.preview: str | None = None

    @property
    def lines_omitted(self) -> int:
        """Raw lines the text does not show (blank ones included, as `tokenjuice cat`
        numbers lines); `omitted` says by reason which non-blank ones went."""
        return self.lines_total - self.lines_kept

    @property
    def verbatim(self) -> bool:
        """True when `text` is the raw output itself (after an `exit N` line, if any):
        to be written as it is, without a newline added."""
        return self.mode in ("raw", "original") and not self.omitted

    @property
    def lossy(self) -> bool:
        """True when anything of the raw output is not in `text`."""
        return self.lines_omitted > 0 or self.mode in ("summarized", "capped")

    @property
    def ratio(self) -> float:
        return round(self.reduced_chars / self.raw_chars, 4) if self.raw_chars else 1.0

    @property
    def preview_text(self) -> str:
        if self.preview is not None:
            return self.preview
        first, nl, rest = self.text.partition("\n")
        return rest if nl and self.exit_code and first.startswith(f"exit {self.exit_code}") else self.text

    def compaction(self) -> dict[str, Any]:
        """The TypeScript `compaction` field: which kinds of omission the text has, and
        whether it stands for the whole output (every omission stated, nothing to re-run)."""
        kinds: list[str] = []
        for reason, n in self.omitted.items():
            if not n:
                continue
            if reason != "middle":
                kinds.append("line-filter")
            elif self.mode in ("fail-open", "unstored"):
                kinds.append("middle-truncation")
            else:
                kinds.append("head-tail-omission")
        kinds = sorted(set(kinds))
        return {"authoritative": bool(kinds) and self.mode not in ("fail-open", "unstored"), "kinds": kinds}

    def to_dict(self) -> dict[str, Any]:
        """The reduce-json response: the TypeScript tokenjuice fields plus our own."""
        return {
            "inlineText": self.text,
            "previewText": self.preview_text,
            "facts": dict(self.facts),
            "compaction": self.compaction(),
            "stats": {
                "rawChars": self.raw_chars,
                "reducedChars": self.reduced_chars,
                "ratio": self.ratio,
                "rawTokens": self.raw_tokens,
                "reducedTokens": self.reduced_tokens,
                "tokenizer": self.tokenizer,
                "tokensExact": self.tokens_exact,
                "linesTotal": self.lines_total,
                "linesKept": self.lines_kept,
                "linesOmitted": self.lines_omitted,
            },
            "classification": self.classification.to_dict(),
            "ruleId": self.rule_id,
            "family": self.family,
            "mode": self.mode,
            "exitCode": self.exit_code,
            "lossy": self.lossy,
            "omitted": dict(self.omitted),
            "artifact": self.artifact,
            "redactions": dict(self.redactions),
            "durationMs": round(self.duration_ms, 3),
        }

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return (
            f"Reduction(rule_id={self.rule_id!r}, mode={self.mode!r}, raw_chars={self.raw_chars}, "
            f"reduced_chars={self.reduced_chars}, lines_omitted={self.lines_omitted})"
        )
