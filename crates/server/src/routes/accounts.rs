//! Accounts, so that one player can play from several devices: `POST /api/account` gives the current
//! player a username and a password; `POST /api/sessions` signs in with them and hands this device a
//! token of its own; `PATCH /api/account` changes the password (and signs the other devices out);
//! `DELETE /api/sessions/current` signs this device out (revokes its token); `DELETE /api/sessions/others`
//! signs every other device out (a lost phone, a shared computer), keeping the password.

use std::time::Instant;

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;

use crate::AppState;
use crate::auth;
use crate::db::{AccountRow, DbError, now_ms};
use crate::error::{AppError, ErrorBody};
use crate::extract::{ApiJson, AuthPlayer};
use crate::model::{
    ChangePasswordRequest, CredentialsRequest, PlayerView, SignedIn, SignedOutOthers,
};
use crate::password;
use crate::rooms::{Revoked, RoomCommand};
use crate::routes::players::tell_open_rooms;

/// Username length, in characters.
const USERNAME_CHARS: std::ops::RangeInclusive<usize> = 3..=24;

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
    close_other_devices_sockets(&state, &player).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The devices of `player` other than this one, just signed out (a new password, or
/// `DELETE /api/sessions/others`), lose the sockets they have open as well: closed with 4001
/// `token_revoked`. This device's stay open.
async fn close_other_devices_sockets(
    state: &AppState,
    player: &AuthPlayer,
) -> Result<(), AppError> {
    tell_open_rooms(state, &player.id, true, || RoomCommand::Revoke {
        player_id: player.id.clone(),
        tokens: Revoked::AllBut(player.token_hash.clone()),
    })
    .await
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
    if state.db.account_of_player(&player.id).await?.is_none() {
        return Err(AppError::NoAccount);
    }
    let unusable = auth::unusable_token_hash();
    let signed_out = state
        .db
        .sign_out_others(&player.id, &player.token_hash, &unusable)
        .await?;
    close_other_devices_sockets(&state, &player).await?;
    Ok(Json(SignedOutOthers { signed_out }))
}

/// Whether `given` is the current password of `account`, `player`'s, asked with a token (to change the
/// password, or to erase the account). A stolen token must not buy unlimited guesses at it: five wrong
/// ones within the window lock this device's attempts (its own key: a stranger who locked signing in as
/// this username must not also stop its owner changing the password), `too_many_attempts`, and each one
/// counts as a wrong password for signing in as the username too.
pub(crate) async fn current_password_is(
    state: &AppState,
    player: &AuthPlayer,
    account: AccountRow,
    given: String,
) -> Result<bool, AppError> {
    let key = account.username.to_ascii_lowercase();
    let device = format!("device:{}", player.token_hash);
    let now = Instant::now();
    state
        .sign_in_guard
        .attempt(&device, now)
        .map_err(AppError::TooManyAttempts)?;
    state.sign_in_guard.count(&key, now);
    if !password::verify(given, Some(account.password_hash)).await? {
        return Ok(false);
    }
    state.sign_in_guard.succeeded(&device);
    state.sign_in_guard.succeeded(&key);
    Ok(true)
}

/// Signs in: the account's player, with a new token for this device. Refusals do not say whether the
/// username exists; like every POST, attempts are limited per address, and after five wrong passwords
/// within 15 minutes a username cannot be tried for a while, from anywhere (`sign_in_guard`).
#[utoipa::path(post, path = "/api/sessions", tag = "players",
    request_body = CredentialsRequest,
    responses(
        (status = 201, description = "Signed in; the token is shown only this once", body = SignedIn),
        (status = 400, description = "Malformed JSON", body = ErrorBody),
        (status = 401, description = "Unknown username or wrong password (`wrong_credentials`)", body = ErrorBody),
        (status = 429, description = "Too many wrong passwords for this username lately (`too_many_attempts`, with `Retry-After`)", body = ErrorBody)))]
pub async fn sign_in(
    State(state): State<AppState>,
    ApiJson(req): ApiJson<CredentialsRequest>,
) -> Result<(StatusCode, Json<SignedIn>), AppError> {
    let key = req.username.trim().to_ascii_lowercase();
    state
        .sign_in_guard
        .attempt(&key, Instant::now())
        .map_err(AppError::TooManyAttempts)?;
    let account = match username(&req.username) {
        Ok(_) => state.db.account_by_username(&key).await?,
        Err(_) => None,
    };
    let phc = account.as_ref().map(|a| a.password_hash.clone());
    let verified = password::verify(req.password, phc).await?;
    let Some(account) = account.filter(|_| verified) else {
        return Err(AppError::WrongCredentials);
    };
    state.sign_in_guard.succeeded(&key);
    let player = state
        .db
        .player(&account.player_id)
        .await?
        .ok_or_else(|| AppError::Internal("an account without its player".into()))?;
    let token = auth::new_token();
    state
        .db
        .create_session(&auth::hash_token(&token), &player.id, now_ms())
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
    if state.db.account_of_player(&player.id).await?.is_none() {
        return Err(AppError::NoAccount);
    }
    let unusable = auth::unusable_token_hash();
    state.db.revoke_token(&player.token_hash, &unusable).await?;
    // A socket this device opened before stops acting for the player too.
    tell_open_rooms(&state, &player.id, true, || RoomCommand::Revoke {
        player_id: player.id.clone(),
        tokens: Revoked::One(player.token_hash.clone()),
    })
    .await?;
    Ok(StatusCode::NO_CONTENT)
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
