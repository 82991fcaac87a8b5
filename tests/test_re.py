"""`tokenjuice._re` stands for `re`, imported only when a name is first used."""

from __future__ import annotations

import re
import subprocess
import sys

from tokenjuice import _re


def test_names_are_res_own() -> None:
    assert _re.compile is re.compile
    assert _re.IGNORECASE is re.IGNORECASE
    assert _re.error is re.error
    assert _re.compile(r"a(\d+)").search("xa12").group(1) == "12"  # type: ignore[union-attr]


def test_re_is_imported_on_first_use_only() -> None:
    probe = (
        "import sys\nfrom tokenjuice import _re\n"
        "before = 're' in sys.modules\n_re.escape('a.b')\n"
        "print(before, 're' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "True"]


def test_an_unknown_name_is_an_attribute_error() -> None:
    try:
        _re.no_such_name  # type: ignore[attr-defined]  # noqa: B018
    except AttributeError:
        return
    raise AssertionError("no AttributeError")
