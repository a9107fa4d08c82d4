//! The browser page (`web/`), embedded in the binary so `sagani serve` is all a player needs.
//! Every page route answers `index.html`; the page reads the game id and invite from the path.
//! A browser asking for any other page gets `index.html` too, with 404: the page says so.

use axum::extract::Path;
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};
use std::sync::OnceLock;

/// `web/` without its end-to-end tests. In debug builds rust-embed reads the files from disk,
/// so the page can be edited without rebuilding; release builds carry them inside.
#[derive(rust_embed::RustEmbed)]
#[folder = "../../web/"]
#[exclude = "e2e/*"]
pub(crate) struct Assets;

/// The files of `web/` served at the root rather than under `/assets/`: a worker's scope is
/// the folder its script comes from, and the manifest names the scope `/`.
pub(crate) const ROOT_FILES: [&str; 2] = ["sw.js", "manifest.webmanifest"];

/// The response header naming the shell a file belongs to.
pub const VERSION_HEADER: &str = "sagani-shell";

/// The tile table the page draws its art from, as `GET /api/tiles` answers it. Served among the
/// assets as well (`install.rs`): it is part of the build, and the service worker keeps it.
pub(crate) fn tiles_json() -> &'static [u8] {
    static TILES: OnceLock<Vec<u8>> = OnceLock::new();
    TILES.get_or_init(|| {
        serde_json::to_vec(&crate::routes::tile_table()).expect("the tile table is JSON")
    })
}

fn compute_version() -> String {
    let mut names: Vec<String> = Assets::iter().map(|f| f.into_owned()).collect();
    names.sort();
    let mut hash = Sha256::new();
    for name in names {
        hash.update(name.as_bytes());
        hash.update([0]);
        if cfg!(debug_assertions) {
            // Read from disk on every ask: a file's size and time say whether it changed,
            // without reading and hashing every file for every request.
            let on_disk = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../web")
                .join(&name);
            if let Ok(meta) = std::fs::metadata(on_disk) {
                hash.update(meta.len().to_le_bytes());
                let time = meta
                    .modified()
                    .ok()
                    .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                    .unwrap_or_default();
                hash.update(time.as_nanos().to_le_bytes());
            }
        } else if let Some(file) = Assets::get(&name) {
            hash.update(file.metadata.sha256_hash());
        }
    }
    hash.update(tiles_json());
    hash.finalize()[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The shell's version: 16 hex digits of a hash over the page's files. A release build carries
/// its files inside and computes it once from their contents; a debug build reads `web/` from
/// disk, so it is computed again on every ask (the page may have been edited), from the files'
/// sizes and times.
pub(crate) fn version() -> String {
    static VERSION: OnceLock<String> = OnceLock::new();
    if cfg!(debug_assertions) {
        compute_version()
    } else {
        VERSION.get_or_init(compute_version).clone()
    }
}

/// What keeps the page's secrets (invite codes in links, tokens) on this page: no third-party
/// requests, no referrer with an invite in it, no framing.
pub(crate) fn secure(mut response: Response) -> Response {
    let h = response.headers_mut();
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
        ),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    response
}

fn file(path: &str, headers: &HeaderMap) -> Option<Response> {
    let asset = Assets::get(path)?;
    let etag = format!(
        "\"{}\"",
        asset
            .metadata
            .sha256_hash()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    );
    // Revalidate every time: a new server version must never run with an old script.
    if headers
        .get(header::IF_NONE_MATCH)
        .is_some_and(|v| v.as_bytes() == etag.as_bytes())
    {
        // The shell's version too: a revalidated copy is of this server's shell.
        return Some(secure(
            (
                StatusCode::NOT_MODIFIED,
                [
                    (header::ETAG, etag),
                    (header::HeaderName::from_static(VERSION_HEADER), version()),
                ],
            )
                .into_response(),
        ));
    }
    Some(secure(
        (
            [
                (header::CONTENT_TYPE, asset.metadata.mimetype().to_string()),
                (header::CACHE_CONTROL, "no-cache".to_string()),
                (header::ETAG, etag),
                // Which shell this file belongs to: the service worker keeps only whole shells.
                (header::HeaderName::from_static(VERSION_HEADER), version()),
            ],
            asset.data.into_owned(),
        )
            .into_response(),
    ))
}

/// `/`, `/games/{id}`, `/games/{id}/join/{code}`, `/rules`, `/tutorial` and `/about`: the page.
pub async fn page(headers: HeaderMap) -> Response {
    file("index.html", &headers).unwrap_or_else(|| {
        (
            StatusCode::INTERNAL_SERVER_ERROR,
            "the page is missing from this build",
        )
            .into_response()
    })
}

/// Paths that are never the page's: the API, the assets and the operators' routes.
fn not_the_pages(path: &str) -> bool {
    ["/api", "/assets", "/healthz", "/readyz", "/metrics"]
        .iter()
        .any(|p| path == *p || path.strip_prefix(p).is_some_and(|r| r.starts_with('/')))
}

/// Every path no route knows. A browser navigating to a page that does not exist (a GET that
/// asks for `text/html`) gets the page with 404, and the page shows "no such page"; everything
/// else, and anything under `/api/`, gets the API's JSON 404.
pub async fn fallback(method: Method, uri: Uri, headers: HeaderMap) -> Response {
    let wants_html = headers
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|t| {
            t.split(';')
                .next()
                .unwrap_or("")
                .trim()
                .eq_ignore_ascii_case("text/html")
        });
    if (method == Method::GET || method == Method::HEAD) && wants_html && !not_the_pages(uri.path())
    {
        // Never a 304: the status is the news here.
        let mut response = page(HeaderMap::new()).await;
        if response.status() == StatusCode::OK {
            *response.status_mut() = StatusCode::NOT_FOUND;
        }
        return response;
    }
    crate::routes::not_found().await.into_response()
}

/// `/assets/{file}`: the page's scripts, styles, icon and message catalogues (`i18n/…`).
pub async fn asset(Path(path): Path<String>, headers: HeaderMap) -> Response {
    // Plain names only: a debug build reads `web/` from disk, where `./e2e/…` would slip past
    // the exclusion.
    let plain = path
        .split('/')
        .all(|part| !part.is_empty() && part != "." && part != ".." && !part.contains('\\'));
    // The page, its worker and its manifest have one address each, at the root.
    let served = plain
        && path != "index.html"
        && !ROOT_FILES.contains(&path.as_str())
        && !path.starts_with("e2e/");
    match served.then(|| file(&path, &headers)).flatten() {
        Some(r) => r,
        None => crate::error::ApiError::not_found(format!("no asset {path:?}")).into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::Assets;

    /// The files under `dir`, subfolders too (but `e2e/`), as paths relative to `web/`.
    fn files(dir: &std::path::Path, prefix: &str, out: &mut Vec<String>) {
        for e in std::fs::read_dir(dir).expect("a folder of web/").flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let path = format!("{prefix}{name}");
            let Ok(kind) = e.file_type() else { continue };
            if kind.is_dir() {
                if path != "e2e" {
                    files(&e.path(), &format!("{path}/"), out);
                }
            } else if kind.is_file() {
                out.push(path);
            }
        }
    }

    /// Every file of `web/` (but the tests), in subfolders too, is in the build, and nothing
    /// else is.
    #[test]
    fn every_page_file_is_embedded() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web");
        let mut on_disk = Vec::new();
        files(&dir, "", &mut on_disk);
        on_disk.sort();
        let mut embedded: Vec<String> = Assets::iter().map(|p| p.into_owned()).collect();
        embedded.sort();
        assert_eq!(embedded, on_disk);
        assert!(embedded.iter().any(|f| f == "index.html"));
        assert!(embedded.iter().any(|f| f == "main.js"));
        assert!(embedded.iter().any(|f| f == "i18n/en.json"));
        assert!(!embedded.iter().any(|f| f.starts_with("e2e")));
    }

    #[test]
    fn the_api_assets_and_operators_routes_are_never_the_pages() {
        for path in [
            "/api",
            "/api/x",
            "/assets/x.js",
            "/healthz",
            "/readyz/",
            "/metrics",
        ] {
            assert!(super::not_the_pages(path), "{path}");
        }
        for path in [
            "/",
            "/rule",
            "/apix",
            "/games/1/x",
            "/healthzz",
            "/metrics2",
        ] {
            assert!(!super::not_the_pages(path), "{path}");
        }
    }
}
