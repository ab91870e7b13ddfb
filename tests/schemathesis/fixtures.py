"""Makes the real ids and tokens schemathesis needs so that the document's paths resolve, on a running
server (its base URL the first argument), and prints them as shell assignments for run.sh: a player with
an account and a second device, a waiting private room, a game being played, a throwaway device and
player for the routes that sign out or erase. Standard library only."""

import json
import sys
import urllib.request

BASE = sys.argv[1]


def call(method, path, body=None, token=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(BASE + path, data=data, method=method)
    if body is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", "Bearer " + token)
    with urllib.request.urlopen(request, timeout=10) as response:
        text = response.read()
        return json.loads(text) if text else None


def player(name):
    created = call("POST", "/api/players", {"display_name": name})
    return created["id"], created["token"]


owner_id, owner_token = player("Ana")
username, password = "ana_fuzz", "correct horse battery"
call("POST", "/api/account", {"username": username, "password": password}, owner_token)
# Two more devices of the same account: one the fuzzer may sign out by id, one it may sign out as itself.
call("POST", "/api/sessions", {"username": username, "password": password})
throwaway_token = call("POST", "/api/sessions", {"username": username, "password": password})["token"]
# A private room waiting for players, and a game being played against bots.
room = call("POST", "/api/rooms", {"rules": "playgridia", "mode": "individual", "players": 4}, owner_token)
playing = call(
    "POST",
    "/api/rooms",
    {"rules": "playgridia", "mode": "individual", "players": 2, "bots": [None, "random"]},
    owner_token,
)
game_id = call("POST", f"/api/rooms/{playing['id']}/start", token=owner_token)["game_id"]
# A player the admin route may erase.
victim_id, _ = player("Victim")

values = {
    "OWNER_TOKEN": owner_token,
    "USERNAME": username,
    "THROWAWAY_TOKEN": throwaway_token,
    "ROOM_ID": room["id"],
    "JOIN_CODE": room["join_code"],
    "GAME_ID": game_id,
    "VICTIM_ID": victim_id,
}
devices = call("GET", "/api/sessions", token=owner_token)["devices"]
# The device the fuzzer may sign out by id is the second one, not the owner's own.
values["DEVICE_ID"] = next(d["id"] for d in devices if not d.get("current"))
for name, value in values.items():
    print(f"export PARCHIS_{name}='{value}'")
