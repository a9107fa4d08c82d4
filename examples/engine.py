#!/usr/bin/env python3
"""A small Sagani engine for `sagani arena --engine NAME=COMMAND` (docs/engine-protocol.md).

It reads one JSON request per line on standard input and answers one JSON line on standard
output. Its play is simple on purpose: it prefers the placement that lies next to the most of
its own tiles (ties at random). It places a tile whenever it may: it never makes the
intermezzo choice, and when an intermezzo lets it pick a stored tile it takes one rather than
pass.

    sagani arena --bots py,random --engine "py=python3 examples/engine.py 7"

The optional argument seeds its random choices.
"""
import json
import random
import sys


def neighbours(view, seat, x, y):
    """How many of the seat's tiles lie orthogonally next to cell (x, y)."""
    taken = {(t["x"], t["y"]) for t in view["seats"][seat]["display"]}
    return sum((x + dx, y + dy) in taken for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0)))


def choose(request, rng):
    view, seat, legal = request["view"], request["seat"], request["legal"]
    places = [m for m in legal if m["action"] == "place"]
    if not places:
        return legal[0], "nothing to place"
    rng.shuffle(places)
    best = max(places, key=lambda m: neighbours(view, seat, m["x"], m["y"]))
    return best, "next to %d of my tiles" % neighbours(view, seat, best["x"], best["y"])


def main():
    rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        move, comment = choose(request, rng)
        answer = {"id": request["id"], "move": move, "comment": comment}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
