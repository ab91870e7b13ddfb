//! Queries on `rooms` and `room_seats`.

use sqlx::types::Json;

use super::{Db, DbError, classify, on_pool};
use crate::model::{Rating, RoomStatus, SeatView};
use crate::settings::{BotLevel, Colour, RoomSettings};

/// A colour as `room_seats.preferred_colour` stores it (its name, `yellow` … `turquoise`; any other text
/// fails to decode). A newtype only because sqlx's traits cannot be implemented here on the rules crate's
/// [`Colour`]; serde writes it as the colour itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct StoredColour(pub Colour);

impl StoredColour {
    fn as_str(self) -> &'static str {
        self.0.name()
    }

    fn parse(name: &str) -> Option<Self> {
        Colour::from_name(name).map(Self)
    }
}

crate::settings::sql_text!(StoredColour);

/// The query that stores a seat as `seat` (a `SeatRow`) says, in room `room_id`: one statement for every
/// place that writes a seat (on either backend).
macro_rules! seat_update {
    ($room_id:expr, $seat:expr) => {
        sqlx::query(
            "UPDATE room_seats SET player_id = $1, bot_level = $2, preferred_colour = $3, \
             local_of = $4, local_name = $5 WHERE room_id = $6 AND seat = $7",
        )
        .bind(&$seat.player_id)
        .bind(&$seat.bot_level)
        .bind(&$seat.preferred_colour)
        .bind(&$seat.local_of)
        .bind($seat.local_name())
        .bind($room_id)
        .bind($seat.seat)
    };
}
pub(crate) use seat_update;

/// A room as stored (also as relayed between cluster nodes).
#[derive(Debug, Clone, sqlx::FromRow, serde::Serialize, serde::Deserialize)]
pub struct RoomRow {
    /// Room id (UUID text).
    pub id: String,
    /// Short code players type to find or join the room.
    pub join_code: String,
    /// Player who created the room and may start it.
    pub owner_id: String,
    /// Validated settings, stored as JSON.
    pub settings: Json<RoomSettings>,
    /// Where the room is in its life.
    pub status: RoomStatus,
    /// Creation time, Unix ms.
    pub created_at: i64,
}

/// One seat of a room, joined with its player's display name.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow, serde::Serialize, serde::Deserialize)]
pub struct SeatRow {
    /// Seat index, 0-based, in turn order.
    pub seat: i64,
    /// Human sitting here, if any.
    pub player_id: Option<String>,
    /// That human's display name (not stored in `room_seats`; joined in), or the name of the person
    /// playing at `local_of`'s device (stored as `local_name`).
    pub display_name: Option<String>,
    /// Bot level if a bot plays this seat.
    pub bot_level: Option<BotLevel>,
    /// Colour the seated human asked for.
    pub preferred_colour: Option<StoredColour>,
    /// A person without a player of their own plays this seat at this player's device (pass and play):
    /// the player acts for the seat, which is nobody's record or rating (`player_id` stays empty).
    pub local_of: Option<String>,
}

impl SeatRow {
    /// The seat as clients see it, its person at `rating` (`None` in a game record, whose result says
    /// what the game did to the ratings).
    pub fn view(&self, rating: Option<Rating>) -> SeatView {
        SeatView {
            seat: u8::try_from(self.seat).unwrap_or(u8::MAX),
            player_id: self.player_id.clone(),
            local_of: self.local_of.clone(),
            display_name: self.display_name.clone(),
            bot: self.bot_level,
            preferred_colour: self.preferred_colour.map(|c| c.0),
            rating,
        }
    }

    /// Who sits in the seat. The columns allow one of a player, a person at a player's device and a
    /// bot (storage checks a player and a bot never share a seat); a player comes first if the others are
    /// set too.
    pub fn occupant(&self) -> Occupant<'_> {
        match (&self.player_id, &self.local_of, self.bot_level) {
            (Some(player_id), _, _) => Occupant::Player { player_id },
            (None, Some(of), _) => Occupant::AtDeviceOf { player_id: of },
            (None, None, Some(level)) => Occupant::Bot(level),
            (None, None, None) => Occupant::Nobody,
        }
    }

    /// Whether the seat is left for a human: neither a player, a person on a player's device, nor a bot
    /// sits there.
    pub fn is_free(&self) -> bool {
        self.occupant() == Occupant::Nobody
    }

    /// The player who acts for the seat: its own player, or the one at whose device it is played.
    pub fn holder(&self) -> Option<&str> {
        match self.occupant() {
            Occupant::Player { player_id } | Occupant::AtDeviceOf { player_id } => Some(player_id),
            Occupant::Bot(_) | Occupant::Nobody => None,
        }
    }

    /// The name stored in `local_name`: only a seat played at another player's device has one.
    pub fn local_name(&self) -> Option<&str> {
        self.local_of.as_ref().and(self.display_name.as_deref())
    }

    /// An empty seat (what a seat becomes when its player leaves a waiting room).
    pub fn empty(seat: i64) -> SeatRow {
        SeatRow {
            seat,
            player_id: None,
            display_name: None,
            bot_level: None,
            preferred_colour: None,
            local_of: None,
        }
    }
}

/// Who sits in a seat ([`SeatRow::occupant`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Occupant<'a> {
    /// A player of their own.
    Player {
        /// Who.
        player_id: &'a str,
    },
    /// A person without a player of their own, playing at this player's device (pass and play).
    AtDeviceOf {
        /// The player who acts for the seat.
        player_id: &'a str,
    },
    /// A bot of this level.
    Bot(BotLevel),
    /// Nobody: the seat is free.
    Nobody,
}

/// Everything inserted when a room is created.
#[derive(Debug, Clone)]
pub struct NewRoom {
    /// The room row itself.
    pub room: RoomRow,
    /// Its seats, one per player slot.
    pub seats: Vec<SeatRow>,
}

/// `SELECT` prefix over `rooms` with the columns of [`RoomRow`], as a macro so
/// queries stay `&'static str` literals (sqlx 0.9 refuses dynamic SQL strings).
macro_rules! select_rooms {
    ($rest:literal) => {
        concat!(
            "SELECT id, join_code, owner_id, settings, status, created_at FROM rooms ",
            $rest
        )
    };
}

impl Db {
    /// Inserts a room and its seats in one transaction.
    /// A join-code collision yields [`DbError::UniqueViolation`].
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn create_room(&self, new: &NewRoom) -> Result<(), DbError> {
        self.insert_room(new, None).await
    }

    /// [`Db::create_room`] for the rematch of the finished room `of`, linked to it in the same
    /// transaction. [`DbError::UniqueViolation`] when the join code is taken or `of` already has a
    /// rematch ([`Db::rematch_of`] tells which).
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn create_rematch(&self, of: &str, new: &NewRoom) -> Result<(), DbError> {
        self.insert_room(new, Some(of)).await
    }

    /// The room the players of `room_id` moved on to, if someone asked for a rematch.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn rematch_of(&self, room_id: &str) -> Result<Option<String>, DbError> {
        Ok(on_pool!(self, pool => {
            sqlx::query_scalar::<_, String>("SELECT next_room_id FROM rematches WHERE room_id = $1")
                .bind(room_id)
                .fetch_optional(pool)
                .await?
        }))
    }

    /// Inserts a room, its seats and, for a rematch, its link from the room it follows.
    #[tracing::instrument(level = "debug", skip_all)]
    async fn insert_room(&self, new: &NewRoom, rematch_of: Option<&str>) -> Result<(), DbError> {
        let room = &new.room;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            sqlx::query(
                "INSERT INTO rooms (id, join_code, owner_id, settings, status, created_at) \
                 VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(&room.id)
            .bind(&room.join_code)
            .bind(&room.owner_id)
            .bind(&room.settings)
            .bind(room.status)
            .bind(room.created_at)
            .execute(&mut *tx)
            .await
            .map_err(classify)?;
            for seat in &new.seats {
                sqlx::query(
                    "INSERT INTO room_seats \
                     (room_id, seat, player_id, bot_level, preferred_colour, local_of, local_name) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7)",
                )
                .bind(&room.id)
                .bind(seat.seat)
                .bind(&seat.player_id)
                .bind(seat.bot_level)
                .bind(seat.preferred_colour)
                .bind(&seat.local_of)
                .bind(seat.local_name())
                .execute(&mut *tx)
                .await?;
            }
            if let Some(of) = rematch_of {
                sqlx::query("INSERT INTO rematches (room_id, next_room_id) VALUES ($1, $2)")
                    .bind(of)
                    .bind(&room.id)
                    .execute(&mut *tx)
                    .await
                    .map_err(classify)?;
            }
            tx.commit().await?;
        });
        Ok(())
    }

    /// The room with this id.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn room(&self, id: &str) -> Result<Option<RoomRow>, DbError> {
        let sql = select_rooms!("WHERE id = $1");
        Ok(on_pool!(self, pool => {
            sqlx::query_as::<_, RoomRow>(sql).bind(id).fetch_optional(pool).await?
        }))
    }

    /// The room with this join code.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn room_by_code(&self, code: &str) -> Result<Option<RoomRow>, DbError> {
        let sql = select_rooms!("WHERE join_code = $1");
        Ok(on_pool!(self, pool => {
            sqlx::query_as::<_, RoomRow>(sql).bind(code).fetch_optional(pool).await?
        }))
    }

    /// Ids of the `limit` newest public rooms in `status` (waiting for players, or playing), newest first.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn public_room_ids(
        &self,
        status: RoomStatus,
        limit: i64,
    ) -> Result<Vec<String>, DbError> {
        // `settings` is TEXT on SQLite and JSONB on PostgreSQL, so the public flag
        // is filtered in Rust rather than with a backend-specific JSON operator.
        let sql = select_rooms!("WHERE status = $1 ORDER BY created_at DESC, id DESC LIMIT $2");
        let rows = on_pool!(self, pool => {
            sqlx::query_as::<_, RoomRow>(sql)
                .bind(status.as_str())
                .bind(limit.saturating_mul(4))
                .fetch_all(pool)
                .await?
        });
        Ok(rows
            .into_iter()
            .filter(|r| r.settings.public)
            .take(usize::try_from(limit).unwrap_or(0))
            .map(|r| r.id)
            .collect())
    }

    /// The waiting rooms `player_id` is seated in, oldest first.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn waiting_rooms_of_player(&self, player_id: &str) -> Result<Vec<RoomRow>, DbError> {
        let sql = select_rooms!(
            "WHERE status = 'waiting' AND id IN (SELECT room_id FROM room_seats WHERE player_id = $1) \
             ORDER BY created_at, id"
        );
        Ok(on_pool!(self, pool => {
            sqlx::query_as::<_, RoomRow>(sql).bind(player_id).fetch_all(pool).await?
        }))
    }

    /// Ids of rooms whose game is running (rebuilt at start-up).
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn playing_room_ids(&self) -> Result<Vec<String>, DbError> {
        Ok(on_pool!(self, pool => {
            sqlx::query_scalar::<_, String>("SELECT id FROM rooms WHERE status = 'playing' ORDER BY created_at")
                .fetch_all(pool)
                .await?
        }))
    }

    /// Seats of a room in seat order, with display names.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn room_seats(&self, room_id: &str) -> Result<Vec<SeatRow>, DbError> {
        Ok(on_pool!(self, pool => {
            sqlx::query_as::<_, SeatRow>(
                "SELECT s.seat, s.player_id, COALESCE(p.display_name, s.local_name) AS display_name, \
                        s.bot_level, s.preferred_colour, s.local_of \
                 FROM room_seats s LEFT JOIN players p ON p.id = s.player_id \
                 WHERE s.room_id = $1 ORDER BY s.seat",
            )
            .bind(room_id)
            .fetch_all(pool)
            .await?
        }))
    }

    /// Overwrites one seat (who sits there, bot level, colour wish).
    /// Hands the room to another player (its owner left or went away).
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn set_room_owner(&self, room_id: &str, owner_id: &str) -> Result<(), DbError> {
        on_pool!(self, pool => {
            sqlx::query("UPDATE rooms SET owner_id = $1 WHERE id = $2")
                .bind(owner_id)
                .bind(room_id)
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// Hands the seat `player_id` leaves in a running game to `seat` (a bot), and the seats played at
    /// their device to `others` (bots too), and records that they left `game_id` (it still counts for
    /// them, as a loss), in one transaction: a leave is stored whole or not at all.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn leave_running_game(
        &self,
        room_id: &str,
        game_id: &str,
        seat: &SeatRow,
        others: &[SeatRow],
        player_id: &str,
        left_at: i64,
    ) -> Result<(), DbError> {
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            for row in std::iter::once(seat).chain(others) {
                seat_update!(room_id, row).execute(&mut *tx).await?;
            }
            sqlx::query(
                "INSERT INTO game_leavers (game_id, seat, player_id, left_at) VALUES ($1, $2, $3, $4) \
                 ON CONFLICT DO NOTHING",
            )
            .bind(game_id)
            .bind(seat.seat)
            .bind(player_id)
            .bind(left_at)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
        });
        Ok(())
    }

    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn update_seat(&self, room_id: &str, seat: &SeatRow) -> Result<(), DbError> {
        on_pool!(self, pool => {
            seat_update!(room_id, seat).execute(pool).await?;
        });
        Ok(())
    }

    /// Overwrites several seats in one transaction (a player leaving with the seats played at their
    /// device): all of them or none.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn update_seats(&self, room_id: &str, seats: &[SeatRow]) -> Result<(), DbError> {
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            for seat in seats {
                seat_update!(room_id, seat).execute(&mut *tx).await?;
            }
            tx.commit().await?;
        });
        Ok(())
    }

    /// Empties the seats `seats` (the removed person's own, and those played at their device) and
    /// records that the owner removed `player_id` from the room, in one transaction: all of it or none.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn remove_from_room(
        &self,
        room_id: &str,
        seats: &[SeatRow],
        player_id: &str,
        removed_at: i64,
    ) -> Result<(), DbError> {
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            for seat in seats {
                seat_update!(room_id, seat).execute(&mut *tx).await?;
            }
            sqlx::query(
                "INSERT INTO room_removals (room_id, player_id, removed_at) VALUES ($1, $2, $3) \
                 ON CONFLICT DO NOTHING",
            )
            .bind(room_id)
            .bind(player_id)
            .bind(removed_at)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
        });
        Ok(())
    }

    /// The people the owner removed from `room_id` (they may not take a seat there again).
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn room_removals(&self, room_id: &str) -> Result<Vec<String>, DbError> {
        Ok(on_pool!(self, pool => {
            sqlx::query_scalar::<_, String>(
                "SELECT player_id FROM room_removals WHERE room_id = $1 ORDER BY removed_at, player_id",
            )
            .bind(room_id)
            .fetch_all(pool)
            .await?
        }))
    }

    /// Whether the owner removed `player_id` from `room_id`.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn removed_from_room(&self, room_id: &str, player_id: &str) -> Result<bool, DbError> {
        Ok(on_pool!(self, pool => {
            sqlx::query_scalar::<_, i64>(
                "SELECT COUNT(*) FROM room_removals WHERE room_id = $1 AND player_id = $2",
            )
            .bind(room_id)
            .bind(player_id)
            .fetch_one(pool)
            .await?
        }) > 0)
    }
}

/// A room a player sits in, with its game if it started (for the player's own list).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct PlayerRoomRow {
    /// The room.
    pub room_id: String,
    /// Where the room is in its life.
    pub status: RoomStatus,
    /// Its settings (rules, mode, players…).
    pub settings: Json<RoomSettings>,
    /// When it was created, Unix ms (the list's order).
    pub created_at: i64,
    /// The player's seat in it.
    pub seat: i64,
    /// Its game, once started.
    pub game_id: Option<String>,
    /// When the game started, Unix ms.
    pub started_at: Option<i64>,
    /// When the game ended, Unix ms.
    pub finished_at: Option<i64>,
    /// The game's result (`winner_side`, `winner_seats`, `seats`), once finished.
    pub result: Option<Json<serde_json::Value>>,
}

impl Db {
    /// The `limit` most recent rooms `player_id` is seated in, newest first.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn player_rooms(
        &self,
        player_id: &str,
        limit: i64,
    ) -> Result<Vec<PlayerRoomRow>, DbError> {
        Ok(on_pool!(self, pool => {
            sqlx::query_as::<_, PlayerRoomRow>(
                "SELECT r.id AS room_id, r.status, r.settings, r.created_at, s.seat, \
                        g.id AS game_id, g.started_at, g.finished_at, g.result \
                 FROM room_seats s \
                 JOIN rooms r ON r.id = s.room_id \
                 LEFT JOIN games g ON g.room_id = r.id \
                 WHERE s.player_id = $1 \
                 ORDER BY r.created_at DESC, r.id DESC LIMIT $2",
            )
            .bind(player_id)
            .bind(limit)
            .fetch_all(pool)
            .await?
        }))
    }
}
