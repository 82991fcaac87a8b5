"""stylelint's string formatter: ESLint-stylish blocks with ✖/⚠ severity marks.

Same reduction as `eslint`: the file line, then `  2:4 ✖ Empty block  block-no-empty`
per problem without the table padding; the `✖ N problems` summary stays.
"""

from __future__ import annotations

from tokenjuice import _re as re
from tokenjuice.reduction.formatters import FormatInput, FormatOutput
from tokenjuice.reduction.formatters.eslint import stylish

# What `HEAD_RE` and eslint's `item_text` read (a test holds them to it)
ITEM_RE = re.compile(r"^ +(?P<pos>\d+:\d+) +(?P<sev>[✖⚠ℹ×‼]) +(?P<msg>\S.*?)(?: {2,}(?P<rule>\S+))?$")
HEAD_RE = re.compile(r"^ +(?P<pos>\d+:\d+) +(?P<sev>[✖⚠ℹ×‼]) +(?=\S)")
SUMMARY_RE = re.compile(
    r"^[✖⚠×] \d+ problems? |^ +\d+ (?:errors?|warnings?)(?: and \d+ warnings?)? potentially fixable"
)
EXTRA_RE = re.compile(r"^(?:Invalid Option|Deprecation warnings?|Error: |ConfigurationError|No files matching)")


def format(fi: FormatInput) -> FormatOutput | None:  # noqa: A001 - formatter protocol
    return stylish(fi, HEAD_RE, SUMMARY_RE, EXTRA_RE)
