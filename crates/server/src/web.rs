//! The browser client: static files from `crates/server/web/`, embedded in
//! the binary (rust-embed; debug builds read the folder from disk so the
//! client can be edited without rebuilding). `/` and client routes get
//! `index.html` (SPA fallback); everything else unknown is the JSON 404.

use axum::http::header::{
    ACCEPT, CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, REFERRER_POLICY,
    X_CONTENT_TYPE_OPTIONS,
};
use axum::http::{HeaderMap, HeaderValue, Method, Uri};
use axum::response::{IntoResponse, Response};

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

/// The client's responses with the headers every one of them carries.
fn client_file(content_type: String, body: impl IntoResponse) -> Response {
    let mut response = (
        [
            (CONTENT_TYPE, content_type),
            (CACHE_CONTROL, "no-cache".to_owned()),
        ],
        body,
    )
        .into_response();
    let headers = response.headers_mut();
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
            return client_file(file.metadata.mimetype().to_owned(), file.data);
        }
        let wants_html = headers
            .get(ACCEPT)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.contains("text/html"));
        if path == "/" || path == "/index.html" || wants_html {
            return index();
        }
    }
    AppError::NotFound.into_response()
}

/// `index.html` (or the placeholder).
fn index() -> Response {
    let body = Assets::get("index.html")
        .map_or_else(|| PLACEHOLDER.as_bytes().to_vec(), |f| f.data.into_owned());
    client_file("text/html; charset=utf-8".to_owned(), body)
}
