//! Accounts, so that one player can play from several devices: `POST /api/account` gives the current
//! player a username and a password; `POST /api/sessions` signs in with them and hands this device a
//! token of its own; `PATCH /api/account` changes the password (and signs the other devices out);
//! `DELETE /api/sessions/current` signs this device out (revokes its token); `DELETE /api/sessions/others`
//! signs every other device out (a lost phone, a shared computer), keeping the password; `GET
//! /api/sessions` lists the devices signed in and `DELETE /api/sessions/{id}` signs one of them out.

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};

use crate::AppState;
use crate::auth;
use crate::db::{AccountRow, DbError, now_ms};
use crate::device;
use crate::error::{AppError, ErrorBody, Wait};
use crate::extract::{ApiJson, ApiPath, AuthPlayer};
use crate::model::{
    ChangePasswordRequest, CredentialsRequest, Device, Devices, PlayerView, SignedIn,
    SignedOutOthers,
};
use crate::password;
use crate::rate_limit::ClientAddress;
use crate::rooms::{Revoked, RoomCommand};
use crate::routes::players::tell_open_rooms;

/// Username length, in characters.
pub const USERNAME_CHARS: std::ops::RangeInclusive<usize> = 3..=24;

/// A username as given, trimmed, and its key (folded to lower case), or why it cannot be one.
fn username(given: &str) -> Result<(String, String), AppError> {
    let name = given.trim();
    let ok_chars = name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
    if !USERNAME_CHARS.contains(&name.chars().count()) || !ok_chars {
        return Err(AppError::InvalidUsername(format!(
            "A username has {} to {} letters, digits, `_`, `-` or `.`.",
            USERNAME_CHARS.start(),
            USERNAME_CHARS.end()
        )));
    }
    Ok((name.to_owned(), name.to_ascii_lowercase()))
}

/// Gives the current player a username and a password, to sign in as them on other devices.
#[utoipa::path(post, path = "/api/account", tag = "players",
    security(("bearer" = [])),
    request_body = CredentialsRequest,
    responses(
        (status = 201, description = "Account made", body = PlayerView),
        (status = 400, description = "Malformed JSON", body = ErrorBody),
        (status = 401, description = "Missing or invalid token", body = ErrorBody),
        (status = 409, description = "Username taken (`username_taken`), or you have an account (`account_exists`)", body = ErrorBody),
        (status = 422, description = "Invalid username or too short a password", body = ErrorBody)))]
pub async fn create_account(
    State(state): State<AppState>,
    player: AuthPlayer,
    ApiJson(req): ApiJson<CredentialsRequest>,
) -> Result<(StatusCode, Json<PlayerView>), AppError> {
    let (username, key) = username(&req.username)?;
    password::check_new(&req.password)?;
    if state.db.account_of_player(&player.id).await?.is_some() {
        return Err(AppError::AccountExists);
    }
    let account = AccountRow {
        player_id: player.id.clone(),
        username,
        password_hash: password::hash(req.password).await?,
    };
    match state.db.create_account(&account, &key, now_ms()).await {
        Ok(()) => {}
        Err(DbError::UniqueViolation) => return Err(AppError::UsernameTaken),
        Err(other) => return Err(other.into()),
    }
    Ok((
        StatusCode::CREATED,
        Json(PlayerView {
            id: player.id,
            display_name: player.display_name,
            username: Some(account.username),
        }),
    ))
}

/// Changes the password, given the current one; every other device of the player is signed out (their
/// tokens stop working), this one stays signed in.
#[utoipa::path(patch, path = "/api/account", tag = "players",
    security(("bearer" = [])),
    request_body = ChangePasswordRequest,
    responses(
        (status = 204, description = "Changed; the other devices are signed out"),
        (status = 400, description = "Malformed JSON", body = ErrorBody),
        (status = 401, description = "Missing or invalid token, or a wrong current password (`wrong_credentials`)", body = ErrorBody),
        (status = 409, description = "No account (`no_account`)", body = ErrorBody),
        (status = 422, description = "Too short a new password (`weak_password`)", body = ErrorBody),
        (status = 429, description = "Too many wrong current passwords from this device lately (`too_many_attempts`, with `Retry-After`); each also counts against signing in as the username", body = ErrorBody)))]
pub async fn change_password(
    State(state): State<AppState>,
    player: AuthPlayer,
    ApiJson(req): ApiJson<ChangePasswordRequest>,
) -> Result<StatusCode, AppError> {
    password::check_new(&req.new_password)?;
    let account = state
        .db
        .account_of_player(&player.id)
        .await?
        .ok_or(AppError::NoAccount)?;
    if !current_password_is(&state, &player, account, req.password).await? {
        return Err(AppError::WrongCredentials);
    }
    let hash = password::hash(req.new_password).await?;
    let unusable = auth::unusable_token_hash();
    state
        .db
        .change_password(&player.id, &hash, &player.token_hash, &unusable)
        .await?;
    close_sockets(&state, &player.id, Revoked::AllBut(player.token_hash)).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The devices of `player_id` whose `tokens` were just signed out (a new password,
/// `DELETE /api/sessions/others`, `/current` or `/{id}`) lose the sockets they have open as well: closed
/// with 4001 `token_revoked`, in every room open on this node. The other devices' stay open.
async fn close_sockets(state: &AppState, player_id: &str, tokens: Revoked) -> Result<(), AppError> {
    tell_open_rooms(state, player_id, true, || RoomCommand::Revoke {
        player_id: player_id.to_owned(),
        tokens: tokens.clone(),
    })
    .await
}

/// Refuses a player without an account (`no_account`): a guest has one token, its own, so no other
/// device to see or sign out, and signing it out would lose the player for good.
async fn require_account(state: &AppState, player: &AuthPlayer) -> Result<(), AppError> {
    match state.db.account_of_player(&player.id).await? {
        Some(_) => Ok(()),
        None => Err(AppError::NoAccount),
    }
}

/// Signs the token hashing to `token_hash` out, one of `player_id`'s: it stops working at once and the
/// sockets it opened close (4001 `token_revoked`).
async fn sign_out_token(
    state: &AppState,
    player_id: &str,
    token_hash: &str,
) -> Result<StatusCode, AppError> {
    let unusable = auth::unusable_token_hash();
    state.db.revoke_token(token_hash, &unusable).await?;
    close_sockets(state, player_id, Revoked::One(token_hash.to_owned())).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Signs every other device of the player out, keeping the password (a lost phone, a shared computer):
/// their tokens stop working at once, the first one (`POST /api/players`) included unless it is this
/// device's, and their open sockets close (4001 `token_revoked`), as a new password does. This device
/// stays signed in. Only a player with an account may: a guest has a single token.
#[utoipa::path(delete, path = "/api/sessions/others", tag = "players",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The other devices are signed out: how many were (0 when none was left)", body = SignedOutOthers),
        (status = 401, description = "Missing or invalid token", body = ErrorBody),
        (status = 409, description = "No account, so no other device (`no_account`)", body = ErrorBody)))]
pub async fn sign_out_others(
    State(state): State<AppState>,
    player: AuthPlayer,
) -> Result<Json<SignedOutOthers>, AppError> {
    require_account(&state, &player).await?;
    let unusable = auth::unusable_token_hash();
    let signed_out = state
        .db
        .sign_out_others(&player.id, &player.token_hash, &unusable)
        .await?;
    close_sockets(&state, &player.id, Revoked::AllBut(player.token_hash)).await?;
    Ok(Json(SignedOutOthers { signed_out }))
}

/// Whether `given` is the current password of `account`, `player`'s, asked with a token (to change the
/// password, or to erase the account). A stolen token must not buy unlimited guesses at it: five wrong
/// ones within the window lock this device's attempts (its own key: a stranger who locked signing in as
/// this username must not also stop its owner changing the password), `too_many_attempts`, and each one
/// counts towards the username's slowdown for signing in too.
pub(crate) async fn current_password_is(
    state: &AppState,
    player: &AuthPlayer,
    account: AccountRow,
    given: String,
) -> Result<bool, AppError> {
    let key = account.username.to_ascii_lowercase();
    let device = format!("device:{}", player.token_hash);
    state
        .sign_in_guard
        .attempt(&device)
        .await
        .map_err(|secs| AppError::TooManyAttempts(Wait(secs)))?;
    state.sign_in_guard.count(&key).await;
    if !password::verify(given, Some(account.password_hash)).await? {
        return Ok(false);
    }
    state.sign_in_guard.succeeded(&device).await;
    state.sign_in_guard.proved(&key).await;
    Ok(true)
}

/// Signs in: the account's player, with a new token for this device. Refusals do not say whether the
/// username exists; like every POST, attempts are limited per address, and after five wrong passwords
/// within 15 minutes from one address a username cannot be tried from there for a while; other addresses
/// are slowed, not locked out (`sign_in_guard`).
#[utoipa::path(post, path = "/api/sessions", tag = "players",
    request_body = CredentialsRequest,
    responses(
        (status = 201, description = "Signed in; the token is shown only this once", body = SignedIn),
        (status = 400, description = "Malformed JSON", body = ErrorBody),
        (status = 401, description = "Unknown username or wrong password (`wrong_credentials`)", body = ErrorBody),
        (status = 429, description = "Too many wrong passwords for this username from this address lately (`too_many_attempts`, with `Retry-After`)", body = ErrorBody)))]
pub async fn sign_in(
    State(state): State<AppState>,
    ClientAddress(address): ClientAddress,
    headers: HeaderMap,
    ApiJson(req): ApiJson<CredentialsRequest>,
) -> Result<(StatusCode, Json<SignedIn>), AppError> {
    let key = req.username.trim().to_ascii_lowercase();
    // Read before the attempt is counted: an attempt the database could not answer checked no
    // password, and counted as a wrong one it would lock the owner out for a while after an outage.
    let account = match username(&req.username) {
        Ok(_) => state.db.account_by_username(&key).await?,
        Err(_) => None,
    };
    let wait = state
        .sign_in_guard
        .attempt_sign_in(&key, address)
        .await
        .map_err(|secs| AppError::TooManyAttempts(Wait(secs)))?;
    tokio::time::sleep(wait).await;
    let phc = account.as_ref().map(|a| a.password_hash.clone());
    let verified = password::verify(req.password, phc).await?;
    let Some(account) = account.filter(|_| verified) else {
        return Err(AppError::WrongCredentials);
    };
    state.sign_in_guard.signed_in(&key, address).await;
    let player = state
        .db
        .player(&account.player_id)
        .await?
        .ok_or_else(|| AppError::Internal("an account without its player".into()))?;
    let token = auth::new_token();
    state
        .db
        .create_session(
            &auth::hash_token(&token),
            &player.id,
            now_ms(),
            device::user_agent(&headers).as_deref(),
        )
        .await?;
    Ok((
        StatusCode::CREATED,
        Json(SignedIn {
            id: player.id,
            display_name: player.display_name,
            username: account.username,
            token,
        }),
    ))
}

/// Signs this device out: the token the request came with stops working; the player's other devices
/// stay signed in. Only a player with an account may, or they could never be used again.
#[utoipa::path(delete, path = "/api/sessions/current", tag = "players",
    security(("bearer" = [])),
    responses(
        (status = 204, description = "Signed out: this token no longer works"),
        (status = 401, description = "Missing or invalid token", body = ErrorBody),
        (status = 409, description = "No account to sign in with again (`no_account`)", body = ErrorBody)))]
pub async fn sign_out(
    State(state): State<AppState>,
    player: AuthPlayer,
) -> Result<StatusCode, AppError> {
    require_account(&state, &player).await?;
    // A socket this device opened before stops acting for the player too.
    sign_out_token(&state, &player.id, &player.token_hash).await
}

/// The opaque id a device is listed under: the first 32 hex digits of SHA-256 of `device:` and its
/// token's hash. It reveals neither the token nor its hash, and the same token always has the same id.
fn device_id(token_hash: &str) -> String {
    let mut id = auth::sha256_hex(&format!("device:{token_hash}"));
    id.truncate(32);
    id
}

/// The devices signed in to your account, most recently used first (the first token, from
/// `POST /api/players`, is one while it works): what each is (from the `User-Agent` it signed in with),
/// when it signed in and was last used (written at most once an hour), and which one is asking. Only a
/// player with an account has any other device.
#[utoipa::path(get, path = "/api/sessions", tag = "players",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Your devices, most recently used first", body = Devices),
        (status = 401, description = "Missing or invalid token", body = ErrorBody),
        (status = 409, description = "No account, so no device but this one (`no_account`)", body = ErrorBody)))]
pub async fn devices(
    State(state): State<AppState>,
    player: AuthPlayer,
) -> Result<Json<Devices>, AppError> {
    require_account(&state, &player).await?;
    let mut devices: Vec<Device> = state
        .db
        .devices(&player.id, state.session_expiry.used_since(now_ms()))
        .await?
        .into_iter()
        .map(|row| Device {
            id: device_id(&row.token_hash),
            device: device::describe(row.user_agent.as_deref()),
            signed_in_at: row.signed_in_at,
            last_used_at: row.last_used_at,
            current: row.token_hash == player.token_hash,
        })
        .collect();
    devices.sort_by(|a, b| {
        (b.last_used_at, b.signed_in_at, &a.id).cmp(&(a.last_used_at, a.signed_in_at, &b.id))
    });
    Ok(Json(Devices {
        devices,
        signed_out_after_days: state.session_expiry.signed_out_after_days(),
    }))
}

/// Signs one device of your account out (a lost phone): its token stops working at once and its open
/// sockets close (4001 `token_revoked`); the other devices stay signed in. The id is one from
/// `GET /api/sessions`; this device's own id signs this device out, as `DELETE /api/sessions/current`.
#[utoipa::path(delete, path = "/api/sessions/{id}", tag = "players",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "A device's `id` from `GET /api/sessions`")),
    responses(
        (status = 204, description = "Signed out: that device's token no longer works"),
        (status = 401, description = "Missing or invalid token", body = ErrorBody),
        (status = 404, description = "No device of your account has that id: never one, another account's, or signed out already (`device_not_found`)", body = ErrorBody),
        (status = 409, description = "No account, so no device but this one (`no_account`)", body = ErrorBody)))]
pub async fn sign_out_device(
    State(state): State<AppState>,
    player: AuthPlayer,
    ApiPath(id): ApiPath<String>,
) -> Result<StatusCode, AppError> {
    require_account(&state, &player).await?;
    let device = state
        .db
        .devices(&player.id, state.session_expiry.used_since(now_ms()))
        .await?
        .into_iter()
        .find(|row| device_id(&row.token_hash) == id)
        .ok_or(AppError::DeviceNotFound)?;
    sign_out_token(&state, &player.id, &device.token_hash).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usernames_are_short_plain_words_folded_to_lower_case_for_uniqueness() {
        assert_eq!(
            username("  Ana_R.99 ").unwrap(),
            ("Ana_R.99".into(), "ana_r.99".into())
        );
        for bad in ["ab", "has space", "ñandú", "x".repeat(25).as_str(), "a/b"] {
            assert!(username(bad).is_err(), "{bad}");
        }
    }
}
