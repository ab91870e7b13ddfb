//! Queries on `games` and `game_log`.

use serde_json::Value;
use sqlx::types::Json;

use super::rooms::SeatRow;
use super::{Db, DbError, on_pool};

/// A game as stored. Deliberately not `Serialize`: `seed` is secret until the
/// game ends, and API types decide what to reveal.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct GameRow {
    /// Game id (UUID text).
    pub id: String,
    /// Room the game is played in.
    pub room_id: String,
    /// SHA-256 hex of the seed, published at start as a commitment.
    pub seed_hash: String,
    /// The secret seed (hex); only revealed once `finished_at` is set.
    pub seed: Option<String>,
    /// Start time, Unix ms.
    pub started_at: i64,
    /// End time, Unix ms, once finished.
    pub finished_at: Option<i64>,
    /// Final standings etc., once finished.
    pub result: Option<Json<Value>>,
}

/// One line of the leaderboard.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct LeaderRow {
    /// The account's username (unique, so players with one name can be told apart).
    pub username: String,
    /// The name the player shows at the table.
    pub display_name: String,
    /// Games counted.
    pub games: i64,
    /// Of those, the ones their side won.
    pub wins: i64,
}

/// A player's finished games of one rule set (their record).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct RecordRow {
    /// The rule set's name.
    pub rules: String,
    /// Finished games the player sat at, against bots too.
    pub games: i64,
    /// Of those, the ones their side won.
    pub wins: i64,
    /// Games with at least one other person seated (what the leaderboard counts).
    pub games_with_people: i64,
    /// Of those, the ones their side won.
    pub wins_with_people: i64,
    /// When the latest of them finished, Unix ms.
    pub last_finished_at: i64,
}

/// One finished game of a player (their record's recent games).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ResultRow {
    /// The game.
    pub game_id: String,
    /// Its rule set's name.
    pub rules: String,
    /// 1 when the player's side won.
    pub won: i32,
    /// People seated at it.
    pub people: i32,
    /// 1 when the room played house rules.
    pub house_rules: i32,
    /// When it finished, Unix ms.
    pub finished_at: i64,
}

/// One entry of a game's log.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct LogRow {
    /// Position in the log, from 0, without gaps.
    pub seq: i64,
    /// `roll` or `move`.
    pub kind: String,
    /// Kind-specific details.
    pub payload: Json<Value>,
    /// When it happened, Unix ms.
    pub at: i64,
}

/// What starting a game writes.
#[derive(Debug, Clone)]
pub struct NewGame {
    /// New game id.
    pub id: String,
    /// Room being started.
    pub room_id: String,
    /// Commitment to the seed.
    pub seed_hash: String,
    /// Secret seed, kept server-side.
    pub seed: String,
    /// Start time, Unix ms.
    pub started_at: i64,
}

/// `SELECT` prefix over `games` with the columns of [`GameRow`] (a macro so
/// queries stay `&'static str` literals, as sqlx 0.9 requires).
macro_rules! select_games {
    ($rest:literal) => {
        concat!(
            "SELECT id, room_id, seed_hash, seed, started_at, finished_at, result FROM games ",
            $rest
        )
    };
}

impl Db {
    /// In one transaction: rewrites the room's seats (empty ones now bots),
    /// inserts the game and marks the room `playing`.
    pub async fn start_game(&self, game: &NewGame, seats: &[SeatRow]) -> Result<(), DbError> {
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            sqlx::query(
                "INSERT INTO games (id, room_id, seed_hash, seed, started_at) VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(&game.id)
            .bind(&game.room_id)
            .bind(&game.seed_hash)
            .bind(&game.seed)
            .bind(game.started_at)
            .execute(&mut *tx)
            .await?;
            for seat in seats {
                sqlx::query(
                    "UPDATE room_seats SET player_id = $1, bot_level = $2, preferred_colour = $3 \
                     WHERE room_id = $4 AND seat = $5",
                )
                .bind(&seat.player_id)
                .bind(&seat.bot_level)
                .bind(&seat.preferred_colour)
                .bind(&game.room_id)
                .bind(seat.seat)
                .execute(&mut *tx)
                .await?;
            }
            sqlx::query("UPDATE rooms SET status = 'playing' WHERE id = $1")
                .bind(&game.room_id)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
        });
        Ok(())
    }

    /// Appends one log entry; `(game_id, seq)` is the primary key, so a
    /// duplicate `seq` fails instead of silently forking the log. Returns once
    /// the entry is committed (by the group-commit writer task, together with
    /// whatever other rooms appended meanwhile).
    pub async fn append_log(
        &self,
        game_id: &str,
        seq: i64,
        kind: &'static str,
        payload: &(impl serde::Serialize + ?Sized),
        at: i64,
    ) -> Result<(), DbError> {
        // Serialised here, once: the writer task binds the text as it is.
        let payload = serde_json::value::to_raw_value(payload)
            .map_err(|e| sqlx::Error::Encode(Box::new(e)))?;
        let (done, answer) = tokio::sync::oneshot::channel();
        let append = super::log_writer::Append {
            game_id: game_id.to_owned(),
            seq,
            kind,
            payload,
            at,
            done,
        };
        self.log.append(append, answer).await
    }

    /// Records the result, reveals the seed (it stays in its column; API types
    /// show it once `finished_at` is set), marks the room `finished` and writes the result of each
    /// person seated (`player_results`: their own record, and the leaderboard when at least two sat).
    pub async fn finish_game(
        &self,
        game_id: &str,
        result: &Value,
        finished_at: i64,
        rules: &str,
        house_rules: bool,
        winner_seats: &[u8],
    ) -> Result<(), DbError> {
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            sqlx::query("UPDATE games SET result = $1, finished_at = $2 WHERE id = $3")
                .bind(Json(result))
                .bind(finished_at)
                .bind(game_id)
                .execute(&mut *tx)
                .await?;
            sqlx::query(
                "UPDATE rooms SET status = 'finished' WHERE id = (SELECT room_id FROM games WHERE id = $1)",
            )
            .bind(game_id)
            .execute(&mut *tx)
            .await?;
            let people: Vec<(i64, String)> = sqlx::query_as(
                "SELECT s.seat, s.player_id FROM room_seats s JOIN games g ON g.room_id = s.room_id \
                 WHERE g.id = $1 AND s.player_id IS NOT NULL",
            )
            .bind(game_id)
            .fetch_all(&mut *tx)
            .await?;
            let how_many = i32::try_from(people.len()).unwrap_or(i32::MAX);
            for (seat, player_id) in people {
                let won = winner_seats.iter().any(|&w| i64::from(w) == seat);
                // A result stored once already (the game replayed after a restart) stays as it is.
                sqlx::query(
                    "INSERT INTO player_results \
                     (game_id, player_id, rules, won, finished_at, people, house_rules) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING",
                )
                .bind(game_id)
                .bind(&player_id)
                .bind(rules)
                .bind(i32::from(won))
                .bind(finished_at)
                .bind(how_many)
                .bind(i32::from(house_rules))
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await?;
        });
        Ok(())
    }

    /// The most wins among players with an account, in games of `rules` (without house rules) with at
    /// least two people finished since `since` (Unix ms): `(username, display_name, games, wins)`, best first (then
    /// fewer games, then the username).
    pub async fn leaderboard(
        &self,
        rules: &str,
        since: i64,
        limit: i64,
    ) -> Result<Vec<LeaderRow>, DbError> {
        Ok(on_pool!(self, pool => {
            sqlx::query_as::<_, LeaderRow>(
                "SELECT a.username, p.display_name, COUNT(*) AS games, SUM(r.won) AS wins \
                 FROM player_results r \
                 JOIN accounts a ON a.player_id = r.player_id \
                 JOIN players p ON p.id = r.player_id \
                 WHERE r.rules = $1 AND r.finished_at >= $2 AND r.people >= 2 AND r.house_rules = 0 \
                 GROUP BY a.player_id, a.username, p.display_name \
                 ORDER BY wins DESC, games ASC, a.username ASC \
                 LIMIT $3",
            )
            .bind(rules)
            .bind(since)
            .bind(limit)
            .fetch_all(pool)
            .await?
        }))
    }

    /// A player's finished games per rule set: `(rules, games, wins, games with people, wins with
    /// people, last finished)`, in the order of the rule sets' names.
    pub async fn player_record(&self, player_id: &str) -> Result<Vec<RecordRow>, DbError> {
        Ok(on_pool!(self, pool => {
            sqlx::query_as::<_, RecordRow>(
                "SELECT rules, COUNT(*) AS games, SUM(won) AS wins, \
                 SUM(CASE WHEN people >= 2 THEN 1 ELSE 0 END) AS games_with_people, \
                 SUM(CASE WHEN people >= 2 THEN won ELSE 0 END) AS wins_with_people, \
                 MAX(finished_at) AS last_finished_at \
                 FROM player_results WHERE player_id = $1 GROUP BY rules ORDER BY rules",
            )
            .bind(player_id)
            .fetch_all(pool)
            .await?
        }))
    }

    /// A player's `limit` latest finished games, newest first.
    pub async fn player_results(
        &self,
        player_id: &str,
        limit: i64,
    ) -> Result<Vec<ResultRow>, DbError> {
        Ok(on_pool!(self, pool => {
            sqlx::query_as::<_, ResultRow>(
                "SELECT game_id, rules, won, people, house_rules, finished_at FROM player_results \
                 WHERE player_id = $1 ORDER BY finished_at DESC, game_id LIMIT $2",
            )
            .bind(player_id)
            .bind(limit)
            .fetch_all(pool)
            .await?
        }))
    }

    /// The game with this id.
    pub async fn game(&self, id: &str) -> Result<Option<GameRow>, DbError> {
        let sql = select_games!("WHERE id = $1");
        Ok(on_pool!(self, pool => {
            sqlx::query_as::<_, GameRow>(sql).bind(id).fetch_optional(pool).await?
        }))
    }

    /// The most recently started game of a room.
    pub async fn latest_game_of_room(&self, room_id: &str) -> Result<Option<GameRow>, DbError> {
        let sql = select_games!("WHERE room_id = $1 ORDER BY started_at DESC, id LIMIT 1");
        Ok(on_pool!(self, pool => {
            sqlx::query_as::<_, GameRow>(sql).bind(room_id).fetch_optional(pool).await?
        }))
    }

    /// A game's log in order.
    pub async fn game_log(&self, game_id: &str) -> Result<Vec<LogRow>, DbError> {
        Ok(on_pool!(self, pool => {
            sqlx::query_as::<_, LogRow>(
                "SELECT seq, kind, payload, at FROM game_log WHERE game_id = $1 ORDER BY seq",
            )
            .bind(game_id)
            .fetch_all(pool)
            .await?
        }))
    }
}
