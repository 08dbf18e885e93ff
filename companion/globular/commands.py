"""Globular Cluster's part of the ``companion`` command (its registration's ``cli``).

``companion new GAME.json --game globular-cluster`` starts a game from Figure 1; ``show`` and
``replay`` describe a record; the verbs ``play`` (lines of a turn, G8.2), ``preview`` (what a
draft would do, nothing stored), ``takeback`` (the latest line of the turn in progress, G8.7)
and ``score`` (the score sheet, and how a round's scores were made). Each function takes the
record's bytes and returns the new record and the lines to print: the shell
(:mod:`companion.cli`) reads, writes and reports errors.
"""

from __future__ import annotations

import argparse
import secrets

from companion.commands import CommandError, GameCommands, TextInput, Verb, VerbResult
from companion.globular.errors import GlobularError
from companion.globular.game import GlobularGame
from companion.globular.notation import Line, Turn
from companion.globular.record import load_record, record_json
from companion.globular.settings import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    Dice,
    Settings,
    StackKeeper,
    TieBreak,
)
from companion.globular.text import position, round_details, score_sheet, waiting
from companion.globular.tiles import COLOURS, Colour
from companion.terminal import plural

LINES_HELP = """\
Lines are the notation of ruling G8.2, one per argument (or separated by ';'):
  draw <tile>            place <pos> <corner>        end
  move <pos>><pos>[>...] [xN|leader]     warp <pos>><pos> [xN|leader]
  mine <pos> [x2] [roll <face> [<face>]]  trade <colour> give <type> take <type>
  improve <pos> [x2]     colonize <pos> [leader]     station <pos>
Positions are names like k7 (mits is m7); corners tl, tr, bl, br; crystal types n1, 23,
4, 5; faces n, a, 2-5. All the lines are checked before any is played; a refused line
says why and which ruling it breaks, and nothing is played."""


def _colours(text: str) -> tuple[Colour, ...]:
    try:
        return tuple(Colour.parse(part) for part in text.split(",") if part.strip())
    except GlobularError as err:
        raise argparse.ArgumentTypeError(err.reason) from None


def _game(record: bytes, turn: int | None = None) -> GlobularGame:
    """The record replayed (every line checked), or its first ``turn`` turns."""
    if turn is None:
        return load_record(record)
    whole = load_record(record)
    last = len(whole.turns)
    if not 0 <= turn <= last:
        raise CommandError(f"--turn {turn}: the game has {plural(last, 'turn')}; give 0 to {last}")
    return load_record(record, until=turn) if turn else GlobularGame(whole.settings, whole.seed)


def _lines(args: argparse.Namespace) -> list[Line]:
    texts: list[str] = list(args.lines)
    source: TextInput | None = args.source
    if source is not None:
        texts.append(source.read("lines"))
    if not any(t.strip() for t in texts):
        raise CommandError("give the lines to play (companion play GAME.json 'move m7>k7' end)")
    try:
        return list(Turn.parse("\n".join(texts)).lines)
    except GlobularError as err:
        raise CommandError(str(err)) from None


def _line_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("lines", metavar="LINE", nargs="*", help="lines of the notation (G8.2)")
    parser.add_argument(
        "--from",
        dest="source",
        metavar="LINES.txt",
        type=TextInput,
        help="also read lines from a file ('-': standard input)",
    )


def _played_lines(played: list[tuple[str, int, int, tuple[str, ...]]]) -> list[str]:
    out = []
    for text, cost, ap_left, said in played:
        out.append(f"  {text:<28} {cost:>2} AP, {ap_left:>2} left: {'; '.join(said)}")
    return out


def play(record: bytes, args: argparse.Namespace) -> VerbResult:
    """Play lines for the acting player: all checked first, then played in order."""
    game = load_record(record)
    lines = _lines(args)
    try:
        game.check_draft(lines)
    except GlobularError as err:
        raise CommandError(f"nothing was played: {err}") from None
    player = game.state.acting.colour.title
    done = []
    for line in lines:
        result = game.play(line)
        done.append((result.line.text(), result.cost, result.ap_left, result.said))
    out = [f"{player} played {plural(len(done), 'line')}:", *_played_lines(done), ""]
    out += [*waiting(game), "", f"Recorded in {args.record}."]
    return VerbResult(out, record_json(game))


def preview(record: bytes, args: argparse.Namespace) -> VerbResult:
    """What a draft would do now, line by line; nothing is played or stored."""
    game = load_record(record)
    result = game.preview(_lines(args))
    done = [(p.line.text(), p.cost, p.ap_left, p.said) for p in result.played]
    out = ["Draft (nothing played):", *_played_lines(done)]
    if result.refused is not None:
        assert result.refused_line is not None
        out.append(f"  {result.refused_line.text():<28} refused: {result.refused}")
        if result.unchecked:
            out.append(f"  (not looked at: {'; '.join(x.text() for x in result.unchecked)})")
    out.append(f"AP left after the draft: {result.ap_left}.")
    return VerbResult(out, None, 0 if result.refused is None else 1)


def takeback(record: bytes, args: argparse.Namespace) -> VerbResult:
    """Take back the latest line of the turn in progress (G8.7)."""
    game = load_record(record)
    # The record replays line by line, so the turn in progress can be taken back from it.
    try:
        line = game.take_back()
    except GlobularError as err:
        raise CommandError(str(err)) from None
    out = [f"Took back: {line.text()}", "", *waiting(game), "", f"Recorded in {args.record}."]
    return VerbResult(out, record_json(game))


def _score_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--round", type=int, metavar="N", help="also how each score of round N was made"
    )


def score(record: bytes, args: argparse.Namespace) -> VerbResult:
    """The score sheet: crystals by type, VP per round and in total."""
    game = load_record(record)
    out = score_sheet(game.state)
    if args.round is not None:
        out += ["", *round_details(game.state, args.round)]
    return VerbResult(out)


class GlobularCommands(GameCommands):
    verbs = (
        Verb(
            "play",
            "Globular Cluster: play lines of the turn in progress (draw, place, actions, end)",
            _line_arguments,
            play,
            LINES_HELP,
        ),
        Verb(
            "preview",
            "Globular Cluster: what lines would do now (cost, AP left, or why not); nothing stored",
            _line_arguments,
            preview,
            LINES_HELP,
        ),
        Verb(
            "takeback",
            "Globular Cluster: take back the latest line of the turn in progress (G8.7)",
            lambda parser: None,
            takeback,
        ),
        Verb(
            "score",
            "Globular Cluster: the score sheet (crystals by type, VP per round and in total)",
            _score_arguments,
            score,
        ),
    )

    def add_new_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument(
            "--players", type=int, help=f"{MIN_PLAYERS}-{MAX_PLAYERS} (default 2, or --colours)"
        )
        parser.add_argument(
            "--colours",
            "--colors",
            type=_colours,
            help="the players' colours in seat order, e.g. red,blue (default red, black, ...)",
        )
        parser.add_argument("--seed", type=int, help="seed (default: random, and printed)")
        parser.add_argument(
            "--dice",
            choices=[d.value for d in Dice],
            default=Dice.COMPANION.value,
            help="who rolls for a mine (G4.8; default companion)",
        )
        parser.add_argument(
            "--stack",
            choices=[s.value for s in StackKeeper],
            default=StackKeeper.COMPANION.value,
            help="who keeps the stack (G3.13; default companion)",
        )
        parser.add_argument(
            "--tiebreak",
            choices=[t.value for t in TieBreak],
            default=TieBreak.NONE.value,
            help="equal totals (G7.4; default none: they share the place)",
        )

    def new(self, args: argparse.Namespace) -> tuple[str, list[str]]:
        colours: tuple[Colour, ...] | None = args.colours
        players: int | None = args.players
        if colours is not None and players is not None and len(colours) != players:
            raise CommandError(f"--players {players} but {len(colours)} colours in --colours")
        if colours is None:
            count = 2 if players is None else players
            if not MIN_PLAYERS <= count <= MAX_PLAYERS:
                raise CommandError(
                    f"Globular Cluster is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {count}"
                )
            colours = COLOURS[:count]
        try:
            settings = Settings(
                colours, Dice(args.dice), StackKeeper(args.stack), TieBreak(args.tiebreak)
            )
        except GlobularError as err:  # pragma: no cover - Settings raises StateError
            raise CommandError(str(err)) from None
        seed: int = args.seed if args.seed is not None else secrets.randbelow(10**6)
        game = GlobularGame(settings, seed)
        names = ", ".join(f"{c.value} (seat {i})" for i, c in enumerate(colours, start=1))
        lines = [
            f"New Globular Cluster game in {args.record}: {names}; seed {seed}.",
            f"House rules: dice {settings.dice.value}, stack {settings.stack.value}, "
            f"tiebreak {settings.tiebreak.value}.",
            "",
            *position(game),
            "",
            *waiting(game),
        ]
        return record_json(game), lines

    def show(self, record: bytes, args: argparse.Namespace) -> list[str]:
        """The cluster, who stands where, the score sheet and whose turn it is."""
        game = _game(record, args.turn)
        head = [] if args.turn is None else [f"Position after turn {args.turn}:", ""]
        return [*head, *position(game), "", *waiting(game)]

    def replay(self, record: bytes, args: argparse.Namespace) -> list[str]:
        """Replay every line (rolls and draws checked against the seed, each turn against its
        digest), then show the end (or turn N)."""
        whole = load_record(record)
        count = len(whole.lines())
        game = _game(record, args.turn)
        label = "the end" if args.turn is None else f"turn {args.turn}"
        return [
            f"replayed {plural(len(whole.turns), 'turn')} ({plural(count, 'line')}); "
            "every position matches the record",
            "",
            f"Position at {label}:",
            "",
            *position(game),
            "",
            *waiting(game),
        ]


COMMANDS = GlobularCommands()
"""What the registration's ``cli`` names."""
