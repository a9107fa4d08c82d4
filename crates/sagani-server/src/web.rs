//! The browser page (`web/`), embedded in the binary so `sagani serve` is all a player needs.
//! Every page route answers `index.html`; the page reads the game id and invite from the path.

use axum::extract::Path;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

/// `web/` without its end-to-end tests. In debug builds rust-embed reads the files from disk,
/// so the page can be edited without rebuilding; release builds carry them inside.
#[derive(rust_embed::RustEmbed)]
#[folder = "../../web/"]
#[exclude = "e2e/*"]
struct Assets;

/// What keeps the page's secrets (invite codes in links, tokens) on this page: no third-party
/// requests, no referrer with an invite in it, no framing.
fn secure(mut response: Response) -> Response {
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
        return Some(secure(
            (StatusCode::NOT_MODIFIED, [(header::ETAG, etag)]).into_response(),
        ));
    }
    Some(secure(
        (
            [
                (header::CONTENT_TYPE, asset.metadata.mimetype().to_string()),
                (header::CACHE_CONTROL, "no-cache".to_string()),
                (header::ETAG, etag),
            ],
            asset.data.into_owned(),
        )
            .into_response(),
    ))
}

/// `/`, `/games/{id}` and `/games/{id}/join/{code}`: the page.
pub async fn page(headers: HeaderMap) -> Response {
    file("index.html", &headers).unwrap_or_else(|| {
        (
            StatusCode::INTERNAL_SERVER_ERROR,
            "the page is missing from this build",
        )
            .into_response()
    })
}

/// `/assets/{file}`: the page's scripts and styles.
pub async fn asset(Path(path): Path<String>, headers: HeaderMap) -> Response {
    // Plain names only: a debug build reads `web/` from disk, where `./e2e/…` would slip past
    // the exclusion.
    let plain = path
        .split('/')
        .all(|part| !part.is_empty() && part != "." && part != ".." && !part.contains('\\'));
    let served = plain && path != "index.html" && !path.starts_with("e2e/");
    match served.then(|| file(&path, &headers)).flatten() {
        Some(r) => r,
        None => crate::error::ApiError::not_found(format!("no asset {path:?}")).into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::Assets;

    /// Every file of `web/` (but the tests) is in the build, and nothing else is.
    #[test]
    fn every_page_file_is_embedded() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web");
        let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
            .expect("web/ exists")
            .filter_map(|e| e.ok())
            .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        on_disk.sort();
        let mut embedded: Vec<String> = Assets::iter().map(|p| p.into_owned()).collect();
        embedded.sort();
        assert_eq!(embedded, on_disk);
        assert!(embedded.iter().any(|f| f == "index.html"));
        assert!(embedded.iter().any(|f| f == "main.js"));
    }
}
