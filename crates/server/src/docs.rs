//! OpenAPI document and an offline Swagger UI (files from the npm package
//! `swagger-ui-dist`, embedded in the binary; no CDN, no build-time download).

use axum::Json;
use axum::Router;
use axum::http::HeaderValue;
use axum::http::header::{CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, REFERRER_POLICY};
use axum::response::{IntoResponse, Redirect};
use axum::routing::get;
use tower_http::set_header::SetResponseHeaderLayer;
use utoipa::OpenApi;

use crate::AppState;
use crate::openapi::ApiDoc;

/// Our page that loads the bundle and points it at `/api-docs/openapi.json`.
const INDEX_HTML: &str = include_str!("../assets/swagger/index.html");
/// `swagger-ui-dist/swagger-ui-bundle.js`, unmodified.
const BUNDLE_JS: &[u8] = include_bytes!("../assets/swagger/swagger-ui-bundle.js");
/// `swagger-ui-dist/swagger-ui.css`, unmodified.
const STYLE_CSS: &[u8] = include_bytes!("../assets/swagger/swagger-ui.css");
/// Our start-up script (a file, not inline, so that the policy below needs no `'unsafe-inline'`).
const INIT_JS: &[u8] = include_bytes!("../assets/swagger/swagger-init.js");

/// What the documentation's pages may load. They are served from the game's origin, where the web
/// client keeps players' tokens (`localStorage`): a script slipped into them (Swagger UI has had DOM XSS
/// bugs) could read every token. So: only this server's own scripts, no eval, no inline scripts, never
/// inside another site's frame. Swagger UI sets inline styles and draws its icons as `data:` images;
/// "Try it out" calls this server (`connect-src 'self'`).
const CONTENT_SECURITY: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
     img-src 'self' data:; connect-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; \
     form-action 'self'";

/// Routes for `/docs` and `/api-docs/openapi.json`.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api-docs/openapi.json", get(openapi_json))
        .route("/docs", get(index))
        .route("/docs/", get(|| async { Redirect::permanent("/docs") }))
        .route("/docs/index.html", get(index))
        .route("/docs/swagger-ui-bundle.js", get(bundle))
        .route("/docs/swagger-ui.css", get(style))
        .route("/docs/swagger-init.js", get(init))
        .layer(SetResponseHeaderLayer::overriding(
            CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CONTENT_SECURITY),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            REFERRER_POLICY,
            HeaderValue::from_static("same-origin"),
        ))
}

async fn openapi_json() -> Json<utoipa::openapi::OpenApi> {
    Json(ApiDoc::openapi())
}

async fn index() -> impl IntoResponse {
    ([(CONTENT_TYPE, "text/html; charset=utf-8")], INDEX_HTML)
}

async fn bundle() -> impl IntoResponse {
    (
        [
            (CONTENT_TYPE, "text/javascript; charset=utf-8"),
            (CACHE_CONTROL, "public, max-age=86400"),
        ],
        BUNDLE_JS,
    )
}

async fn init() -> impl IntoResponse {
    (
        [
            (CONTENT_TYPE, "text/javascript; charset=utf-8"),
            (CACHE_CONTROL, "no-cache"),
        ],
        INIT_JS,
    )
}

async fn style() -> impl IntoResponse {
    (
        [
            (CONTENT_TYPE, "text/css; charset=utf-8"),
            (CACHE_CONTROL, "public, max-age=86400"),
        ],
        STYLE_CSS,
    )
}
