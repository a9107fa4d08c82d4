//! The games to watch: `GET /api/live`.

use crate::app::App;
use crate::error::ApiError;
use axum::extract::State;
use axum::Json;
use sagani_protocol::LiveGames;
use std::sync::Arc;

/// Games in progress between people (at least two seats held by people who have not left; bots
/// may hold the others), public or rated, neither practice nor daily: at most 50, strongest
/// first (the mean rating of the people playing; a guest counts as 1000), each with its players,
/// clock, moves played, spectators on every server, and where to watch it.
#[utoipa::path(get, path = "/api/live", responses((status = 200, body = LiveGames)))]
pub async fn live(State(app): State<Arc<App>>) -> Result<Json<LiveGames>, ApiError> {
    Ok(Json(app.live_games().await?))
}
