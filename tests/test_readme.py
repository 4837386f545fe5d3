"""The README stays short and true; each game's page tells players every reading we chose and
every house rule they can switch."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import rules

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def game_page(name: str) -> str:
    return (ROOT / "docs" / "games" / f"{name}.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", rules.names())
def test_game_page_lists_every_interpretation_and_option(name):
    cls = rules.game_class(name)
    page = game_page(name)
    assert page.startswith(f"# {cls.title}\n")
    for clause in cls.clause_list:
        if clause.interpretation:
            assert clause.id in page, f"{clause.id} ({clause.title}) is not in docs/games/{name}.md"
    for option in cls.option_specs:
        assert f"`{option.name}`" in page, f"option {option.name} is not in docs/games/{name}.md"


@pytest.mark.parametrize("name", rules.names())
def test_game_page_describes_the_board_and_the_rules(name):
    headings = [h.lower() for h in re.findall(r"^## (.+)$", game_page(name), re.M)]
    assert any(h.startswith("the board") for h in headings), headings
    assert any("referee r" in h for h in headings), headings  # "How the referee rules/reads"


def test_readme_gives_the_two_commands():
    assert "\n./run demo\n" in README and "\n./run test\n" in README
    ci = (ROOT / ".ci" / "run").read_text()
    assert "./run test" in ci  # CI runs exactly the README's test command


def test_readme_is_short():
    assert len(README.splitlines()) < 300


def test_every_relative_link_in_the_docs_leads_to_a_file():
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    for page in pages:
        for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", page.read_text(encoding="utf-8")):
            assert (page.parent / target).exists(), f"{page.relative_to(ROOT)} links to {target}"


def test_readme_links_every_docs_page_and_every_game():
    for page in sorted((ROOT / "docs").glob("*.md")):
        assert f"(docs/{page.name})" in README, f"README does not link docs/{page.name}"
    index = (ROOT / "docs" / "games" / "README.md").read_text(encoding="utf-8")
    for name in rules.names():
        assert f"({name}.md)" in index, f"docs/games/README.md does not link {name}.md"
