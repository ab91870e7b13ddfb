//! Seeded fuzz of the server's WebSocket: a few hundred random frames over the WebSocket of a live game
//! (commands of every type with their fields mutated, garbage, binary frames, valid actions in between, from
//! both seated players, the wrong seat, a spectator and a player not seated there), and random upgrades of a
//! room's WebSocket (query parameters and subprotocol offers). The REST fuzz is in `fuzz_rest.rs`, the
//! generators both use in `common/fuzzing.rs`. The seeds are fixed, so a failure reproduces: each frame or
//! upgrade is printed before it is sent (the test harness shows the output of a failing test), and every
//! assertion names the seed and the frame; `FUZZ_SEED=<decimal or 0x-hex>` replaces the seeds to explore
//! other sequences (see `seed()`).
mod common;

use common::databases::sqlite_and_postgres;
use common::fuzzing::{garbage, lit, random_move_text, random_string, random_value, render, seed};
use common::ws::WsClient;
use common::{TestServer, game};
use parchis_server::AppError;
use parchis_server::rooms::protocol::ErrorCode;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use serde_json::{Value, json};

/// The seed of the WebSocket fuzz (`FUZZ_SEED`, decimal or 0x-hex, replaces it for exploring: see `seed()`).
const WS_SEED: u64 = 0x5EED_0001;
/// Frames sent in it.
const WS_FRAMES: usize = 400;
/// Largest frame sent to a seated player's connection (the server closes on one over 4096 bytes).
const FRAME_LIMIT: usize = 4096;

/// Who sends a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Who {
    /// A seated player (index into the two seated connections).
    Seated(usize),
    /// The anonymous spectator.
    Spectator,
    /// A player with a valid token who is not seated in the room (a spectator too).
    Outsider,
}

/// What the client itself makes of a frame, as PROTOCOL.md §3 says the server must.
#[derive(Debug, PartialEq, Eq)]
enum Parsed {
    /// `malformed` is the answer, with this `id`.
    Malformed(Value),
    /// `unknown_type` is the answer, with this `id`.
    Unknown(Value),
    /// A command of this type, with this `id`; `long_text` when its move text is over 64 bytes.
    Command {
        kind: String,
        id: Value,
        long_text: bool,
    },
}

/// Parses a frame as the protocol says a server must.
fn parse(text: &str) -> Parsed {
    let Ok(Value::Object(map)) = serde_json::from_str::<Value>(text) else {
        return Parsed::Malformed(Value::Null);
    };
    let id = match map.get("id") {
        Some(v @ (Value::String(_) | Value::Number(_))) => v.clone(),
        _ => Value::Null,
    };
    let Some(kind) = map.get("type").and_then(Value::as_str) else {
        return Parsed::Malformed(id);
    };
    let ok = match kind {
        "roll" => match map.get("version") {
            None | Some(Value::Null) => true,
            Some(v) => v.as_u64().is_some(),
        },
        "resync" | "leave" => true,
        "move" => {
            map.get("move").is_some_and(Value::is_string)
                && map.get("version").and_then(Value::as_u64).is_some()
        }
        "chat" => map.get("text").is_some_and(Value::is_string),
        "preselect" => matches!(
            map.get("move"),
            None | Some(Value::Null) | Some(Value::String(_))
        ),
        _ => return Parsed::Unknown(id),
    };
    if !ok {
        return Parsed::Malformed(id);
    }
    let long_text = map
        .get("move")
        .and_then(Value::as_str)
        .is_some_and(|t| t.len() > 64);
    Parsed::Command {
        kind: kind.to_owned(),
        id,
        long_text,
    }
}

/// The part of the room state that only accepted rolls and moves change.
fn game_part(state: &Value) -> Value {
    let game = &state["game"];
    json!([game["view"], game["rolls"], game["last_roll"]])
}

/// Whether an update changes the game (not presence, the spectators' count or the stored result).
fn changes_game(update: &Value) -> bool {
    let events = update["events"].as_array().is_some_and(|e| !e.is_empty());
    let paths = update["patch"].as_array().into_iter().flatten().any(|op| {
        let path = op["path"].as_str().unwrap_or("");
        path == "/game"
            || path.starts_with("/game/view")
            || path.starts_with("/game/rolls")
            || path.starts_with("/game/last_roll")
    });
    events || paths
}

/// The fuzzed room: the two seated connections, the spectator and the outsider.
struct Fuzz {
    server: TestServer,
    room: String,
    outsider_token: String,
    seated: [WsClient; 2],
    spectator: WsClient,
    outsider: WsClient,
    /// The game part of the state after the latest accepted action.
    game_ref: Value,
    /// Versions of the updates that accepted rolls and moves made.
    game_versions: std::collections::BTreeSet<u64>,
    /// Codes the fuzz heard, with how often (printed at the end).
    heard: std::collections::BTreeMap<String, usize>,
    /// The latest room version any connection has seen (at least that of the latest game change).
    latest: u64,
    /// The seed of the run.
    seed: u64,
}

impl Fuzz {
    fn client(&mut self, who: Who) -> &mut WsClient {
        match who {
            Who::Seated(i) => &mut self.seated[i],
            Who::Spectator => &mut self.spectator,
            Who::Outsider => &mut self.outsider,
        }
    }

    /// The seated connection whose turn it is (by the reference state), if the game runs.
    fn on_turn(&self) -> Option<usize> {
        let view = &self.game_ref[0];
        if view["turn"]["phase"] == "over" {
            return None;
        }
        let seat = view["turn"]["seat"].as_u64()?;
        (0..2).find(|&i| self.seated[i].seat == Some(seat))
    }

    /// A valid action of the seat to act: its roll, or one of its legal moves, at the current version.
    fn valid_action(&self, rng: &mut StdRng) -> Option<(Who, Value)> {
        let i = self.on_turn()?;
        let version = self.latest;
        let view = &self.game_ref[0];
        let command = if view["turn"]["phase"] == "roll" {
            json!({ "type": "roll", "version": version })
        } else {
            let moves = view["legal_moves"].as_array()?;
            let text = &moves[rng.random_range(0..moves.len())]["text"];
            json!({ "type": "move", "move": text, "version": version })
        };
        Some((Who::Seated(i), command))
    }

    /// Sends one frame from `who` and checks its answer; `binary` sends it as a binary frame.
    async fn send(&mut self, n: usize, who: Who, text: &str, binary: bool) -> Value {
        let ws_seed = self.seed;
        let ctx = format!(
            "seed {ws_seed:#x}, frame #{n} from {who:?}{}: {text}",
            if binary { " (binary)" } else { "" }
        );
        println!(
            "#{n} {who:?}{}: {text}",
            if binary { " binary" } else { "" }
        );
        let parsed = if binary {
            Parsed::Malformed(Value::Null)
        } else {
            parse(text)
        };
        let before_version = self.client(who).version;
        let client = self.client(who);
        let sent = if binary {
            client.try_send_binary(text.as_bytes()).await
        } else {
            client.try_send_text(text).await
        };
        assert!(sent, "{ctx}: the connection was gone before the frame");

        // Read up to the answer: the first `ack` or `error` (one frame is in flight at a time).
        let mut game_updates = Vec::new();
        let reply = loop {
            match self.client(who).next_or_close().await {
                Ok(m) if m["type"] == "ack" || m["type"] == "error" => break m,
                Ok(m) if m["type"] == "update" => {
                    if changes_game(&m) {
                        game_updates.push(m["version"].as_u64().unwrap());
                    }
                }
                Ok(_) => {}
                Err(frame) => panic!("{ctx}: the server closed the connection: {frame:?}"),
            }
        };
        let code = reply["code"].as_str().unwrap_or("ack").to_owned();
        *self.heard.entry(code.clone()).or_default() += 1;

        // Every answer is documented: an ack, or an error with a listed code and a sentence.
        if reply["type"] == "error" {
            assert!(
                ErrorCode::ALL.iter().any(|c| c.as_str() == code),
                "{ctx}: undocumented code: {reply}"
            );
            assert!(
                reply["message"]
                    .as_str()
                    .is_some_and(|m| !m.trim().is_empty()),
                "{ctx}: an error without a sentence: {reply}"
            );
        }
        let seated = matches!(who, Who::Seated(_));
        match &parsed {
            Parsed::Malformed(id) => {
                assert_eq!(code, "malformed", "{ctx}: {reply}");
                assert_eq!(&reply["id"], id, "{ctx}: the id is echoed: {reply}");
            }
            Parsed::Unknown(id) => {
                assert_eq!(code, "unknown_type", "{ctx}: {reply}");
                assert_eq!(&reply["id"], id, "{ctx}: the id is echoed: {reply}");
            }
            Parsed::Command {
                kind,
                id,
                long_text,
            } => {
                assert_eq!(&reply["id"], id, "{ctx}: the id is echoed: {reply}");
                assert!(
                    code != "unknown_type" && (code != "malformed" || *long_text),
                    "{ctx}: a well-formed command refused as {code}: {reply}"
                );
                if !seated {
                    // Spectators only resync and leave; everything else is `not_seated`.
                    match kind.as_str() {
                        "resync" | "leave" => assert_eq!(code, "ack", "{ctx}: {reply}"),
                        _ => assert_eq!(code, "not_seated", "{ctx}: {reply}"),
                    }
                }
            }
        }

        // The game changes only by an accepted roll or move, and always by one.
        let acted = code == "ack"
            && matches!(&parsed, Parsed::Command { kind, .. } if kind == "roll" || kind == "move");
        let now = game_part(&self.client(who).state);
        if acted {
            assert!(seated, "{ctx}: a spectator acted");
            assert!(
                !game_updates.is_empty() && now != self.game_ref,
                "{ctx}: an accepted action that changed nothing: {reply}"
            );
            assert_eq!(
                reply["version"].as_u64(),
                Some(self.client(who).version),
                "{ctx}: the ack carries the version after the action"
            );
            self.game_versions.extend(game_updates);
            self.game_ref = now;
        } else {
            // Updates of earlier actions may arrive late on this connection: those are known ones.
            for v in &game_updates {
                assert!(
                    self.game_versions.contains(v),
                    "{ctx}: the game changed (version {v}) on a refused or private command: {reply}"
                );
            }
            assert_eq!(
                now, self.game_ref,
                "{ctx}: the game changed on a refused or private command: {reply}"
            );
        }
        assert!(self.client(who).version >= before_version, "{ctx}");
        self.latest = self.latest.max(self.client(who).version);

        // A spectator's leave is acked and closed with 1000 `left`: it comes back.
        if !seated && matches!(&parsed, Parsed::Command { kind, .. } if kind == "leave") {
            let frame = self.client(who).closed().await;
            let frame = frame.unwrap_or_else(|| panic!("{ctx}: closed without a reason"));
            assert_eq!(
                (u16::from(frame.code), frame.reason.as_str()),
                (1000, "left"),
                "{ctx}"
            );
            self.reconnect(who).await;
        }
        reply
    }

    /// Opens `who`'s connection again (a spectator after `leave` or an oversized frame).
    async fn reconnect(&mut self, who: Who) {
        let token = match who {
            Who::Outsider => Some(self.outsider_token.clone()),
            _ => None,
        };
        let client = WsClient::connect(&self.server, &self.room, token.as_deref()).await;
        assert_eq!(game_part(&client.state), self.game_ref, "a fresh snapshot");
        *self.client(who) = client;
    }
}

/// A command of a random type, for `who`, with random fields and then 0–3 mutations, as raw JSON text.
fn random_command(rng: &mut StdRng, fuzz: &Fuzz, who: Who) -> String {
    let version = fuzz.client_version(who);
    let kinds = ["roll", "move", "preselect", "resync", "chat", "leave"];
    // Seated players do not leave: that would hand their seat to a bot for good.
    let kind = loop {
        let k = kinds[rng.random_range(0..kinds.len())];
        if k != "leave" || !matches!(who, Who::Seated(_)) {
            break k;
        }
    };
    let version_value = |rng: &mut StdRng| match rng.random_range(0..5) {
        0 | 4 => version.to_string(),
        1 => version.saturating_sub(rng.random_range(1..5)).to_string(),
        2 => (version + rng.random_range(1..1000)).to_string(),
        _ => random_value(rng, 0),
    };
    let legal: Vec<String> = fuzz.game_ref[0]["legal_moves"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|m| m["text"].as_str().map(str::to_owned))
        .collect();
    let move_text = |rng: &mut StdRng| {
        if !legal.is_empty() && rng.random_bool(0.3) {
            lit(&legal[rng.random_range(0..legal.len())])
        } else {
            lit(&random_move_text(rng))
        }
    };
    let mut fields: Vec<(String, String)> = vec![("type".into(), lit(kind))];
    if rng.random_bool(0.8) {
        fields.push(("id".into(), rng.random_range(0..10_000u32).to_string()));
    }
    match kind {
        "roll" => fields.push(("version".into(), version_value(rng))),
        "move" => {
            fields.push(("move".into(), move_text(rng)));
            fields.push(("version".into(), version_value(rng)));
        }
        "preselect" => fields.push(("move".into(), move_text(rng))),
        "chat" => fields.push(("text".into(), lit(&random_string(rng)))),
        _ => {}
    }
    for _ in 0..rng.random_range(0..4) {
        let keys = [
            "type", "id", "move", "version", "text", "extra", "", "\u{0}",
        ];
        match rng.random_range(0..7) {
            // A field of the wrong type (or a right one).
            0 | 1 if !fields.is_empty() => {
                let i = rng.random_range(0..fields.len());
                fields[i].1 = random_value(rng, 0);
            }
            // A field missing.
            2 if !fields.is_empty() => {
                let i = rng.random_range(0..fields.len());
                fields.remove(i);
            }
            // A field added, or duplicated with another value.
            3 | 4 => {
                let key = keys[rng.random_range(0..keys.len())];
                fields.push((key.into(), random_value(rng, 0)));
            }
            // Another type.
            5 => {
                let kind = [
                    "ROLL",
                    "Roll",
                    "dance",
                    "",
                    "roll ",
                    "move\u{0}",
                    "ack",
                    "error",
                    "update",
                    "snapshot",
                ][rng.random_range(0..10)];
                fields.push(("type".into(), lit(kind)));
            }
            // The whole command nested in itself.
            _ => {
                let inner: Vec<String> = fields
                    .iter()
                    .map(|(k, v)| format!("{}:{v}", lit(k)))
                    .collect();
                let key = keys[rng.random_range(0..keys.len())];
                fields.push((key.into(), format!("{{{}}}", inner.join(","))));
            }
        }
    }
    // Never `leave` from a seat, whatever the mutations did (checked as the server reads it: the last key wins).
    let text = render(&fields);
    if matches!(who, Who::Seated(_))
        && matches!(parse(&text), Parsed::Command { ref kind, .. } if kind == "leave")
    {
        return r#"{"type":"resync","id":"was-leave"}"#.into();
    }
    text
}

impl Fuzz {
    fn client_version(&self, _who: Who) -> u64 {
        self.latest
    }
}

sqlite_and_postgres!(
    /// Two people play a two-seat game; a spectator and a player not seated watch. A few hundred seeded
    /// random frames go to the room from all four, valid actions among them, and every one is answered as
    /// documented, the game changes only by the accepted ones, no connection is closed but for a documented
    /// reason, and at the end the server answers and the game, played to its end, verifies. On PostgreSQL
    /// too, which refuses what SQLite stores (a NUL byte in text, say).
    random_frames_from_every_kind_of_client_are_answered_as_documented,
    ws_fuzz
);

/// The WebSocket fuzz on `server`, which it finishes.
async fn ws_fuzz(server: TestServer) {
    let started = std::time::Instant::now();
    let ws_seed = seed(WS_SEED);
    let ana = server.player("Ana").await;
    let bea = server.player("Bea").await;
    let eve = server.player("Eve").await;
    let (room, game_id) = game::two_started(
        &server,
        &ana,
        &bea,
        json!({ "rules": "playgridia", "mode": "quick", "players": 2, "turn_time_secs": null,
                "public": true }),
    )
    .await;
    let a = WsClient::connect(&server, &room, Some(&ana.token)).await;
    let b = WsClient::connect(&server, &room, Some(&bea.token)).await;
    let spectator = WsClient::connect(&server, &room, None).await;
    let outsider = WsClient::connect(&server, &room, Some(&eve.token)).await;
    assert!(a.seat.is_some() && b.seat.is_some() && outsider.seat.is_none());
    let game_ref = game_part(&a.state);
    let latest = [&a, &b, &spectator, &outsider]
        .iter()
        .map(|c| c.version)
        .max()
        .unwrap_or(0);
    let mut fuzz = Fuzz {
        server,
        room,
        outsider_token: eve.token.clone(),
        seated: [a, b],
        spectator,
        outsider,
        game_ref,
        game_versions: Default::default(),
        heard: Default::default(),
        latest,
        seed: ws_seed,
    };
    let mut rng = StdRng::seed_from_u64(ws_seed);
    let whos = [
        Who::Seated(0),
        Who::Seated(1),
        Who::Spectator,
        Who::Outsider,
    ];
    for n in 0..WS_FRAMES {
        let roll = rng.random_range(0..100);
        if roll < 25 {
            // A valid action of the seat to act (once the game is over, a resync).
            match fuzz.valid_action(&mut rng) {
                Some((who, command)) => {
                    let text = command.to_string();
                    let reply = fuzz.send(n, who, &text, false).await;
                    assert_eq!(
                        reply["type"], "ack",
                        "seed {ws_seed:#x}, frame #{n}: the valid {text} was refused: {reply}"
                    );
                }
                None => {
                    fuzz.send(n, Who::Spectator, r#"{"type":"resync"}"#, false)
                        .await;
                }
            }
            continue;
        }
        let who = whos[rng.random_range(0..whos.len())];
        if roll < 30 {
            // The seat not to act sends what would be valid for the other one: refused, nothing changes.
            if let Some((Who::Seated(i), command)) = fuzz.valid_action(&mut rng) {
                fuzz.send(n, Who::Seated(1 - i), &command.to_string(), false)
                    .await;
                continue;
            }
        }
        if roll < 34 {
            let text = garbage(&mut rng);
            if text.len() > FRAME_LIMIT {
                continue; // would close the connection (tested apart, below)
            }
            fuzz.send(n, who, &text, rng.random_bool(0.3)).await;
            continue;
        }
        if roll < 36 && !matches!(who, Who::Seated(_)) {
            // A frame over the size limit: closed with 1009 `too_big`, and the watcher comes back.
            let text = format!(r#"{{"type":"chat","text":"{}"}}"#, "x".repeat(FRAME_LIMIT));
            println!("#{n} {who:?}: an oversized frame");
            assert!(fuzz.client(who).try_send_text(&text).await);
            let frame = fuzz.client(who).closed().await;
            let frame = frame.unwrap_or_else(|| {
                panic!("seed {ws_seed:#x}, frame #{n}: an oversized frame closed without a reason")
            });
            assert_eq!(
                (u16::from(frame.code), frame.reason.as_str()),
                (1009, "too_big"),
                "seed {ws_seed:#x}, frame #{n}"
            );
            fuzz.reconnect(who).await;
            continue;
        }
        let mut text = random_command(&mut rng, &fuzz, who);
        if text.len() > FRAME_LIMIT {
            text = garbage(&mut rng);
        }
        if text.len() > FRAME_LIMIT {
            continue;
        }
        fuzz.send(n, who, &text, false).await;
    }
    println!(
        "seed {ws_seed:#x}: answers heard {:?} in {:?}",
        fuzz.heard,
        started.elapsed()
    );
    assert!(
        fuzz.heard.len() >= 8,
        "the fuzz reached few answers: {:?}",
        fuzz.heard
    );

    // Played to the end by valid actions only, the game is stored whole and verifies.
    let mut n = WS_FRAMES;
    while let Some((who, command)) = fuzz.valid_action(&mut rng) {
        let reply = fuzz.send(n, who, &command.to_string(), false).await;
        assert_eq!(
            reply["type"], "ack",
            "seed {ws_seed:#x}, frame #{n}: {reply}"
        );
        n += 1;
    }
    for client in &mut fuzz.seated {
        client.until_state(|s| !s["game"]["result"].is_null()).await;
    }
    let record = game::record(&fuzz.server, &game_id).await;
    let verified = parchis_proof::verify_record(&record)
        .unwrap_or_else(|e| panic!("seed {ws_seed:#x}: the record does not verify: {e}"));
    assert_eq!(
        game::view_json(&verified.game),
        fuzz.game_ref[0],
        "the record is the game that was played"
    );
    // The server still answers.
    let fresh = fuzz.server.player("Zoe").await;
    assert!(!fresh.token.is_empty());
    println!("took {:?}", started.elapsed());
    fuzz.server.finish().await;
}

/// The seed of the fuzz of WebSocket upgrades.
const UPGRADE_SEED: u64 = 0x5EED_0003;
/// Upgrades tried in it.
const UPGRADES: usize = 400;

/// A random query value, percent-encoded where needed.
fn query_value(rng: &mut StdRng, real: &str) -> String {
    let raw = match rng.random_range(0..6) {
        0 => real.to_owned(),
        1 => rng.random::<u64>().to_string(),
        2 => {
            ["-1", "0", "1.5", "18446744073709551616", "", "abc"][rng.random_range(0..6)].to_owned()
        }
        _ => random_string(rng).chars().take(60).collect(),
    };
    raw.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.') {
                char::from(b).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// Seeded random upgrades of a room's WebSocket: random `token`, `since` and `epoch` (real ones among
/// them), repeated or unknown parameters, random `Sec-WebSocket-Protocol` offers. Each either opens (and
/// starts, as documented, with a snapshot or the missed updates and then `hello`) or is refused with JSON
/// `{code, message}` of a listed code; never a 5xx but `503 room_busy`.
#[tokio::test]
async fn random_websocket_upgrades_open_or_get_a_listed_code() {
    let started = std::time::Instant::now();
    let upgrade_seed = seed(UPGRADE_SEED);
    let server = TestServer::sqlite().await;
    let ana = server.player("Ana").await;
    let bea = server.player("Bea").await;
    let (room, _game) = game::two_started(&server, &ana, &bea, common::quick_two()).await;
    let first = WsClient::connect(&server, &room, Some(&ana.token)).await;
    let (version, epoch) = (first.version.to_string(), first.epoch.clone());
    let mut rng = StdRng::seed_from_u64(upgrade_seed);
    let mut heard = std::collections::BTreeMap::<String, usize>::new();
    for n in 0..UPGRADES {
        let mut params = Vec::new();
        for _ in 0..rng.random_range(0..5) {
            let (key, real) = [
                ("token", ana.token.as_str()),
                ("token", bea.token.as_str()),
                ("since", version.as_str()),
                ("epoch", epoch.as_str()),
                ("x", ""),
            ][rng.random_range(0..5)];
            params.push(format!("{key}={}", query_value(&mut rng, real)));
        }
        let url = common::ws::ws_url(&server, &room, &params.join("&"));
        let mut offer = vec![
            "parchis".to_owned(),
            format!("parchis.token.{}", bea.token),
            format!("parchis.token.{}", random_string(&mut rng)),
            "other".to_owned(),
        ];
        offer.retain(|_| rng.random_bool(0.5));
        // Only what the client sends in a header: visible ASCII and spaces.
        let offer: Vec<u8> = offer
            .join([", ", ",", " ,,"][rng.random_range(0..3)])
            .into_bytes()
            .into_iter()
            .filter(|&b| b == b' ' || (0x21..0x7F).contains(&b))
            .collect();
        let ctx = format!(
            "seed {upgrade_seed:#x}, upgrade #{n}: {url} offering {:?}",
            String::from_utf8_lossy(&offer)
        );
        println!("{ctx}");
        let outcome = if offer.is_empty() {
            match tokio_tungstenite::connect_async(&url).await {
                Ok(_) => Ok(()),
                Err(tokio_tungstenite::tungstenite::Error::Http(response)) => Err((
                    response.status().as_u16(),
                    response
                        .body()
                        .as_deref()
                        .and_then(|b| serde_json::from_slice(b).ok())
                        .unwrap_or(Value::Null),
                )),
                Err(other) => panic!("{ctx}: {other}"),
            }
        } else {
            WsClient::connect_offering(&url, &offer)
                .await
                .map(|(client, protocol)| {
                    assert!(
                        protocol.is_none_or(|p| p == "parchis"),
                        "{ctx}: answered another subprotocol"
                    );
                    assert!(!client.state.is_null() || client.version > 0, "{ctx}");
                })
        };
        match outcome {
            Ok(()) => *heard.entry("open".into()).or_default() += 1,
            Err((status, body)) => {
                let code = body["code"].as_str().unwrap_or_default().to_owned();
                *heard.entry(code.clone()).or_default() += 1;
                assert!(
                    status < 500 || code == "room_busy",
                    "{ctx}: {status} {body}"
                );
                assert!(
                    AppError::codes().any(|c| c == code),
                    "{ctx}: {status} {body}"
                );
                assert!(
                    body["message"]
                        .as_str()
                        .is_some_and(|m| !m.trim().is_empty()),
                    "{ctx}: {status} {body}"
                );
            }
        }
    }
    println!("seed {upgrade_seed:#x}: answers heard {heard:?}");
    assert!(heard.len() >= 3, "few kinds of answers: {heard:?}");
    let fresh = server.player("Zoe").await;
    assert!(!fresh.token.is_empty());
    println!("took {:?}", started.elapsed());
    server.finish().await;
}
