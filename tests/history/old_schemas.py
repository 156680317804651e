"""The history's schemas as files made by earlier releases hold them (tables not STRICT, no range
CHECKs): a file of these must keep working."""

SCHEMA_2 = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    finished_at REAL NOT NULL,
    front_end TEXT NOT NULL,
    player1 TEXT NOT NULL,
    player2 TEXT NOT NULL,
    level1 TEXT,
    level2 TEXT,
    you INTEGER CHECK (you IN (1, 2)),
    deal INTEGER,
    record TEXT NOT NULL,
    score1 INTEGER NOT NULL,
    score2 INTEGER NOT NULL,
    par INTEGER,
    accuracy1 REAL,
    accuracy2 REAL,
    game_key TEXT UNIQUE,
    winner INTEGER CHECK (winner IN (1, 2))
);
CREATE TABLE IF NOT EXISTS puzzle_attempts (
    id INTEGER PRIMARY KEY,
    attempted_at REAL NOT NULL,
    puzzle_id TEXT NOT NULL,
    solved INTEGER NOT NULL CHECK (solved IN (0, 1)),
    player_rating REAL NOT NULL,
    player_deviation REAL NOT NULL,
    player_volatility REAL NOT NULL,
    puzzle_rating REAL NOT NULL,
    puzzle_deviation REAL NOT NULL,
    puzzle_volatility REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS puzzle_attempts_by_puzzle ON puzzle_attempts (puzzle_id);
"""
SCHEMA_1 = SCHEMA_2.replace(",\n    winner INTEGER CHECK (winner IN (1, 2))", "")
