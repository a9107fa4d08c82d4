//! `GET /metrics`: counters, gauges and histograms in the Prometheus (OpenMetrics) text format.
//! One registry per `App`, no global state, so tests and several servers in one process each
//! count their own.

use axum::extract::{MatchedPath, Request};
use axum::http::Method;
use axum::middleware::Next;
use axum::response::Response;
use prometheus_client::encoding::text::encode;
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{exponential_buckets, Histogram};
use prometheus_client::registry::Registry;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The label a request has when no route matched it: unknown paths stay out of the labels, so
/// a scanner cannot make the metrics grow without end.
const UNMATCHED: &str = "unmatched";

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    route: String,
    method: String,
    status: u16,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RouteLabel {
    route: String,
}

type Histograms = Family<RouteLabel, Histogram, fn() -> Histogram>;

/// The server's metrics. Clones share their values.
#[derive(Clone)]
pub struct Metrics {
    registry: Arc<Registry>,
    requests: Family<RequestLabels, Counter>,
    latency: Histograms,
    connections_open: Gauge,
    connections_refused: Counter,
    websockets_open: Gauge,
    moves_played: Counter,
    seats_timed_out: Counter,
    seats_resigned: Counter,
    games_live: Gauge,
    bot_queue: Gauge,
    bot_wait: Histogram,
}

/// From 1 ms to about 16 s: a request or a bot's wait is seldom shorter, and should never be
/// longer.
fn seconds_histogram() -> Histogram {
    Histogram::new(exponential_buckets(0.001, 2.0, 15))
}

impl Default for Metrics {
    fn default() -> Metrics {
        Metrics::new()
    }
}

impl Metrics {
    pub fn new() -> Metrics {
        let mut registry = Registry::with_prefix("sagani");
        let requests = Family::<RequestLabels, Counter>::default();
        registry.register(
            "http_requests",
            "HTTP requests answered, by route template, method and status",
            requests.clone(),
        );
        let latency: Histograms = Family::new_with_constructor(seconds_histogram);
        registry.register(
            "http_request_duration_seconds",
            "Time to answer an HTTP request (to the 101 for a WebSocket), by route template",
            latency.clone(),
        );
        let connections_open = Gauge::default();
        registry.register(
            "http_connections_open",
            "TCP connections open, WebSockets included",
            connections_open.clone(),
        );
        let connections_refused = Counter::default();
        registry.register(
            "http_connections_refused",
            "TCP connections closed at once because max_connections were open",
            connections_refused.clone(),
        );
        let websockets_open = Gauge::default();
        registry.register(
            "websockets_open",
            "WebSockets open",
            websockets_open.clone(),
        );
        let moves_played = Counter::default();
        registry.register(
            "moves_played",
            "Moves played (by people and bots)",
            moves_played.clone(),
        );
        let seats_timed_out = Counter::default();
        registry.register(
            "seats_timed_out",
            "Seats handed to a bot because their time ran out",
            seats_timed_out.clone(),
        );
        let seats_resigned = Counter::default();
        registry.register(
            "seats_resigned",
            "Seats handed to a bot because their player resigned",
            seats_resigned.clone(),
        );
        let games_live = Gauge::default();
        registry.register("games_live", "Games held in memory", games_live.clone());
        let bot_queue = Gauge::default();
        registry.register(
            "bot_queue_length",
            "Bot decisions waiting for a thread",
            bot_queue.clone(),
        );
        let bot_wait = seconds_histogram();
        registry.register(
            "bot_queue_wait_seconds",
            "Time a bot decision waited for a thread",
            bot_wait.clone(),
        );
        Metrics {
            registry: Arc::new(registry),
            requests,
            latency,
            connections_open,
            connections_refused,
            websockets_open,
            moves_played,
            seats_timed_out,
            seats_resigned,
            games_live,
            bot_queue,
            bot_wait,
        }
    }

    /// One move played.
    pub fn move_played(&self) {
        self.moves_played.inc();
    }

    /// A seat handed to a bot.
    pub fn seat_left(&self, reason: crate::store::LeftReason) {
        match reason {
            crate::store::LeftReason::TimedOut => self.seats_timed_out.inc(),
            crate::store::LeftReason::Resigned => self.seats_resigned.inc(),
        };
    }

    /// The number of games held in memory now.
    pub fn set_games_live(&self, n: usize) {
        self.games_live.set(n as i64);
    }

    /// The bot queue's length now.
    pub fn bot_queued(&self, len: usize) {
        self.bot_queue.set(len as i64);
    }

    /// How long a bot decision waited for a thread.
    pub fn bot_wait(&self, wait: Duration) {
        self.bot_wait.observe(wait.as_secs_f64());
    }

    pub fn websocket_opened(&self) {
        self.websockets_open.inc();
    }

    pub fn websocket_closed(&self) {
        self.websockets_open.dec();
    }

    pub(crate) fn connection_opened(&self) {
        self.connections_open.inc();
    }

    pub(crate) fn connection_closed(&self) {
        self.connections_open.dec();
    }

    pub(crate) fn connection_refused(&self) {
        self.connections_refused.inc();
    }

    /// One request answered.
    pub fn request(&self, route: &str, method: &Method, status: u16, took: Duration) {
        // Methods outside the standard few become one label value, for the same reason as
        // unmatched routes.
        const STANDARD: [Method; 9] = [
            Method::GET,
            Method::HEAD,
            Method::POST,
            Method::PUT,
            Method::DELETE,
            Method::OPTIONS,
            Method::PATCH,
            Method::CONNECT,
            Method::TRACE,
        ];
        let method = if STANDARD.contains(method) {
            method.as_str()
        } else {
            "other"
        };
        self.requests
            .get_or_create(&RequestLabels {
                route: route.to_string(),
                method: method.to_string(),
                status,
            })
            .inc();
        self.latency
            .get_or_create(&RouteLabel {
                route: route.to_string(),
            })
            .observe(took.as_secs_f64());
    }

    /// Everything, in the OpenMetrics text format (which Prometheus reads).
    pub fn render(&self) -> String {
        let mut text = String::new();
        encode(&mut text, &self.registry).expect("writing to a String cannot fail");
        text
    }
}

/// Middleware: counts every request by its route template (never its path, which may hold an
/// invite code), method and status.
pub async fn track(metrics: Metrics, request: Request, next: Next) -> Response {
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or(UNMATCHED, |p| p.as_str())
        .to_string();
    let method = request.method().clone();
    let start = Instant::now();
    let response = next.run(request).await;
    metrics.request(&route, &method, response.status().as_u16(), start.elapsed());
    response
}
