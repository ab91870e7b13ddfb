//! OpenAPI document and an offline Swagger UI (files from the npm package
//! `swagger-ui-dist`, embedded in the binary; no CDN, no build-time download).

use axum::Json;
use axum::Router;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::{IntoResponse, Redirect};
use axum::routing::get;
use utoipa::OpenApi;

use crate::AppState;
use crate::openapi::ApiDoc;

/// Our page that loads the bundle and points it at `/api-docs/openapi.json`.
const INDEX_HTML: &str = include_str!("../assets/swagger/index.html");
/// `swagger-ui-dist/swagger-ui-bundle.js`, unmodified.
const BUNDLE_JS: &[u8] = include_bytes!("../assets/swagger/swagger-ui-bundle.js");
/// `swagger-ui-dist/swagger-ui.css`, unmodified.
const STYLE_CSS: &[u8] = include_bytes!("../assets/swagger/swagger-ui.css");

/// Routes for `/docs` and `/api-docs/openapi.json`.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api-docs/openapi.json", get(openapi_json))
        .route("/docs", get(index))
        .route("/docs/", get(|| async { Redirect::permanent("/docs") }))
        .route("/docs/index.html", get(index))
        .route("/docs/swagger-ui-bundle.js", get(bundle))
        .route("/docs/swagger-ui.css", get(style))
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

async fn style() -> impl IntoResponse {
    (
        [
            (CONTENT_TYPE, "text/css; charset=utf-8"),
            (CACHE_CONTROL, "public, max-age=86400"),
        ],
        STYLE_CSS,
    )
}
