//! Servers in this process, reached without a socket: a request goes to the router, with the
//! layers every route gets, by `tower::ServiceExt::oneshot`. For tests that need no socket (no
//! WebSocket, no connection limits, no drain): no port, no TCP, nothing to wait for but the
//! answer.

use axum::extract::ConnectInfo;
use axum::http::header::HOST;
use reqwest::header::HeaderMap;
use sagani_server::App;
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, Mutex};
use tower::ServiceExt;

/// The routers served in this process, by the URL they answer to (`http://local-N`).
static ROUTERS: LazyLock<Mutex<HashMap<String, axum::Router>>> = LazyLock::new(Default::default);
static NEXT: AtomicU64 = AtomicU64::new(1);

/// Serves `app` in this process; its URL, which [`execute`] sends to the router.
pub fn serve(app: Arc<App>) -> String {
    let url = format!("http://local-{}", NEXT.fetch_add(1, Ordering::Relaxed));
    answer_at(&url, app);
    url
}

/// Requests to `url` (a server on a socket, for its WebSockets) go to `app`'s router instead.
pub fn answer_at(url: &str, app: Arc<App>) {
    let router = sagani_server::http::layers(
        sagani_server::router(app.clone()),
        &app.config.http,
        &app.metrics,
    );
    ROUTERS.lock().unwrap().insert(url.to_string(), router);
}

/// An answer as received.
pub struct Received {
    pub status: u16,
    pub headers: HeaderMap,
    pub text: String,
}

/// Sends a request where its URL points (see [`execute`]).
pub async fn send(r: reqwest::RequestBuilder) -> Received {
    let (client, request) = r.build_split();
    execute(&client, request.expect("a request")).await
}

/// Sends `request` where its URL points: to a router of this process, or over the network.
pub async fn execute(client: &reqwest::Client, request: reqwest::Request) -> Received {
    let origin = request.url().origin().ascii_serialization();
    let local = ROUTERS.lock().unwrap().get(&origin).cloned();
    let Some(router) = local else {
        let response = client.execute(request).await.expect("the server answers");
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let text = response.text().await.expect("a body");
        return Received {
            status,
            headers,
            text,
        };
    };
    let url = request.url();
    let target = match url.query() {
        Some(q) => format!("{}?{q}", url.path()),
        None => url.path().to_string(),
    };
    // As a client sends it: the port too, unless it is the scheme's own.
    let host = match (url.host_str().unwrap_or_default(), url.port()) {
        (h, Some(port)) => format!("{h}:{port}"),
        (h, None) => h.to_string(),
    };
    let body = request
        .body()
        .and_then(|b| b.as_bytes())
        .map(<[u8]>::to_vec)
        .unwrap_or_default();
    let mut to_router = axum::http::Request::builder()
        .method(request.method().clone())
        .uri(target)
        .body(axum::body::Body::from(body))
        .expect("a request");
    *to_router.headers_mut() = request.headers().clone();
    to_router
        .headers_mut()
        .insert(HOST, host.parse().expect("a host"));
    // What the server would know of a connection from this machine.
    to_router
        .extensions_mut()
        .insert(ConnectInfo(SocketAddr::from(([127, 0, 0, 1], 50_000))));
    let response = router.oneshot(to_router).await.expect("routers answer");
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .expect("a body");
    Received {
        status,
        headers,
        text: String::from_utf8(bytes.to_vec()).expect("a text body"),
    }
}
