#!/usr/bin/env python3
"""The games docker/check-compose.sh plays against the compose stacks, over REST and WebSockets.

    compose-game.py play BASE FILE      Ana, alone against a bot, plays a whole game; what the check
                                        needs later (token, room, game, rolls, result) goes to FILE
    compose-game.py stored BASE FILE    the game of FILE is stored: its room is finished and its record
                                        holds the same rolls and result
    compose-game.py cluster BASE --node NAME=METRICS_URL (3 times) --kill COMMAND
                                        Ana and Bea play through BASE (nginx) on two different nodes
                                        (each node's /metrics says where the sockets are); after a few
                                        moves COMMAND NODE kills Bea's node; both reconnect through BASE
                                        and the game goes on

Helpers (REST, the JSON Patch, a seat's socket) are deploy/ws-game.py's. Needs the `websockets` package
(Debian's python3-websockets). Prints one line a step; exits 1 on the first thing that goes wrong.
"""

import argparse
import asyncio
import importlib.util
import json
import os
import re
import subprocess
import sys
import time
import urllib.request

import websockets

_spec = importlib.util.spec_from_file_location(
    "ws_game", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "deploy", "ws-game.py"))
ws_game = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ws_game)
rest, Seat = ws_game.rest, ws_game.Seat


def expect(what, status, body, want):
    if status != want:
        raise SystemExit(f"{what}: {status} {body}")
    print(f"ok {what}: {status}")


def ws_url(base, rid):
    return ("wss" + base[5:] if base.startswith("https") else "ws" + base[4:]) + f"/api/rooms/{rid}/ws"


async def connect(base, rid, name, token):
    ws = await websockets.connect(ws_url(base, rid), subprotocols=["parchis", "parchis.token." + token],
                                  open_timeout=10)
    seat = Seat(name, ws)
    # A command its room's node died before answering is answered so (`maybe_stored`): the room runs
    # again on another node, the socket gets its new snapshot, and the command is sent again if still due.
    seat.retry = ("storage_unavailable",)
    await seat.until("snapshot")
    await seat.until("hello")
    return seat


def turn_of(seat):
    """(seat to act, phase, legal moves) of the state this connection holds."""
    view = seat.state["game"]["view"]
    return view["turn"]["seat"], view["turn"]["phase"], view["legal_moves"]


def over(seat):
    return seat.state["room"]["status"] == "finished" or turn_of(seat)[1] == "over"


async def act(seat):
    """This seat's roll or move if it is its turn with something to do, else the next message; True if
    it made a move."""
    to_act, phase, legal = turn_of(seat)
    if to_act == seat.seat and (phase == "roll" or legal):
        await asyncio.sleep(0.07)  # under the server's 20 commands a second per socket
    if to_act == seat.seat and phase == "roll":
        await seat.command({"type": "roll"})
    elif to_act == seat.seat and legal:
        await seat.command({"type": "move", "move": legal[0]["text"], "version": seat.version})
        return True
    else:
        await seat.read()
    return False


async def play(base, path):
    status, ana = rest(base, "POST", "/api/players", {"display_name": "Ana"})
    expect("POST /api/players", status, ana, 201)
    settings = {"rules": "playgridia", "mode": "quick", "players": 2, "bots": [None, "random"],
                "turn_time_secs": None, "public": False, "bot_pace": "fast"}
    status, room = rest(base, "POST", "/api/rooms", settings, ana["token"])
    expect("POST /api/rooms (Ana against a random bot)", status, room, 201)
    rid = room["id"]
    status, body = rest(base, "POST", f"/api/rooms/{rid}/start", {}, ana["token"])
    expect("POST /api/rooms/{id}/start", status, body, 200)
    seat = await connect(base, rid, "Ana", ana["token"])
    print(f"ok WebSocket: snapshot version {seat.version}, seat {seat.seat}")
    moves, deadline = 0, time.monotonic() + 300
    while not over(seat):
        if time.monotonic() > deadline:
            raise SystemExit(f"no end after 300 s ({moves} moves by Ana, version {seat.version})")
        moves += await act(seat)
    game = seat.state["game"]
    result = game["result"]
    while result is None:  # the end, then its stored result in a later update
        await seat.read()
        game = seat.state["game"]
        result = game["result"]
    print(f"ok game over: {moves} moves by Ana, {game['rolls']} rolls, winner side {result['winner_side']},"
          f" version {seat.version}")
    await seat.ws.close()
    with open(path, "w") as f:
        json.dump({"token": ana["token"], "room": rid, "game": game["id"], "rolls": game["rolls"],
                   "result": result}, f)


def stored(base, path):
    with open(path) as f:
        played = json.load(f)
    status, room = rest(base, "GET", f"/api/rooms/{played['room']}", token=played["token"])
    expect("GET /api/rooms/{id}", status, room, 200)
    if room["status"] != "finished" or room["game_id"] != played["game"]:
        raise SystemExit(f"the room is {room['status']} with game {room['game_id']}, not finished with"
                         f" {played['game']}")
    print("ok the room is finished, with its game")
    status, record = rest(base, "GET", f"/api/games/{played['game']}/record")
    expect("GET /api/games/{id}/record", status, record, 200)
    rolls = sum(1 for e in record["log"] if e["kind"] == "roll")
    if rolls != played["rolls"] or record["result"]["winner_side"] != played["result"]["winner_side"]:
        raise SystemExit(f"the record has {rolls} rolls and result {record['result']}, the game had"
                         f" {played['rolls']} and {played['result']}")
    print(f"ok the record: {len(record['log'])} entries, {rolls} rolls and the result as played")


def gauge(nodes, name):
    """Each node's value of the gauge `name` on its /metrics (0 when absent)."""
    values = {}
    for node, url in nodes.items():
        with urllib.request.urlopen(url, timeout=5) as resp:
            text = resp.read().decode()
        found = re.search(rf"^{name} (\d+)", text, re.M)
        values[node] = int(found.group(1)) if found else 0
    return values


async def cluster(base, nodes, kill):
    players = {}
    for name in ("Ana", "Bea"):
        status, players[name] = rest(base, "POST", "/api/players", {"display_name": name})
        expect(f"POST /api/players ({name}) through nginx", status, players[name], 201)
    settings = {"rules": "playgridia", "mode": "quick", "players": 2, "turn_time_secs": None,
                "public": True}
    status, room = rest(base, "POST", "/api/rooms", settings, players["Ana"]["token"])
    expect("POST /api/rooms", status, room, 201)
    rid = room["id"]
    status, body = rest(base, "POST", f"/api/rooms/{rid}/join", {}, players["Bea"]["token"])
    expect("POST /api/rooms/{id}/join (Bea)", status, body, 200)
    status, body = rest(base, "POST", f"/api/rooms/{rid}/start", {}, players["Ana"]["token"])
    expect("POST /api/rooms/{id}/start", status, body, 200)

    # The room's owner (its task runs there) and, for each socket, the node nginx gave it: the one
    # whose count of sockets grew (the owner counts a socket relayed to it too: then the other one).
    owned = gauge(nodes, "parchis_cluster_rooms_owned")
    owners = [n for n in nodes if owned[n] > 0]
    if len(owners) != 1:
        raise SystemExit(f"rooms owned per node: {owned}, want one owner")
    print(f"ok the room runs on {owners[0]}")
    seats, node_of, before = {}, {}, gauge(nodes, "parchis_ws_connections")
    for name in ("Ana", "Bea"):
        seats[name] = await connect(base, rid, name, players[name]["token"])
        after = gauge(nodes, "parchis_ws_connections")
        grew = [n for n in nodes if after[n] > before[n]]
        if len(grew) == 2 and owners[0] in grew:
            grew.remove(owners[0])
        if len(grew) != 1:
            raise SystemExit(f"{name}'s socket: sockets per node went from {before} to {after}")
        node_of[name], before = grew[0], after
        print(f"ok {name}: WebSocket through nginx, on {node_of[name]}")
    if node_of["Ana"] == node_of["Bea"]:
        raise SystemExit(f"both players are on {node_of['Ana']}: nginx did not spread them")
    print("ok the two players are on different nodes")

    async def reconnect(name):
        for _ in range(60):
            try:
                seats[name] = await connect(base, rid, name, players[name]["token"])
                print(f"ok {name} reconnected through nginx: snapshot version {seats[name].version}")
                return
            except (OSError, asyncio.TimeoutError, websockets.exceptions.WebSocketException):
                await asyncio.sleep(0.5)
        raise SystemExit(f"{name} could not reconnect in 30 s")

    last = {"name": "Ana"}  # who acted last: that connection has seen the latest change

    async def play_moves(count, deadline_secs):
        moves, deadline = 0, time.monotonic() + deadline_secs
        while moves < count and not over(seats["Ana"]):
            if time.monotonic() > deadline:
                raise SystemExit(f"only {moves} of {count} moves in {deadline_secs} s")
            to_act = turn_of(seats["Ana"])[0]
            actor = next(s for s in seats.values() if s.seat == to_act)
            try:
                moves += await act(actor)
                last["name"] = actor.name
                for s in seats.values():  # the other seat reads up to the same epoch and version
                    while s is not actor and s.behind(actor):
                        await s.read()
            except ws_game.Retry as err:
                print(f"-- {err}: the room's node died before answering; acting again on its new snapshot")
                try:
                    await actor.until("snapshot")
                except (asyncio.TimeoutError, websockets.exceptions.ConnectionClosed):
                    await reconnect(actor.name)
            except (asyncio.TimeoutError, websockets.exceptions.ConnectionClosed) as err:
                # The closed sockets (or, after a silence, both: either may hold the stale view)
                # connect again.
                lost = [n for n, s in seats.items() if s.ws.closed] or list(seats)
                print(f"-- {' and '.join(lost)}: {type(err).__name__}; reconnecting")
                for n in lost:
                    await reconnect(n)
        return moves

    moves = await play_moves(6, 60)
    print(f"ok {moves} moves, version {seats['Ana'].version}")
    victim = node_of["Bea"]
    subprocess.run(kill + [victim], check=True, stdout=subprocess.DEVNULL)
    print(f"ok killed {victim} (Bea's node) mid-game")
    moves = await play_moves(10, 120)
    if moves < 10 and not over(seats["Ana"]):
        raise SystemExit(f"the game stopped after {moves} moves")
    latest = seats[last["name"]]
    for s in seats.values():
        while s is not latest and s.behind(latest):
            await s.read()
    if seats["Ana"].state != seats["Bea"].state:
        raise SystemExit("Ana's and Bea's states differ")
    print(f"ok the game went on: {moves} moves after the kill, both at version {seats['Ana'].version}"
          " with the same state")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=["play", "stored", "cluster"])
    ap.add_argument("base")
    ap.add_argument("file", nargs="?")
    ap.add_argument("--node", action="append", default=[], help="NAME=METRICS_URL")
    ap.add_argument("--kill", help="the command that kills a node, given its name last")
    args = ap.parse_args()
    base = args.base.rstrip("/")
    if args.what == "play":
        asyncio.run(play(base, args.file))
    elif args.what == "stored":
        stored(base, args.file)
    else:
        nodes = dict(n.split("=", 1) for n in args.node)
        asyncio.run(cluster(base, nodes, args.kill.split()))


if __name__ == "__main__":
    try:
        main()
    except SystemExit as err:
        if err.code not in (None, 0):
            print(f"FAILED {err.code}", file=sys.stderr)
            sys.exit(1)
