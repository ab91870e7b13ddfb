//! After a run: every action the server acknowledged must be in the stored game. Each game's record
//! (`GET /api/games/{id}/record`, PROTOCOL.md §8) is read through a node that answers, and the
//! acknowledged actions must appear in its log in order (the log may hold more: an action stored while
//! its node died, before its ack went out).

use std::net::SocketAddr;

use futures_util::StreamExt;
use futures_util::stream;
use serde::Deserialize;
use serde_json::Value;

use super::room::{Action, Ledger};

/// Records read at once.
const CONCURRENCY: usize = 32;

/// What the check found.
#[derive(Debug, Clone, Default)]
pub struct AckCheck {
    /// Acknowledged actions looked for.
    pub checked: u64,
    /// Of which not in their game's record.
    pub lost: u64,
    /// Games whose record could not be read (their actions are not counted as checked).
    pub unreadable: u64,
    /// Examples of what was missing or unreadable.
    pub samples: Vec<String>,
}

#[derive(Deserialize)]
struct Record {
    log: Vec<Entry>,
}

#[derive(Deserialize)]
struct Entry {
    kind: String,
    payload: Value,
}

/// How many of `actions` are missing from `log`, which must hold them in order.
pub fn missing(actions: &[Action], log: &[(String, u64, Option<String>)]) -> usize {
    let mut found = 0;
    for (kind, seat, mv) in log {
        let Some(want) = actions.get(found) else {
            break;
        };
        let same = *seat == want.seat
            && match &want.mv {
                None => kind == "roll",
                Some(text) => kind == "move" && mv.as_deref() == Some(text),
            };
        if same {
            found += 1;
        }
    }
    actions.len() - found
}

async fn read_record(
    client: &reqwest::Client,
    targets: &[SocketAddr],
    ledger: &Ledger,
    game: &str,
) -> Result<Vec<(String, u64, Option<String>)>, String> {
    let mut last = String::new();
    for k in 0..targets.len() {
        let addr = targets[(ledger.index + k) % targets.len()];
        let url = format!("http://{addr}/api/games/{game}/record");
        let answer = client.get(&url).bearer_auth(&ledger.token).send().await;
        let resp = match answer {
            Ok(r) if r.status().is_success() => r,
            Ok(r) => {
                last = format!("GET {url}: {}", r.status());
                continue;
            }
            Err(e) => {
                last = format!("GET {url}: {e}");
                continue;
            }
        };
        let record: Record = resp.json().await.map_err(|e| format!("{url}: {e}"))?;
        return Ok(record
            .log
            .into_iter()
            .map(|e| {
                let seat = e.payload["seat"].as_u64().unwrap_or(u64::MAX);
                let mv = e.payload["move"].as_str().map(str::to_owned);
                (e.kind, seat, mv)
            })
            .collect());
    }
    Err(last)
}

/// Reads every game's record and counts the acknowledged actions it lacks.
pub async fn check(targets: &[SocketAddr], ledgers: Vec<Ledger>) -> AckCheck {
    let client = match reqwest::Client::builder()
        .no_proxy()
        .pool_max_idle_per_host(CONCURRENCY)
        .build()
    {
        Ok(c) => c,
        Err(e) => {
            return AckCheck {
                samples: vec![format!("HTTP client: {e}")],
                ..AckCheck::default()
            };
        }
    };
    let results: Vec<(u64, Result<usize, String>)> = stream::iter(ledgers)
        .filter(|l| std::future::ready(!l.actions.is_empty()))
        .map(|ledger| {
            let client = client.clone();
            async move {
                let n = ledger.actions.len() as u64;
                let Some(game) = ledger.game_id.clone() else {
                    return (n, Err("acknowledged actions of a game not seen".to_owned()));
                };
                let result = read_record(&client, targets, &ledger, &game)
                    .await
                    .map(|log| missing(&ledger.actions, &log))
                    .map_err(|e| format!("game {game}: {e}"));
                if let Ok(lost) = &result
                    && *lost > 0
                {
                    eprintln!("game {game}: {lost} of {n} acknowledged actions missing");
                }
                (n, result)
            }
        })
        .buffer_unordered(CONCURRENCY)
        .collect()
        .await;
    let mut check = AckCheck::default();
    for (n, result) in results {
        match result {
            Ok(lost) => {
                check.checked += n;
                check.lost += lost as u64;
                if lost > 0 && check.samples.len() < 10 {
                    check
                        .samples
                        .push(format!("{lost} of {n} acknowledged actions missing"));
                }
            }
            Err(e) => {
                check.unreadable += 1;
                if check.samples.len() < 10 {
                    check.samples.push(e);
                }
            }
        }
    }
    check
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roll(seat: u64) -> Action {
        Action { seat, mv: None }
    }

    fn mv(seat: u64, text: &str) -> Action {
        Action {
            seat,
            mv: Some(text.to_owned()),
        }
    }

    fn entry(kind: &str, seat: u64, mv: Option<&str>) -> (String, u64, Option<String>) {
        (kind.to_owned(), seat, mv.map(str::to_owned))
    }

    #[test]
    fn acknowledged_actions_are_found_in_order_among_more() {
        let log = [
            entry("roll", 0, None),
            entry("move", 0, Some("y1:h-5")),
            entry("roll", 1, None), // stored, its ack lost with the node
            entry("roll", 1, None),
        ];
        assert_eq!(missing(&[roll(0), mv(0, "y1:h-5"), roll(1)], &log), 0);
        assert_eq!(missing(&[], &log), 0);
    }

    #[test]
    fn an_acknowledged_action_the_log_lacks_is_lost() {
        let log = [entry("roll", 0, None), entry("move", 0, Some("y1:h-5"))];
        // A different move, a move by another seat, one more roll: each is missing.
        assert_eq!(missing(&[roll(0), mv(0, "y2:h-5")], &log), 1);
        assert_eq!(missing(&[roll(0), mv(1, "y1:h-5")], &log), 1);
        assert_eq!(missing(&[roll(0), mv(0, "y1:h-5"), roll(1)], &log), 1);
        // Order matters: the move before the roll is not what the log holds.
        assert_eq!(missing(&[mv(0, "y1:h-5"), roll(0)], &log), 1);
    }
}
