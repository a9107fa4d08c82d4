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
