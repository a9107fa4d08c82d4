-- Who watches which game, per server: each server writes the number of spectator sockets it
-- holds per game (a row per server and game, gone at 0) and stamps its rows again every little
-- while; the games-to-watch list adds up the rows stamped lately, so a server that stopped
-- without saying so stops counting. (No foreign key to games: a count may outlive its game.)
CREATE TABLE spectators (
    server TEXT NOT NULL,
    game_id TEXT NOT NULL,
    watching BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (server, game_id)
);
CREATE INDEX spectators_by_game ON spectators (game_id, updated_at);
