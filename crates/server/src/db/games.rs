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
    /// show it once `finished_at` is set) and marks the room `finished`.
    pub async fn finish_game(
        &self,
        game_id: &str,
        result: &Value,
        finished_at: i64,
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
            tx.commit().await?;
        });
        Ok(())
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
