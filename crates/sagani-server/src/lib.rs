//! Online Sagani: an HTTP JSON API and a WebSocket per game (axum), seats with secret tokens,
//! bots at the table, and event-sourced storage (SQLite by default). See docs/server-api.md.

pub mod accounts;
pub use sagani_protocol as api;
mod app;
mod asker;
mod bots;
mod challenges;
pub mod client_addr;
pub mod clock;
pub mod daily;
mod daily_routes;
pub mod error;
pub mod http;
mod hub;
mod install;
pub mod limits;
mod live_routes;
mod mailer;
pub mod metrics;
mod names;
mod notices;
mod openapi;
pub mod passwords;
pub mod per_address;
mod players;
mod positions;
pub mod rating;
mod routes;
mod scheduler;
mod secret;
mod seeks;
mod spectators;
pub mod store;
mod study;
mod table;
#[cfg(feature = "test-util")]
pub mod testing;
pub mod time_control;
pub mod tutorial;
mod web;
mod ws;

pub use app::{App, Config, StartError};
pub use bots::{level_ms, parse_spec as parse_bot, BotMaker};
pub use http::serve_router;
pub use limits::HttpLimits;
pub use limits::Limits;
pub use metrics::Metrics;
pub use openapi::document as openapi_document;

use axum::extract::{DefaultBodyLimit, Extension};
use axum::routing::{delete, get, post, put};
use axum::{Json, Router};
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;

/// The API's routes over `app`.
pub fn router(app: Arc<App>) -> Router {
    let body_limit = app.config.limits.body_bytes;
    Router::new()
        .route("/healthz", get(routes::healthz))
        .route("/readyz", get(routes::readyz))
        .route("/metrics", get(routes::metrics_page))
        .route(
            "/api/openapi.json",
            get(|| async { Json(openapi::document()) }),
        )
        .route("/", get(web::page))
        .route("/assets/{*path}", get(web::asset))
        // The installable page: its manifest, its service worker and the tile table it keeps.
        .route("/manifest.webmanifest", get(install::manifest))
        .route("/sw.js", get(install::worker))
        .route("/assets/tiles.json", get(install::tiles))
        .route("/api/tiles", get(routes::tiles))
        .route("/api/players", post(accounts::sign_up))
        .route(
            "/api/session",
            post(accounts::session).delete(accounts::log_out),
        )
        .route("/api/sessions", delete(accounts::log_out_everywhere))
        .route(
            "/api/me",
            get(accounts::me).delete(accounts::delete_account),
        )
        .route("/api/me/password", put(accounts::change_password))
        .route("/api/me/games", get(players::my_games))
        .route("/api/players/{name}", get(players::profile))
        .route("/api/leaderboard", get(players::leaderboard))
        // Challenges and follows between accounts.
        .route(
            "/api/challenges",
            get(challenges::list).post(challenges::send),
        )
        .route("/api/challenges/{id}", delete(challenges::withdraw))
        .route("/api/challenges/{id}/accept", post(challenges::accept))
        .route("/api/challenges/{id}/decline", post(challenges::decline))
        .route("/api/follows", get(challenges::follows))
        .route(
            "/api/follows/{name}",
            put(challenges::follow).delete(challenges::unfollow),
        )
        .route("/api/me/challenges", put(challenges::set_from))
        .route("/api/daily", get(daily_routes::today))
        .route("/api/daily/{variant}/start", post(daily_routes::start))
        .route("/api/daily/{variant}/leaderboard", get(daily_routes::board))
        .route("/api/games/{id}/daily", get(daily_routes::card))
        .route("/api/seeks", get(seeks::pools).post(seeks::create))
        .route("/api/seeks/{id}", get(seeks::state).delete(seeks::cancel))
        .route("/api/seeks/{id}/bots", post(seeks::bots))
        .route("/api/seeks/{id}/ws", get(seeks::socket))
        .route("/api/games", get(routes::lobby).post(routes::create))
        .route("/api/games/{id}", get(routes::state))
        .route("/api/games/{id}/join", post(routes::join))
        .route("/api/games/{id}/moves", post(routes::play))
        .route("/api/games/{id}/preview", post(routes::preview))
        .route("/api/games/{id}/rematch", post(routes::rematch))
        .route("/api/games/{id}/resign", post(routes::resign))
        .route("/api/games/{id}/cancel", post(routes::cancel))
        .route("/api/games/{id}/chat", get(routes::chat).post(routes::say))
        .route("/api/games/{id}/moves", get(routes::moves))
        .route("/api/games/{id}/record", get(routes::record))
        .route("/api/games/{id}/ws", get(ws::connect))
        .route("/api/games/{id}/replay", get(study::replay))
        .route("/api/replay", post(study::replay_record))
        .route("/api/analysis", post(study::analysis))
        .route("/games/{id}", get(web::page))
        .route("/games/{id}/replay", get(web::page))
        .route("/replay", get(web::page))
        .route("/games/{id}/join/{code}", get(web::page))
        .route("/rules", get(web::page))
        .route("/tutorial", get(web::page))
        .route("/about", get(web::page))
        .route("/account", get(web::page))
        .route("/leaderboard", get(web::page))
        .route("/daily", get(web::page))
        .route("/players/{name}", get(web::page))
        // The games to watch.
        .route("/api/live", get(live_routes::live))
        .route("/watch", get(web::page))
        // Notices and mail.
        .route("/api/notices", get(notices::list))
        .route("/api/notices/read", post(notices::read))
        .route(
            "/api/me/email",
            get(notices::get_mail).put(notices::put_mail),
        )
        .route("/api/mail/verify", get(notices::verify))
        .route(
            "/api/mail/stop",
            get(notices::stop).post(notices::stop_post),
        )
        .route("/notices", get(web::page))
        .fallback(web::fallback)
        .method_not_allowed_fallback(routes::method_not_allowed)
        .layer(if body_limit == 0 {
            DefaultBodyLimit::disable()
        } else {
            DefaultBodyLimit::max(body_limit)
        })
        // The WebSockets open per address, shared by all of this router's connections.
        .layer(Extension(ws::OpenSockets::default()))
        // The scheme the Origin check compares: a client's own `X-Forwarded-Proto` replaced.
        .layer(axum::middleware::from_fn_with_state(
            app.clone(),
            client_addr::forwarded_proto,
        ))
        .with_state(app)
}

/// Opens the store `db` names (a SQLite file, or a `postgres://` URL) and starts a server on it.
pub async fn open(db: &str, config: Config) -> Result<Arc<App>, StartError> {
    // Refused before the store is opened: a refused start must not migrate a shared database.
    if config.deck_seed.is_some() && store::is_postgres(db) {
        return Err(StartError::SharedSeed);
    }
    let store = store::open(db, true).await?;
    App::start(store, config).await
}

/// Serves `app` on `listener` until `shutdown` resolves, then drains (see `http::serve_router`).
pub async fn serve(
    app: Arc<App>,
    listener: TcpListener,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let tidy = app.clone();
    let tidying = tokio::spawn(async move {
        let mut every = tokio::time::interval(Duration::from_secs(60));
        loop {
            every.tick().await;
            tidy.limiters.tidy();
            tidy.hub.tidy();
        }
    });
    let (limits, metrics) = (app.config.http.clone(), app.metrics.clone());
    let result = http::serve_router(router(app.clone()), listener, shutdown, limits, metrics).await;
    tidying.abort();
    // Its spectators are no one's any more: other servers stop adding them up at once.
    app.forget_spectators().await;
    result
}
