//! The figures in a player's record (`rules[].figures` of `GET /api/players/me/stats` and
//! `GET /api/accounts/{username}/stats`): per rule set, the end-of-game figures (`result.seats`) of the
//! seats the player held, added up, with how many games they cover. Nobody else's seat counts for them: not
//! an opponent's, not a seat played at their device, not a seat they left (a bot finished it).
mod common;

use std::collections::BTreeMap;

use common::databases::sqlite_and_postgres;
use common::game::{play_through, record, two_play, two_started};
use common::ws::WsClient;
use common::{Player, TestServer, quick_two, token_hash};
use serde_json::{Value, json};

/// `player`'s record.
async fn stats(server: &TestServer, player: &Player) -> Value {
    let (status, body) = server.get_as(&player.token, "/api/players/me/stats").await;
    assert_eq!(status, 200, "{body}");
    body
}

/// The `figures` of each rule set of a record, by rule set.
fn figures_by_rules(stats: &Value) -> BTreeMap<String, Value> {
    stats["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["rules"].as_str().unwrap().to_owned(),
                r["figures"].clone(),
            )
        })
        .collect()
}

/// What `player`'s record should add up from these finished games: per rule set, the `result.seats`
/// entries of the seats that name them in each game's record.
async fn expected_figures(
    server: &TestServer,
    player: &Player,
    games: &[&str],
) -> BTreeMap<String, Value> {
    let mut sums: BTreeMap<String, [i64; 5]> = BTreeMap::new();
    for game in games {
        let record = record(server, game).await;
        let rules = record["settings"]["rules"].as_str().unwrap().to_owned();
        let seats = record["seats"].as_array().unwrap();
        let figures = record["result"]["seats"].as_array().expect("figures kept");
        let mine: Vec<&Value> = figures
            .iter()
            .filter(|f| {
                let seat = f["seat"].as_u64().unwrap() as usize;
                seats[seat]["player_id"] == player.id.as_str()
            })
            .collect();
        if mine.is_empty() {
            continue;
        }
        let sum = sums.entry(rules).or_default();
        sum[0] += 1;
        for f in mine {
            for (i, key) in ["captures", "captured", "sixes", "home"].iter().enumerate() {
                sum[i + 1] += f[key].as_i64().unwrap();
            }
        }
    }
    sums.into_iter()
        .map(|(rules, [games, captures, captured, sixes, home])| {
            let figures = json!({ "games": games, "captures": captures, "captured": captured,
                "sixes": sixes, "home": home });
            (rules, figures)
        })
        .collect()
}

/// A two-seat quick game of `rules` that `owner` plays against a bot to the end: its id.
async fn against_a_bot(server: &TestServer, owner: &Player, rules: &str) -> String {
    let settings = json!({ "rules": rules, "mode": "quick", "players": 2, "turn_time_secs": null,
        "public": false, "bots": [null, "random"] });
    let room = server.room(owner, settings).await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    game_id(&play_through(server, owner, &room).await)
}

fn game_id(game: &Value) -> String {
    game["id"].as_str().expect("a finished game").to_owned()
}

sqlite_and_postgres!(
    your_record_adds_up_the_figures_of_the_seats_you_held_per_rule_set_and_no_one_elses,
    figures_added_up,
    |c| c.away_grace_secs = 1
);

async fn figures_added_up(server: TestServer) {
    let ana = server.member("Ana").await;
    let bea = server.member("Bea").await;
    // Ana and Bea at one table (a bot covers Bea, who never connects: her seat stays hers), then each on
    // their own against bots.
    let together = game_id(&two_play(&server, &ana, &bea, quick_two()).await);
    let ana_playgridia = against_a_bot(&server, &ana, "playgridia").await;
    let ana_ludoteka = against_a_bot(&server, &ana, "ludoteka").await;
    let bea_morocco = against_a_bot(&server, &bea, "morocco").await;
    let games = [
        together.as_str(),
        &ana_playgridia,
        &ana_ludoteka,
        &bea_morocco,
    ];

    let ana_figures = figures_by_rules(&stats(&server, &ana).await);
    let expected = expected_figures(&server, &ana, &games).await;
    assert_eq!(ana_figures, expected);
    assert_eq!(ana_figures["playgridia"]["games"], 2, "{ana_figures:?}");
    assert_eq!(ana_figures["ludoteka"]["games"], 1, "{ana_figures:?}");
    // Something was counted: every game rolls sixes and ends with a side's pieces at the goal.
    assert!(ana_figures["playgridia"]["sixes"].as_i64() > Some(0));
    assert!(ana_figures["playgridia"]["home"].as_i64() > Some(0));

    // Bea's record is hers: her seat of the shared game and her own game, nothing of Ana's.
    let bea_figures = figures_by_rules(&stats(&server, &bea).await);
    assert_eq!(bea_figures, expected_figures(&server, &bea, &games).await);
    assert_eq!(
        bea_figures.keys().collect::<Vec<_>>(),
        ["morocco", "playgridia"]
    );
    assert_eq!(bea_figures["playgridia"]["games"], 1);

    // Anyone sees the same on Ana's public record.
    let public = server.get_ok("/api/accounts/ana/stats").await;
    assert_eq!(figures_by_rules(&public), ana_figures);

    // Her data export lists her figures game by game, newest first, as the results stored them.
    let (status, data) = server.get_as(&ana.token, "/api/players/me/export").await;
    assert_eq!(status, 200, "{data}");
    let exported: Vec<(&str, i64)> = data["figures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["game_id"].as_str().unwrap(), f["seat"].as_i64().unwrap()))
        .collect();
    assert_eq!(
        exported,
        [
            (ana_ludoteka.as_str(), 0),
            (ana_playgridia.as_str(), 0),
            (together.as_str(), 0)
        ]
    );
    let shared = record(&server, &together).await;
    let mut line = data["figures"][2].clone();
    line.as_object_mut().unwrap().remove("game_id");
    assert_eq!(line, shared["result"]["seats"][0]);

    // Bea erases her data: the games stay whole, and Ana's record with them.
    let (status, _) = server.erase_me(&bea.token, Some("correct horse")).await;
    assert_eq!(status, 204);
    assert_eq!(figures_by_rules(&stats(&server, &ana).await), ana_figures);
    server.finish().await;
}

#[tokio::test]
async fn a_seat_played_at_your_device_or_left_to_a_bot_adds_nothing_to_your_figures() {
    let server = TestServer::sqlite().await;

    // Ana plays both seats at her device: Abuela's seat is nobody's record, so only Ana's own counts.
    let ana = server.player("Ana").await;
    let room = server.room(&ana, quick_two()).await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let (status, body) = server
        .post_as(
            &ana,
            &format!("/api/rooms/{room}/local-players"),
            json!({ "display_name": "Abuela" }),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let (status, body) = server
        .post_as(&ana, &format!("/api/rooms/{room}/start"), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    let at_the_device = body["game_id"].as_str().unwrap().to_owned();
    let mut ws = WsClient::connect(&server, &room, Some(&ana.token)).await;
    while !ws.over() {
        ws.act().await;
    }
    ws.close().await;
    let ana_figures = figures_by_rules(&stats(&server, &ana).await);
    let own_seat = record(&server, &at_the_device).await["result"]["seats"][0].clone();
    assert_eq!(
        ana_figures["playgridia"],
        json!({ "games": 1, "captures": own_seat["captures"], "captured": own_seat["captured"],
            "sixes": own_seat["sixes"], "home": own_seat["home"] })
    );
    assert_eq!(
        ana_figures,
        expected_figures(&server, &ana, &[&at_the_device]).await
    );

    // Bea leaves Cai's running game: it counts for her as a lost game, with no figures (a bot played her
    // seat on); Cai's seat counts for him.
    let cai = server.player("Cai").await;
    let bea = server.player("Bea").await;
    let (room, left) = two_started(&server, &cai, &bea, quick_two()).await;
    let (status, body) = server
        .post_as(&bea, &format!("/api/rooms/{room}/leave"), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    let mut ws = WsClient::connect(&server, &room, Some(&cai.token)).await;
    ws.play_to_the_end().await;
    ws.close().await;
    let bea_stats = stats(&server, &bea).await;
    assert_eq!(
        (
            &bea_stats["rules"][0]["games"],
            &bea_stats["rules"][0]["wins"]
        ),
        (&json!(1), &json!(0)),
        "{bea_stats}"
    );
    assert_eq!(
        bea_stats["rules"][0]["figures"],
        json!({ "games": 0, "captures": 0, "captured": 0, "sixes": 0, "home": 0 })
    );
    let (_, export) = server.get_as(&bea.token, "/api/players/me/export").await;
    assert_eq!(export["figures"], json!([]));
    assert_eq!(
        figures_by_rules(&stats(&server, &cai).await),
        expected_figures(&server, &cai, &[&left]).await
    );
    server.finish().await;
}

/// Data written by the server before the record added figures up (migrations up to 12): Ana's game against
/// a bot from before figures were kept (its result has no `seats`), her game with Bea, her game Cai left
/// (his seat a bot's since), and her game with Abuela at her device; each later one with its figures.
const BEFORE_RECORD_FIGURES: &str = r#"
    INSERT INTO players (id, display_name, token_hash, created_at) VALUES
        ('p-ana', 'Ana', '{ana}', 1), ('p-bea', 'Bea', '{bea}', 1), ('p-cai', 'Cai', '{cai}', 1);
    INSERT INTO rooms (id, join_code, owner_id, settings, status, created_at) VALUES
        ('r-old', 'AAAAAA', 'p-ana', '{"rules":"playgridia","mode":"quick","players":2,"bots":[null,"random"],"turn_time_secs":null,"preview_next_roll":false,"public":false}', 'finished', 1),
        ('r-duo', 'BBBBBB', 'p-ana', '{"rules":"playgridia","mode":"quick","players":2,"bots":[null,null],"turn_time_secs":null,"preview_next_roll":false,"public":true}', 'finished', 1),
        ('r-left', 'CCCCCC', 'p-ana', '{"rules":"ludoteka","mode":"quick","players":2,"bots":[null,null],"turn_time_secs":null,"preview_next_roll":false,"public":true}', 'finished', 1),
        ('r-local', 'DDDDDD', 'p-ana', '{"rules":"morocco","mode":"quick","players":2,"bots":[null,null],"turn_time_secs":null,"preview_next_roll":false,"public":false}', 'finished', 1);
    INSERT INTO room_seats (room_id, seat, player_id, bot_level, preferred_colour, local_of, local_name) VALUES
        ('r-old', 0, 'p-ana', NULL, NULL, NULL, NULL), ('r-old', 1, NULL, 'random', NULL, NULL, NULL),
        ('r-duo', 0, 'p-ana', NULL, NULL, NULL, NULL), ('r-duo', 1, 'p-bea', NULL, NULL, NULL, NULL),
        ('r-left', 0, 'p-ana', NULL, NULL, NULL, NULL), ('r-left', 1, NULL, 'greedy', NULL, NULL, NULL),
        ('r-local', 0, 'p-ana', NULL, NULL, NULL, NULL), ('r-local', 1, NULL, NULL, NULL, 'p-ana', 'Abuela');
    INSERT INTO games (id, room_id, seed_hash, seed, started_at, finished_at, result) VALUES
        ('g-old', 'r-old', 'h', 's', 1, 1000, '{"winner_side":0,"winner_seats":[0]}'),
        ('g-duo', 'r-duo', 'h', 's', 1, 2000, '{"winner_side":0,"winner_seats":[0],"seats":[
            {"seat":0,"captures":3,"captured":1,"sixes":7,"home":4},{"seat":1,"captures":1,"captured":3,"sixes":5,"home":2}]}'),
        ('g-left', 'r-left', 'h', 's', 1, 3000, '{"winner_side":0,"winner_seats":[0],"seats":[
            {"seat":0,"captures":2,"captured":0,"sixes":6,"home":4},{"seat":1,"captures":0,"captured":2,"sixes":4,"home":1}]}'),
        ('g-local', 'r-local', 'h', 's', 1, 4000, '{"winner_side":1,"winner_seats":[1],"seats":[
            {"seat":0,"captures":1,"captured":2,"sixes":3,"home":3},{"seat":1,"captures":2,"captured":1,"sixes":5,"home":4}]}');
    INSERT INTO game_leavers (game_id, seat, player_id, left_at) VALUES ('g-left', 1, 'p-cai', 2500);
    INSERT INTO player_results (game_id, player_id, rules, won, finished_at, people, house_rules) VALUES
        ('g-old', 'p-ana', 'playgridia', 1, 1000, 1, 0),
        ('g-duo', 'p-ana', 'playgridia', 1, 2000, 2, 0), ('g-duo', 'p-bea', 'playgridia', 0, 2000, 2, 0),
        ('g-left', 'p-ana', 'ludoteka', 1, 3000, 2, 0), ('g-left', 'p-cai', 'ludoteka', 0, 3000, 2, 0),
        ('g-local', 'p-ana', 'morocco', 0, 4000, 1, 0);
"#;

/// The last schema version before the record added figures up.
const BEFORE_RECORD_FIGURES_VERSION: i64 = 12;

fn old_data() -> String {
    BEFORE_RECORD_FIGURES
        .replace("{ana}", &token_hash("ana-token"))
        .replace("{bea}", &token_hash("bea-token"))
        .replace("{cai}", &token_hash("cai-token"))
}

fn old_player(id: &str, token: &str) -> Player {
    Player {
        id: id.to_owned(),
        token: token.to_owned(),
    }
}

fn figures(games: i64, [captures, captured, sixes, home]: [i64; 4]) -> Value {
    json!({ "games": games, "captures": captures, "captured": captured, "sixes": sixes, "home": home })
}

/// What the upgraded server's records show of the old games: each figure of a stored result for the person
/// who held its seat to the end; the game from before figures counted in games but not in the figures'.
async fn old_figures_are_in_the_records(server: TestServer) {
    let ana = stats(&server, &old_player("p-ana", "ana-token")).await;
    let games: Vec<(&str, i64)> = ana["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["rules"].as_str().unwrap(), r["games"].as_i64().unwrap()))
        .collect();
    assert_eq!(games, [("ludoteka", 1), ("morocco", 1), ("playgridia", 2)]);
    assert_eq!(
        figures_by_rules(&ana),
        BTreeMap::from([
            ("ludoteka".to_owned(), figures(1, [2, 0, 6, 4])),
            // Her own seat only: Abuela's at her device is nobody's.
            ("morocco".to_owned(), figures(1, [1, 2, 3, 3])),
            // Two games, one with figures.
            ("playgridia".to_owned(), figures(1, [3, 1, 7, 4])),
        ])
    );
    let bea = stats(&server, &old_player("p-bea", "bea-token")).await;
    assert_eq!(bea["rules"][0]["figures"], figures(1, [1, 3, 5, 2]));
    // Cai left his game: counted as a loss, without the figures a bot made for his seat.
    let cai = stats(&server, &old_player("p-cai", "cai-token")).await;
    assert_eq!(
        (&cai["rules"][0]["games"], &cai["rules"][0]["figures"]),
        (&json!(1), &figures(0, [0, 0, 0, 0]))
    );
    let (status, data) = server.get_as("ana-token", "/api/players/me/export").await;
    assert_eq!(status, 200, "{data}");
    let exported: Vec<&str> = data["figures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["game_id"].as_str().unwrap())
        .collect();
    assert_eq!(exported, ["g-local", "g-left", "g-duo"]);
    server.finish().await;
}

sqlite_and_postgres!(
    figures_of_games_finished_before_the_upgrade_are_in_the_records_and_older_games_have_none,
    old_figures_are_in_the_records,
    upgraded_from(BEFORE_RECORD_FIGURES_VERSION, &old_data())
);
