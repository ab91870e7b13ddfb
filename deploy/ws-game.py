#!/usr/bin/env python3
"""Plays a two-player game through the public address, REST and WebSocket, as two players.

    python3 deploy/ws-game.py https://parchis.example.org [--cacert FILE] [--moves N]
        [--resolve HOST:PORT:ADDRESS] [--tokens-file FILE]

--resolve connects to ADDRESS for HOST (as curl's option, any port: a test name without DNS);
--tokens-file appends the two players' tokens to FILE, one a line (for a check that they are in no log).

Used by deploy/check-proxy.sh; needs the `websockets` package (pip install websockets, in a venv).
Registers Ana and Bea (POST /api/players), Ana creates a public two-player room (POST /api/rooms), Bea
joins it (POST /api/rooms/{id}/join), Ana starts it, then both play over wss://.../api/rooms/{id}/ws
until N moves are made (or the game ends): each rolls and plays the first legal move on their turn,
the state kept from the snapshot by applying every update's JSON Patch, versions checked. Prints one
line per step; exits 1 on the first thing that goes wrong.
"""

import argparse
import asyncio
import json
import socket
import ssl
import sys
import urllib.request

import websockets


def rest(base, method, path, body=None, token=None, ctx=None):
    req = urllib.request.Request(base + path, method=method)
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(req, data=data, context=ctx, timeout=10) as resp:
            return resp.status, json.loads(resp.read() or b"null")
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read() or b"null")


def pointer(path):
    return [p.replace("~1", "/").replace("~0", "~") for p in path.split("/")[1:]]


def apply_patch(doc, patch):
    for op in patch:
        parts = pointer(op["path"])
        if not parts:
            doc = op["value"]
            continue
        parent = doc
        for p in parts[:-1]:
            parent = parent[int(p)] if isinstance(parent, list) else parent[p]
        last = parts[-1]
        kind = op["op"]
        if isinstance(parent, list):
            if kind == "add":
                parent.insert(len(parent) if last == "-" else int(last), op["value"])
            elif kind == "replace":
                parent[int(last)] = op["value"]
            elif kind == "remove":
                del parent[int(last)]
            else:
                raise ValueError(f"op {kind}")
        else:
            if kind in ("add", "replace"):
                parent[last] = op["value"]
            elif kind == "remove":
                del parent[last]
            else:
                raise ValueError(f"op {kind}")
    return doc


class Retry(Exception):
    """An error the server documents as worth sending the command again for (one of `Seat.retry`)."""


class Seat:
    def __init__(self, name, ws):
        self.name, self.ws = name, ws
        self.state, self.version, self.seat, self.next_id = None, None, None, 1
        # Error codes raised as `Retry` instead of ending the run (none unless a caller expects them).
        self.retry = ()
        # The room's life the version counts in: a new owner (a restart, a cluster takeover) starts
        # versions again under a new epoch, so versions compare only within one epoch.
        self.epoch = None

    async def read(self):
        msg = json.loads(await asyncio.wait_for(self.ws.recv(), 20))
        kind = msg["type"]
        if kind == "snapshot":
            self.state, self.version, self.epoch = msg["state"], msg["version"], msg.get("epoch")
        elif kind == "update":
            if msg["version"] != self.version + 1:
                raise SystemExit(f"{self.name}: update {msg['version']} after {self.version}")
            self.state = apply_patch(self.state, msg["patch"])
            self.version = msg["version"]
        elif kind == "hello":
            self.seat = msg["seat"]
        elif kind == "error":
            if msg.get("code") in self.retry:
                raise Retry(f"{self.name}: {msg.get('code')} ({msg.get('reason')})")
            raise SystemExit(f"{self.name}: error {msg}")
        return msg

    def behind(self, other):
        """True while this connection has not seen every change `other` has: an older epoch than
        other's, or an older version in the same one."""
        return self.epoch != other.epoch or self.version < other.version

    async def until(self, kind):
        while True:
            msg = await self.read()
            if msg["type"] == kind:
                return msg

    async def command(self, cmd):
        cmd["id"] = self.next_id
        self.next_id += 1
        await self.ws.send(json.dumps(cmd))
        while True:
            msg = await self.read()
            if msg["type"] == "ack" and msg["id"] == cmd["id"]:
                return msg


async def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("base")
    ap.add_argument("--cacert")
    ap.add_argument("--moves", type=int, default=12)
    ap.add_argument("--resolve", help="HOST:PORT:ADDRESS, as curl's --resolve")
    ap.add_argument("--tokens-file")
    args = ap.parse_args()
    if args.resolve:
        resolve_name, _port, resolve_address = args.resolve.split(":", 2)
        real_getaddrinfo = socket.getaddrinfo

        def getaddrinfo(host, service, *rest, **kw):
            if (host.decode() if isinstance(host, bytes) else host) == resolve_name:
                host = resolve_address
            return real_getaddrinfo(host, service, *rest, **kw)

        socket.getaddrinfo = getaddrinfo
    base = args.base.rstrip("/")
    ctx = ssl.create_default_context(cafile=args.cacert) if base.startswith("https") else None

    def ok(what, status, body, want):
        if status != want:
            raise SystemExit(f"{what}: {status} {body}")
        print(f"ok {what}: {status}")

    status, ana = rest(base, "POST", "/api/players", {"display_name": "Ana"}, ctx=ctx)
    ok("POST /api/players (Ana)", status, ana, 201)
    status, bea = rest(base, "POST", "/api/players", {"display_name": "Bea"}, ctx=ctx)
    ok("POST /api/players (Bea)", status, bea, 201)
    if args.tokens_file:
        with open(args.tokens_file, "a") as f:
            f.write(ana["token"] + "\n" + bea["token"] + "\n")
    settings = {"rules": "playgridia", "mode": "quick", "players": 2, "turn_time_secs": None,
                "public": True}
    status, room = rest(base, "POST", "/api/rooms", settings, ana["token"], ctx)
    ok("POST /api/rooms", status, room, 201)
    rid = room["id"]
    status, body = rest(base, "POST", f"/api/rooms/{rid}/join", {}, bea["token"], ctx)
    ok("POST /api/rooms/{id}/join", status, body, 200)
    status, body = rest(base, "POST", f"/api/rooms/{rid}/start", {}, ana["token"], ctx)
    ok("POST /api/rooms/{id}/start", status, body, 200)

    ws_base = "wss" + base[5:] if base.startswith("https") else "ws" + base[4:]
    seats = []
    for name, player in (("Ana", ana), ("Bea", bea)):
        # The token as the web client sends it: an offered subprotocol, never in the URL.
        ws = await websockets.connect(f"{ws_base}/api/rooms/{rid}/ws",
                                      subprotocols=["parchis", "parchis.token." + player["token"]],
                                      ssl=ctx, open_timeout=10)
        seat = Seat(name, ws)
        await seat.until("snapshot")
        await seat.until("hello")
        print(f"ok {name}: WebSocket snapshot version {seat.version}, seat {seat.seat}")
        seats.append(seat)

    moves = 0
    while moves < args.moves:
        game = seats[0].state["game"]
        turn = game["view"]["turn"]
        if turn["phase"] == "over":
            print("ok game over")
            break
        actor = next(s for s in seats if s.seat == turn["seat"])
        if turn["phase"] == "roll":
            await actor.command({"type": "roll"})
        elif actor.state["game"]["view"]["legal_moves"]:
            move = actor.state["game"]["view"]["legal_moves"][0]["text"]
            await actor.command({"type": "move", "move": move, "version": actor.version})
            moves += 1
            print(f"ok {actor.name} played {move} (version {actor.version})")
        else:
            await actor.command({"type": "resync"})
        # The other seat reads up to the same version.
        for s in seats:
            while s.version < actor.version:
                await s.read()
    if seats[0].state != seats[1].state:
        raise SystemExit("the two players' states differ")
    print(f"ok {moves} moves, both players at version {seats[0].version} with the same state")
    for s in seats:
        await s.ws.close()


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except SystemExit as err:
        if err.code not in (None, 0):
            print(f"FAILED {err.code}", file=sys.stderr)
            sys.exit(1)
