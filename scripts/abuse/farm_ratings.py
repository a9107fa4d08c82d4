#!/usr/bin/env python3
"""Tries to farm a rating with puppet accounts, against a Sagani server of your own.

One account and three puppets sign up; the account creates rated games of four seats, the
puppets take the other seats and give the game away, and the account plays it out against
the bots that take their seats. Two ways of giving it away, each repeated:

  at-once  every puppet resigns before anyone has moved (move 0);
  after    every seat makes its first move, then the puppets resign (just past the abort
           window: a game of four at move 4).

It prints the account's rating after each game, and at the end the same figures for one
honest game (a fresh account that wins a rated game against fresh opponents who played it
out, here: who resigned after moving), so the farm can be compared with a normal win.

Bounded: at most 20 games a way, each given at most --game-seconds. Standard library only.
Usage: farm_ratings.py --url http://127.0.0.1:8080 [--games 8] [--way at-once|after|both]
Run it only against a server you run yourself (its claim and move limits off: --claims-per-ip 0
--moves-per-token 0 --moves-per-ip 0 --open-games-per-ip 0).
"""

import argparse
import http.cookiejar
import json
import secrets
import sys
import time
import urllib.error
import urllib.request


class Client:
    """One browser: its own cookies, requests from the site's own page (Origin)."""

    def __init__(self, url):
        self.url = url.rstrip("/")
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )

    def send(self, method, path, body=None, token=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method)
        req.add_header("content-type", "application/json")
        req.add_header("origin", self.url)
        if token:
            req.add_header("authorization", f"Bearer {token}")
        try:
            with self.opener.open(req, timeout=30) as r:
                return r.status, json.loads(r.read() or b"null")
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read() or b"null")


def ok(answer, what):
    status, body = answer
    if status >= 300:
        sys.exit(f"{what}: {status} {body}")
    return body


def sign_up(url, name):
    c = Client(url)
    ok(c.send("POST", "/api/players", {"name": name, "password": "farm " + secrets.token_hex(8)}), f"sign-up {name}")
    return c


def rating(c, name):
    p = ok(c.send("GET", f"/api/players/{name}"), "profile")
    return p.get("rating"), p["rated_games"]


def new_game(host, others):
    """A rated public game of 1 + len(others) seats: the host in seat 0, the others after."""
    seats = [{"kind": "human"} for _ in range(1 + len(others))]
    g = ok(host.send("POST", "/api/games", {"seats": seats, "rated": True, "public": True}), "create")["game"]
    tokens = []
    for i, c in enumerate([host] + others):
        tokens.append(ok(c.send("POST", f"/api/games/{g}/join", {"seat": i}), "join")["token"])
    return g, tokens


def state(c, game, token):
    return ok(c.send("GET", f"/api/games/{game}", token=token), "state")


def move(c, game, token, s):
    c.send("POST", f"/api/games/{game}/moves", {"version": s["version"], "move": s["legal"][0]}, token)


def give_away(clients, game, tokens, way, deadline):
    """The puppets (seats 1..) resign: at once, or once every seat has made its first move."""
    puppets = list(range(1, len(tokens)))
    if way == "at-once":
        for i in puppets:
            ok(clients[i].send("POST", f"/api/games/{game}/resign", {}, tokens[i]), "resign")
        return
    # Everyone plays a move (the abort window), then the puppets resign at once.
    while True:
        if time.monotonic() > deadline:
            sys.exit(f"game {game}: the seats could not all move in time")
        s = state(clients[0], game, tokens[0])
        if s["version"] >= len(tokens):
            break
        for i in range(len(tokens)):
            s = state(clients[i], game, tokens[i])
            if s["legal"] and s["version"] < len(tokens):
                move(clients[i], game, tokens[i], s)
        time.sleep(0.01)
    for i in puppets:
        ok(clients[i].send("POST", f"/api/games/{game}/resign", {}, tokens[i]), "resign")


def play_out(c, game, token, deadline):
    while True:
        s = state(c, game, token)
        if s["status"] == "over":
            return s
        if time.monotonic() > deadline:
            sys.exit(f"game {game}: not over in time")
        if s["legal"]:
            move(c, game, token, s)
        else:
            time.sleep(0.02)


def farm(url, way, games, seconds):
    tag = secrets.token_hex(3)
    host_name = f"farm{tag}"
    host = sign_up(url, host_name)
    puppets = [sign_up(url, f"pup{tag}{i}") for i in range(3)]
    start = rating(host, host_name)
    print(f"[{way}] {host_name}: rating {start[0]} after {start[1]} rated games")
    t0 = time.monotonic()
    for k in range(games):
        deadline = time.monotonic() + seconds
        game, tokens = new_game(host, puppets)
        give_away([host] + puppets, game, tokens, way, deadline)
        end = play_out(host, game, tokens[0], deadline)
        r, n = rating(host, host_name)
        note = f" ({end['not_rated']})" if end.get("not_rated") else ""
        print(f"[{way}] game {k + 1}: place {end['standings'].index(0) + 1}, rating {r} after {n} rated games{note}")
    r, n = rating(host, host_name)
    print(f"[{way}] {games} games in {time.monotonic() - t0:.0f} s: rating {start[0]} -> {r} ({n} rated games)")
    return r


def honest(url, seconds):
    """One normal win: a fresh account beats three fresh accounts in a rated game that counts."""
    tag = secrets.token_hex(3)
    name = f"win{tag}"
    host = sign_up(url, name)
    others = [sign_up(url, f"opp{tag}{i}") for i in range(3)]
    deadline = time.monotonic() + seconds
    game, tokens = new_game(host, others)
    give_away([host] + others, game, tokens, "after", deadline)
    play_out(host, game, tokens[0], deadline)
    r, n = rating(host, name)
    print(f"[one normal win] {name}: rating {r} after {n} rated game")
    return r


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--url", default="http://127.0.0.1:8080")
    p.add_argument("--games", type=int, default=8)
    p.add_argument("--way", choices=["at-once", "after", "both"], default="both")
    p.add_argument("--game-seconds", type=float, default=300)
    a = p.parse_args()
    games = max(1, min(a.games, 20))
    ways = ["at-once", "after"] if a.way == "both" else [a.way]
    for way in ways:
        farm(a.url, way, games, a.game_seconds)
    honest(a.url, a.game_seconds)


if __name__ == "__main__":
    main()
