"""``GET /docs``: the API described from its OpenAPI schema on one self-contained page.

FastAPI's own ``/docs`` is Swagger UI, whose scripts and styles a browser fetches from a CDN: it shows
nothing on a machine without internet and lets a third party's code run beside the API. This page is
plain HTML from the same schema, loads nothing and runs nothing (its Content-Security-Policy says so).
"""

from __future__ import annotations

import html
import json
from typing import Any

POLICY = "default-src 'none'; style-src 'unsafe-inline'"


def docs_page(schema: dict[str, Any]) -> str:
    """Every operation (method, path, summary, request and response models) and every model's schema."""
    info = schema.get("info", {})
    rows = []
    for path, operations in sorted(schema.get("paths", {}).items()):
        for method, operation in operations.items():
            body = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema", {})
            rows.append(
                "<tr>"
                f"<td><code>{html.escape(method.upper())} {html.escape(path)}</code></td>"
                f"<td>{html.escape(operation.get('summary', ''))}</td>"
                f"<td>{html.escape(_model(body))}</td>"
                f"<td>{html.escape(', '.join(sorted(operation.get('responses', {}))))}</td>"
                "</tr>"
            )
    models = "".join(
        f"<h3 id='{html.escape(name)}'>{html.escape(name)}</h3><pre>{html.escape(json.dumps(model, indent=2))}</pre>"
        for name, model in sorted(schema.get("components", {}).get("schemas", {}).items())
    )
    title = html.escape(f"{info.get('title', 'API')} {info.get('version', '')}")
    return (
        f'<!doctype html><html><head><meta charset="utf-8"><title>{title}</title>'
        f'<meta http-equiv="Content-Security-Policy" content="{POLICY}">'
        "<style>body{font-family:sans-serif;margin:2em}td,th{border:1px solid #ccc;padding:4px}"
        "table{border-collapse:collapse}pre{background:#f6f6f6;padding:8px}</style></head><body>"
        f"<h1>{title}</h1><p>{html.escape(info.get('description', ''))}</p>"
        "<p>The machine-readable schema: <a href='openapi.json'>openapi.json</a>.</p>"
        "<table><tr><th>endpoint</th><th>what</th><th>request body</th><th>answers</th></tr>"
        f"{''.join(rows)}</table><h2>Models</h2>{models}</body></html>"
    )


def _model(schema: dict[str, Any]) -> str:
    reference = schema.get("$ref", "")
    return reference.rsplit("/", 1)[-1] if reference else ("JSON" if schema else "")
