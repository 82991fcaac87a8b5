"""`re` for tokenjuice's own modules, without importing `re` when the cache can help.

A fresh process pays more for `import re` (which brings `enum`, `functools` and
`collections`: 26 M instructions, a quarter of a first call) than for reducing a small
output. The matchers themselves need only `_sre`: `_recache` keeps, from earlier runs,
what `re` passed to `_sre.compile` for each pattern. So `compile` builds a cached
pattern with `_sre` alone and asks `re` for any other; the module-level functions are
`compile(...)` and a method, as in `re`; every other name (`error`, `RegexFlag`, ...) is
`re`'s own, imported on first use. The flags are `re`'s values as plain ints.

Modules write `from tokenjuice import _re as re` and use it as they would `re`.
"""

from __future__ import annotations

import _sre  # type: ignore[import-not-found,unused-ignore]

from tokenjuice import _recache

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from re import Match as Match  # noqa: PLC0414 - re-exported
    from re import Pattern as Pattern  # noqa: PLC0414 - re-exported
    from re import RegexFlag as RegexFlag  # noqa: PLC0414 - re-exported
    from re import error as error  # noqa: PLC0414 - re-exported
    from typing import Any

# `re`'s flag values (`re._constants.SRE_FLAG_*`); a test checks they still are.
ASCII = 256
IGNORECASE = 2
LOCALE = 4
MULTILINE = 8
DOTALL = 16
UNICODE = 32
VERBOSE = 64
DEBUG = 128
NOFLAG = 0

_MAX = 1024
_compiled: dict[tuple[str, int], Any] = {}
# Patterns the cache did not have, compiled by `re`.
fallbacks: set[tuple[str, int]] = set()


def compile(pattern: str, flags: int = 0) -> Pattern[str]:  # noqa: A001 - `re`'s name
    try:
        return _compiled[pattern, flags]  # type: ignore[no-any-return]
    except (KeyError, TypeError):
        pass
    if type(pattern) is not str or flags & DEBUG:
        fallback: Pattern[str] = _real().compile(pattern, flags)
        return fallback
    args = _recache.code(pattern, int(flags))
    rx = None
    if args is not None:
        try:
            rx = _sre.compile(*args)
        except Exception:  # noqa: BLE001 - a damaged entry is only a cache miss
            _recache.forget(pattern, int(flags))  # recorded afresh at exit
            rx = None
    if rx is None:
        rx = _real().compile(pattern, flags)
        fallbacks.add((pattern, int(flags)))  # for `_recache.save` to record
    elif "Pattern" not in globals():
        globals()["Pattern"] = type(rx)  # `isinstance(x, re.Pattern)` without `re`
    if len(_compiled) >= _MAX:
        _compiled.clear()
    _compiled[pattern, flags] = rx
    built: Pattern[str] = rx
    return built


def search(pattern: str, string: str, flags: int = 0) -> Match[str] | None:
    return compile(pattern, flags).search(string)


def match(pattern: str, string: str, flags: int = 0) -> Match[str] | None:
    return compile(pattern, flags).match(string)


def fullmatch(pattern: str, string: str, flags: int = 0) -> Match[str] | None:
    return compile(pattern, flags).fullmatch(string)


def finditer(pattern: str, string: str, flags: int = 0) -> Iterator[Match[str]]:
    return compile(pattern, flags).finditer(string)


def findall(pattern: str, string: str, flags: int = 0) -> list[Any]:
    return compile(pattern, flags).findall(string)


def split(pattern: str, string: str, maxsplit: int = 0, flags: int = 0) -> list[str | Any]:
    return compile(pattern, flags).split(string, maxsplit)


def sub(pattern: str, repl: str | Callable[[Match[str]], str], string: str, count: int = 0, flags: int = 0) -> str:
    return compile(pattern, flags).sub(repl, string, count)


# What `re.escape` backslashes (its `_special_chars_map`).
_SPECIAL = {i: "\\" + chr(i) for i in b"()[]{}?*+-|^$\\.&~# \t\n\r\v\f"}


def escape(pattern: str) -> str:
    return pattern.translate(_SPECIAL)


def _real() -> Any:
    import re

    return re


if not TYPE_CHECKING:

    def __getattr__(name: str) -> Any:
        value = getattr(_real(), name)
        globals()[name] = value
        return value
