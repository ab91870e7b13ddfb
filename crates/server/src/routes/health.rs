//! Liveness and readiness probes.

use std::time::Duration;

use axum::Json;
use axum::extract::State;

use crate::AppState;
use crate::error::{AppError, ErrorBody};
use crate::model::Health;

/// How long `/readyz` waits for the database.
const READY_TIMEOUT: Duration = Duration::from_secs(2);

/// The process is up (always 200).
#[utoipa::path(get, path = "/healthz", tag = "ops",
    responses((status = 200, description = "Process is alive", body = Health)))]
pub async fn healthz() -> Json<Health> {
    Json(Health { status: "ok" })
}

/// The database answers `SELECT 1` and, in cluster mode, NATS is connected (200), or not (503).
#[utoipa::path(get, path = "/readyz", tag = "ops", responses(
    (status = 200, description = "Ready to serve", body = Health),
    (status = 503, description = "Database (or, in cluster mode, NATS) not answering", body = ErrorBody)))]
pub async fn readyz(State(state): State<AppState>) -> Result<Json<Health>, AppError> {
    // A cluster node cut off from NATS can reach no room run elsewhere.
    if let Some(cluster) = &state.cluster
        && !cluster.nats_connected()
    {
        tracing::warn!("readiness check failed: NATS is not connected");
        return Err(AppError::Unavailable);
    }
    match tokio::time::timeout(READY_TIMEOUT, state.db.ping()).await {
        Ok(Ok(())) => Ok(Json(Health { status: "ok" })),
        Ok(Err(err)) => {
            tracing::warn!(%err, "readiness check failed");
            Err(AppError::Unavailable)
        }
        Err(_elapsed) => {
            // A database that hangs (paused, behind a firewall that drops packets) says nothing itself.
            tracing::warn!(
                timeout_secs = READY_TIMEOUT.as_secs(),
                "readiness check failed: the database did not answer in time"
            );
            Err(AppError::Unavailable)
        }
    }
}
