#!/usr/bin/env python3
"""What WebSocket compression costs a server in resident memory, and how many sessions get it.

Opens SESSIONS WebSocket sessions to a running server's echo route, one after another, each offering
permessage-deflate; each sends one 44 KB text message (compressed when compression was agreed, plain
otherwise), waits for its echo and stays open. Prints how many sessions got compression and the
server's resident memory (VmRSS of --pid) before and after. Run it against the example app with a
fixed, pre-touched heap, so that what grows is native memory:

  BRISK_JAVA_OPTS="-Xms300m -Xmx300m -XX:+AlwaysPreTouch" BRISK_PORT=18700 ./brisk example &
  python3 bench/ws-compression-memory.py --port 18700 --pid <the example's pid> --sessions 4000
  python3 bench/ws-compression-memory.py --port 18700 --pid <pid> --sessions 4000 --plain   # a fresh server

Only 127.0.0.1; every socket has a 10 s timeout; at most 20,000 sessions (mind `ulimit -n`).
"""
import argparse
import base64
import os
import socket
import struct
import sys
import time
import zlib


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS"):
                return int(line.split()[1]) // 1024
    raise SystemExit(f"no VmRSS for pid {pid}")


def frame(payload, compressed):
    mask = os.urandom(4)
    body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    first = 0xC1 if compressed else 0x81  # FIN, RSV1 when compressed, text
    n = len(body)
    if n < 126:
        head = bytes([first, 0x80 | n])
    elif n < 65536:
        head = bytes([first, 0x80 | 126]) + struct.pack(">H", n)
    else:
        head = bytes([first, 0x80 | 127]) + struct.pack(">Q", n)
    return head + mask + body


def read_frame(s):
    def exactly(n):
        b = b""
        while len(b) < n:
            chunk = s.recv(n - len(b))
            if not chunk:
                raise ConnectionError("closed by the server")
            b += chunk
        return b
    b0, b1 = exactly(2)
    n = b1 & 0x7F
    if n == 126:
        n = struct.unpack(">H", exactly(2))[0]
    elif n == 127:
        n = struct.unpack(">Q", exactly(8))[0]
    return b0, exactly(n)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--pid", type=int, required=True, help="the server's process id (for VmRSS)")
    p.add_argument("--sessions", type=int, default=2000)
    p.add_argument("--path", default="/ws/echo")
    p.add_argument("--plain", action="store_true", help="offer no compression")
    a = p.parse_args()
    if not 1 <= a.sessions <= 20000:
        p.error("--sessions must be 1..20000")

    payload = b"hello compressed world " * 2000  # 44 KB: the decompressor's whole 32 KiB window is used
    deflater = zlib.compressobj(6, zlib.DEFLATED, -15)
    compressed = deflater.compress(payload) + deflater.flush(zlib.Z_SYNC_FLUSH)
    compressed = compressed[:-4]  # permessage-deflate drops the flush's 00 00 FF FF
    offer = "" if a.plain else "Sec-WebSocket-Extensions: permessage-deflate\r\n"

    before = rss_mb(a.pid)
    sockets, agreed, refused = [], 0, 0
    started = time.monotonic()
    for _ in range(a.sessions):
        s = socket.create_connection(("127.0.0.1", a.port), timeout=10)
        key = base64.b64encode(os.urandom(16)).decode()
        s.sendall((f"GET {a.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                   f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n{offer}\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = s.recv(4096)
            if not chunk:
                raise SystemExit("the server closed a handshake")
            head += chunk
        if not head.startswith(b"HTTP/1.1 101"):
            raise SystemExit("handshake refused: " + head.split(b"\r\n")[0].decode())
        deflate = b"permessage-deflate" in head.lower()
        agreed += deflate
        s.sendall(frame(compressed if deflate else payload, deflate))
        opcode, _ = read_frame(s)
        if opcode & 0x0F == 8:
            refused += 1  # a close frame: the server could not take the message
        sockets.append(s)
    time.sleep(1)
    after = rss_mb(a.pid)
    print(f"sessions {a.sessions}, compression agreed {agreed}, closed by the server {refused}, "
          f"resident memory {before} -> {after} MB (+{after - before}), {time.monotonic() - started:.1f} s")
    for s in sockets:
        s.close()


if __name__ == "__main__":
    sys.exit(main())
