//! Queries on `games` (the log itself: `game_log.rs`).

use serde_json::Value;
use sqlx::types::Json;

use super::rooms::{SeatRow, seat_update};
use super::{Db, DbError, on_pool};
use crate::model::SeatTally;
use crate::ratings::{self, RatingChange, Skill, is_rated};

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

/// What [`Db::finish_game`] stored: the result, and the ratings the game's people have now.
#[derive(Debug, Clone)]
pub struct Finished {
    /// The result as stored (with `ratings` for a rated game).
    pub result: Value,
    /// For a rated game, each person's seat and rating in the game's rules as the game left it
    /// (empty when the game was not rated).
    pub ratings: Vec<SeatRating>,
}

/// A seated person's rating after a rated game.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SeatRating {
    /// The seat.
    pub seat: i64,
    /// Skill estimate (Weng-Lin μ).
    pub mu: f64,
    /// Rated games behind it, this one included.
    pub games: i64,
}

/// One rated game of a player (their rating history).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct RatingChangeRow {
    /// The game.
    pub game_id: String,
    /// When it finished, Unix ms.
    pub finished_at: i64,
    /// The player's skill estimate before and after it.
    pub mu_before: f64,
    pub mu_after: f64,
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
    /// Their rating in these rules (skill estimate μ), if they have played a rated game of them.
    pub mu: Option<f64>,
    /// The rated games behind it.
    pub rated_games: Option<i64>,
}

/// A player's rating in one rule set.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct RatingRow {
    /// The rule set's name.
    pub rules: String,
    /// Skill estimate (Weng-Lin μ).
    pub mu: f64,
    /// Rated games behind it.
    pub games: i64,
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

/// A player's figures over their finished games of one rule set that have figures (their record).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct FiguresRow {
    /// The rule set's name.
    pub rules: String,
    /// Finished games of these rules with the player's figures (games finished before figures were
    /// kept, and games they left, have none).
    pub games: i64,
    /// Pieces they sent back to base.
    pub captures: i64,
    /// Pieces of theirs sent back to base.
    pub captured: i64,
    /// Sixes they rolled.
    pub sixes: i64,
    /// Pieces of theirs at the goal when their games ended.
    pub home: i64,
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
    /// The player's skill estimate before and after it, when it was rated.
    pub mu_before: Option<f64>,
    pub mu_after: Option<f64>,
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
    #[tracing::instrument(level = "debug", skip_all)]
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
                seat_update!(&game.room_id, seat).execute(&mut *tx).await?;
            }
            sqlx::query("UPDATE rooms SET status = 'playing' WHERE id = $1")
                .bind(&game.room_id)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
        });
        Ok(())
    }

    /// Records the result, reveals the seed (it stays in its column; API types
    /// show it once `finished_at` is set), marks the room `finished`, writes the result of each
    /// person seated (`player_results`: their own record, and the leaderboard when at least two sat)
    /// with their seat's `figures` (`game_seat_figures`: what their record adds up) and, when the game is
    /// rated (see [`crate::ratings`]), updates their ratings, all in one transaction. `sides` is the side
    /// of each seat. Returns the result as stored: `result` with, for a
    /// rated game, `ratings` (each person's seat and rating before and after), and the people's ratings
    /// as the game left them, read in the same transaction.
    #[allow(clippy::too_many_arguments)]
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn finish_game(
        &self,
        game_id: &str,
        mut result: Value,
        finished_at: i64,
        rules: &str,
        house_rules: bool,
        sides: &[u8],
        winner_side: u8,
        figures: &[SeatTally],
    ) -> Result<Finished, DbError> {
        let mut now_rated: Vec<SeatRating> = Vec::new();
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            // A write first: on SQLite it takes the database's write lock for the whole transaction,
            // so the ratings read below cannot change before they are written back.
            sqlx::query(
                "UPDATE rooms SET status = 'finished' WHERE id = (SELECT room_id FROM games WHERE id = $1)",
            )
            .bind(game_id)
            .execute(&mut *tx)
            .await?;
            let seated: Vec<(i64, String)> = sqlx::query_as(
                "SELECT s.seat, s.player_id FROM room_seats s JOIN games g ON g.room_id = s.room_id \
                 WHERE g.id = $1 AND s.player_id IS NOT NULL",
            )
            .bind(game_id)
            .fetch_all(&mut *tx)
            .await?;
            let leavers: Vec<(i64, String)> = sqlx::query_as(
                "SELECT seat, player_id FROM game_leavers WHERE game_id = $1",
            )
            .bind(game_id)
            .fetch_all(&mut *tx)
            .await?;
            // Each seat's figures belong to the person holding it at the end; a seat left is a bot's by
            // then, so a leaver gets none (the bot played part of the game for it).
            for (seat, player_id) in &seated {
                let Some(tally) = figures.iter().find(|t| i64::from(t.seat) == *seat) else {
                    continue;
                };
                // Stored once already (the game replayed after a restart): the same figures.
                sqlx::query(
                    "INSERT INTO game_seat_figures \
                     (game_id, seat, player_id, captures, captured, sixes, home) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING",
                )
                .bind(game_id)
                .bind(seat)
                .bind(player_id)
                .bind(count(tally.captures))
                .bind(count(tally.captured))
                .bind(count(tally.sixes))
                .bind(i32::from(tally.home))
                .execute(&mut *tx)
                .await?;
            }
            let people = ratings::counted(seated, leavers);
            let how_many = i32::try_from(people.len()).unwrap_or(i32::MAX);
            for person in &people {
                // A result stored once already (the game replayed after a restart) stays as it is.
                sqlx::query(
                    "INSERT INTO player_results \
                     (game_id, player_id, rules, won, finished_at, people, house_rules) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING",
                )
                .bind(game_id)
                .bind(&person.player_id)
                .bind(rules)
                .bind(i32::from(person.won(sides, winner_side)))
                .bind(finished_at)
                .bind(how_many)
                .bind(i32::from(house_rules))
                .execute(&mut *tx)
                .await?;
            }
            if !house_rules {
                // Each person's seat index, in the order of `people` (by player id: the order their
                // rating rows are locked in).
                let seated: Vec<(usize, &str)> = people
                    .iter()
                    .filter_map(|p| Some((p.seat_index(sides.len())?, p.player_id.as_str())))
                    .collect();
                let mut seats = ratings::rated_seats(sides, &people);
                // Already rated (the game replayed after a restart): the changes as they were.
                let mut changes: Vec<RatingChange> = sqlx::query_as::<_, (i64, f64, f64)>(
                    "SELECT seat, mu_before, mu_after FROM rating_changes WHERE game_id = $1",
                )
                .bind(game_id)
                .fetch_all(&mut *tx)
                .await?
                .into_iter()
                .map(|(seat, mu_before, mu_after)| RatingChange { seat, mu_before, mu_after })
                .collect();
                if changes.is_empty() && is_rated(&seats) {
                    let mut games_before = vec![0i64; sides.len()];
                    for &(s, player_id) in &seated {
                        // Locks the row (PostgreSQL) and reads the latest rating, made if new.
                        let (mu, sigma, games): (f64, f64, i64) = sqlx::query_as(
                            "INSERT INTO ratings (player_id, rules, mu, sigma, games, updated_at) \
                             VALUES ($1, $2, $3, $4, 0, $5) \
                             ON CONFLICT (player_id, rules) DO UPDATE SET games = ratings.games \
                             RETURNING mu, sigma, games",
                        )
                        .bind(player_id)
                        .bind(rules)
                        .bind(Skill::NEW.mu)
                        .bind(Skill::NEW.sigma)
                        .bind(finished_at)
                        .fetch_one(&mut *tx)
                        .await?;
                        seats[s].skill = Some(Skill { mu, sigma });
                        games_before[s] = games;
                    }
                    let after = ratings::rate(&seats, winner_side);
                    for &(s, player_id) in &seated {
                        let (Some(before), Some(after)) = (seats[s].skill, after[s]) else {
                            continue;
                        };
                        sqlx::query(
                            "UPDATE ratings SET mu = $1, sigma = $2, games = games + 1, updated_at = $3 \
                             WHERE player_id = $4 AND rules = $5",
                        )
                        .bind(after.mu)
                        .bind(after.sigma)
                        .bind(finished_at)
                        .bind(player_id)
                        .bind(rules)
                        .execute(&mut *tx)
                        .await?;
                        sqlx::query(
                            "INSERT INTO rating_changes \
                             (game_id, player_id, seat, mu_before, sigma_before, mu_after, sigma_after) \
                             VALUES ($1, $2, $3, $4, $5, $6, $7)",
                        )
                        .bind(game_id)
                        .bind(player_id)
                        .bind(s as i64)
                        .bind(before.mu)
                        .bind(before.sigma)
                        .bind(after.mu)
                        .bind(after.sigma)
                        .execute(&mut *tx)
                        .await?;
                        changes.push(RatingChange {
                            seat: s as i64,
                            mu_before: before.mu,
                            mu_after: after.mu,
                        });
                        now_rated.push(SeatRating {
                            seat: s as i64,
                            mu: after.mu,
                            games: games_before[s] + 1,
                        });
                    }
                } else if !changes.is_empty() {
                    // Rated before the restart: the seats show the ratings as they stand now (none for
                    // a person erased since).
                    for &(s, player_id) in &seated {
                        if !changes.iter().any(|c| c.seat == s as i64) {
                            continue;
                        }
                        let now: Option<(f64, i64)> = sqlx::query_as(
                            "SELECT mu, games FROM ratings WHERE player_id = $1 AND rules = $2 AND games > 0",
                        )
                        .bind(player_id)
                        .bind(rules)
                        .fetch_optional(&mut *tx)
                        .await?;
                        if let Some((mu, games)) = now {
                            now_rated.push(SeatRating { seat: s as i64, mu, games });
                        }
                    }
                }
                if !changes.is_empty() {
                    now_rated.sort_by_key(|r| r.seat);
                    result["ratings"] = ratings::result_lines(&changes, &people);
                }
            }
            // Stored once already (a retry after a commit whose answer was lost, or a restart): kept.
            sqlx::query(
                "UPDATE games SET result = COALESCE(result, $1), finished_at = COALESCE(finished_at, $2) \
                 WHERE id = $3",
            )
                .bind(Json(&result))
                .bind(finished_at)
                .bind(game_id)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
        });
        Ok(Finished {
            result,
            ratings: now_rated,
        })
    }

    /// The most wins among players with an account, in games of `rules` (without house rules) with at
    /// least two people finished since `since` (Unix ms): `(username, display_name, games, wins)`, best first (then
    /// fewer games, then the username).
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn leaderboard(
        &self,
        rules: &str,
        since: i64,
        limit: i64,
    ) -> Result<Vec<LeaderRow>, DbError> {
        Ok(on_pool!(self, pool => {
            sqlx::query_as::<_, LeaderRow>(
                "SELECT a.username, p.display_name, COUNT(*) AS games, SUM(r.won) AS wins, \
                 rt.mu, rt.games AS rated_games \
                 FROM player_results r \
                 JOIN accounts a ON a.player_id = r.player_id \
                 JOIN players p ON p.id = r.player_id \
                 LEFT JOIN ratings rt ON rt.player_id = r.player_id AND rt.rules = r.rules \
                 WHERE r.rules = $1 AND r.finished_at >= $2 AND r.people >= 2 AND r.house_rules = 0 \
                 GROUP BY a.player_id, a.username, p.display_name, rt.mu, rt.games \
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

    /// The best ratings of `rules` among players with an account who have at least `min_games` rated
    /// games and finished one since `since` (Unix ms), with their games and wins counted as the wins
    /// leaderboard counts them over the same period: best first (then more rated games, then the username).
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn rating_leaderboard(
        &self,
        rules: &str,
        since: i64,
        min_games: i64,
        limit: i64,
    ) -> Result<Vec<LeaderRow>, DbError> {
        Ok(on_pool!(self, pool => {
            sqlx::query_as::<_, LeaderRow>(
                "SELECT a.username, p.display_name, COUNT(r.game_id) AS games, \
                 COALESCE(SUM(r.won), 0) AS wins, rt.mu, rt.games AS rated_games \
                 FROM ratings rt \
                 JOIN accounts a ON a.player_id = rt.player_id \
                 JOIN players p ON p.id = rt.player_id \
                 LEFT JOIN player_results r ON r.player_id = rt.player_id AND r.rules = rt.rules \
                 AND r.finished_at >= $2 AND r.people >= 2 AND r.house_rules = 0 \
                 WHERE rt.rules = $1 AND rt.updated_at >= $2 AND rt.games >= $3 \
                 GROUP BY a.player_id, a.username, p.display_name, rt.mu, rt.games \
                 ORDER BY rt.mu DESC, rt.games DESC, a.username ASC \
                 LIMIT $4",
            )
            .bind(rules)
            .bind(since)
            .bind(min_games)
            .bind(limit)
            .fetch_all(pool)
            .await?
        }))
    }

    /// A player's ratings, in the order of the rule sets' names.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn player_ratings(&self, player_id: &str) -> Result<Vec<RatingRow>, DbError> {
        Ok(on_pool!(self, pool => {
            sqlx::query_as::<_, RatingRow>(
                "SELECT rules, mu, games FROM ratings WHERE player_id = $1 AND games > 0 ORDER BY rules",
            )
            .bind(player_id)
            .fetch_all(pool)
            .await?
        }))
    }

    /// A player's rating in `rules`, if they have finished a rated game of them.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn player_rating(
        &self,
        player_id: &str,
        rules: &str,
    ) -> Result<Option<RatingRow>, DbError> {
        Ok(on_pool!(self, pool => {
            sqlx::query_as::<_, RatingRow>(
                "SELECT rules, mu, games FROM ratings WHERE player_id = $1 AND rules = $2 AND games > 0",
            )
            .bind(player_id)
            .bind(rules)
            .fetch_optional(pool)
            .await?
        }))
    }

    /// A player's `limit` latest rated games of `rules`, oldest first.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn rating_history(
        &self,
        player_id: &str,
        rules: &str,
        limit: i64,
    ) -> Result<Vec<RatingChangeRow>, DbError> {
        let mut rows = on_pool!(self, pool => {
            sqlx::query_as::<_, RatingChangeRow>(
                "SELECT c.game_id, r.finished_at, c.mu_before, c.mu_after \
                 FROM rating_changes c \
                 JOIN player_results r ON r.game_id = c.game_id AND r.player_id = c.player_id \
                 WHERE c.player_id = $1 AND r.rules = $2 \
                 ORDER BY r.finished_at DESC, c.game_id DESC LIMIT $3",
            )
            .bind(player_id)
            .bind(rules)
            .bind(limit)
            .fetch_all(pool)
            .await?
        });
        rows.reverse();
        Ok(rows)
    }

    /// A player's finished games per rule set: `(rules, games, wins, games with people, wins with
    /// people, last finished)`, in the order of the rule sets' names.
    #[tracing::instrument(level = "debug", skip_all)]
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

    /// A player's figures per rule set, over the games of their record that have them (the seats they
    /// held in them), in the order of the rule sets' names.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn player_figures(&self, player_id: &str) -> Result<Vec<FiguresRow>, DbError> {
        Ok(on_pool!(self, pool => {
            sqlx::query_as::<_, FiguresRow>(
                "SELECT r.rules, COUNT(DISTINCT f.game_id) AS games, SUM(f.captures) AS captures, \
                 SUM(f.captured) AS captured, SUM(f.sixes) AS sixes, SUM(f.home) AS home \
                 FROM game_seat_figures f \
                 JOIN player_results r ON r.game_id = f.game_id AND r.player_id = f.player_id \
                 WHERE f.player_id = $1 GROUP BY r.rules ORDER BY r.rules",
            )
            .bind(player_id)
            .fetch_all(pool)
            .await?
        }))
    }

    /// A player's `limit` latest finished games, newest first.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn player_results(
        &self,
        player_id: &str,
        limit: i64,
    ) -> Result<Vec<ResultRow>, DbError> {
        Ok(on_pool!(self, pool => {
            sqlx::query_as::<_, ResultRow>(
                "SELECT r.game_id, r.rules, r.won, r.people, r.house_rules, r.finished_at, \
                 c.mu_before, c.mu_after \
                 FROM player_results r \
                 LEFT JOIN rating_changes c ON c.game_id = r.game_id AND c.player_id = r.player_id \
                 WHERE r.player_id = $1 ORDER BY r.finished_at DESC, r.game_id LIMIT $2",
            )
            .bind(player_id)
            .bind(limit)
            .fetch_all(pool)
            .await?
        }))
    }

    /// The game with this id.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn game(&self, id: &str) -> Result<Option<GameRow>, DbError> {
        let sql = select_games!("WHERE id = $1");
        Ok(on_pool!(self, pool => {
            sqlx::query_as::<_, GameRow>(sql).bind(id).fetch_optional(pool).await?
        }))
    }

    /// The most recently started game of a room.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn latest_game_of_room(&self, room_id: &str) -> Result<Option<GameRow>, DbError> {
        let sql = select_games!("WHERE room_id = $1 ORDER BY started_at DESC, id LIMIT 1");
        Ok(on_pool!(self, pool => {
            sqlx::query_as::<_, GameRow>(sql).bind(room_id).fetch_optional(pool).await?
        }))
    }
}

/// A count of a seat's figures as stored (INTEGER); no game comes near its limit.
fn count(n: u32) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}
