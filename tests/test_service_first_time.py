"""The table service says what happened in a newcomer's words (issue 12): a ready press meant for
a phase that has not begun says so, and the same order sheet sent twice is stored once."""

from __future__ import annotations

import pytest
from test_service_games import new_table

from companion.errors import StateError
from companion.local_cluster.session import BUILD, COMMAND
from companion.service import TableService
from companion.service.session import Stage


def test_r8_1_a_ready_for_the_orders_phase_during_the_discussion_has_not_begun(
    service: TableService,
) -> None:
    table_id = new_table(service)
    before = service.storage.entries(table_id)
    with pytest.raises(
        StateError, match="the Orders phase has not begun yet; it is now Discussion"
    ):
        service.set_ready(table_id, 1, stage=COMMAND)
    assert service.storage.entries(table_id) == before
    assert not service.view(table_id)["seats"][0]["ready"]


def test_r8_1_a_ready_for_a_later_turn_or_phase_has_not_begun(service: TableService) -> None:
    table_id = new_table(service)
    service.skip(table_id)  # turn 1's orders
    with pytest.raises(StateError, match="the Orders phase of turn 2 has not begun yet"):
        service.set_ready(table_id, 1, stage=COMMAND, turn=2)
    with pytest.raises(StateError, match="the Build phase has not begun yet; it is now Orders"):
        service.set_ready(table_id, 1, stage=BUILD, turn=1)


def test_r8_1_a_ready_for_an_ended_phase_says_it_has_ended(service: TableService) -> None:
    table_id = new_table(service)
    service.skip(table_id)
    with pytest.raises(
        StateError, match="the Discussion phase has already ended; it is now Orders"
    ):
        service.set_ready(table_id, 1, stage=Stage.DISCUSSION)
    with pytest.raises(StateError, match="the Orders phase of turn 0 has already ended"):
        service.set_ready(table_id, 1, stage=COMMAND, turn=0)
    assert service.set_ready(table_id, 1, stage=COMMAND, turn=1)


def test_r3_2_the_same_order_sheet_sent_again_is_stored_once(service: TableService) -> None:
    table_id = new_table(service)
    service.skip(table_id)
    service.submit(table_id, 1, "ADVANCE S1 S2")
    service.set_ready(table_id, 1)
    entries = len(service.storage.entries(table_id))
    with service.subscribe(table_id) as seen:
        assert service.submit(table_id, 1, "advance s1 s2") == "ADVANCE S1 S2"
        assert seen.drain() == []
    assert len(service.storage.entries(table_id)) == entries
    assert service.view(table_id)["seats"][0]["ready"]  # unchanged orders stay final
    service.submit(table_id, 1, "HOLD S1")  # a change is stored, and takes the ready back
    assert len(service.storage.entries(table_id)) == entries + 1
    assert not service.view(table_id)["seats"][0]["ready"]
