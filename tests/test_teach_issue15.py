"""The teach page shows the readings and house-rule options changed by issue 15."""

from __future__ import annotations

import html

import pytest

from tests.fake_table import FakeTable
from webui import create_app


def teach(game: str, players: int) -> str:
    table = FakeTable(game=game, players=players, mode="manual")
    client = create_app({"TESTING": True, "SECRET_KEY": "t"}, table=table).test_client()
    response = client.get(f"/teach/{game}")
    assert response.status_code == 200
    return html.unescape(response.get_data(as_text=True))


@pytest.mark.parametrize(
    ("game", "players", "shown"),
    [
        (
            "manji",
            4,
            [
                'id="option-extra_roll"',
                "default <b>optional</b>",
                'id="option-short_ring_moves"',
                "default <b>last-resort</b>",
                "Stopping short only as a last resort",
                "The extra roll may be declined",
            ],
        ),
        ("manipulation", 4, ['id="option-extra_roll"', "may roll again, or decline"]),
        (
            "the-right-moves",
            2,
            ['id="option-skip_turns"', "outward included", "turn onto another path"],
        ),
        ("playground-battles", 2, ["tells the table the other's kind too", "probe a battle"]),
    ],
)
def test_the_teach_page_shows_the_new_readings_and_options(game, players, shown):
    page = teach(game, players)
    for text in shown:
        assert text in page, text
