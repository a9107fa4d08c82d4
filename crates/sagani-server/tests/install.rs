//! The installable page: the manifest and the service worker served with their types and
//! caching headers, every path the worker keeps served (so a renamed or missing file fails
//! here), and the icons' sizes as the manifest names them.

mod common;

use common::{open_limits, start, TestServer};
use serde_json::Value;

async fn get(server: &TestServer, path: &str) -> reqwest::Response {
    server
        .client
        .get(format!("{}{path}", server.url))
        .send()
        .await
        .expect("the server answers")
}

fn header(r: &reqwest::Response, name: &str) -> String {
    r.headers()
        .get(name)
        .unwrap_or_else(|| panic!("{} has no {name}", r.url()))
        .to_str()
        .expect("a header of text")
        .to_string()
}

/// The worker's script and the list of paths it keeps (its `PRECACHE` line).
async fn worker(server: &TestServer) -> (String, Vec<String>) {
    let script = get(server, "/sw.js").await.text().await.unwrap();
    let line = script
        .lines()
        .find_map(|l| l.strip_prefix("const PRECACHE = "))
        .expect("the worker lists what it keeps");
    let list: Vec<String> =
        serde_json::from_str(line.trim_end_matches(';')).expect("the list is JSON");
    (script, list)
}

/// The width and height an 8-bit PNG's header gives.
fn png_size(bytes: &[u8]) -> (u32, u32) {
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "a PNG");
    assert_eq!(&bytes[12..16], b"IHDR");
    let be = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
    (be(16), be(20))
}

#[tokio::test]
async fn the_manifest_and_the_worker_come_with_their_types_and_caching() {
    let server = start(open_limits()).await;

    let r = get(&server, "/manifest.webmanifest").await;
    assert_eq!(r.status(), 200);
    assert_eq!(header(&r, "content-type"), "application/manifest+json");
    assert_eq!(header(&r, "cache-control"), "no-cache");
    let etag = header(&r, "etag");
    let manifest: Value = r.json().await.expect("the manifest is JSON");
    assert_eq!(manifest["start_url"], "/");
    assert_eq!(manifest["scope"], "/");
    assert_eq!(manifest["display"], "standalone");
    for field in [
        "name",
        "short_name",
        "description",
        "theme_color",
        "background_color",
    ] {
        assert!(manifest[field].is_string(), "the manifest has {field}");
    }
    let again = server
        .client
        .get(format!("{}/manifest.webmanifest", server.url))
        .header("if-none-match", etag)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), 304);

    let r = get(&server, "/sw.js").await;
    assert_eq!(r.status(), 200);
    assert_eq!(header(&r, "content-type"), "text/javascript; charset=utf-8");
    // Revalidated every time: a new server's worker is found at the next visit.
    assert_eq!(header(&r, "cache-control"), "no-cache");
    assert_eq!(header(&r, "service-worker-allowed"), "/");
    assert!(header(&r, "content-security-policy").contains("script-src 'self'"));
    let version = header(&r, "sagani-shell");
    assert_eq!(version.len(), 16, "{version}");
    let script = r.text().await.unwrap();
    assert!(
        script.contains(&format!("const VERSION = '{version}';")),
        "the server wrote its version into the worker"
    );
    assert!(!script.contains("const PRECACHE = [];"));

    // One address each, at the root: never under /assets/ (a worker there would keep only
    // /assets/).
    for path in ["/assets/sw.js", "/assets/manifest.webmanifest"] {
        assert_eq!(get(&server, path).await.status(), 404, "{path}");
    }
    // The page names its manifest, its colour and a home-screen icon.
    let page = get(&server, "/").await.text().await.unwrap();
    for needle in [
        r#"<link rel="manifest" href="/manifest.webmanifest">"#,
        r#"<meta name="theme-color" content=""#,
        r#"<link rel="apple-touch-icon" href="/assets/icons/apple-touch-icon.png">"#,
    ] {
        assert!(page.contains(needle), "index.html has {needle}");
    }
}

#[tokio::test]
async fn every_path_the_worker_keeps_is_served_by_this_shell() {
    let server = start(open_limits()).await;
    let version = header(&get(&server, "/sw.js").await, "sagani-shell");
    let (_, kept) = worker(&server).await;
    for must in [
        "/",
        "/manifest.webmanifest",
        "/assets/main.js",
        "/assets/install.js",
        "/assets/style.css",
        "/assets/i18n/en.json",
        "/assets/i18n/de.json",
        "/assets/tutorial.json",
        "/assets/tiles.json",
        "/assets/icons/icon-192.png",
    ] {
        assert!(kept.iter().any(|p| p == must), "the worker keeps {must}");
    }
    for path in &kept {
        assert!(
            !path.starts_with("/api") && !path.starts_with("/sw.js"),
            "{path}: API answers and the worker itself are never kept"
        );
        let r = get(&server, path).await;
        assert_eq!(r.status(), 200, "{path}");
        // Every file of one shell: the worker refuses a mix of versions.
        assert_eq!(header(&r, "sagani-shell"), version, "{path}");
        assert_eq!(header(&r, "cache-control"), "no-cache", "{path}");
    }

    // A copy the browser revalidates is of this shell too (the worker checks the header).
    for path in [
        "/",
        "/assets/main.js",
        "/manifest.webmanifest",
        "/assets/tiles.json",
    ] {
        let etag = header(&get(&server, path).await, "etag");
        let again = server
            .client
            .get(format!("{}{path}", server.url))
            .header("if-none-match", etag)
            .send()
            .await
            .unwrap();
        assert_eq!(again.status(), 304, "{path}");
        assert_eq!(header(&again, "sagani-shell"), version, "{path}");
    }

    // What the page loads is kept: the files index.html names, and every module each module
    // imports (a renamed file the page still asks for fails here).
    let page = get(&server, "/").await.text().await.unwrap();
    let mut wanted: Vec<String> = page
        .split(['"', '\''])
        .filter(|s| s.starts_with("/assets/") || *s == "/manifest.webmanifest")
        .map(str::to_string)
        .collect();
    for module in kept.iter().filter(|p| p.ends_with(".js")) {
        let text = get(&server, module).await.text().await.unwrap();
        for part in text.split(" from './").skip(1) {
            let name = part.split('\'').next().unwrap();
            wanted.push(format!("/assets/{name}"));
        }
    }
    let manifest: Value = get(&server, "/manifest.webmanifest")
        .await
        .json()
        .await
        .unwrap();
    for icon in manifest["icons"].as_array().unwrap() {
        wanted.push(icon["src"].as_str().unwrap().to_string());
    }
    assert!(wanted.len() > 40, "{wanted:?}");
    for path in &wanted {
        assert!(kept.contains(path), "{path} is loaded but not kept");
    }

    // The tile table kept for the art is the API's.
    let kept_tiles: Value = get(&server, "/assets/tiles.json")
        .await
        .json()
        .await
        .unwrap();
    let api_tiles: Value = get(&server, "/api/tiles").await.json().await.unwrap();
    assert_eq!(kept_tiles, api_tiles);
    assert_eq!(kept_tiles["tiles"].as_array().unwrap().len(), 72);
}

#[tokio::test]
async fn the_icons_are_the_sizes_the_manifest_names() {
    let server = start(open_limits()).await;
    let manifest: Value = get(&server, "/manifest.webmanifest")
        .await
        .json()
        .await
        .unwrap();
    let mut seen = Vec::new();
    for icon in manifest["icons"].as_array().unwrap() {
        if icon["type"] != "image/png" {
            continue;
        }
        let src = icon["src"].as_str().unwrap();
        let r = get(&server, src).await;
        assert_eq!(r.status(), 200, "{src}");
        assert_eq!(header(&r, "content-type"), "image/png", "{src}");
        let (w, h) = png_size(&r.bytes().await.unwrap());
        assert_eq!(icon["sizes"], format!("{w}x{h}"), "{src}");
        seen.push((w, icon["purpose"].as_str().unwrap_or("any").to_string()));
    }
    // What a phone asks for: 192 and 512 pixels, and one its launcher may cut to a shape.
    for (size, purpose) in [(192, "any"), (512, "any"), (512, "maskable")] {
        assert!(
            seen.iter().any(|(w, p)| *w == size && p == purpose),
            "a {size} px icon for {purpose}: {seen:?}"
        );
    }
    let apple = get(&server, "/assets/icons/apple-touch-icon.png").await;
    assert_eq!(png_size(&apple.bytes().await.unwrap()), (180, 180));
}
