//! The server's own accept loop (instead of `axum::serve`, which has no timeouts and no cap):
//! HTTP/1.1 with WebSocket upgrades, a deadline for request heads, an idle timeout between
//! requests, a timeout per request, a cap on open connections (in all and per client address),
//! and a shutdown that drains within a deadline. See docs/operations.md.

use crate::client_addr::{client_ip, key};
use crate::error::{ApiError, ErrorCode};
use crate::limits::HttpLimits;
use crate::metrics::{self, Metrics};
use crate::per_address::{PerAddress, Slot};
use axum::extract::{ConnectInfo, Request};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::{self as mw, Next};
use axum::response::{IntoResponse, Response};
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, Notify};
use tokio::task::JoinSet;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;
use tower::Service;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::compression::predicate::{NotForContentType, Predicate, SizeAbove};
use tower_http::compression::CompressionLayer;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::trace::{DefaultOnResponse, TraceLayer};

/// Cancelled when the server begins to stop. Every request carries it (an extension), so a
/// handler that outlives its request, a WebSocket, can end by itself.
#[derive(Clone, Default)]
pub struct Stopping(pub CancellationToken);

/// The layers every route gets, outermost first: tracing, metrics, `nosniff`, requests per
/// forwarded address, compression, the request timeout and the panic catcher (innermost, so
/// the others see its 500).
pub fn layers(router: Router, limits: &HttpLimits, metrics: &Metrics) -> Router {
    let mut router = router.layer(CatchPanicLayer::custom(panicked));
    let limit = limits.request_timeout;
    if !limit.is_zero() {
        router = router.layer(mw::from_fn(move |request: Request, next: Next| {
            within(limit, request, next)
        }));
    }
    // Small bodies lose more to the header than they gain; a 101 has nothing to compress, but
    // should never be marked as compressed.
    let compress = SizeAbove::new(256)
        .and(NotForContentType::IMAGES)
        .and(NotForContentType::SSE)
        .and(|status: StatusCode, _: _, _: &_, _: &_| status != StatusCode::SWITCHING_PROTOCOLS);
    let counted = metrics.clone();
    let proxied = Proxied {
        trusted: limits.trusted_proxies.clone(),
        max: limits.max_connections_per_ip,
        requests: Arc::default(),
    };
    router
        .layer(CompressionLayer::new().compress_when(compress))
        .layer(mw::from_fn(move |request: Request, next: Next| {
            proxied.clone().count(request, next)
        }))
        // A browser must not read an answer as anything but the type it says it is.
        .layer(SetResponseHeaderLayer::if_not_present(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(mw::from_fn(move |request: Request, next: Next| {
            metrics::track(counted.clone(), request, next)
        }))
        .layer(
            TraceLayer::new_for_http()
                // The route's template only: a path may hold an invite code, a query a token.
                // No headers either (Authorization).
                .make_span_with(|request: &Request| {
                    let route = request
                        .extensions()
                        .get::<axum::extract::MatchedPath>()
                        .map_or("unmatched", |p| p.as_str());
                    tracing::info_span!("http", method = %request.method(), route)
                })
                .on_response(DefaultOnResponse::new().level(tracing::Level::DEBUG)),
        )
}

/// Requests that came through a trusted proxy, counted by the address it forwards for: the
/// proxy's own connections are not capped per address (they carry everyone), so a client
/// behind it may have `max` requests in progress at once instead. (Its WebSockets are capped
/// by `max_sockets_per_ip`.)
#[derive(Clone)]
struct Proxied {
    trusted: Vec<ipnet::IpNet>,
    max: usize,
    requests: Arc<PerAddress>,
}

impl Proxied {
    async fn count(self, request: Request, next: Next) -> Response {
        let peer = request
            .extensions()
            .get::<ConnectInfo<SocketAddr>>()
            .map(|ConnectInfo(peer)| peer.ip());
        let Some(peer) = peer.filter(|ip| is_trusted(&self.trusted, ip)) else {
            return next.run(request).await;
        };
        let addr = key(client_ip(peer, request.headers(), &self.trusted));
        match self.requests.open(&addr, self.max) {
            Some(_slot) => next.run(request).await,
            None => too_many_connections(self.max).into_response(),
        }
    }
}

fn is_trusted(trusted: &[ipnet::IpNet], ip: &IpAddr) -> bool {
    let ip = ip.to_canonical();
    trusted.iter().any(|net| net.contains(&ip))
}

fn too_many_connections(max: usize) -> ApiError {
    ApiError {
        retry_after: Some(10),
        ..ApiError::new(
            ErrorCode::TooManyConnections,
            format!("this address has {max} connections open already; close one first"),
        )
    }
}

/// Answers a connection beyond its address's cap with a 429 and closes it, without reading
/// its request (that is the work the cap refuses). What the client has sent already is read
/// away first, so the close does not reset the connection before the answer is read.
fn refuse(stream: TcpStream, max: usize) {
    let body = serde_json::to_string(&too_many_connections(max).body()).unwrap_or_default();
    let answer = format!(
        "HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\n\
         x-content-type-options: nosniff\r\nretry-after: 10\r\nconnection: close\r\n\
         content-length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut sent = [0u8; 4096];
    let _ = stream.try_read(&mut sent);
    // A fresh socket's send buffer takes this whole; if not, the client gets less.
    let _ = stream.try_write(answer.as_bytes());
    if let Ok(std) = stream.into_std() {
        let _ = std.shutdown(std::net::Shutdown::Write);
    }
}

/// A handler's panic, answered as the API answers any failure. Its text goes to the log only.
fn panicked(panic: Box<dyn std::any::Any + Send + 'static>) -> Response {
    let text = panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_default();
    tracing::error!("a request panicked: {text}");
    ApiError::new(ErrorCode::Internal, "the server failed on this request").into_response()
}

/// Runs the rest of the stack within `limit`.
async fn within(limit: Duration, request: Request, next: Next) -> Response {
    match tokio::time::timeout(limit, next.run(request)).await {
        Ok(response) => response,
        Err(_) => ApiError::new(
            ErrorCode::Timeout,
            format!(
                "the server took longer than {} s over this request",
                limit.as_secs_f64()
            ),
        )
        .into_response(),
    }
}

/// Serves `router` (with `layers`) on `listener` until `shutdown` resolves, then drains: no new
/// connections, requests in flight finish, WebSockets are told to close (`Stopping`), idle
/// connections close; whatever is still open after `limits.drain_deadline` is dropped.
pub async fn serve_router(
    router: Router,
    listener: TcpListener,
    shutdown: impl Future<Output = ()> + Send + 'static,
    limits: HttpLimits,
    metrics: Metrics,
) -> io::Result<()> {
    let router = layers(router, &limits, &metrics);
    let limits = Arc::new(limits);
    let stopping = CancellationToken::new();
    let (count, mut open) = watch::channel(0usize);
    let count = Arc::new(count);
    let mut connections = JoinSet::new();
    let per_address = Arc::new(PerAddress::default());
    let mut refusing = false;
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            _ = &mut shutdown => break,
            // Finished connections leave the set, so it does not grow.
            Some(_) = connections.join_next(), if !connections.is_empty() => continue,
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) if is_connection_error(&e) => continue,
                Err(e) => {
                    // Out of file descriptors, most likely: wait for some to close.
                    tracing::error!("accepting a connection failed: {e}");
                    tokio::time::sleep(Duration::from_secs(1)).await;
                    continue;
                }
            },
        };
        let max = limits.max_connections;
        if max > 0 && *count.borrow() >= max {
            // Closed unanswered: an answer would need reading the request first, which is
            // the work the cap is there to refuse.
            metrics.connection_refused();
            if !refusing {
                tracing::warn!("{max} connections open: refusing new ones");
                refusing = true;
            }
            continue;
        }
        refusing = false;
        // A trusted proxy's connections carry many clients: they are counted per request.
        let slot = if is_trusted(&limits.trusted_proxies, &peer.ip()) {
            None
        } else {
            match per_address.open(&key(peer.ip()), limits.max_connections_per_ip) {
                Some(slot) => Some(slot),
                None => {
                    metrics.connection_refused();
                    refuse(stream, limits.max_connections_per_ip);
                    continue;
                }
            }
        };
        let open = Open::new(count.clone(), metrics.clone(), slot);
        connections.spawn(connection(
            stream,
            peer,
            open,
            router.clone(),
            limits.clone(),
            stopping.clone(),
        ));
    }
    drop(listener);
    stopping.cancel();
    let left = *count.borrow();
    tracing::info!("stopping: {left} connections open");
    let drained = tokio::time::timeout(limits.drain_deadline, open.wait_for(|n| *n == 0))
        .await
        .is_ok();
    if !drained {
        tracing::warn!(
            "{} connections still open after the drain deadline: dropped",
            *count.borrow()
        );
    }
    connections.shutdown().await;
    Ok(())
}

/// Errors of one connection that was already gone; the listener is fine.
fn is_connection_error(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::ConnectionRefused
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
    )
}

/// One connection, from accept to close.
async fn connection(
    stream: TcpStream,
    peer: SocketAddr,
    open: Open,
    router: Router,
    limits: Arc<HttpLimits>,
    stopping: CancellationToken,
) {
    // Answers are small JSON bodies: send them at once.
    let _ = stream.set_nodelay(true);
    let activity = Arc::new(Activity::new());
    let io = TokioIo::new(Tracked {
        io: stream,
        activity: activity.clone(),
        _open: open,
    });
    let service = {
        let (activity, stopping) = (activity.clone(), stopping.clone());
        hyper::service::service_fn(move |mut request: Request<Incoming>| {
            let busy = activity.begin();
            request.extensions_mut().insert(ConnectInfo(peer));
            request.extensions_mut().insert(Stopping(stopping.clone()));
            // A Router is always ready: no need to poll it first.
            let answer = router.clone().call(request);
            async move {
                let response = answer.await;
                drop(busy);
                response
            }
        })
    };
    let conn = hyper::server::conn::http1::Builder::new()
        // Our own clock (`Activity`) keeps the head and idle deadlines.
        .header_read_timeout(None)
        .serve_connection(io, service)
        .with_upgrades();
    tokio::pin!(conn);
    let mut told = false;
    loop {
        tokio::select! {
            done = conn.as_mut() => {
                if let Err(e) = done {
                    tracing::debug!("connection from {peer}: {e}");
                }
                return;
            }
            // Dropping the connection closes it.
            () = activity.expired(limits.header_timeout, limits.idle_timeout) => {
                tracing::debug!("connection from {peer} timed out");
                return;
            }
            () = stopping.cancelled(), if !told => {
                // An idle connection closes now, a busy one after its answer.
                conn.as_mut().graceful_shutdown();
                told = true;
            }
        }
    }
}

/// A connection counted as open until dropped (with its socket, also after an upgrade), in
/// all and against its address.
struct Open {
    count: Arc<watch::Sender<usize>>,
    metrics: Metrics,
    _slot: Option<Slot>,
}

impl Open {
    fn new(count: Arc<watch::Sender<usize>>, metrics: Metrics, slot: Option<Slot>) -> Open {
        count.send_modify(|n| *n += 1);
        metrics.connection_opened();
        Open {
            count,
            metrics,
            _slot: slot,
        }
    }
}

impl Drop for Open {
    fn drop(&mut self) {
        self.count.send_modify(|n| *n -= 1);
        self.metrics.connection_closed();
    }
}

/// A connection's clock: when it last moved bytes, since when an unfinished request head has
/// been arriving, and how many requests are in a handler.
struct Activity {
    clock: Mutex<Clock>,
    /// Told when a deadline may have come nearer (a head began, a request ended).
    changed: Notify,
}

struct Clock {
    last_io: Instant,
    head_since: Option<Instant>,
    in_flight: usize,
}

/// A request in a handler; its end restarts the idle clock.
struct Busy(Arc<Activity>);

impl Drop for Busy {
    fn drop(&mut self) {
        let mut clock = self.0.clock.lock().expect("clock lock");
        clock.in_flight -= 1;
        clock.last_io = Instant::now();
        drop(clock);
        self.0.changed.notify_one();
    }
}

impl Activity {
    fn new() -> Activity {
        let now = Instant::now();
        Activity {
            // A new connection owes its first head from the start.
            clock: Mutex::new(Clock {
                last_io: now,
                head_since: Some(now),
                in_flight: 0,
            }),
            changed: Notify::new(),
        }
    }

    fn read(&self) {
        let now = Instant::now();
        let mut clock = self.clock.lock().expect("clock lock");
        clock.last_io = now;
        if clock.in_flight == 0 && clock.head_since.is_none() {
            clock.head_since = Some(now);
            drop(clock);
            self.changed.notify_one();
        }
    }

    fn wrote(&self) {
        self.clock.lock().expect("clock lock").last_io = Instant::now();
    }

    fn begin(self: &Arc<Activity>) -> Busy {
        let mut clock = self.clock.lock().expect("clock lock");
        clock.in_flight += 1;
        clock.head_since = None;
        Busy(self.clone())
    }

    /// When the connection should be closed if nothing happens first; `None`: not while a
    /// request is in a handler (the request timeout rules then), or that timeout is off.
    fn deadline(&self, header: Duration, idle: Duration) -> Option<Instant> {
        let clock = self.clock.lock().expect("clock lock");
        if clock.in_flight > 0 {
            return None;
        }
        match clock.head_since {
            // Off, or so far away that it overflows: never.
            Some(since) if !header.is_zero() => since.checked_add(header),
            None if !idle.is_zero() => clock.last_io.checked_add(idle),
            _ => None,
        }
    }

    /// Resolves once a deadline has passed.
    async fn expired(&self, header: Duration, idle: Duration) {
        loop {
            match self.deadline(header, idle) {
                Some(at) if at <= Instant::now() => return,
                Some(at) => {
                    tokio::select! {
                        () = tokio::time::sleep_until(at) => {}
                        () = self.changed.notified() => {}
                    }
                }
                None => self.changed.notified().await,
            }
        }
    }
}

/// The socket, telling `Activity` when bytes move. It holds the connection's `Open` count, so
/// an upgraded WebSocket stays counted until it closes.
struct Tracked {
    io: TcpStream,
    activity: Arc<Activity>,
    _open: Open,
}

impl AsyncRead for Tracked {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let poll = Pin::new(&mut self.io).poll_read(cx, buf);
        if buf.filled().len() > before {
            self.activity.read();
        }
        poll
    }
}

impl AsyncWrite for Tracked {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.io).poll_write(cx, buf);
        if matches!(poll, Poll::Ready(Ok(n)) if n > 0) {
            self.activity.wrote();
        }
        poll
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.io).poll_write_vectored(cx, bufs);
        if matches!(poll, Poll::Ready(Ok(n)) if n > 0) {
            self.activity.wrote();
        }
        poll
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_shutdown(cx)
    }
}
