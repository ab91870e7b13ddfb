//! What a player's data export (`GET /api/players/me/export`) reads beyond their rooms and results.

use super::{Db, DbError, on_pool};

/// A player's account, without its password hash.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ExportAccountRow {
    pub username: String,
    pub created_at: i64,
    /// Devices signed in with a session token (the first device's token is the player's own).
    pub sessions: i64,
}

/// A rating in full: its skill estimate and uncertainty, as the ratings table holds them.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ExportRatingRow {
    pub rules: String,
    pub mu: f64,
    pub sigma: f64,
    pub games: i64,
    pub updated_at: i64,
}

/// A chat message the player wrote.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ExportMessageRow {
    pub room_id: String,
    pub seq: i64,
    pub text: String,
    pub at: i64,
}

/// A report the player made of someone's message.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ExportReportRow {
    pub room_id: String,
    pub seq: i64,
    pub reason: String,
    pub at: i64,
}

/// A seat the player had someone else play at their device, with the name they gave.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ExportLocalPlayerRow {
    pub room_id: String,
    pub seat: i64,
    pub local_name: Option<String>,
}

/// A game the player left while it ran (a bot played their seat on).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ExportLeftGameRow {
    pub game_id: String,
    pub room_id: String,
    pub seat: i64,
    pub left_at: i64,
}

/// The player's figures in one finished game, at the seat they held.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ExportFiguresRow {
    pub game_id: String,
    pub seat: i64,
    pub captures: i32,
    pub captured: i32,
    pub sixes: i32,
    pub home: i32,
}

/// A room whose owner removed the player before its game (they may not sit there again).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ExportRemovalRow {
    pub room_id: String,
    pub removed_at: i64,
}

impl Db {
    /// The rooms the player was removed from, oldest first.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn export_removals(&self, player_id: &str) -> Result<Vec<ExportRemovalRow>, DbError> {
        Ok(on_pool!(self, pool => {
            sqlx::query_as::<_, ExportRemovalRow>(
                "SELECT room_id, removed_at FROM room_removals WHERE player_id = $1 \
                 ORDER BY removed_at, room_id",
            )
            .bind(player_id)
            .fetch_all(pool)
            .await?
        }))
    }

    /// The player's figures in each finished game that has them, per seat they held, newest first.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn export_figures(&self, player_id: &str) -> Result<Vec<ExportFiguresRow>, DbError> {
        Ok(on_pool!(self, pool => {
            sqlx::query_as::<_, ExportFiguresRow>(
                "SELECT f.game_id, f.seat, f.captures, f.captured, f.sixes, f.home \
                 FROM game_seat_figures f JOIN games g ON g.id = f.game_id \
                 WHERE f.player_id = $1 ORDER BY g.finished_at DESC, f.game_id, f.seat",
            )
            .bind(player_id)
            .fetch_all(pool)
            .await?
        }))
    }

    /// The games the player left while they ran, oldest first.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn export_games_left(
        &self,
        player_id: &str,
    ) -> Result<Vec<ExportLeftGameRow>, DbError> {
        Ok(on_pool!(self, pool => {
            sqlx::query_as::<_, ExportLeftGameRow>(
                "SELECT l.game_id, g.room_id, l.seat, l.left_at FROM game_leavers l \
                 JOIN games g ON g.id = l.game_id WHERE l.player_id = $1 ORDER BY l.left_at, l.game_id",
            )
            .bind(player_id)
            .fetch_all(pool)
            .await?
        }))
    }

    /// The seats people played at the player's device, by room and seat.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn export_local_players(
        &self,
        player_id: &str,
    ) -> Result<Vec<ExportLocalPlayerRow>, DbError> {
        Ok(on_pool!(self, pool => {
            sqlx::query_as::<_, ExportLocalPlayerRow>(
                "SELECT room_id, seat, local_name FROM room_seats WHERE local_of = $1 \
                 ORDER BY room_id, seat",
            )
            .bind(player_id)
            .fetch_all(pool)
            .await?
        }))
    }

    /// The player's account, if they made one, counting the devices signed in to it that were used at or
    /// after `used_since` (Unix ms; older ones are signed out).
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn export_account(
        &self,
        player_id: &str,
        used_since: i64,
    ) -> Result<Option<ExportAccountRow>, DbError> {
        Ok(on_pool!(self, pool => {
            sqlx::query_as::<_, ExportAccountRow>(
                "SELECT a.username, a.created_at, \
                 (SELECT COUNT(*) FROM sessions s \
                  WHERE s.player_id = a.player_id AND s.last_used_at >= $2) AS sessions \
                 FROM accounts a WHERE a.player_id = $1",
            )
            .bind(player_id)
            .bind(used_since)
            .fetch_optional(pool)
            .await?
        }))
    }

    /// Every rating of the player, by rule set.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn export_ratings(&self, player_id: &str) -> Result<Vec<ExportRatingRow>, DbError> {
        Ok(on_pool!(self, pool => {
            sqlx::query_as::<_, ExportRatingRow>(
                "SELECT rules, mu, sigma, games, updated_at FROM ratings WHERE player_id = $1 ORDER BY rules",
            )
            .bind(player_id)
            .fetch_all(pool)
            .await?
        }))
    }

    /// Every chat message the player wrote, oldest first.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn export_messages(&self, player_id: &str) -> Result<Vec<ExportMessageRow>, DbError> {
        Ok(on_pool!(self, pool => {
            sqlx::query_as::<_, ExportMessageRow>(
                "SELECT room_id, seq, text, at FROM chat_messages WHERE player_id = $1 \
                 ORDER BY at, room_id, seq",
            )
            .bind(player_id)
            .fetch_all(pool)
            .await?
        }))
    }

    /// Every report the player made, oldest first.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn export_reports(&self, player_id: &str) -> Result<Vec<ExportReportRow>, DbError> {
        Ok(on_pool!(self, pool => {
            sqlx::query_as::<_, ExportReportRow>(
                "SELECT room_id, seq, reason, at FROM chat_reports WHERE reporter_id = $1 \
                 ORDER BY at, room_id, seq",
            )
            .bind(player_id)
            .fetch_all(pool)
            .await?
        }))
    }
}
