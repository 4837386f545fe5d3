-- The game log: append-only. A game's position is its new-game event replayed with every move
-- event after it (undo events remove the move they name), so a crash loses nothing committed.
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    players INTEGER NOT NULL,
    options TEXT NOT NULL,          -- JSON
    started REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id INTEGER NOT NULL REFERENCES games(id),
    kind TEXT NOT NULL,             -- move | undo | ruling | correction
    payload TEXT NOT NULL,          -- JSON
    source TEXT NOT NULL DEFAULT '',
    at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS events_by_game ON events(game_id, id);
-- The players' secret links (games with hidden identities): per seat of a game, the link's
-- token and the claimant id of the phone holding it (NULL: not claimed yet). Not part of the log:
-- a row is replaced when its seat is claimed or reset, as a dead link is worth nothing. It never
-- leaves the Pi; the web layer only learns whether a seat is claimed.
CREATE TABLE IF NOT EXISTS seats (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    token TEXT NOT NULL,
    claim TEXT,
    PRIMARY KEY (game_id, seat)
);
-- One row, rewritten by `Store.probe`: a write that tells whether storage works again after a
-- full or read-only disk paused the game.
CREATE TABLE IF NOT EXISTS health (
    id INTEGER PRIMARY KEY,
    at REAL NOT NULL
);
