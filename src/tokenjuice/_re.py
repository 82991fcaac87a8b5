"""`re`, imported on first use.

Per-tool-call paths (a hook deciding whether to wrap a command) often need no regex at
all, and `import re` brings `enum`, `functools` and more: about as much as the rest of
such a call. Modules write `from tokenjuice import _re as re` and use it as `re`;
every name is `re`'s own, looked up when first used.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from re import *  # noqa: F403 - the names this module stands for
    from re import Match as Match  # noqa: PLC0414 - re-exported
    from re import Pattern as Pattern  # noqa: PLC0414 - re-exported
    from re import RegexFlag as RegexFlag  # noqa: PLC0414 - re-exported
    from re import error as error  # noqa: PLC0414 - re-exported
else:

    def __getattr__(name: str) -> object:
        import re

        value = getattr(re, name)
        globals()[name] = value  # the next lookup is a plain module attribute
        return value
