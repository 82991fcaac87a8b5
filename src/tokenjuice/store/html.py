"""A self-contained HTML savings report (inline CSS and SVG, no scripts, no network)."""

from __future__ import annotations

import html
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tokenjuice.store.report import Group, Summary

_CSS = """
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;margin:2rem auto;max-width:980px;color:#1b1f24}
h1{font-size:1.4rem}h2{font-size:1.1rem;margin-top:2rem}
table{border-collapse:collapse;width:100%}th,td{padding:.3rem .5rem;border-bottom:1px solid #e4e7eb;text-align:right}
th:first-child,td:first-child{text-align:left}.kpi{display:flex;gap:1rem}.kpi div{background:#f3f5f7;padding:.8rem 1rem;
border-radius:6px}.kpi b{display:block;font-size:1.3rem}.note{color:#57606a;font-size:.9rem}
"""


def _fmt(v: int) -> str:
    return f"{v:,}"


def _bars(groups: list[Group], width: int = 900, row: int = 22) -> str:
    groups = [g for g in groups if g.raw_tok][:15]
    if not groups:
        return "<p class=note>no data</p>"
    peak = max(g.raw_tok for g in groups)
    label_w = 170
    scale = (width - label_w - 90) / peak
    h = row * len(groups) + 10
    parts = [f'<svg width="{width}" height="{h}" role="img" aria-label="raw vs reduced tokens">']
    for i, g in enumerate(groups):
        y = 5 + i * row
        raw_w = max(1.0, g.raw_tok * scale)
        red_w = max(1.0, g.red_tok * scale)
        parts.append(f'<text x="0" y="{y + 14}" font-size="12">{html.escape(g.name[:26])}</text>')
        parts.append(f'<rect x="{label_w}" y="{y}" width="{raw_w:.1f}" height="16" fill="#d0d7de"/>')
        parts.append(f'<rect x="{label_w}" y="{y}" width="{red_w:.1f}" height="16" fill="#2f81f7"/>')
        parts.append(f'<text x="{label_w + raw_w + 6:.1f}" y="{y + 13}" font-size="11">{g.saved_pct:.0f}% saved</text>')
    parts.append("</svg>")
    return "".join(parts)


def _day_chart(days: list[Group], width: int = 900, height: int = 160) -> str:
    if not days:
        return "<p class=note>no data</p>"
    peak = max(1, *(g.saved for g in days))
    bw = max(4.0, (width - 40) / len(days) - 2)
    parts = [f'<svg width="{width}" height="{height + 30}" role="img" aria-label="saved tokens per day">']
    for i, g in enumerate(days):
        bh = height * g.saved / peak
        x = 20 + i * (bw + 2)
        parts.append(
            f'<rect x="{x:.1f}" y="{height - bh:.1f}" width="{bw:.1f}" height="{bh:.1f}" fill="#1f883d">'
            f"<title>{html.escape(g.name)}: {g.saved:,} tokens saved</title></rect>"
        )
    parts.append(f'<text x="20" y="{height + 20}" font-size="11">{html.escape(days[0].name)}</text>')
    parts.append(f'<text x="{width - 90}" y="{height + 20}" font-size="11">{html.escape(days[-1].name)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _table(s: Summary) -> str:
    rows = "".join(
        f"<tr><td>{html.escape(g.name)}</td><td>{g.runs:,}</td><td>{_fmt(g.raw_tok)}</td><td>{_fmt(g.red_tok)}</td>"
        f"<td>{g.saved_pct:.1f}%</td><td>{_fmt(g.resend_saved)}</td></tr>"
        for g in s.groups[:50]
    )
    return (
        f"<table><tr><th>{html.escape(s.by)}</th><th>runs</th><th>raw tokens</th><th>reduced</th>"
        f"<th>saved</th><th>saved incl. re-sends</th></tr>{rows}</table>"
    )


def write_report(path: str, by_family: Summary, by_day: Summary, chosen: Summary) -> None:
    t = by_family.total
    generated = time.strftime("%Y-%m-%d %H:%M")
    doc = f"""<!doctype html><html lang=en><head><meta charset=utf-8><title>tokenjuice savings</title>
<style>{_CSS}</style></head><body>
<h1>tokenjuice savings</h1>
<p class=note>{t.runs:,} reductions in {by_family.sessions} sessions; tokens counted with
{html.escape(", ".join(by_family.tokenizers))}; generated {generated}.</p>
<div class=kpi><div><b>{_fmt(t.saved)}</b>tokens saved ({t.saved_pct:.1f}%)</div>
<div><b>{_fmt(t.resend_saved)}</b>prompt tokens saved including re-sends</div>
<div><b>{_fmt(t.raw_tok)}</b>raw tokens</div></div>
<p class=note>Re-send model: a result saved at run j of a session of N runs is in N − j + 1 prompts.</p>
<h2>Raw (grey) and reduced (blue) tokens by family</h2>{_bars(by_family.groups)}
<h2>Saved tokens per day</h2>{_day_chart(by_day.groups)}
<h2>By {html.escape(chosen.by)}</h2>{_table(chosen)}
</body></html>
"""
    with open(path, "w", encoding="utf-8") as f:
        f.write(doc)
