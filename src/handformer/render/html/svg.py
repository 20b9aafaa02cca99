"""Small inline SVG charts for the HTML page: positional encodings as lines over positions."""

from __future__ import annotations

import numpy as np

PALETTE = ("#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d", "#666")
MAX_LINES = 8  # a 512-wide encoding draws its first columns only: the rest is a blur


def escape(text: str) -> str:
    """``html.escape(text)`` (quotes too), without importing the html package: that loads the
    2,231 named character references its unescape reads, which the drawings never need."""
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("'", "&#x27;"))


def positional_chart(value, width: int = 320, height: int = 140, cols: list[str] | None = None,
                     title: str = "", pos: str = "pos {i}") -> str:
    """PE(pos, j) against pos, one line per column j (the first few), y from −1 to 1; ``pos``
    labels the first and last position (the page's language)."""
    pe = np.asarray(value, dtype=np.float64)
    if pe.ndim != 2 or pe.shape[0] < 1:
        return ""
    n, d = pe.shape
    pad, right = 28, 70
    span_x = max(n - 1, 1)
    plot_w, plot_h = width - pad - right, height - 2 * 12

    def xy(p: int, v: float) -> str:
        return f"{pad + p / span_x * plot_w:.1f},{12 + (1 - v) / 2 * plot_h:.1f}"

    parts = [f'<svg class="chart" viewBox="0 0 {width} {height}" width="{width}" '
             f'height="{height}" role="img" aria-label="{escape(title)}">',
             f'<line x1="{pad}" y1="{12 + plot_h / 2}" x2="{pad + plot_w}" '
             f'y2="{12 + plot_h / 2}" class="axis"/>',
             '<text x="2" y="16" class="tick">1</text>',
             f'<text x="2" y="{12 + plot_h + 4}" class="tick">−1</text>',
             f'<text x="{pad}" y="{height - 1}" class="tick">{escape(pos.format(i=0))}</text>',
             f'<text x="{pad + plot_w - 30}" y="{height - 1}" class="tick">'
             f'{escape(pos.format(i=n - 1))}</text>']
    for j in range(min(d, MAX_LINES)):
        colour = PALETTE[j % len(PALETTE)]
        points = " ".join(xy(p, float(pe[p, j])) for p in range(n))
        label = escape(cols[j]) if cols and j < len(cols) else f"dim {j}"
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="1.6" '
                     f'points="{points}"><title>{label}</title></polyline>')
        parts.append(f'<text x="{pad + plot_w + 6}" y="{18 + j * 14}" class="tick" '
                     f'fill="{colour}">{label}</text>')
    parts.append("</svg>")
    return "".join(parts)
