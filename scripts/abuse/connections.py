#!/usr/bin/env python3
"""One address opens many half-sent requests; another address asks for /healthz meanwhile.

    python3 scripts/abuse/connections.py --url http://127.0.0.1:PORT [--count 2000]

Prints how many of the flood's connections the server kept open, how many it answered 429
(`too_many_connections`) at once, and whether (and how fast) a client at another address was
served while the flood held its connections. Bounded: --count connections, a few seconds.
Run against a server on 127.0.0.1 (the second address is 127.0.0.2, which reaches it too).
"""
import argparse
import socket
import statistics
import time
import urllib.parse


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--url", required=True)
    ap.add_argument("--count", type=int, default=2000)
    args = ap.parse_args()
    u = urllib.parse.urlparse(args.url)
    target = (u.hostname, u.port)
    held, refused, failed = [], 0, 0
    for _ in range(args.count):
        s = socket.socket()
        s.settimeout(5)
        try:
            s.bind(("127.0.0.1", 0))
            s.connect(target)
            s.sendall(b"GET /healthz HTTP/1.1\r\nHo")
            held.append(s)
        except OSError:
            failed += 1
            s.close()
    # What the server did with each: an immediate 429 arrives within moments; a kept one
    # stays silent (until the header timeout).
    time.sleep(1.0)
    kept = []
    for s in held:
        s.setblocking(False)
        try:
            data = s.recv(4096)
            if b"429" in data.split(b"\r\n", 1)[0]:
                refused += 1
            s.close()
        except BlockingIOError:
            kept.append(s)
        except OSError:
            s.close()
    # Another address, while the flood's connections are held.
    times, statuses = [], []
    for _ in range(20):
        c = socket.socket()
        c.settimeout(10)
        c.bind(("127.0.0.2", 0))
        start = time.perf_counter()
        try:
            c.connect(target)
            c.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            answer = b""
            while True:
                chunk = c.recv(4096)
                if not chunk:
                    break
                answer += chunk
            statuses.append(answer.split(b" ", 2)[1].decode() if answer else "closed")
            times.append((time.perf_counter() - start) * 1000)
        except OSError as e:
            statuses.append(type(e).__name__)
        finally:
            c.close()
    print(f"flood from 127.0.0.1: {args.count} half-sent requests, {len(kept)} kept open, "
          f"{refused} answered 429 at once, {failed} not connected")
    ok = statuses.count("200")
    median = f"{statistics.median(times):.1f} ms" if times else "-"
    print(f"127.0.0.2 meanwhile: {ok}/{len(statuses)} answered 200, median {median}")
    for s in kept:
        s.close()


if __name__ == "__main__":
    main()
