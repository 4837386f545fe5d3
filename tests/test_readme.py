"""The README tells players every reading we chose and every house rule they can switch."""

from __future__ import annotations

from pathlib import Path

import pytest

import rules

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", rules.names())
def test_readme_lists_every_interpretation_and_option(name):
    cls = rules.game_class(name)
    section = README[README.index(f"### {cls.title}") :]
    for clause in cls.clause_list:
        if clause.interpretation:
            assert clause.id in section, f"{clause.id} ({clause.title}) is not in the README"
    for option in cls.option_specs:
        assert f"`{option.name}`" in section, f"option {option.name} is not in the README"


def test_readme_gives_the_two_commands():
    assert "\n./run demo\n" in README and "\n./run test\n" in README
    ci = (Path(__file__).resolve().parents[1] / ".ci" / "run").read_text()
    assert "./run test" in ci  # CI runs exactly the README's test command
