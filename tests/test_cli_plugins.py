"""Commands that the outer packages add to ``companion`` through entry points."""

from __future__ import annotations

import argparse
from importlib.metadata import EntryPoint

import pytest

from companion import cli


def register(commands: cli.Subcommands) -> None:
    """A plugin's registration function, as ``web``, ``vision`` and ``hardware`` provide."""
    hello = commands.add_parser("hello", help="Say hello.")
    hello.add_argument("name")
    hello.set_defaults(handler=_hello)


def _hello(args: argparse.Namespace) -> int:
    print(f"hello {args.name}")
    return 0


def _entry(name: str, value: str) -> EntryPoint:
    return EntryPoint(name=name, value=value, group=cli.PLUGIN_GROUP)


def test_a_plugin_adds_its_command(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.setattr(cli, "_plugins", lambda: [_entry("hello", f"{__name__}:register")])
    assert cli.main(["hello", "table"]) == 0
    assert capsys.readouterr().out == "hello table\n"


def test_a_plugin_that_cannot_load_says_why(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.setattr(
        cli, "_plugins", lambda: [_entry("scan", "no_such_package_here.cli:register")]
    )
    assert cli.main(["scan", "board.jpg", "--json"]) == cli.EXIT_ERROR
    err = capsys.readouterr().err
    assert "'scan' is not available" in err
    assert "No module named 'no_such_package_here'" in err
    assert "pip install -e ." in err


def test_the_installed_plugins_all_load() -> None:
    for entry in cli._plugins():
        assert callable(entry.load()), entry
