"""`tokenjuice reduce-json [FILE]`: the JSON protocol of the TypeScript tokenjuice.

Reads `{toolName, command, argv, cwd, stdout, stderr, combinedText, exitCode, …}` or
`{input, options}` and prints one JSON object with `inlineText`, `facts`, `stats`,
`classification` and tokenjuice's own fields.
"""

from __future__ import annotations

from tokenjuice.cli import _io
from tokenjuice.cli.main import UserError
from tokenjuice.cli.options import flag, positional

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from typing import Any


# Deeper payloads are refused whatever the Python: how deep its parser goes before a
# RecursionError differs between versions (3.13 reads 5,000 levels, 3.11 not 1,000).
MAX_DEPTH = 500

OPTIONS = (
    positional("file", optional=True, metavar="FILE", help="JSON payload (default: stdin)"),
    flag("--pretty", help="indent the JSON response"),
)


def run(args: argparse.Namespace) -> int:
    from tokenjuice.protocol import ProtocolError, parse_request
    from tokenjuice.reduction.engine import Reducer

    data = _io.read_bytes(args.file)
    try:
        payload = _loads(data)
    except UnicodeDecodeError:
        raise UserError("payload is not UTF-8 JSON") from None
    except ValueError as exc:
        raise UserError(f"malformed JSON: {exc}") from None
    except RecursionError:
        raise UserError("malformed JSON: nested too deeply") from None
    if _too_deep(payload, MAX_DEPTH):
        raise UserError("malformed JSON: nested too deeply") from None
    try:
        req = parse_request(payload)
    except ProtocolError as exc:
        raise UserError(str(exc)) from None
    opts = req.options
    reducer = Reducer(
        cwd=req.run.cwd,
        max_inline_chars=opts.get("maxInlineChars"),
        max_inline_tokens=opts.get("maxInlineTokens"),
        density_threshold=opts.get("densityThreshold"),
    )
    red = reducer.reduce_run(req.run, bypass=bool(opts.get("raw")), classifier=opts.get("classifier"))
    if args.pretty:
        import json

        out = json.dumps(red.to_dict(), ensure_ascii=False, indent=2)
    else:
        from tokenjuice import _jsonc

        out = _jsonc.dumps(red.to_dict())
    _io.write_text(out)
    return 0


def _loads(data: bytes) -> Any:
    """`json.loads(data)`; UTF-8 without a byte-order mark (what callers send) is read
    without importing the json package."""
    if not data.startswith(b"\xef\xbb\xbf"):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            pass
        else:
            from tokenjuice import _jsonc

            return _jsonc.loads(text)
    import json  # other encodings json detects (UTF-16, UTF-32, a BOM), and its errors

    return json.loads(data)


def _too_deep(value: Any, limit: int) -> bool:
    """Does `value` nest lists and objects more than `limit` levels deep?"""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        for child in children:
            if isinstance(child, (dict, list)):
                if depth >= limit:
                    return True
                stack.append((child, depth + 1))
    return False
