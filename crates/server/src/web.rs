//! The browser client: static files from `crates/server/web/`, embedded in
//! the binary (rust-embed; debug builds read the folder from disk so the
//! client can be edited without rebuilding). `/` and client routes get
//! `index.html` (SPA fallback); everything else unknown is the JSON 404.

use axum::http::header::{
    ACCEPT, CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, REFERRER_POLICY,
    X_CONTENT_TYPE_OPTIONS,
};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use headers::{ETag, HeaderMapExt, IfNoneMatch};

use crate::error::AppError;

/// The files of `crates/server/web/`.
#[derive(rust_embed::Embed)]
#[folder = "web/"]
struct Assets;

/// Shown at `/` when the web client has no `index.html` yet.
const PLACEHOLDER: &str =
    "<!doctype html><title>Parchís</title><p>Parchís server: the web client is not built in.</p>";

/// What the client's pages may load: only this server's own scripts, styles, images and sockets
/// (`'self'` covers its `ws:`/`wss:` too), inline style attributes (the board and the dice set
/// them), and never inside someone else's frame. A chat message or a name that slipped through as
/// markup could still not run a script. The web app manifest (what a phone installs) is named on
/// its own so that the policy says where it may come from even if `default-src` changes.
const CONTENT_SECURITY: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
     img-src 'self' data:; connect-src 'self'; manifest-src 'self'; frame-ancestors 'none'; base-uri 'none'; \
     form-action 'self'";

/// The client's responses with the headers every one of them carries. `no-cache` makes the browser
/// ask each time (a new version of the server is seen at once); the `ETag` (the file's SHA-256) lets
/// it ask with `If-None-Match` and get an empty `304` when it already has the file, so a phone does
/// not fetch the whole client again on every visit.
fn client_file(
    request: &HeaderMap,
    content_type: &str,
    sha256: [u8; 32],
    body: impl IntoResponse,
) -> Response {
    // Weak: the same file is also sent gzip-compressed, byte for byte different.
    let etag: Option<ETag> = format!("W/\"{}\"", hex::encode(&sha256[..16])).parse().ok();
    let unchanged = match (request.typed_get::<IfNoneMatch>(), &etag) {
        (Some(asked), Some(etag)) => !asked.precondition_passes(etag),
        _ => false,
    };
    let mut response = if unchanged {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        body.into_response()
    };
    let headers = response.headers_mut();
    if !unchanged && let Ok(value) = HeaderValue::from_str(content_type) {
        headers.insert(CONTENT_TYPE, value);
    }
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    if let Some(etag) = etag {
        headers.typed_insert(etag);
    }
    headers.insert(
        CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CONTENT_SECURITY),
    );
    headers.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(REFERRER_POLICY, HeaderValue::from_static("same-origin"));
    response
}

/// Fallback handler: a static file, `index.html` for `/` and HTML navigations, or the JSON 404.
pub async fn fallback(method: Method, uri: Uri, headers: HeaderMap) -> Response {
    let path = uri.path();
    if (method == Method::GET || method == Method::HEAD) && !path.starts_with("/api/") {
        let relative = path.trim_start_matches('/');
        if !relative.is_empty()
            && let Some(file) = Assets::get(relative)
        {
            return client_file(
                &headers,
                file.metadata.mimetype(),
                file.metadata.sha256_hash(),
                file.data,
            );
        }
        let wants_html = headers
            .get(ACCEPT)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.contains("text/html"));
        if path == "/" || path == "/index.html" || wants_html {
            return index(&headers);
        }
    }
    AppError::NotFound.into_response()
}

/// `index.html` (or the placeholder).
fn index(request: &HeaderMap) -> Response {
    const HTML: &str = "text/html; charset=utf-8";
    match Assets::get("index.html") {
        Some(file) => client_file(request, HTML, file.metadata.sha256_hash(), file.data),
        None => client_file(request, HTML, [0; 32], PLACEHOLDER),
    }
}
