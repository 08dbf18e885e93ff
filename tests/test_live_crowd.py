"""Issue 11: a crowd of live screens must not stop orders.

A real ``companion serve`` gets 238 live streams at once: a hostile client's 180 from one
address, the 8 seats' phones, 20 table screens and 30 more devices, each from its own address.
It keeps at most 8 per address and 64 in all, refuses the rest at once with 429 or 503 and a
sentence saying why (never a hang), and while its 64 streams are open the host's pause and
resume, and the 8 seats' orders and ready presses, sent all at once, are every one answered.
(Before the fix each stream held one of waitress's threads: 40 streams, and orders went
unanswered.)
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

from benchmarks import crowd

PER_CLIENT, TOTAL = 8, 64


def test_a_crowd_of_streams_is_bounded_and_orders_are_still_answered(tmp_path: Path) -> None:
    db = tmp_path / "tables.db"
    table = crowd.prepare_table(db)
    with crowd.ServeProcess(db) as server:
        crowd.host_resumes(server.port, table)
        phones = crowd.seat_phones(server.port, table)
        specs = crowd.hostile(table.id, 180, retry=None)
        specs += crowd.phone_streams(table, phones)
        specs += crowd.table_screens(table.id, 20)
        specs += crowd.table_screens(table.id, 30, first=100)
        with crowd.Streams(server.port, specs) as streams:
            refused = crowd.Phone(server.port, "127.0.0.66")
            status, body = refused.request("GET", f"/t/{table.id}/events")
            assert status == 429
            refused.close()
            assert "This device already has 8 live screens open" in json.loads(body)["error"]
            host = crowd.host_phone(server.port, table)
            started = time.monotonic()
            host_answers = [crowd.host_control(host, table, a) for a in ("pause", "resume")]
            host_seconds = time.monotonic() - started
            host.close()
            answers: list[tuple[int, float]] = []

            def send(seat: int) -> None:
                for n in range(3):
                    started = time.monotonic()
                    status, _ = phones[seat].request(
                        "POST", f"/t/{table.id}/seat/orders", table.sheets[seat][n]
                    )
                    answers.append((status, time.monotonic() - started))
                started = time.monotonic()
                status, _ = phones[seat].request(
                    "POST", f"/t/{table.id}/seat/ready", json.dumps({"ready": True}).encode()
                )
                answers.append((status, time.monotonic() - started))

            senders = [threading.Thread(target=send, args=(seat,)) for seat in phones]
            for sender in senders:
                sender.start()
            for sender in senders:
                sender.join(timeout=60)
            tally = streams.close()
        for phone in phones.values():
            phone.close()
        code, err = server.stop()
    assert code == 0, err
    assert host_answers == [302, 302] and host_seconds < 20  # the host's pause and resume
    assert [status for status, _ in answers] == [200] * 32  # 3 order sheets and ready, x 8
    assert max(seconds for _, seconds in answers) < 10
    assert tally["open"] == TOTAL
    statuses = tally["status"]
    assert set(statuses) == {200, 429, 503}, statuses
    assert statuses[200] == TOTAL and statuses[429] + statuses[503] == len(specs) - TOTAL
    assert statuses[429] >= 150 and statuses[503] >= 2
    assert tally["answer_s"] < 10  # every refusal answered at once, never left hanging
    assert tally["messages"] >= TOTAL  # each open stream got its panel
