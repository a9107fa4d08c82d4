//! The client address that limits count by: the TCP peer, or, only when the peer is one of
//! `HttpLimits::trusted_proxies`, the address that proxy says it served (`X-Forwarded-For`).
//! Anyone can send that header, so from any other peer it is ignored. Likewise the scheme the
//! site was reached by (`X-Forwarded-Proto`), which the Origin check compares.

use crate::app::App;
use crate::error::{ApiError, ErrorCode};
use axum::extract::{ConnectInfo, FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;
use ipnet::IpNet;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

/// The key a per-address limit counts by: an IPv4 address, or the /64 network of an IPv6 one
/// (a single host usually holds a whole /64).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ClientAddr(pub String);

impl FromRequestParts<Arc<App>> for ClientAddr {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &Arc<App>) -> Result<Self, ApiError> {
        let Some(ConnectInfo(peer)) = parts.extensions.get::<ConnectInfo<SocketAddr>>() else {
            // Only a router served without `http::serve_router` lacks it.
            tracing::error!("a request without its peer's address");
            return Err(ApiError::new(
                ErrorCode::Internal,
                "the server failed on this request",
            ));
        };
        let ip = client_ip(peer.ip(), &parts.headers, &app.config.http.trusted_proxies);
        Ok(ClientAddr(key(ip)))
    }
}

/// The client's address: `peer`, unless `peer` is a trusted proxy; then the rightmost address
/// of `X-Forwarded-For` that is not itself a trusted proxy (each proxy appends the address it
/// was reached from, so only the entries right of the first untrusted one can be believed).
pub fn client_ip(peer: IpAddr, headers: &HeaderMap, trusted: &[IpNet]) -> IpAddr {
    let is_trusted = |ip: &IpAddr| trusted.iter().any(|net| net.contains(ip));
    let mut client = peer.to_canonical();
    if !is_trusted(&client) {
        return client;
    }
    // Several header lines make one list, in order (RFC 9110 §5.3).
    let lines: Vec<&str> = headers
        .get_all("x-forwarded-for")
        .iter()
        .map(|v| v.to_str().unwrap_or(""))
        .collect();
    for hop in lines.iter().rev().flat_map(|line| line.rsplit(',')) {
        match parse_hop(hop.trim()) {
            Some(ip) if is_trusted(&ip) => client = ip,
            Some(ip) => return ip,
            // A proxy of ours wrote nonsense: the last address we can believe is the client.
            None => return client,
        }
    }
    // Nothing but proxies: a proxy speaks for itself.
    client
}

/// The header that says which scheme a request reached the site by. From a client it is not
/// believed: `forwarded_proto` sets it on every request, so handlers can read it.
pub const FORWARDED_PROTO: &str = "x-forwarded-proto";

/// The scheme a request reached the site by: what a trusted proxy says (`X-Forwarded-Proto`,
/// one value, `http` or `https`); else `https` when the site's public address is (the
/// `secure` cookies: a browser sends them over HTTPS only), else `http`.
pub fn scheme(
    peer: Option<IpAddr>,
    headers: &HeaderMap,
    trusted: &[IpNet],
    secure: bool,
) -> &'static str {
    let from_proxy = peer.is_some_and(|p| {
        let p = p.to_canonical();
        trusted.iter().any(|net| net.contains(&p))
    });
    let said = headers.get_all(FORWARDED_PROTO).iter().collect::<Vec<_>>();
    match said.as_slice() {
        [one] if from_proxy => match one.to_str().map(|s| s.trim().to_ascii_lowercase()) {
            Ok(s) if s == "https" => return "https",
            Ok(s) if s == "http" => return "http",
            _ => {}
        },
        _ => {}
    }
    if secure {
        "https"
    } else {
        "http"
    }
}

/// A layer that replaces a request's `X-Forwarded-Proto` with the scheme it reached the site
/// by (`scheme`), so that what a client wrote there itself is never read.
pub async fn forwarded_proto(
    State(app): State<Arc<App>>,
    mut request: Request,
    next: Next,
) -> Response {
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip());
    let scheme = scheme(
        peer,
        request.headers(),
        &app.config.http.trusted_proxies,
        app.config.secure_cookies,
    );
    request
        .headers_mut()
        .insert(FORWARDED_PROTO, HeaderValue::from_static(scheme));
    next.run(request).await
}

/// An address as proxies write it: `1.2.3.4`, `2001:db8::1`, `[2001:db8::1]`, or with a port.
fn parse_hop(hop: &str) -> Option<IpAddr> {
    let ip = hop
        .parse::<IpAddr>()
        .ok()
        .or_else(|| hop.parse::<SocketAddr>().ok().map(|a| a.ip()))
        .or_else(|| {
            hop.strip_prefix('[')?
                .strip_suffix(']')?
                .parse::<IpAddr>()
                .ok()
        })?;
    Some(ip.to_canonical())
}

/// The key of `ip` (see `ClientAddr`).
pub fn key(ip: IpAddr) -> String {
    match ip.to_canonical() {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => {
            let s = v6.segments();
            format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(lines: &[&str]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for l in lines {
            h.append("x-forwarded-for", HeaderValue::from_str(l).unwrap());
        }
        h
    }

    fn nets(list: &[&str]) -> Vec<IpNet> {
        list.iter().map(|n| n.parse().unwrap()).collect()
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn an_untrusted_peer_is_the_client_whatever_it_forwards() {
        let h = headers(&["203.0.113.9"]);
        assert_eq!(client_ip(ip("198.51.100.1"), &h, &[]), ip("198.51.100.1"));
        let trusted = nets(&["10.0.0.0/8"]);
        assert_eq!(
            client_ip(ip("198.51.100.1"), &h, &trusted),
            ip("198.51.100.1")
        );
    }

    #[test]
    fn a_trusted_proxy_names_the_client() {
        let trusted = nets(&["10.0.0.0/8"]);
        let h = headers(&["203.0.113.9"]);
        assert_eq!(client_ip(ip("10.1.2.3"), &h, &trusted), ip("203.0.113.9"));
    }

    #[test]
    fn the_rightmost_untrusted_hop_wins_over_what_the_client_wrote() {
        let trusted = nets(&["10.0.0.0/8", "192.0.2.0/24"]);
        // The client wrote "1.1.1.1" itself; our two proxies appended the rest.
        let h = headers(&["1.1.1.1, 203.0.113.9", "192.0.2.7"]);
        assert_eq!(client_ip(ip("10.1.2.3"), &h, &trusted), ip("203.0.113.9"));
        let h = headers(&["1.1.1.1,203.0.113.9,192.0.2.7"]);
        assert_eq!(client_ip(ip("10.1.2.3"), &h, &trusted), ip("203.0.113.9"));
    }

    #[test]
    fn ports_brackets_and_mapped_addresses_are_read() {
        let trusted = nets(&["127.0.0.1/32"]);
        let peer = ip("127.0.0.1");
        for (line, want) in [
            ("203.0.113.9:4711", "203.0.113.9"),
            ("[2001:db8::1]:443", "2001:db8::1"),
            ("[2001:db8::1]", "2001:db8::1"),
            ("::ffff:203.0.113.9", "203.0.113.9"),
        ] {
            assert_eq!(
                client_ip(peer, &headers(&[line]), &trusted),
                ip(want),
                "{line}"
            );
        }
        // A mapped peer is matched as the IPv4 address it is.
        let mapped = ip("::ffff:127.0.0.1");
        assert_eq!(
            client_ip(mapped, &headers(&["203.0.113.9"]), &trusted),
            ip("203.0.113.9")
        );
    }

    #[test]
    fn without_a_header_or_with_nonsense_the_nearest_believable_address_counts() {
        let trusted = nets(&["10.0.0.0/8"]);
        assert_eq!(
            client_ip(ip("10.1.2.3"), &HeaderMap::new(), &trusted),
            ip("10.1.2.3")
        );
        let h = headers(&["unknown"]);
        assert_eq!(client_ip(ip("10.1.2.3"), &h, &trusted), ip("10.1.2.3"));
        let h = headers(&["203.0.113.9, garbage, 10.9.9.9"]);
        assert_eq!(client_ip(ip("10.1.2.3"), &h, &trusted), ip("10.9.9.9"));
        // Only proxies: the leftmost one.
        let h = headers(&["10.7.7.7, 10.9.9.9"]);
        assert_eq!(client_ip(ip("10.1.2.3"), &h, &trusted), ip("10.7.7.7"));
    }

    #[test]
    fn only_a_trusted_proxy_says_the_scheme() {
        let trusted = nets(&["10.0.0.0/8"]);
        let mut h = HeaderMap::new();
        h.insert(FORWARDED_PROTO, HeaderValue::from_static("https"));
        let proxy = Some(ip("10.1.2.3"));
        let client = Some(ip("203.0.113.9"));
        assert_eq!(scheme(proxy, &h, &trusted, false), "https");
        assert_eq!(
            scheme(client, &h, &trusted, false),
            "http",
            "a client's own header"
        );
        assert_eq!(scheme(None, &h, &trusted, false), "http");
        assert_eq!(
            scheme(client, &h, &trusted, true),
            "https",
            "the public address"
        );
        h.insert(FORWARDED_PROTO, HeaderValue::from_static("HTTP "));
        assert_eq!(scheme(proxy, &h, &trusted, true), "http");
        // Nonsense, or a list: the default.
        h.insert(FORWARDED_PROTO, HeaderValue::from_static("https, http"));
        assert_eq!(scheme(proxy, &h, &trusted, false), "http");
        h.insert(FORWARDED_PROTO, HeaderValue::from_static("gopher"));
        assert_eq!(scheme(proxy, &h, &trusted, true), "https");
        h.remove(FORWARDED_PROTO);
        assert_eq!(scheme(proxy, &h, &trusted, false), "http");
    }

    #[test]
    fn keys_are_the_address_or_the_ipv6_64() {
        assert_eq!(key(ip("203.0.113.9")), "203.0.113.9");
        assert_eq!(key(ip("::ffff:203.0.113.9")), "203.0.113.9");
        assert_eq!(key(ip("2001:db8:1:2:3:4:5:6")), "2001:db8:1:2::/64");
    }
}
