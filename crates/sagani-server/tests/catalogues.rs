//! The page's message catalogues (`web/i18n/*.json`): every language has every message, with
//! the same plural forms and the same `{placeholders}`, and every message the page's code asks
//! for by name exists. (That every visible text comes from a catalogue is the browser test
//! `web/e2e/tests/words.test.mjs`, in the pseudo-language.)

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn web() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web")
}

fn catalogue(lang: &str) -> BTreeMap<String, Value> {
    let path = web().join("i18n").join(format!("{lang}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The `{name}`s of a message (all plural forms together).
fn placeholders(v: &Value) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut scan = |s: &str| {
        let mut rest = s;
        while let Some(i) = rest.find('{') {
            let after = &rest[i + 1..];
            match after.find('}') {
                Some(j)
                    if after[..j]
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_') =>
                {
                    out.insert(after[..j].to_string());
                    rest = &after[j + 1..];
                }
                _ => rest = after,
            }
        }
    };
    match v {
        Value::String(s) => scan(s),
        Value::Object(forms) => forms.values().filter_map(Value::as_str).for_each(&mut scan),
        _ => {}
    }
    out
}

#[test]
fn every_language_has_every_message_in_the_same_shape() {
    let en = catalogue("en");
    let de = catalogue("de");
    assert!(en.len() > 100, "the English catalogue is nearly empty");
    let missing_de: Vec<_> = en.keys().filter(|k| !de.contains_key(*k)).collect();
    let missing_en: Vec<_> = de.keys().filter(|k| !en.contains_key(*k)).collect();
    assert!(missing_de.is_empty(), "missing in de.json: {missing_de:?}");
    assert!(missing_en.is_empty(), "missing in en.json: {missing_en:?}");
    for (key, e) in &en {
        let d = &de[key];
        for (lang, v) in [("en", e), ("de", d)] {
            match v {
                Value::String(s) => assert!(!s.trim().is_empty(), "{lang}: {key} is empty"),
                Value::Object(forms) => {
                    assert!(
                        forms.contains_key("other"),
                        "{lang}: {key} has no 'other' form"
                    );
                    for (form, s) in forms {
                        assert!(
                            ["zero", "one", "two", "few", "many", "other"].contains(&form.as_str()),
                            "{lang}: {key} has an unknown plural form {form}"
                        );
                        assert!(
                            s.as_str().is_some_and(|s| !s.trim().is_empty()),
                            "{lang}: {key}.{form} is empty"
                        );
                    }
                }
                _ => panic!("{lang}: {key} is neither a message nor plural forms"),
            }
        }
        assert_eq!(
            placeholders(e),
            placeholders(d),
            "{key}: en and de fill in different things"
        );
    }
}

/// Every `t('key'` in the page's scripts names a message of the catalogue.
#[test]
fn every_message_the_page_asks_for_exists() {
    let en = catalogue("en");
    let mut asked = BTreeSet::new();
    for entry in std::fs::read_dir(web()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "js") {
            let code = std::fs::read_to_string(&path).unwrap();
            for quote in ['\'', '"'] {
                let needle = format!("t({quote}");
                let mut rest = code.as_str();
                while let Some(i) = rest.find(&needle) {
                    // Only the function `t`, not a name ending in t (`split('`, `get('`).
                    let before = rest[..i].chars().next_back();
                    let after = &rest[i + needle.len()..];
                    if !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.') {
                        if let Some(j) = after.find(quote) {
                            asked.insert((
                                path.file_name().unwrap().to_string_lossy().into_owned(),
                                after[..j].to_string(),
                            ));
                        }
                    }
                    rest = after;
                }
            }
        }
    }
    assert!(
        asked.len() > 100,
        "the scan found only {} messages",
        asked.len()
    );
    let missing: Vec<_> = asked.iter().filter(|(_, k)| !en.contains_key(k)).collect();
    assert!(
        missing.is_empty(),
        "messages asked for but not in the catalogue: {missing:?}"
    );
}

/// Every refusal the server can send has its words in every language: each error code
/// (`error.code.*`, the page's general sentence for it), each kind of detail a person can meet
/// (`error.detail.*`, filled only from the detail's own fields), and each kind of unseen
/// character. The page (`web/refusals.js`) words a refusal by these keys and never shows the
/// server's English `message`.
#[test]
fn every_refusal_has_words_in_every_language() {
    use sagani_protocol::error::{ErrorCode, RefusalDetail, Unseen};
    let fields = |d: &RefusalDetail| -> BTreeSet<String> {
        let v = serde_json::to_value(d).unwrap();
        let mut f: BTreeSet<String> = v.as_object().unwrap().keys().cloned().collect();
        // `web/refusals.js` words these two itself.
        if f.contains("code_point") {
            f.insert("char".into());
        }
        if f.contains("what") {
            f.insert("what".into());
        }
        f
    };
    for lang in ["en", "de"] {
        let cat = catalogue(lang);
        let mut missing = Vec::new();
        let codes = ErrorCode::ALL.iter().map(|c| c.name());
        // `network` and `other`: the page's own (no answer, or an answer it cannot read).
        for code in codes.chain(["network".to_string(), "other".to_string()]) {
            let key = format!("error.code.{code}");
            match cat.get(&key) {
                Some(m) => assert!(placeholders(m).is_empty(), "{lang}: {key} fills in nothing"),
                None => missing.push(key),
            }
        }
        for d in RefusalDetail::examples() {
            let key = format!("error.detail.{}", d.kind());
            match cat.get(&key) {
                Some(m) => {
                    let extra: Vec<_> = placeholders(m).difference(&fields(&d)).cloned().collect();
                    assert!(
                        extra.is_empty(),
                        "{lang}: {key} fills in {extra:?}, which {d:?} lacks"
                    );
                }
                None => missing.push(key),
            }
        }
        for u in Unseen::ALL {
            let key = format!("error.unseen.{}", u.name());
            if !cat.contains_key(&key) {
                missing.push(key);
            }
        }
        assert!(missing.is_empty(), "{lang}.json lacks {missing:?}");
    }
    // The page asks for them by code and kind: the test above cannot see these keys in its code.
    let page = std::fs::read_to_string(web().join("refusals.js")).unwrap();
    for asked in [
        "`error.code.${code}`",
        "`error.detail.${detail && detail.kind}`",
        "`error.unseen.${detail.what}`",
    ] {
        assert!(page.contains(asked), "web/refusals.js asks for {asked}");
    }
}

/// No refusal is worded from the server's English: the page never puts an error's `message` in
/// a sentence (it is English, whatever the reader's language).
#[test]
fn the_page_never_shows_a_servers_message() {
    for entry in std::fs::read_dir(web()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "js") {
            let code = std::fs::read_to_string(&path).unwrap();
            for (n, line) in code.lines().enumerate() {
                assert!(
                    !(line.contains("reason: e.message") || line.contains("e.message }")),
                    "{}:{}: a server's English message in a sentence: {line}",
                    path.display(),
                    n + 1
                );
            }
        }
    }
}
