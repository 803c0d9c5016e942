"""The building blocks of the report pages: layout, charts, links, style and script.

Charts are plotly figures; plotly's JavaScript bundle (from the pinned wheel) is either a file beside the
page, written once per folder and loaded by a relative address, or inlined into the page (one file to
send around, 5 MB bigger); either way the page needs no network. Every text that reaches the page is
escaped here (problem ids, messages and paths may hold anything): HTML by ``esc``, and every text of a
chart by ``plain_figure``, since plotly renders its own markup in titles, tick labels, legends, hover
text and annotations (``<a href>``, ``<span style>``, ``<b>``... in plotly.js's ``svg_text_utils``),
which would let a ledger's text load URLs. The page's Content-Security-Policy allows only its own inline
scripts (by hash) and, with the bundle beside it, scripts of its own origin (its folder, opened from
disk); it forbids every remote load.
"""

from __future__ import annotations

import base64
import hashlib
import html
import os
import re
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

from putnam_solver.run.report.data import parse_time
from putnam_solver.terminal import terminal_text

PLOT_CONFIG = {
    "displaylogo": False,
    "responsive": True,
    "showSendToCloud": False,
    "plotlyServerURL": "",
    "modeBarButtonsToRemove": ["sendChartToCloud", "sendDataToCloud", "select2d", "lasso2d"],
}
"""Charts keep plotly's zoom, pan and PNG download, but none of its buttons that upload a chart or link out."""
COLORS = {
    "solved": "#2e7d32",
    "defective": "#9e9d24",
    "attempted": "#ef6c00",
    "pending": "#90a4ae",
    "outside": "#eceff1",
    "disputed": "#c62828",
    "vetoed": "#ad1457",
    "both": "#2e7d32",
    "only-a": "#1565c0",
    "only-b": "#8e24aa",
    "neither": "#ef6c00",
    "failed": "#ef6c00",
    "error": "#c62828",
    "unavailable": "#78909c",
}


def plotly_go() -> Any:
    """plotly's figure module, imported when a report is made (it is slow to import)."""
    import plotly.graph_objects as go

    return go


def layout(figure: Any, title: str, x: str, y: str) -> Any:
    figure.update_layout(
        title={"text": title},
        xaxis={"title": {"text": x}},
        yaxis={"title": {"text": y}, "rangemode": "tozero"},
        template="plotly_white",
        height=360,
        margin={"l": 60, "r": 20, "t": 50, "b": 50},
        showlegend=False,
    )
    return figure


def figure_html(div_id: str, figure: Any) -> str:
    import plotly.io as pio

    chart: str = pio.to_html(
        plain_figure(figure), include_plotlyjs=False, full_html=False, config=PLOT_CONFIG, div_id=div_id
    )
    return f'<div class="chart">{chart}</div>'


OUR_TEMPLATES = frozenset({"hovertemplate", "texttemplate"})
"""Keys whose strings are this module's own plotly markup (``<extra></extra>``), never data."""


def plain_figure(figure: Any) -> dict[str, Any]:
    """``figure`` as plotly's dict with every string escaped (``&``, ``<``, ``>``) but our own templates:
    plotly splits markup at ``<...>`` before it decodes entities, so escaped text shows as typed and no tag
    of it is rendered."""
    plain: dict[str, Any] = _plain(figure.to_dict(), "")
    return plain


def _plain(value: Any, key: str) -> Any:
    if isinstance(value, str):
        return value if key in OUR_TEMPLATES else html.escape(value, quote=False)
    if isinstance(value, dict):
        return {k: _plain(v, k) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v, key) for v in value]
    return value


def content_security_policy(body: str, own_scripts: bool) -> str:
    """A policy that runs only the page's own inline scripts (each by its SHA-256), and with
    ``own_scripts`` scripts from the page's own origin (plotly's bundle beside it), and loads nothing
    remote: no script, style, font, image, connection, frame or form target."""
    scripts = re.findall(r"<script[^>]*>(.*?)</script>", body, flags=re.DOTALL)
    hashes = " ".join(
        f"'sha256-{base64.b64encode(hashlib.sha256(s.encode('utf-8')).digest()).decode('ascii')}'" for s in scripts if s
    )
    sources = f"'self' {hashes}" if own_scripts else hashes
    return (
        f"default-src 'none'; script-src {sources}; style-src 'unsafe-inline'; img-src data: blob:; "
        "font-src 'none'; connect-src 'none'; media-src 'none'; object-src 'none'; frame-src 'none'; "
        "worker-src 'none'; manifest-src 'none'; base-uri 'none'; form-action 'none'"
    )


def section(key: str, title: str, body: str) -> str:
    return f'<section id="{key}"><h2>{esc(title)}</h2>{body}</section>'


def page(title: str, heading: str, sections: Sequence[str], plotly_file: str | None) -> str:
    """The whole page; ``plotly_file`` names plotly's bundle beside it (None: the bundle is inlined)."""
    from plotly.offline import get_plotlyjs

    generated = datetime.now(UTC).isoformat(timespec="seconds")
    nav = "".join(
        f'<a href="#{key}">{label}</a>'
        for key, label in re.findall(r'<section id="([^"]+)"><h2>([^<]*)</h2>', "".join(sections))
    )
    if plotly_file is None:
        scripts = f'<script id="plotly-js">{get_plotlyjs()}</script>'
    else:
        scripts = f'<script id="plotly-js" src="{esc(quote(plotly_file))}"></script>'
    body = (
        f'<body><header><h1>{esc(heading)}</h1><p class="meta">Generated {generated} by putnam report from the '
        "run's ledger. A problem counts as solved only with a stored verdict in which every acceptance gate "
        f"passed for exactly the candidate's bytes.</p><nav>{nav}</nav></header>"
        + "".join(sections)
        + f"<script>{SORT_JS}</script></body></html>\n"
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" '
        f'content="{content_security_policy(scripts + body, plotly_file is not None)}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{esc(title)}</title><style>{CSS}</style>{scripts}</head>{body}"
    )


def axis_time(stamp: str) -> str:
    """A timestamp as plotly reads dates: UTC, without an offset."""
    return parse_time(stamp).astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S")


def href(path: Path, base: Path) -> str:
    """A link from the report's folder to ``path``: relative, so the run directory can move as a whole."""
    relative = os.path.relpath(path.resolve(), base)
    return esc(quote(relative.replace(os.sep, "/")))


def esc(text: str) -> str:
    """``text`` as HTML text or an attribute's value, with each control character and bidirectional control
    shown as its escape (``terminal_text``): a ``U+202E`` in a ledger's text turned the rest of its line
    around, the harness's words after it included (red team round 11)."""
    escaped: str = html.escape(terminal_text(text), quote=True)
    return escaped


CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;max-width:1400px;padding:0 24px 48px;
color:#1f2933;background:#fff}
header{border-bottom:1px solid #d9e2ec;margin-bottom:8px}
h1{font-size:1.6em;margin:20px 0 4px}h2{font-size:1.25em;margin:28px 0 10px;border-bottom:1px solid #eef2f6}
.meta{color:#52606d;font-size:.9em;margin:4px 0 8px}
nav a{margin-right:14px;font-size:.9em;color:#1565c0;text-decoration:none}
.stats{display:flex;flex-wrap:wrap;gap:12px;margin:8px 0 16px}
.stat{border:1px solid #d9e2ec;border-radius:8px;padding:10px 16px;min-width:150px}
.stat .value{font-size:1.8em;font-weight:600}.stat .label{font-weight:600;color:#334e68}
.stat .sub{font-size:.8em;color:#627d98}
.pair{display:grid;grid-template-columns:1fr 1fr;gap:16px}
.chart{border:1px solid #eef2f6;border-radius:6px;padding:4px}
table.settings th{text-align:left;padding:2px 12px 2px 0;color:#334e68;font-weight:600}
table.plain{border-collapse:collapse;font-size:.85em}
table.plain th,table.plain td{border-bottom:1px solid #eef2f6;padding:4px 8px;text-align:left}
table.plain th.sortable{cursor:pointer;user-select:none;background:#f5f7fa}
th[aria-sort=ascending]::after{content:" \\25B2"}th[aria-sort=descending]::after{content:" \\25BC"}
td.num{text-align:right}
tr.pass td:nth-child(4){color:#2e7d32;font-weight:600}
.scroll{overflow-x:auto}
table.grid{border-collapse:separate;border-spacing:2px;font-size:.7em}
table.grid th{font-weight:600;color:#52606d;padding:0 1px}
th.year span{writing-mode:vertical-rl;transform:rotate(180deg)}
.cell{min-width:12px;height:16px;text-align:center;border-radius:3px;padding:0}
.cells{display:flex;flex-wrap:wrap;gap:2px;font-size:.7em;margin-top:6px}
.cells .cell{padding:0 6px;line-height:16px;white-space:nowrap}
.cell a{color:inherit;text-decoration:none;display:block;min-height:16px}
.cell.solved,.key.solved,.cell.both,.key.both{background:#2e7d32;color:#fff}
.cell.defective,.key.defective{background:#9e9d24;color:#fff}
.cell.attempted,.key.attempted,.cell.neither,.key.neither{background:#ef6c00;color:#fff}
.cell.disputed,.key.disputed{background:#c62828;color:#fff}
.cell.vetoed,.key.vetoed{background:#ad1457;color:#fff}
.cell.only-a,.key.only-a{background:#1565c0;color:#fff}
.cell.only-b,.key.only-b{background:#8e24aa;color:#fff}
.cell.pending,.key.pending{background:#90a4ae;color:#fff}
.cell.outside,.key.outside{background:#eceff1;color:#90a4ae}
td.none{background:transparent}
.legend .key{display:inline-block;padding:2px 8px;margin-right:8px;border-radius:3px;font-size:.85em}
.note{color:#52606d;font-style:italic}
@media (max-width:900px){.pair{grid-template-columns:1fr}}
"""

SORT_JS = """
(function () {
  var table = document.getElementById("attempts-table");
  if (!table) { return; }
  var heads = table.tHead.rows[0].cells;
  function value(row, col, numeric) {
    var raw = row.cells[col].getAttribute("data-sort");
    return numeric ? parseFloat(raw) || 0 : raw;
  }
  function sortBy(key, dir) {
    var col = -1;
    for (var i = 0; i < heads.length; i++) { if (heads[i].getAttribute("data-key") === key) { col = i; } }
    if (col < 0 || heads[col].getAttribute("data-type") === "none") { return; }
    var numeric = heads[col].getAttribute("data-type") === "number";
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = value(a, col, numeric), y = value(b, col, numeric);
      var order = x < y ? -1 : x > y ? 1 : 0;
      return dir === "desc" ? -order : order;
    });
    rows.forEach(function (row) { body.appendChild(row); });
    for (var j = 0; j < heads.length; j++) { heads[j].removeAttribute("aria-sort"); }
    heads[col].setAttribute("aria-sort", dir === "desc" ? "descending" : "ascending");
    table.setAttribute("data-sorted", key + "-" + dir);
  }
  for (var i = 0; i < heads.length; i++) {
    heads[i].addEventListener("click", function (event) {
      var key = event.currentTarget.getAttribute("data-key");
      var dir = table.getAttribute("data-sorted") === key + "-asc" ? "desc" : "asc";
      sortBy(key, dir);
      history.replaceState(null, "", "#sort=" + key + "-" + dir);
    });
  }
  var wanted = /^#sort=([a-z]+)-(asc|desc)$/.exec(location.hash);
  if (wanted) { sortBy(wanted[1], wanted[2]); }
})();
"""
