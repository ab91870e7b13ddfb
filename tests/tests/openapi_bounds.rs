//! The OpenAPI document's enums, ranges and lengths are the server's own: each value at a bound the
//! document declares is accepted and each one just past it refused, and each closed set of names is the
//! one the rules catalogue (`GET /api/rules`) lists. A client or a fuzzer that keeps to the document is
//! not refused for the shape of what it sends, and one that does not is.

mod common;

use common::{Player, TestServer, status_and_json};
use serde_json::{Value, json};

/// The properties of the document's schema `name`.
fn fields<'a>(doc: &'a Value, name: &str) -> &'a Value {
    &doc["components"]["schemas"][name]["properties"]
}

/// A declared bound as a number, insisting that the document declares it.
fn bound(field: &Value, key: &str) -> u64 {
    field[key]
        .as_u64()
        .unwrap_or_else(|| panic!("no {key} in {field}"))
}

/// The values of a named enum schema (`RuleSet`, `Mode`, `Colour`), sorted.
fn names(doc: &Value, schema: &str) -> Vec<String> {
    let mut names: Vec<String> = doc["components"]["schemas"][schema]["enum"]
        .as_array()
        .unwrap_or_else(|| panic!("{schema} has no enum"))
        .iter()
        .map(|v| v.as_str().expect("a name").to_owned())
        .collect();
    names.sort();
    names
}

/// Creates a room of `players` seats, in the first rule set and mode of `catalogue` played by that many,
/// with `turn_time_secs`: the status and the `reason` of a refusal.
async fn room(
    server: &TestServer,
    owner: &Player,
    catalogue: &Value,
    players: u64,
    turn: u64,
) -> (u16, Value) {
    let (rules, mode) = catalogue["rule_sets"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["modes"].as_array().unwrap().iter().map(move |m| (r, m)))
        .find(|(_, m)| m["players"].as_array().unwrap().contains(&json!(players)))
        .map(|(r, m)| (r["name"].clone(), m["name"].clone()))
        .unwrap_or((json!("playgridia"), json!("individual")));
    let body = json!({ "rules": rules, "mode": mode, "players": players, "turn_time_secs": turn });
    let (status, answer) = server.post_as(owner, "/api/rooms", body).await;
    (status.as_u16(), answer["reason"].clone())
}

#[tokio::test]
async fn the_documents_names_and_bounds_are_what_the_server_takes() {
    let server = TestServer::sqlite().await;
    let doc = server.get_ok("/api-docs/openapi.json").await;
    let catalogue = server.get_ok("/api/rules").await;

    // Closed sets: the names of the catalogue, no more and no fewer.
    let mut rule_sets: Vec<String> = catalogue["rule_sets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap().to_owned())
        .collect();
    rule_sets.sort();
    assert_eq!(names(&doc, "RuleSet"), rule_sets);
    let mut modes: Vec<String> = catalogue["rule_sets"][0]["modes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap().to_owned())
        .collect();
    modes.sort();
    assert_eq!(names(&doc, "Mode"), modes);
    let mut colours: Vec<String> = catalogue["boards"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|b| b["colours"].as_array().unwrap().clone())
        .map(|c| c.as_str().unwrap().to_owned())
        .collect();
    colours.sort();
    colours.dedup();
    assert_eq!(names(&doc, "Colour"), colours);
    let room_request = fields(&doc, "CreateRoomRequest");
    for field in ["rules", "mode"] {
        assert!(
            room_request[field]["$ref"].as_str().is_some(),
            "{field}: {}",
            room_request[field]
        );
    }

    // Players: the catalogue's counts span exactly the declared range; its ends are taken, one past
    // either refused for the count.
    let owner = server.player("Ana").await;
    let players = &room_request["players"];
    let (least, most) = (bound(players, "minimum"), bound(players, "maximum"));
    let counts: Vec<u64> = catalogue["rule_sets"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["modes"].as_array().unwrap().clone())
        .flat_map(|m| m["players"].as_array().unwrap().clone())
        .map(|n| n.as_u64().unwrap())
        .collect();
    assert_eq!(counts.iter().min(), Some(&least));
    assert_eq!(counts.iter().max(), Some(&most));
    let turn = &room_request["turn_time_secs"];
    let (shortest, longest) = (bound(turn, "minimum"), bound(turn, "maximum"));
    assert_eq!(
        room(&server, &owner, &catalogue, least, shortest).await.0,
        201
    );
    assert_eq!(
        room(&server, &owner, &catalogue, most, longest).await.0,
        201
    );
    for (players, turn, reason) in [
        (least - 1, shortest, "players"),
        (most + 1, shortest, "players"),
        (least, shortest - 1, "turn_time"),
        (least, longest + 1, "turn_time"),
    ] {
        let (status, why) = room(&server, &owner, &catalogue, players, turn).await;
        assert_eq!(
            (status, why),
            (422, json!(reason)),
            "{players} players, {turn} s"
        );
    }

    // Display names: 1 to maxLength characters.
    let name = &fields(&doc, "CreatePlayerRequest")["display_name"];
    let longest_name = bound(name, "maxLength") as usize;
    assert_eq!(bound(name, "minLength"), 1);
    for (given, expected) in [
        ("x".repeat(longest_name), 201),
        ("x".repeat(longest_name + 1), 422),
        (String::new(), 422),
    ] {
        let resp = server
            .post("/api/players")
            .json(&json!({ "display_name": given }))
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), expected, "{given:?}");
    }

    // Usernames (the counts in the pattern's `{least,most}`) and passwords (minLength, maxLength).
    let credentials = fields(&doc, "CredentialsRequest");
    let pattern = credentials["username"]["pattern"].as_str().unwrap();
    let (shortest_user, longest_user) = pattern
        .split_once('{')
        .and_then(|(_, rest)| rest.split_once('}'))
        .and_then(|(counts, _)| counts.split_once(','))
        .map(|(a, b)| (a.parse::<usize>().unwrap(), b.parse::<usize>().unwrap()))
        .unwrap_or_else(|| panic!("no {{least,most}} in {pattern}"));
    let password = &credentials["password"];
    let (shortest_pw, longest_pw) = (
        bound(password, "minLength") as usize,
        bound(password, "maxLength") as usize,
    );
    let good_pw = "p".repeat(shortest_pw);
    for (i, (username, password, expected)) in [
        ("u".repeat(shortest_user), good_pw.clone(), 201),
        ("v".repeat(longest_user), "q".repeat(longest_pw), 201),
        ("w".repeat(shortest_user - 1), good_pw.clone(), 422),
        ("y".repeat(longest_user + 1), good_pw.clone(), 422),
        ("z".repeat(shortest_user), "p".repeat(shortest_pw - 1), 422),
        ("z".repeat(shortest_user), "p".repeat(longest_pw + 1), 422),
    ]
    .into_iter()
    .enumerate()
    {
        let player = server.player(&format!("P{i}")).await;
        let body = json!({ "username": username, "password": password });
        let (status, answer) = server.post_as(&player, "/api/account", body).await;
        assert_eq!(
            status,
            expected,
            "{username} / {} chars: {answer}",
            password.len()
        );
    }

    // The leaderboard's period: 1 to maximum days.
    let days = doc["paths"]["/api/leaderboard"]["get"]["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "days")
        .expect("days")["schema"]
        .clone();
    let (fewest, most_days) = (bound(&days, "minimum"), bound(&days, "maximum"));
    for (days, expected) in [
        (fewest, 200),
        (most_days, 200),
        (fewest - 1, 422),
        (most_days + 1, 422),
    ] {
        let resp = server
            .get(&format!("/api/leaderboard?days={days}"))
            .send()
            .await
            .unwrap();
        let (status, body) = status_and_json(resp).await;
        assert_eq!(status, expected, "days={days}: {body}");
    }
    server.finish().await;
}
