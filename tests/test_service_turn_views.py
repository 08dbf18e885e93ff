"""What the table service shows screens of a turn-taking game, and the drafts it checks without
storing (the test-only noughts and crosses, tests/noughts.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import noughts
import pytest

from companion import games
from companion.errors import StateError
from companion.service import TableService
from companion.service.session import SubmissionError


@pytest.fixture(autouse=True)
def registered() -> Iterator[games.Game]:
    yield noughts.register()
    games.unregister(noughts.NAME)


@pytest.fixture
def table_id(service: TableService) -> str:
    table_id, _ = service.create_table("Xs and Os", 2, game=noughts.NAME)
    service.join(table_id, 1, "Ann")
    service.join(table_id, 2, "Bo")
    return table_id


def seen(**marks: str) -> dict[str, str]:
    return {cell: "" for cell in noughts.CELLS} | marks


def test_the_acting_seats_pending_move_is_public(service: TableService, table_id: str) -> None:
    assert service.view(table_id)["pending"] is None
    service.submit(table_id, 1, "B2")
    assert service.view(table_id)["pending"] == {"seat": 1, "text": "b2"}
    service.set_ready(table_id, 1)
    assert service.view(table_id)["pending"] is None


def test_the_cameras_candidates_are_shown_only_while_they_explain_the_board(
    service: TableService, table_id: str
) -> None:
    service.report_scan(table_id, seen(a1="?", c3="?"))
    assert service.view(table_id)["scan"]["moves"] == ["a1", "c3"]
    service.submit(table_id, 1, "b2", final=True)  # played by hand meanwhile
    scan = service.view(table_id)["scan"]
    assert (scan["moves"], scan["entered"]) == ([], None)
    assert "steps" not in scan


def test_a_draft_is_checked_and_stored_nowhere(service: TableService, table_id: str) -> None:
    before = service.storage.load(table_id).entries
    assert service.preview(table_id, 1, " A1 ") == {"text": "a1"}
    with pytest.raises(SubmissionError, match="'q' is not a cell"):
        service.preview(table_id, 1, "q")
    with pytest.raises(StateError, match="it is seat 1's turn, not seat 2's"):
        service.preview(table_id, 2, "a1")
    assert service.storage.load(table_id).entries == before


def test_a_session_that_previews_says_what_a_draft_would_do(
    service: TableService, table_id: str
) -> None:
    said: list[tuple[int, str]] = []

    def preview(self: noughts.NoughtsSession, seat: int, text: str) -> dict[str, Any]:
        said.append((seat, text))
        return {"text": text, "says": "a fine move"}

    with noughts.previewing(preview):
        assert service.preview(table_id, 1, "b2") == {"text": "b2", "says": "a fine move"}
    assert said == [(1, "b2")]
    assert service.view(table_id)["game"]["board"] == {}
    assert service.preview(table_id, 1, "b2") == {"text": "b2"}
