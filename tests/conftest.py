import pytest

from tests.fake_table import FakeTable
from webui import create_app

PIN = "2468"


@pytest.fixture
def table():
    return FakeTable(pin=PIN, seed=7, options={"opening": "first-seat"})


@pytest.fixture
def app(table):
    return create_app(
        {"TESTING": True, "SECRET_KEY": "test", "SSE_KEEPALIVE": 0.2, "SSE_MAX_AGE": 5.0},
        table=table,
    )


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def csrf(client):
    return client.get("/api/csrf").get_json()["csrf_token"]


@pytest.fixture
def post(client, csrf):
    """POST JSON with the session's CSRF token (and the PIN when pin=...)."""

    def do(url, json=None, pin=None, headers=None):
        h = {"X-CSRF-Token": csrf}
        if pin is not None:
            h["X-Table-PIN"] = pin
        h.update(headers or {})
        return client.post(url, json=json, headers=h)

    return do
