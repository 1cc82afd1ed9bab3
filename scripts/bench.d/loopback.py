"""What the HTTP drivers of scripts/bench share (serve_load.py, serve_fairness.py): progress on
standard error, size labels, and a free loopback port."""

import socket
import sys


def log(message):
    print(message, file=sys.stderr, flush=True)


def label(n):
    """`10k`, `1M`: a size as the tables print it."""
    return f"{n // 1_000_000}M" if n >= 1_000_000 else f"{n // 1000}k"


def free_port():
    """A loopback port nothing listens on now (servers under test listen on 127.0.0.1 only)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
