"""Hostile and odd output, run through `wrap` for real: each is reduced sensibly."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import formatting_reducer, reducer


def wrap(tmp_path: Path, script: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[bytes]:
    (tmp_path / "emit.py").write_text(script)
    return subprocess.run(
        [sys.executable, "-m", "tokenjuice", "wrap", "--", sys.executable, "emit.py"],
        cwd=tmp_path,
        capture_output=True,
        env={**os.environ, **(env or {})},
        timeout=300,
    )


def artifact_of(text: str) -> str:
    return text.strip().splitlines()[-1].rsplit("tokenjuice cat ", 1)[1].rstrip("]")


def cat(aid: str) -> bytes:
    return subprocess.run([sys.executable, "-m", "tokenjuice", "cat", aid], capture_output=True).stdout


def test_binary_is_summarised_and_kept_byte_exact(tmp_path: Path) -> None:
    data = random.Random(7).randbytes(30_000)
    (tmp_path / "blob.bin").write_bytes(data)
    p = wrap(tmp_path, "import sys; sys.stdout.buffer.write(open('blob.bin','rb').read()); sys.exit(1)")
    text = p.stdout.decode()
    assert p.returncode == 1
    assert text.startswith("exit 1\n[binary output (binary data, 30,000 bytes) not shown · full output: ")
    assert len(text) < 200
    assert cat(artifact_of(text)) == data


def test_a_few_binary_bytes_come_back_raw_when_a_summary_would_cost_more(tmp_path: Path) -> None:
    data = bytes(range(32))
    (tmp_path / "tiny.bin").write_bytes(data)
    p = wrap(tmp_path, "import sys; sys.stdout.buffer.write(open('tiny.bin','rb').read()); sys.exit(1)")
    assert p.returncode == 1
    assert p.stdout == b"exit 1\n" + data


def test_png_is_named() -> None:
    # What a tool hands over after decoding an image as UTF-8 with replacement.
    png = (b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 20).decode("utf-8", "replace")
    red = reducer().reduce(png, command="curl -s https://example.test/logo.png")
    assert red.mode == "binary" and "PNG image" in red.text


def test_invalid_utf8_and_nul_in_text_stay_text(tmp_path: Path) -> None:
    script = (
        "import sys\n"
        "out = sys.stdout.buffer\n"
        "for i in range(300): out.write(b'row %d: caf\\xe9 ok\\n' % i)\n"
        "out.write(b'field\\x00separated\\x00record\\n')\n"
        "out.write(b'error: bad byte \\xff in input.csv:12\\n')\n"
        "sys.exit(2)\n"
    )
    p = wrap(tmp_path, script)
    text = p.stdout.decode()
    assert p.returncode == 2 and text.startswith("exit 2\n")
    assert "binary output" not in text
    assert "error: bad byte" in text and "input.csv:12" in text
    assert "\x00" not in text  # shown visibly, never as a raw NUL
    raw = cat(artifact_of(text))
    assert b"caf\xe9" in raw and b"\x00separated" in raw  # the store keeps the original bytes


def test_a_single_50_mb_line(tmp_path: Path) -> None:
    p = wrap(tmp_path, "import sys\nsys.stdout.write('x' * 50_000_000 + '\\nerror: at the end\\n')\nsys.exit(1)\n")
    text = p.stdout.decode()
    assert p.returncode == 1
    assert "error: at the end" in text
    assert "2 lines" in text  # the long line is one line, however it arrived
    assert len(text) < 40_000


def test_a_million_blank_lines(tmp_path: Path) -> None:
    p = wrap(tmp_path, "import sys\nsys.stdout.write('\\n' * 1_000_000 + 'done: 0 errors\\n')\n")
    assert p.stdout.decode().strip() == "done: 0 errors"


@pytest.mark.parametrize(
    ("raw", "expected", "absent"),
    [
        # Carriage-return progress bars keep their final state.
        ("".join(f"\rdownloading {i}%" for i in range(101)) + "\ndone\n", "downloading 100%", "downloading 50%"),
        # Mixed CRLF: no stray carriage returns.
        ("line one\r\nline two\nerror: three\r\n", "error: three", "\r"),
        # Wide Unicode and emoji are text.
        ("構建成功 ✅\nテスト 12 件 🎉\nошибка: файл не найден\n", "ошибка: файл не найден", "binary"),
        # ANSI cursor movement and colours: redrawn lines collapse, escapes go.
        (
            "\x1b[33mstep 1\x1b[0m\n\x1b[1A\x1b[2Kstep 2\n\x1b[1A\x1b[2Kstep 3 \x1b[32mdone\x1b[0m\n",
            "step 3 done",
            "\x1b",
        ),
    ],
)
def test_odd_text(raw: str, expected: str, absent: str) -> None:
    # What the reducer makes of it (too small for the default reducer to change at all).
    red = formatting_reducer().reduce(raw, command="some-tool", exit_code=0)
    assert expected in red.text
    assert absent not in red.text
    # The default reducer: the output as it is, or a text that pays for itself.
    default = reducer().reduce(raw, command="some-tool", exit_code=0).text
    assert default == raw or (expected in default and absent not in default)
