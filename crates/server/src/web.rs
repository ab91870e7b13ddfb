//! The browser client: static files from `crates/server/web/`, embedded in
//! the binary (rust-embed; debug builds read the folder from disk so the
//! client can be edited without rebuilding). `/` and client routes get
//! `index.html` (SPA fallback); everything else unknown is the JSON 404.

use axum::http::header::{ACCEPT, CACHE_CONTROL, CONTENT_TYPE};
use axum::http::{HeaderMap, Method, Uri};
use axum::response::{IntoResponse, Response};

use crate::error::AppError;

/// The files of `crates/server/web/`.
#[derive(rust_embed::Embed)]
#[folder = "web/"]
struct Assets;

/// Shown at `/` when the web client has no `index.html` yet.
const PLACEHOLDER: &str =
    "<!doctype html><title>Parchís</title><p>Parchís server: the web client is not built in.</p>";

/// Fallback handler: a static file, `index.html` for `/` and HTML navigations, or the JSON 404.
pub async fn fallback(method: Method, uri: Uri, headers: HeaderMap) -> Response {
    let path = uri.path();
    if (method == Method::GET || method == Method::HEAD) && !path.starts_with("/api/") {
        let relative = path.trim_start_matches('/');
        if !relative.is_empty()
            && let Some(file) = Assets::get(relative)
        {
            return (
                [
                    (CONTENT_TYPE, file.metadata.mimetype().to_owned()),
                    (CACHE_CONTROL, "no-cache".to_owned()),
                ],
                file.data,
            )
                .into_response();
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
    (
        [
            (CONTENT_TYPE, "text/html; charset=utf-8"),
            (CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}
