"""tokenjuice: shrink what AI agents have to read.

Deterministic, rule-based reduction of tool and shell output: errors, failing tests,
locations, changed lines and exit codes survive; noise goes, and every dropped line is
counted.

    >>> import tokenjuice
    >>> r = tokenjuice.reduce(output, command="pytest -q", exit_code=1)
    >>> print(r.text)

Public API: `reduce`, `Reducer`, `ToolRun`, `Reduction`, `Classification`,
`load_rules`, `RuleSet`, `analyze_command`. Names are imported lazily so that
`import tokenjuice` stays cheap for hooks that run on every tool call.
"""

from __future__ import annotations

__version__ = "0.1.0"

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tokenjuice.command import CommandInfo
    from tokenjuice.command import analyze as analyze_command
    from tokenjuice.model import Classification, Reduction, ToolRun
    from tokenjuice.reduction.engine import Reducer, reduce
    from tokenjuice.rules.loader import RuleSet, load_rules

__all__ = [
    "Classification",
    "CommandInfo",
    "Reducer",
    "Reduction",
    "RuleSet",
    "ToolRun",
    "__version__",
    "analyze_command",
    "load_rules",
    "reduce",
]

_LAZY = {
    "reduce": ("tokenjuice.reduction.engine", "reduce"),
    "Reducer": ("tokenjuice.reduction.engine", "Reducer"),
    "ToolRun": ("tokenjuice.model", "ToolRun"),
    "Reduction": ("tokenjuice.model", "Reduction"),
    "Classification": ("tokenjuice.model", "Classification"),
    "load_rules": ("tokenjuice.rules.loader", "load_rules"),
    "RuleSet": ("tokenjuice.rules.loader", "RuleSet"),
    "analyze_command": ("tokenjuice.command", "analyze"),
    "CommandInfo": ("tokenjuice.command", "CommandInfo"),
}


def __getattr__(name: str) -> object:
    target = _LAZY.get(name)
    if target is None:
        raise AttributeError(f"module 'tokenjuice' has no attribute {name!r}")
    import sys

    # `importlib.import_module` without importing `importlib` (and `warnings` with it).
    __import__(target[0])
    value = getattr(sys.modules[target[0]], target[1])
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
