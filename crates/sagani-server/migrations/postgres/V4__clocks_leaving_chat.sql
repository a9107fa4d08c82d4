-- Time at the table (issue 16): a game's time control, when its clocks started, when the
-- running clock runs out (for the time-out sweep), when a person last acted (for abandoned
-- games), and why it ended when its rules did not end it.
ALTER TABLE games ADD COLUMN clock TEXT;
ALTER TABLE games ADD COLUMN started_at BIGINT;
ALTER TABLE games ADD COLUMN deadline BIGINT;
ALTER TABLE games ADD COLUMN active_at BIGINT;
ALTER TABLE games ADD COLUMN ended TEXT;
ALTER TABLE games ADD COLUMN chats BIGINT NOT NULL DEFAULT 0;
UPDATE games SET active_at = created_at * 1000;
CREATE INDEX games_deadlines ON games (deadline) WHERE deadline IS NOT NULL AND status <> 'over';
CREATE INDEX games_idle ON games (active_at) WHERE status <> 'over';

-- When each move was stored (milliseconds): the clocks are worked out from these.
ALTER TABLE moves ADD COLUMN at BIGINT;

-- A seat a bot took over: why (`timeout` or `resigned`), at which move, when, and the bot.
ALTER TABLE seats ADD COLUMN left_reason TEXT;
ALTER TABLE seats ADD COLUMN left_version BIGINT;
ALTER TABLE seats ADD COLUMN left_at BIGINT;
ALTER TABLE seats ADD COLUMN left_bot TEXT;
ALTER TABLE seats ADD COLUMN left_level SMALLINT;

-- Chat at the table: part of the game's history. `phrase` is a quick phrase's key (each
-- reader sees it in their language), else `text` is what was written.
CREATE TABLE chat (
    game_id TEXT NOT NULL REFERENCES games(id),
    n BIGINT NOT NULL,
    at BIGINT NOT NULL,
    seat SMALLINT NOT NULL,
    name TEXT,
    text TEXT,
    phrase TEXT,
    PRIMARY KEY (game_id, n)
);
