//! The installable page: the web app manifest, the service worker that keeps the page's shell
//! for use without a network, and the version that names a shell.
//!
//! The worker (`web/sw.js`) is served at `/sw.js` with this server's shell written in: its
//! version (a hash of every file of the page and of the tile table) and the paths it keeps.
//! Every file of the shell carries the version (`web.rs`) in a header, so a worker filling its
//! cache from two servers of different versions notices and fails rather than keep a mix.

use crate::web::{secure, tiles_json, version, Assets, ROOT_FILES, VERSION_HEADER};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};

/// The worker template's lines the server fills in.
const VERSION_LINE: &str = "const VERSION = 'dev';";
const PRECACHE_LINE: &str = "const PRECACHE = [];";

/// The paths the worker keeps: the page, its manifest, the tile table and every file of `web/`.
pub(crate) fn precache() -> Vec<String> {
    let mut files: Vec<String> = Assets::iter()
        .filter(|f| f != "index.html" && !ROOT_FILES.contains(&f.as_ref()))
        .map(|f| format!("/assets/{f}"))
        .collect();
    files.sort();
    let mut paths = vec![
        "/".to_string(),
        "/manifest.webmanifest".to_string(),
        "/assets/tiles.json".to_string(),
    ];
    paths.extend(files);
    paths
}

/// A file of the shell: its type, revalidated on every use (`no-cache`), with an ETag.
fn shell_file(
    headers: &HeaderMap,
    body: Vec<u8>,
    content_type: &'static str,
    etag: String,
    extra: &[(header::HeaderName, &'static str)],
) -> Response {
    let etag = format!("\"{etag}\"");
    if headers
        .get(header::IF_NONE_MATCH)
        .is_some_and(|v| v.as_bytes() == etag.as_bytes())
    {
        return secure(
            (
                StatusCode::NOT_MODIFIED,
                [
                    (header::ETAG, etag),
                    (header::HeaderName::from_static(VERSION_HEADER), version()),
                ],
            )
                .into_response(),
        );
    }
    let mut response = (
        [
            (header::CONTENT_TYPE, content_type.to_string()),
            (header::CACHE_CONTROL, "no-cache".to_string()),
            (header::ETAG, etag),
            (header::HeaderName::from_static(VERSION_HEADER), version()),
        ],
        body,
    )
        .into_response();
    for (name, value) in extra {
        response
            .headers_mut()
            .insert(name.clone(), HeaderValue::from_static(value));
    }
    secure(response)
}

fn missing(what: &str) -> Response {
    (
        StatusCode::INTERNAL_SERVER_ERROR,
        format!("{what} is missing from this build"),
    )
        .into_response()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The worker's script with this server's shell written in, or None if the template lost one
/// of the lines the server fills (a unit test keeps them).
pub(crate) fn worker_script() -> Option<String> {
    let template = Assets::get("sw.js")?;
    let text = String::from_utf8_lossy(&template.data);
    if !text.contains(VERSION_LINE) || !text.contains(PRECACHE_LINE) {
        return None;
    }
    let list = serde_json::to_string(&precache()).ok()?;
    Some(
        text.replacen(
            VERSION_LINE,
            &format!("const VERSION = '{}';", version()),
            1,
        )
        .replacen(PRECACHE_LINE, &format!("const PRECACHE = {list};"), 1),
    )
}

/// `/sw.js`: the service worker, at the root so that its scope is the whole page.
pub async fn worker(headers: HeaderMap) -> Response {
    let Some(script) = worker_script() else {
        return missing("the service worker");
    };
    let etag = hex(&Sha256::digest(script.as_bytes())[..16]);
    shell_file(
        &headers,
        script.into_bytes(),
        "text/javascript; charset=utf-8",
        etag,
        &[(
            header::HeaderName::from_static("service-worker-allowed"),
            "/",
        )],
    )
}

/// `/manifest.webmanifest`: the page's name, colours and icons for a phone's home screen.
pub async fn manifest(headers: HeaderMap) -> Response {
    let Some(file) = Assets::get("manifest.webmanifest") else {
        return missing("the manifest");
    };
    let etag = hex(&file.metadata.sha256_hash()[..16]);
    shell_file(
        &headers,
        file.data.into_owned(),
        "application/manifest+json",
        etag,
        &[],
    )
}

/// `/assets/tiles.json`: the tile table the page draws its tiles from (the same as
/// `/api/tiles`), kept by the worker with the rest of the shell.
pub async fn tiles(headers: HeaderMap) -> Response {
    let body = tiles_json();
    let etag = hex(&Sha256::digest(body)[..16]);
    shell_file(&headers, body.to_vec(), "application/json", etag, &[])
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_worker_gets_its_version_and_list() {
        let script = super::worker_script().expect("web/sw.js has the lines the server fills");
        assert!(script.contains(&format!("const VERSION = '{}';", super::version())));
        assert!(script.contains("\"/assets/main.js\""));
        assert!(!script.contains("\"/assets/index.html\""));
        assert!(!script.contains("\"/assets/sw.js\""));
        assert_eq!(super::version().len(), 16);
    }
}
