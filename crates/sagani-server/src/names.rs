//! What a name may be (an account's, a guest's display name) and which characters text shown to
//! others may not hold: nothing invisible, no direction controls, one line, no flood of marks.
//! Look-alikes are caught by their confusable skeleton (Unicode TR39, `unicode-security`).

use crate::error::{ApiError, ErrorCode};
use unicode_normalization::char::is_combining_mark;
use unicode_normalization::UnicodeNormalization;
use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};

/// Names that would pass for a bot, the site or its staff (the bots' own names are added).
const RESERVED: [&str; 12] = [
    "admin",
    "moderator",
    "sagani",
    "system",
    "root",
    "staff",
    "support",
    "bot",
    "random",
    "greedy",
    "mcts",
    "deleted",
];

/// Reserved words refused anywhere in a name, not only as a word of their own.
const STAFF: [&str; 3] = ["admin", "moderator", "sagani"];

/// Combining marks one character may carry: enough for any script's accents and vowel signs,
/// too few to pile marks above and below the line ("Zalgo" text).
const MAX_MARKS: usize = 3;

fn bad(message: impl Into<String>) -> ApiError {
    ApiError::new(ErrorCode::BadRequest, message)
}

/// The form two names that look alike share: the TR39 skeleton of the name in NFKC (which drops
/// invisible characters and maps each character to its prototype: Cyrillic "с" to "c", "0" to
/// "O", "I" to "l", "m" to "rn"), in lower case, and its skeleton again (what was "M" is "m"
/// now, which looks like "rn"), in lower case: "B0b", "BOB" and "bob" share one, and so do
/// "Ian" and "lan", "Mary" and "rnary". Names equal but for case do not always ("ian" and
/// "Ian"): compare those in lower case besides.
pub fn skeleton(name: &str) -> String {
    let once = lower_skeleton(&name.nfkc().collect::<String>());
    lower_skeleton(&once)
}

fn lower_skeleton(s: &str) -> String {
    unicode_security::skeleton(s)
        .flat_map(char::to_lowercase)
        .collect()
}

/// The name's key (lower case) if it may be an account's name: 3 to 20 ASCII letters, digits,
/// `_` and `-`, passing for nobody. (Unicode letters stay out: a log-in types the name.)
pub fn check_name(name: &str) -> Result<String, ApiError> {
    let len = name.chars().count();
    if !(3..=20).contains(&len) {
        return Err(bad(format!("a name has 3 to 20 characters, not {len}")));
    }
    if let Some(c) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-'))
    {
        return Err(bad(format!(
            "a name has letters, digits, `_` and `-` only, not {}",
            shown(c)
        )));
    }
    if impersonates(name) {
        return Err(bad(format!(
            "{name:?} would pass for a bot or for the site's staff: choose another name"
        )));
    }
    Ok(name.to_ascii_lowercase())
}

/// A guest's display name as shown: NFKC, spaces collapsed and trimmed; 1 to 24 characters,
/// nothing unseen or out of line (`unseen`), nothing that would pass for a bot or the staff.
/// Not unique among guests; that it does not look like an account's name is the caller's
/// check (`skeleton` against the store).
pub fn check_display_name(name: &str) -> Result<String, ApiError> {
    let folded: String = name.nfkc().collect();
    // Before spaces are collapsed: a line separator is refused, not made a space.
    if let Some(why) = unseen(folded.trim(), Text::Name) {
        return Err(bad(format!("a display name has {why}")));
    }
    let name = folded.split_whitespace().collect::<Vec<_>>().join(" ");
    let len = name.chars().count();
    if !(1..=24).contains(&len) {
        return Err(bad(format!(
            "a display name has 1 to 24 characters, not {len}"
        )));
    }
    if impersonates(&name) {
        return Err(bad(format!(
            "{name:?} would pass for a bot or for the site's staff: choose another name"
        )));
    }
    Ok(name)
}

/// A chat line as stored: NFKC and trimmed, if it has nothing unseen or out of line; else what
/// is wrong. Lines are refused rather than cleaned, so a writer knows what was not sent.
pub fn check_chat_text(text: &str) -> Result<String, String> {
    let folded: String = text.nfkc().collect();
    let line = folded.trim().to_string();
    match unseen(&line, Text::Chat) {
        Some(why) => Err(format!("text: one line of visible text; this has {why}")),
        None => Ok(line),
    }
}

/// Where text is shown.
#[derive(Clone, Copy, PartialEq)]
enum Text {
    /// A name stands for a person: nothing in it may be unseen.
    Name,
    /// A chat line may join emoji (zero-width joiner, variation selectors) and Persian or Indic
    /// letters (zero-width non-joiner) as people type them.
    Chat,
}

/// The first reason `text` may not be shown as it is: a character that is not seen, or that
/// changes how the text around it is laid out, or too many marks on one character.
fn unseen(text: &str, kind: Text) -> Option<String> {
    let mut marks = 0;
    for c in text.chars() {
        if let Some(why) = hidden(c, kind) {
            return Some(format!("{why} ({})", code(c)));
        }
        marks = if is_combining_mark(c) { marks + 1 } else { 0 };
        if marks > MAX_MARKS {
            return Some(format!(
                "more than {MAX_MARKS} marks on one character ({})",
                code(c)
            ));
        }
    }
    None
}

/// Why `c` is refused in `kind` of text, if it is.
fn hidden(c: char, kind: Text) -> Option<&'static str> {
    let category = c.general_category();
    if c.is_control() {
        return Some("a control character");
    }
    if matches!(
        category,
        GeneralCategory::LineSeparator | GeneralCategory::ParagraphSeparator
    ) {
        return Some("a line or paragraph separator");
    }
    // Marks and embeddings, overrides and isolates that turn text around (Trojan Source).
    if matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
    {
        return Some("a control of the writing direction");
    }
    let joins = matches!(c, '\u{200C}' | '\u{200D}' | '\u{FE00}'..='\u{FE0F}');
    if kind == Text::Chat && joins {
        return None;
    }
    // The skeleton drops exactly the default-ignorable characters (TR39): zero-width spaces,
    // soft hyphens, fillers, tags.
    if unicode_security::skeleton(c.encode_utf8(&mut [0; 4]))
        .next()
        .is_none()
    {
        return Some("an invisible character");
    }
    if kind == Text::Name {
        match category {
            GeneralCategory::Format => return Some("an invisible formatting character"),
            GeneralCategory::PrivateUse => return Some("a private-use character"),
            GeneralCategory::Unassigned => return Some("an unassigned character"),
            _ => {}
        }
    }
    None
}

/// `c` as a person can read it in an error: the character if it shows, and its code point.
fn shown(c: char) -> String {
    if hidden(c, Text::Name).is_some() || c.is_whitespace() {
        code(c)
    } else {
        format!("{c:?} ({})", code(c))
    }
}

fn code(c: char) -> String {
    format!("U+{:04X}", c as u32)
}

/// Whether a name would pass for a bot, the site or its staff, as written (a reserved word as
/// a word of its own, "admin" anywhere, a last word ending in "bot") or once look-alikes are
/// folded together (`skeleton`: "ad\u{2010}min", "m\u{0441}ts", "R0B0T").
fn impersonates(name: &str) -> bool {
    let plain: String = name.nfkc().flat_map(char::to_lowercase).collect();
    reserved_in(&plain, str::to_string) || reserved_in(&skeleton(name), skeleton)
}

/// Whether `key` holds a reserved word, each word first put in the same `form` as the key.
fn reserved_in(key: &str, form: impl Fn(&str) -> String) -> bool {
    let words: Vec<&str> = key
        .split(|c: char| !c.is_alphabetic())
        .filter(|w| !w.is_empty())
        .collect();
    let bots = sagani_ai::BOT_NAMES.iter().copied();
    RESERVED.iter().copied().chain(bots).any(|r| {
        let r = form(r);
        words.iter().any(|w| *w == r) || (STAFF.iter().any(|s| form(s) == r) && key.contains(&r))
    }) || words.last().is_some_and(|w| w.ends_with(&form("bot")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn account_names_follow_the_rules() {
        assert_eq!(check_name("Ada_Lovelace-2").unwrap(), "ada_lovelace-2");
        for bad in ["ab", "a".repeat(21).as_str(), "two words", "émile", "a;b"] {
            assert!(check_name(bad).is_err(), "{bad} should be refused");
        }
        for impostor in [
            "admin",
            "SiteAdmin",
            "mcts",
            "greedy-2",
            "Bot_7",
            "Robot",
            "sagani_team",
            "Moderator1",
            // Look-alikes: digits for letters, "rn" for "m".
            "B0T",
            "R0b0t",
            "adrnin",
            "Rand0m",
            "rncts",
        ] {
            assert!(
                check_name(impostor).is_err(),
                "{impostor} should be refused"
            );
        }
        for fine in ["Bottle", "Randolph", "Mctsfan", "Botanist", "Jurgen"] {
            assert!(check_name(fine).is_ok(), "{fine} should be allowed");
        }
    }

    #[test]
    fn a_refused_character_is_named() {
        let e = check_name("ad\u{00AD}min").unwrap_err();
        assert!(e.message.contains("U+00AD"), "{}", e.message);
    }

    #[test]
    fn look_alikes_share_a_skeleton() {
        for (a, b) in [
            ("mcts", "m\u{0441}ts"),
            ("Bob", "B0b"),
            ("Ian", "lan"),
            ("Mary", "rnary"),
            ("BOB", "bob"),
            ("IAN", "lan"),
            ("Ada", "\u{FF21}da"),
            ("Greedy", "Gree\u{200B}dy"),
        ] {
            assert_eq!(skeleton(a), skeleton(b), "{a} and {b}");
        }
        assert_ne!(skeleton("Ada"), skeleton("Bea"));
    }

    #[test]
    fn display_names_are_folded_and_checked() {
        assert_eq!(check_display_name("  Ann   Lee ").unwrap(), "Ann Lee");
        assert_eq!(check_display_name("\u{FF21}nn").unwrap(), "Ann", "NFKC");
        assert_eq!(check_display_name("Jürgen").unwrap(), "Jürgen");
        assert_eq!(check_display_name("Zoë 🎲").unwrap(), "Zoë 🎲");
        for (name, why) in [
            ("Gree\u{200B}dy", "invisible"),
            ("ad\u{00AD}min", "invisible"),
            ("Eve\u{202E}evE", "writing direction"),
            ("Eve\u{2066}x", "writing direction"),
            ("Eve\u{200F}", "writing direction"),
            ("Eve\u{2028}Ann", "line"),
            ("Eve\u{2029}Ann", "line"),
            ("Eve\u{200D}Ann", "invisible"),
            ("\u{3164}", "invisible"),
            ("Eve\u{E0041}", "invisible"),
            ("Eve\u{E000}", "private-use"),
            ("Eve\u{0378}", "unassigned"),
            ("E\u{0334}\u{0335}\u{0336}\u{0337}ve", "marks"),
            ("m\u{0441}ts", "would pass for a bot"),
            ("\u{0430}dmin", "would pass for"),
            ("Greedy", "would pass for"),
            ("", "1 to 24"),
        ] {
            let e = check_display_name(name).expect_err(name);
            assert!(e.message.contains(why), "{name:?}: {}", e.message);
        }
        // Three marks on one letter are fine (Vietnamese, Hebrew with points).
        assert!(check_display_name("E\u{0301}\u{0302}\u{0303}ve").is_ok());
    }

    #[test]
    fn chat_lines_are_refused_not_cleaned() {
        assert_eq!(check_chat_text("  hi \u{FF01} ").unwrap(), "hi !");
        // Emoji sequences and Persian's non-joiner are text as typed.
        for fine in ["👩\u{200D}💻 ok", "\u{2764}\u{FE0F}", "می\u{200C}خواهم"] {
            assert_eq!(
                check_chat_text(fine).unwrap(),
                fine.nfkc().collect::<String>()
            );
        }
        for (text, why) in [
            ("a\u{202E}b", "writing direction"),
            ("a\u{2028}b", "line"),
            ("a\nb", "one line"),
            ("a\u{200B}b", "invisible"),
            ("a\u{E0041}b", "invisible"),
            ("Z\u{0335}\u{0321}\u{0322}\u{0327}algo", "marks"),
        ] {
            let e = check_chat_text(text).unwrap_err();
            assert!(e.contains(why), "{text:?}: {e}");
        }
    }
}
