"""df-table (df): real and near-full filesystems kept, pseudo filesystems counted."""

from __future__ import annotations

from tests.helpers import lost, reduce_fixture
from tests.reduction.formatters._devops import fi_text
from tokenjuice.reduction.formatters import df_table


def test_near_full_named_first_and_loops_counted() -> None:
    fx, red = reduce_fixture("df", "df-h-workstation-snaps")
    assert not lost(fx, red.text)
    lines = red.text.splitlines()
    assert lines[0].startswith("2 filesystems ≥ 85% full: / 98%")
    assert "/snap/" not in red.text
    loops = sum(1 for ln in str(fx["stdout"]).splitlines() if ln.startswith("/dev/loop"))
    assert f"{loops} loop (snap/squashfs)" in red.text


def test_short_table_kept_whole() -> None:
    fx, red = reduce_fixture("df", "df-h-near-full")
    assert not lost(fx, red.text)
    for line in str(fx["stdout"]).splitlines():
        assert line.rstrip() in red.text


def test_df_error_kept() -> None:
    fx, red = reduce_fixture("df", "df-missing-path")
    assert not lost(fx, red.text)
    assert red.text.startswith("exit 1")


def test_full_squashfs_images_are_not_reported_full_wherever_they_are_mounted() -> None:
    # `df -hT`: a squashfs image is full by design, on a loop device or not.
    table = (
        "Filesystem     Type      Size  Used Avail Use% Mounted on\n"
        "/dev/sda2      ext4      468G  461G  7.0G  99% /\n"
        "/dev/sdb1      squashfs   50M   50M     0 100% /media/image\n"
        "/dev/loop3     squashfs   56M   56M     0 100% /snap/core18/2829\n"
        "/dev/sdc1      ext4      100G   10G   90G  10% /data\n"
    )
    out = df_table.format(fi_text(table))
    assert out is not None
    assert out.headline == "1 filesystem ≥ 85% full: / 99%"
