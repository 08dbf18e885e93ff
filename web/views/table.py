"""The table screen: the board, the clock, who is ready, the results; QR codes to join."""

from __future__ import annotations

from flask import Blueprint, render_template

from web import panels
from web.security import service, table_or_404

bp = Blueprint("table", __name__)


@bp.get("/")
def index() -> str:
    """Every table this server runs, with its screen's link."""
    views = [service().view(table_id) for table_id in service().table_ids()]
    return render_template("index.html", tables=views)


@bp.get("/t/<table_id>")
def screen(table_id: str) -> str:
    table_or_404(table_id)
    view = service().view(table_id)
    return render_template("table.html", view=view, panel=panels.table_panel(table_id))


@bp.get("/t/<table_id>/panel")
def panel(table_id: str) -> str:
    table_or_404(table_id)
    return panels.table_panel(table_id)
