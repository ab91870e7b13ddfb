//! `Idempotency-Key` on the routes that create something (IETF draft
//! draft-ietf-httpapi-idempotency-key-header): a client that did not get an answer (a timeout, a lost
//! connection, a `503`) sends the same request again with the same key, and gets the first answer
//! again instead of a second room or player.
//!
//! - The key is scoped to its caller: the bearer token the request carries (its hash), or, for a request
//!   without one (`POST /api/players`), the key alone, which the client must then make unguessable (a
//!   UUID v4).
//! - A key is bound to its first request's method, path and body: the same key with another is refused
//!   `422 idempotency_key_reused`; while the first is being answered, `409 idempotency_key_in_flight`.
//! - Only a success is recorded and replayed (with `Idempotent-Replayed: true`): a refusal changes
//!   nothing (PROTOCOL.md), so the key is freed and a retry is answered afresh.
//! - Records are stored (both backends), so a retry is answered the same after a restart and on any
//!   node of a cluster; they are forgotten after [`KEEP_FOR_MS`]. Neither the key nor the answer is
//!   readable there: the record is found by a hash, and the answer (which may hold a token or a private
//!   room's join code) is sealed with a key derived from the caller and the idempotency key.

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use ring::aead::{Aad, CHACHA20_POLY1305, LessSafeKey, NONCE_LEN, Nonce, UnboundKey};
use sha2::{Digest, Sha256};

use crate::AppState;
use crate::db::{DbError, Reservation, now_ms};
use crate::error::AppError;

/// The request header.
pub const HEADER: &str = "idempotency-key";
/// The response header saying an answer is the first one again.
pub const REPLAYED: &str = "idempotent-replayed";
/// Longest key, in characters.
pub const MAX_KEY_CHARS: usize = 255;
/// How long a key is remembered (24 hours), Unix ms.
pub const KEEP_FOR_MS: i64 = 24 * 60 * 60 * 1000;
/// A request unanswered for this long was abandoned (its server stopped while answering it): a retry
/// takes its key over. Longer than any request may take (the request deadline and a room's retries).
const ABANDONED_AFTER_MS: i64 = 2 * 60 * 1000;
/// Largest body a keyed request may have (the create routes' bodies are a few hundred bytes).
const MAX_BODY_BYTES: usize = 64 * 1024;

/// The key of a request, or why the header cannot be one. The draft's form is a structured-field
/// string (`"…"`); a bare token is taken too, as most APIs do. 1 to 255 printable ASCII characters.
pub fn parse_key(value: &HeaderValue) -> Result<String, AppError> {
    let invalid = |why: &str| AppError::InvalidIdempotencyKey(format!("Idempotency-Key: {why}"));
    let bytes = value.as_bytes();
    let key = match bytes {
        [b'"', inner @ .., b'"'] => {
            let mut key = Vec::with_capacity(inner.len());
            let mut escaped = false;
            for &b in inner {
                match (escaped, b) {
                    (false, b'\\') => escaped = true,
                    (false, b'"') => {
                        return Err(invalid("a quote inside the string must be escaped"));
                    }
                    (true, b'\\' | b'"') | (false, _) => {
                        escaped = false;
                        key.push(b);
                    }
                    (true, _) => return Err(invalid("only \\\" and \\\\ may be escaped")),
                }
            }
            if escaped {
                return Err(invalid("the string ends inside an escape"));
            }
            key
        }
        [b'"', ..] => return Err(invalid("a string must end with a quote")),
        _ => bytes.to_vec(),
    };
    if key.is_empty() {
        return Err(invalid("the key is empty"));
    }
    if !key.iter().all(|b| (0x20..0x7f).contains(b)) {
        return Err(invalid(
            "the key must be printable ASCII (a UUID from crypto.randomUUID() is a good key)",
        ));
    }
    if key.len() > MAX_KEY_CHARS {
        return Err(invalid(&format!(
            "the key has {} characters, more than {MAX_KEY_CHARS}",
            key.len()
        )));
    }
    Ok(String::from_utf8_lossy(&key).into_owned())
}

/// What a key is stored and sealed under: derived from the caller and the key.
struct Derived {
    /// The record's id.
    id: String,
    /// Seals the answer.
    seal: LessSafeKey,
}

fn derive(caller: &[u8], key: &str) -> Derived {
    let part = |label: &[u8]| {
        let mut hash = Sha256::new();
        hash.update(label);
        hash.update(Sha256::digest(caller));
        hash.update(key.as_bytes());
        hash.finalize()
    };
    let seal = UnboundKey::new(&CHACHA20_POLY1305, &part(b"parchis idempotency seal\0"))
        .expect("a 32-byte key is what ChaCha20-Poly1305 takes");
    Derived {
        id: hex::encode(part(b"parchis idempotency id\0")),
        seal: LessSafeKey::new(seal),
    }
}

fn seal(key: &LessSafeKey, plain: &[u8]) -> Vec<u8> {
    let nonce = crate::auth::os_random::<NONCE_LEN>();
    let mut sealed = plain.to_vec();
    key.seal_in_place_append_tag(
        Nonce::assume_unique_for_key(nonce),
        Aad::empty(),
        &mut sealed,
    )
    .expect("a body of a few KB fits ChaCha20-Poly1305");
    let mut stored = nonce.to_vec();
    stored.extend_from_slice(&sealed);
    stored
}

fn open(key: &LessSafeKey, stored: &[u8]) -> Option<Vec<u8>> {
    let (nonce, sealed) = stored.split_at_checked(NONCE_LEN)?;
    let nonce = Nonce::try_assume_unique_for_key(nonce).ok()?;
    let mut buffer = sealed.to_vec();
    let plain = key.open_in_place(nonce, Aad::empty(), &mut buffer).ok()?;
    Some(plain.to_vec())
}

/// Who may send a keyed request to a route.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Caller {
    /// Anyone (`POST /api/players`): the key alone scopes a request without a token.
    Anyone,
    /// A player's token: a request without a valid one is refused by its handler.
    Player,
}

/// The middleware: requests without the header pass through untouched.
pub async fn idempotent(
    State((state, caller)): State<(AppState, Caller)>,
    request: Request,
    next: Next,
) -> Response {
    match keyed(state, caller, request, next).await {
        Ok(response) => response,
        Err(err) => err.into_response(),
    }
}

async fn keyed(
    state: AppState,
    caller_kind: Caller,
    request: Request,
    next: Next,
) -> Result<Response, AppError> {
    let mut keys = request.headers().get_all(HEADER).iter();
    let Some(value) = keys.next() else {
        return Ok(next.run(request).await);
    };
    if keys.next().is_some() {
        return Err(AppError::InvalidIdempotencyKey(
            "Send one Idempotency-Key header, not several.".into(),
        ));
    }
    let key = parse_key(value)?;
    // A request its handler refuses for want of a valid token is not keyed: the client hears why
    // (`401`), not that its key was used by someone else without a token, and nothing is recorded.
    if caller_kind == Caller::Player && !holds_a_player_token(&state, request.headers()).await? {
        return Ok(next.run(request).await);
    }
    let caller = request
        .headers()
        .get(header::AUTHORIZATION)
        .map_or(&b""[..], HeaderValue::as_bytes)
        .to_vec();
    let derived = derive(&caller, &key);
    let (parts, body) = request.into_parts();
    let body = axum::body::to_bytes(body, MAX_BODY_BYTES)
        .await
        .map_err(|_| AppError::PayloadTooLarge)?;
    let fingerprint = {
        let mut hash = Sha256::new();
        hash.update(parts.method.as_str());
        hash.update(b"\0");
        hash.update(parts.uri.path());
        hash.update(b"\0");
        hash.update(&body);
        hex::encode(hash.finalize())
    };
    let now = now_ms();
    let db = &state.db;
    let reserved = db
        .reserve_idempotency_key(&derived.id, &fingerprint, now, now - KEEP_FOR_MS)
        .await;
    match reserved {
        Ok(Reservation::Reserved) => {}
        // Found and gone twice in a row: another request is racing for the key.
        Err(DbError::UniqueViolation) => return Err(AppError::IdempotencyKeyInFlight),
        Err(err) => return Err(err.into()),
        Ok(Reservation::Taken(first)) => {
            if first.fingerprint != fingerprint {
                return Err(AppError::IdempotencyKeyReused);
            }
            match (first.status, first.response) {
                (Some(status), Some(stored)) => return replay(&derived.seal, status, &stored),
                _ if first.created_at < now - ABANDONED_AFTER_MS
                    && db
                        .take_over_idempotency_key(&derived.id, now, now - ABANDONED_AFTER_MS)
                        .await? => {}
                _ => return Err(AppError::IdempotencyKeyInFlight),
            }
        }
    }
    let request = Request::from_parts(parts, Body::from(body));
    // Answered to the end even if the client goes away meanwhile (the handler's future would be dropped
    // with its connection): what it stores must be recorded under the key, or the key freed.
    let answer = tokio::spawn(async move {
        let response = next.run(request).await;
        record(&state, &derived, response).await
    });
    answer
        .await
        .map_err(|e| AppError::Internal(format!("an idempotent request's task failed: {e}")))
}

/// Whether the request's bearer token is a player's (a storage failure is the request's error). Takes
/// the headers, not the request: a request's body is not `Sync`, so a reference to it held across an
/// await would make the middleware's future not `Send`.
async fn holds_a_player_token(state: &AppState, headers: &HeaderMap) -> Result<bool, AppError> {
    let Ok(Some(token)) = crate::extract::bearer(headers) else {
        return Ok(false);
    };
    let hash = crate::auth::hash_token(token);
    Ok(state.db.player_by_token_hash(&hash).await?.is_some())
}

/// Records a success under the key (then returns it), or frees the key after a refusal.
async fn record(state: &AppState, derived: &Derived, response: Response) -> Response {
    let status = response.status();
    if !status.is_success() {
        if let Err(err) = state.db.release_idempotency_key(&derived.id).await {
            tracing::warn!(%err, "an idempotency key was not freed (it is, once abandoned)");
        }
        return response;
    }
    let (parts, body) = response.into_parts();
    let body = match axum::body::to_bytes(body, usize::MAX).await {
        Ok(body) => body,
        Err(err) => {
            return AppError::Internal(format!("cannot read an answer to record: {err}"))
                .into_response();
        }
    };
    let sealed = seal(&derived.seal, &body);
    if let Err(err) = state
        .db
        .complete_idempotency_key(&derived.id, status.as_u16(), &sealed)
        .await
    {
        // The creation is done and answered; a retry finds the key in flight, then abandoned.
        tracing::warn!(%err, "an idempotent request's answer was not recorded");
    }
    Response::from_parts(parts, Body::from(body))
}

/// The first answer again.
fn replay(seal: &LessSafeKey, status: i32, stored: &[u8]) -> Result<Response, AppError> {
    let body = open(seal, stored)
        .ok_or_else(|| AppError::Internal("a recorded answer does not open with its key".into()))?;
    let status = u16::try_from(status)
        .ok()
        .and_then(|s| StatusCode::from_u16(s).ok())
        .ok_or_else(|| AppError::Internal(format!("a recorded status {status} is not one")))?;
    let mut response = (status, body).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    headers.insert(REPLAYED, HeaderValue::from_static("true"));
    Ok(response)
}

/// The routes that take an `Idempotency-Key` (all `POST`), as the OpenAPI document names them.
pub const ROUTES: [&str; 5] = [
    "/api/players",
    "/api/rooms",
    "/api/quick-match",
    "/api/rooms/{id}/rematch",
    "/api/rooms/{id}/local-players",
];

/// Documents the `Idempotency-Key` header of [`ROUTES`] and its refusals in the OpenAPI document.
pub struct OpenApiHeader;

impl utoipa::Modify for OpenApiHeader {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::path::{ParameterBuilder, ParameterIn};
        use utoipa::openapi::response::ResponseBuilder;
        use utoipa::openapi::schema::{ObjectBuilder, Type};
        use utoipa::openapi::{Content, Ref, RefOr, Required};
        let refusals = [
            (
                "400",
                "An `Idempotency-Key` that cannot be one (`invalid_idempotency_key`)",
            ),
            (
                "409",
                "A request with this `Idempotency-Key` is still being answered (`idempotency_key_in_flight`)",
            ),
            (
                "422",
                "This `Idempotency-Key` was used for another route or body (`idempotency_key_reused`)",
            ),
        ];
        for route in ROUTES {
            let Some(operation) = openapi
                .paths
                .paths
                .get_mut(route)
                .and_then(|item| item.post.as_mut())
            else {
                continue;
            };
            let schema = ObjectBuilder::new()
                .schema_type(Type::String)
                .min_length(Some(1))
                .max_length(Some(MAX_KEY_CHARS))
                // What `parse_key` takes: a bare token of printable ASCII, or a structured-field string
                // of it with `\"` and `\\` escaped.
                .pattern(Some(
                    r#"^(?:[\x21\x23-\x7E][\x20-\x7E]*|"(?:[\x20\x21\x23-\x5B\x5D-\x7E]|\\["\\])+")$"#,
                ));
            let header = ParameterBuilder::new()
                .name("Idempotency-Key")
                .parameter_in(ParameterIn::Header)
                .required(Required::False)
                .description(Some(
                    "A key of your choosing (a random UUID) to send the request again safely: the same \
                     key from the same caller with the same request is answered with the first success \
                     again (`Idempotent-Replayed: true`), for 24 hours, and nothing is created twice. \
                     A structured-field string (`\"…\"`) or a bare token, 1 to 255 printable ASCII \
                     characters (PROTOCOL.md).",
                ))
                .schema(Some(schema))
                .build();
            operation
                .parameters
                .get_or_insert_with(Vec::new)
                .push(header.into());
            for (status, description) in refusals {
                match operation.responses.responses.get_mut(status) {
                    Some(RefOr::T(response)) => {
                        response.description =
                            format!("{}; or {description}", response.description);
                    }
                    Some(RefOr::Ref(_)) => {}
                    None => {
                        let response = ResponseBuilder::new()
                            .description(description)
                            .content(
                                "application/json",
                                Content::new(Some(Ref::from_schema_name("ErrorBody"))),
                            )
                            .build();
                        operation
                            .responses
                            .responses
                            .insert(status.to_owned(), response.into());
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(raw: &[u8]) -> Result<String, &'static str> {
        parse_key(&HeaderValue::from_bytes(raw).expect("a header value")).map_err(|e| e.code())
    }

    #[test]
    fn keys_are_structured_strings_or_bare_tokens_of_printable_ascii() {
        assert_eq!(key(b"\"8e03978e-40d5\"").as_deref(), Ok("8e03978e-40d5"));
        assert_eq!(key(b"8e03978e-40d5").as_deref(), Ok("8e03978e-40d5"));
        assert_eq!(key(br#""a \"b\" \\c""#).as_deref(), Ok(r#"a "b" \c"#));
        for bad in [
            &b"\"\""[..],
            b"\"a\"b\"",
            b"\"a\\x\"",
            b"caf\xc3\xa9",
            b"tab\there",
        ] {
            assert_eq!(key(bad), Err("invalid_idempotency_key"), "{bad:?}");
        }
        assert!(key(&[b'k'; MAX_KEY_CHARS]).is_ok());
        assert_eq!(
            key(&[b'k'; MAX_KEY_CHARS + 1]),
            Err("invalid_idempotency_key")
        );
    }

    #[test]
    fn an_answer_opens_only_with_the_key_and_caller_it_was_sealed_with() {
        let first = derive(b"Bearer abc", "key-1");
        let stored = seal(&first.seal, b"{\"token\":\"secret\"}");
        assert!(!stored.windows(6).any(|w| w == b"secret"));
        assert_eq!(
            open(&derive(b"Bearer abc", "key-1").seal, &stored).as_deref(),
            Some(&b"{\"token\":\"secret\"}"[..])
        );
        assert_eq!(open(&derive(b"Bearer abd", "key-1").seal, &stored), None);
        assert_eq!(open(&derive(b"Bearer abc", "key-2").seal, &stored), None);
        assert_ne!(derive(b"", "k").id, derive(b"Bearer x", "k").id);
    }
}
