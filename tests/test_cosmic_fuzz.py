"""Fuzz: random order texts (well-formed and not, possible and not) never break a Cosmic Cluster
game: each turn ends with every parsed order explained and every other line reported."""

from __future__ import annotations

import random

from companion.cosmic.game import CosmicGame, Phase

FORMS = [
    "TS1 {o}A {a} B {o}F {f}",
    "A {f} L {a}",
    "F {f} S A {f} L {a}",
    "A/F {f} -> {g}",
    "F {f} F/F {o}A {a} -> {b}",
    "A {f} D {a}",
    "A {f} D F {g}",
    "A {a} E {o}F {f}",
    "TS3 F {f} -> {g}",
    "TS3 A/F {f} -> {g}",
    "A {a} -> {b}",
    "F {f} -> {g}",
    "A {a} S A {b}",
    "F {f} S F {g} -> {b}",
    "F {f} C A {a} -> {b}",
    "A {a} -> {b} via Convoy",
    "A {a} build",
    "nonsense {a} ->",
]


def test_random_order_texts_never_break_a_game() -> None:
    rng = random.Random(5)
    for seed in range(8):
        game = CosmicGame(seed, rng.randint(2, 9))
        regions = sorted(game.map.regions)
        for _ in range(6):
            position = game.position
            if position.phase is Phase.OVER:
                break
            texts = {}
            lines_given = 0
            for power in game.powers:
                mine = [u.region for u in position.units if u.power == power] or regions
                lines = []
                for _ in range(rng.randint(0, 6)):
                    unit = rng.choice(mine)
                    near = sorted(game.map.fleet_moves[unit] | game.map.army_moves[unit]) or regions
                    fill = {
                        "a": rng.choice([unit, rng.choice(regions)]),
                        "f": rng.choice([unit, rng.choice(regions)]),
                        "b": rng.choice(near),
                        "g": rng.choice(near),
                        "o": rng.choice(["", "P1 ", "P2 "]),
                    }
                    lines.append(rng.choice(FORMS).format(**fill))
                lines_given += len(lines)
                texts[power] = "\n".join(lines)
            if position.phase is Phase.ORDERS:
                step = game.play_orders(texts)
                explained = len(step.result["orders"]) + len(step.result["syntax_errors"])
                assert explained == lines_given
            elif position.phase is Phase.RETREATS:
                game.play_retreats({})
            else:
                game.play_adjustments({})


CORRECTIONS = [
    "PLACE {p} {t} {a}",
    "PLACE {p} A/F {a} {q}",
    "REMOVE {a}",
    "REMOVE {p} {t} {a}",
    "MOVE {a} {b}",
    "MOVE {p} {t} {a} {b}",
    "CLAIM {a} {p}",
    "CLAIM {a} none",
    "PLACE {p}",
    "{t} {a} {b}",
]


def test_random_corrections_are_made_or_refused_with_a_reason_and_always_replay() -> None:
    """Every correction either applies or raises a CompanionError leaving the position as it
    was; undos are mixed in; the record of it all replays to the same bytes."""
    from companion.cosmic.corrections import Correction
    from companion.cosmic.record import load_record, record_json
    from companion.errors import CompanionError

    rng = random.Random(11)
    for seed in range(4):
        game = CosmicGame(seed, rng.randint(2, 9))
        regions = sorted(game.map.regions)
        for _ in range(60):
            before = (game.position, len(game.steps))
            text = rng.choice(CORRECTIONS).format(
                p=rng.choice([*game.powers, "P0", "x"]),
                q=rng.choice(game.powers),
                t=rng.choice(["A", "F", "A/F", "Z"]),
                a=rng.choice([*regions, "nowhere-1"]),
                b=rng.choice(regions),
            )
            try:
                if rng.random() < 0.15:
                    game.undo()
                else:
                    game.correct(Correction.parse(text, "fuzz"))
            except CompanionError:
                assert (game.position, len(game.steps)) == before
        text = record_json(game)
        assert record_json(load_record(text)) == text
