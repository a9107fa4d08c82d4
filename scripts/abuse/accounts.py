#!/usr/bin/env python3
"""Abuse of the account routes, measured against a running `sagani serve` on this machine.

Three checks, each bounded in requests and time (standard library only):

  flood    40 addresses x 2 clients sign up for 10 s (half of them with taken names); reports
           the server's RSS before, right after and 5 s after, and GET /api/tiles latency
           (median, 95th percentile) quiet and during the flood.
  lockout  15 wrong passwords for one name from 15 addresses, then the owner from a new address;
           then 60 wrong log-ins at once from one address: how many were checked (401), how
           many refused before any check (429).
  timing   log-in times for a known name with a wrong password and for an unknown name
           (medians), each attempt from a fresh address so no limit interferes.

Distinct client addresses come from binding the client sockets to 127.0.0.2, 127.0.0.3, ...
(all of 127.0.0.0/8 is this machine on Linux), so the server needs no trusted proxy.

  python3 scripts/abuse/accounts.py --url http://127.0.0.1:8080 --pid <server pid> flood
"""

import argparse
import http.client
import json
import os
import statistics
import threading
import time
import urllib.parse


def request(url, method, path, body=None, source="127.0.0.1", timeout=30):
    """One request from `source`: (status, seconds)."""
    u = urllib.parse.urlparse(url)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=timeout,
                                      source_address=(source, 0))
    headers = {}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    start = time.perf_counter()
    try:
        conn.request(method, path, body=data, headers=headers)
        response = conn.getresponse()
        response.read()
        status = response.status
    except OSError:
        status = 0
    finally:
        conn.close()
    return status, time.perf_counter() - start


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def address(i):
    """The i-th client address (127.0.0.2 upwards)."""
    i += 2
    return f"127.{(i >> 16) & 255}.{(i >> 8) & 255}.{i & 255}"


def tiles_latencies(url, seconds=None, count=None, stop=None):
    """GET /api/tiles in a row, for `count` requests or until `stop` is set: milliseconds."""
    times = []
    deadline = time.monotonic() + (seconds or 3600)
    while time.monotonic() < deadline:
        if count is not None and len(times) >= count:
            break
        if stop is not None and stop.is_set():
            break
        status, t = request(url, "GET", "/api/tiles")
        if status == 200:
            times.append(t * 1000)
        time.sleep(0.02)
    return times


def summary(ms):
    if not ms:
        return "no answers"
    ms = sorted(ms)
    p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
    return f"median {statistics.median(ms):.1f} ms, p95 {p95:.1f} ms, n={len(ms)}"


def flood(args):
    run = os.urandom(3).hex()
    # A few names that exist, for the half of the sign-ups that name a taken one.
    taken = [f"taken{run}{i}" for i in range(4)]
    for i, name in enumerate(taken):
        request(args.url, "POST", "/api/players",
                {"name": name, "password": "a fine password"}, source=address(1000 + i))
    time.sleep(1.5)  # the sign-ups' own rate limit refills
    quiet = tiles_latencies(args.url, count=100)
    before = rss_mib(args.pid) if args.pid else float("nan")
    statuses = {}
    lock = threading.Lock()
    stop = threading.Event()

    def client(addr_index, client_index):
        n = 0
        while not stop.is_set():
            n += 1
            if n % 2:
                name = taken[n % len(taken)]
            else:
                name = f"f{run}{addr_index:02d}{client_index}{n}"[:20]
            status, _ = request(args.url, "POST", "/api/players",
                                {"name": name, "password": "a fine password"},
                                source=address(addr_index))
            with lock:
                statuses[status] = statuses.get(status, 0) + 1

    threads = [threading.Thread(target=client, args=(a, c))
               for a in range(args.addresses) for c in range(args.clients)]
    for t in threads:
        t.start()
    during = []
    watcher = threading.Thread(target=lambda: during.extend(tiles_latencies(args.url, stop=stop)))
    watcher.start()
    time.sleep(args.seconds)
    stop.set()
    for t in threads:
        t.join()
    watcher.join()
    right_after = rss_mib(args.pid) if args.pid else float("nan")
    time.sleep(5)
    later = rss_mib(args.pid) if args.pid else float("nan")
    print(f"flood: {args.addresses} addresses x {args.clients} clients x {args.seconds} s")
    print(f"  sign-up answers by status: {dict(sorted(statuses.items()))}")
    print(f"  RSS: before {before:.0f} MiB, right after {right_after:.0f} MiB, "
          f"5 s later {later:.0f} MiB")
    print(f"  GET /api/tiles quiet:  {summary(quiet)}")
    print(f"  GET /api/tiles during: {summary(during)}")
    if quiet and during:
        print(f"  ratio of medians: {statistics.median(during) / statistics.median(quiet):.2f}")


def lockout(args):
    run = os.urandom(3).hex()
    owner = f"own{run}"
    status, _ = request(args.url, "POST", "/api/players",
                        {"name": owner, "password": "the owner's secret"}, source=address(2000))
    print(f"lockout: owner signed up: {status}")
    wrong = [request(args.url, "POST", "/api/session",
                     {"name": owner, "password": "a wrong guess"}, source=address(2100 + i))[0]
             for i in range(15)]
    print(f"  15 wrong passwords from 15 addresses: {wrong.count(401)} refused as wrong")
    status, _ = request(args.url, "POST", "/api/session",
                        {"name": owner, "password": "the owner's secret"}, source=address(2200))
    print(f"  the owner from a new address: {status}")
    # A second account, so the first part's failures do not count here.
    other = f"oth{run}"
    request(args.url, "POST", "/api/players",
            {"name": other, "password": "the owner's secret"}, source=address(2001))
    results = []
    lock = threading.Lock()

    def attempt():
        status, _ = request(args.url, "POST", "/api/session",
                            {"name": other, "password": "a wrong guess"}, source=address(2300))
        with lock:
            results.append(status)

    threads = [threading.Thread(target=attempt) for _ in range(60)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    counts = {s: results.count(s) for s in sorted(set(results))}
    print(f"  60 wrong log-ins at once from one address (another name): {counts} "
          f"(401: checked; 429: refused before any check; 503: pool busy, not counted)")
    status, _ = request(args.url, "POST", "/api/session",
                        {"name": owner, "password": "the owner's secret"}, source=address(2201))
    print(f"  the owner from another new address afterwards: {status}")


def timing(args):
    run = os.urandom(3).hex()
    known = f"tim{run}"
    request(args.url, "POST", "/api/players",
            {"name": known, "password": "the owner's secret"}, source=address(3000))
    times = {"known": [], "unknown": []}
    for i in range(args.rounds):
        for kind in ("known", "unknown"):
            name = known if kind == "known" else f"nob{run}{i}"
            # A fresh address each time: no limit (nor its rate limiter) interferes.
            status, t = request(args.url, "POST", "/api/session",
                                {"name": name, "password": "a wrong guess"},
                                source=address(3100 + 2 * i + (kind == "unknown")))
            if status == 401:
                times[kind].append(t * 1000)
    k, u = statistics.median(times["known"]), statistics.median(times["unknown"])
    print(f"timing: {args.rounds} rounds, one log-in of each kind per round")
    print(f"  known name, wrong password: median {k:.1f} ms (n={len(times['known'])})")
    print(f"  unknown name:               median {u:.1f} ms (n={len(times['unknown'])})")
    print(f"  difference: {abs(k - u) / max(k, u) * 100:.1f}%")


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--url", default="http://127.0.0.1:8080")
    p.add_argument("--pid", type=int, help="the server's process id (for its RSS)")
    p.add_argument("--addresses", type=int, default=40)
    p.add_argument("--clients", type=int, default=2, help="clients per address")
    p.add_argument("--seconds", type=float, default=10.0)
    p.add_argument("--rounds", type=int, default=40, help="log-ins of each kind (timing)")
    p.add_argument("check", choices=["flood", "lockout", "timing"])
    args = p.parse_args()
    args.seconds = min(args.seconds, 60.0)
    args.addresses = min(args.addresses, 200)
    args.clients = min(args.clients, 8)
    args.rounds = min(args.rounds, 500)
    {"flood": flood, "lockout": lockout, "timing": timing}[args.check](args)


if __name__ == "__main__":
    main()
