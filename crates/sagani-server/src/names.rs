//! What a name may be (an account's, a guest's display name) and which characters text shown to
//! others may not hold: nothing invisible, no direction controls, one line, no flood of marks.
//! Look-alikes are caught by their confusable skeleton (Unicode TR39, `unicode-security`).

use crate::error::{ApiError, RefusalDetail};
use sagani_protocol::error::{
    Unseen, DISPLAY_NAME_MAX, DISPLAY_NAME_MIN, MAX_MARKS, NAME_MAX, NAME_MIN,
};
use unicode_normalization::char::is_combining_mark;
use unicode_normalization::UnicodeNormalization;
use unicode_properties::{GeneralCategory, GeneralCategoryGroup, UnicodeGeneralCategory};

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

fn refused(detail: RefusalDetail) -> ApiError {
    ApiError::refused(detail)
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

/// An account's name as it is kept and shown (NFKC), and its key: unique among accounts,
/// what a log-in looks up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountName {
    pub name: String,
    pub key: String,
}

/// The key of an account's name as typed at a log-in or in a profile's address: NFKC, in lower
/// case (so "JÜRGEN", "jürgen" and "ju\u{308}rgen" are one name).
pub fn key(name: &str) -> String {
    name.nfkc()
        .flat_map(char::to_lowercase)
        .collect::<String>()
        .nfkc()
        .collect()
}

/// The name if it may be an account's name: in NFKC, `NAME_MIN` to `NAME_MAX` characters, each
/// a letter or a digit of any script, `_` or `-` (a letter may carry up to `MAX_MARKS` marks:
/// accents, vowel signs), passing for nobody. Nothing invisible or out of line can pass: those
/// are neither letters, digits nor marks. The page checks the same rule before it sends a name
/// (`web/names.js`), and the OpenAPI document states it (`Credentials::name`).
pub fn check_name(name: &str) -> Result<AccountName, ApiError> {
    let folded: String = name.nfkc().collect();
    let len = folded.chars().count() as u32;
    if !(NAME_MIN..=NAME_MAX).contains(&len) {
        return Err(refused(RefusalDetail::NameLength {
            min: NAME_MIN,
            max: NAME_MAX,
            len,
        }));
    }
    let mut marks = 0;
    let mut after_letter = false;
    for c in folded.chars() {
        let group = c.general_category_group();
        let mark = group == GeneralCategoryGroup::Mark;
        marks = if mark { marks + 1 } else { 0 };
        let fits = match group {
            GeneralCategoryGroup::Letter => true,
            GeneralCategoryGroup::Number => c.general_category() == GeneralCategory::DecimalNumber,
            GeneralCategoryGroup::Mark => after_letter,
            _ => c == '_' || c == '-',
        };
        if !fits {
            return Err(refused(RefusalDetail::NameCharacter {
                code_point: code(c),
                character: shows(c).then(|| c.to_string()),
            }));
        }
        if marks > MAX_MARKS {
            return Err(refused(RefusalDetail::TooManyMarks {
                max: MAX_MARKS,
                code_point: code(c),
            }));
        }
        after_letter = mark
            || matches!(
                group,
                GeneralCategoryGroup::Letter | GeneralCategoryGroup::Number
            );
    }
    if impersonates(&folded) {
        return Err(refused(RefusalDetail::NameReserved));
    }
    Ok(AccountName {
        key: key(&folded),
        name: folded,
    })
}

/// A guest's display name as shown: NFKC, spaces collapsed and trimmed; 1 to 24 characters,
/// nothing unseen or out of line (`unseen`), nothing that would pass for a bot or the staff.
/// Not unique among guests; that it does not look like an account's name is the caller's
/// check (`skeleton` against the store).
pub fn check_display_name(name: &str) -> Result<String, ApiError> {
    let folded: String = name.nfkc().collect();
    // Before spaces are collapsed: a line separator is refused, not made a space.
    if let Some(why) = unseen(folded.trim(), Text::Name) {
        return Err(refused(why));
    }
    let name = folded.split_whitespace().collect::<Vec<_>>().join(" ");
    let len = name.chars().count() as u32;
    if !(DISPLAY_NAME_MIN..=DISPLAY_NAME_MAX).contains(&len) {
        return Err(refused(RefusalDetail::DisplayNameLength {
            min: DISPLAY_NAME_MIN,
            max: DISPLAY_NAME_MAX,
            len,
        }));
    }
    if impersonates(&name) {
        return Err(refused(RefusalDetail::NameReserved));
    }
    Ok(name)
}

/// A chat line as stored: NFKC and trimmed, if it has nothing unseen or out of line; else what
/// is wrong. Lines are refused rather than cleaned, so a writer knows what was not sent.
pub fn check_chat_text(text: &str) -> Result<String, RefusalDetail> {
    let folded: String = text.nfkc().collect();
    let line = folded.trim().to_string();
    match unseen(&line, Text::Chat) {
        Some(why) => Err(why),
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
fn unseen(text: &str, kind: Text) -> Option<RefusalDetail> {
    let mut marks = 0;
    for c in text.chars() {
        if let Some(what) = hidden(c, kind) {
            return Some(RefusalDetail::Unseen {
                what,
                code_point: code(c),
            });
        }
        marks = if is_combining_mark(c) { marks + 1 } else { 0 };
        if marks > MAX_MARKS {
            return Some(RefusalDetail::TooManyMarks {
                max: MAX_MARKS,
                code_point: code(c),
            });
        }
    }
    None
}

/// Why `c` is refused in `kind` of text, if it is.
fn hidden(c: char, kind: Text) -> Option<Unseen> {
    let category = c.general_category();
    if c.is_control() {
        return Some(Unseen::Control);
    }
    if matches!(
        category,
        GeneralCategory::LineSeparator | GeneralCategory::ParagraphSeparator
    ) {
        return Some(Unseen::LineSeparator);
    }
    // Marks and embeddings, overrides and isolates that turn text around (Trojan Source).
    if matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
    {
        return Some(Unseen::Direction);
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
        return Some(Unseen::Invisible);
    }
    if kind == Text::Name {
        match category {
            GeneralCategory::Format => return Some(Unseen::Formatting),
            GeneralCategory::PrivateUse => return Some(Unseen::PrivateUse),
            GeneralCategory::Unassigned => return Some(Unseen::Unassigned),
            _ => {}
        }
    }
    None
}

/// Whether `c` can be shown in an error as itself (else only its code point is).
fn shows(c: char) -> bool {
    hidden(c, Text::Name).is_none() && !c.is_whitespace() && !is_combining_mark(c)
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

    fn detail(e: ApiError) -> RefusalDetail {
        e.detail.expect("a refusal with its detail")
    }

    #[test]
    fn account_names_follow_the_rules() {
        let ada = check_name("Ada_Lovelace-2").unwrap();
        assert_eq!(
            (ada.name.as_str(), ada.key.as_str()),
            ("Ada_Lovelace-2", "ada_lovelace-2")
        );
        for bad in [
            "ab",
            "a".repeat(21).as_str(),
            "two words",
            "a;b",
            "a.b",
            "x†y",
            "_\u{301}x",
        ] {
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
            // Look-alikes: digits for letters, "rn" for "m", another script's letters.
            "B0T",
            "R0b0t",
            "adrnin",
            "Rand0m",
            "rncts",
            "\u{0430}dmin",
            "m\u{0441}ts",
        ] {
            assert_eq!(
                check_name(impostor).map_err(detail),
                Err(RefusalDetail::NameReserved),
                "{impostor} should be refused"
            );
        }
        for fine in ["Bottle", "Randolph", "Mctsfan", "Botanist", "Jurgen"] {
            assert!(check_name(fine).is_ok(), "{fine} should be allowed");
        }
    }

    #[test]
    fn names_have_letters_and_digits_of_any_script() {
        for fine in [
            "Jürgen",
            "Zoë",
            "Łukasz",
            "Ōsaka-7",
            "Дмитрий",
            "محمد",
            "李小龍",
            "देवनागरी",
            "Ελένη",
            "٣٤٥abc",
        ] {
            let n = check_name(fine).unwrap_or_else(|e| panic!("{fine}: {}", e.message));
            assert_eq!(n.name, fine);
        }
        // NFKC: the composed and the decomposed "ü" are one name, and so are full-width letters.
        let decomposed = check_name("Ju\u{0308}rgen").unwrap();
        assert_eq!(decomposed.name, "Jürgen");
        assert_eq!(decomposed.key, "jürgen");
        assert_eq!(check_name("\u{FF2A}\u{FF55}rgen").unwrap().name, "Jurgen");
        assert_eq!(key("JÜRGEN"), "jürgen");
        assert_eq!(key("JU\u{0308}RGEN"), "jürgen");
        // Twenty letters of a script with two bytes each are twenty characters.
        assert!(check_name(&"ж".repeat(20)).is_ok());
        assert_eq!(
            check_name(&"ж".repeat(21)).map_err(detail),
            Err(RefusalDetail::NameLength {
                min: 3,
                max: 20,
                len: 21
            })
        );
        assert_eq!(
            check_name(&"a".repeat(300)).map_err(detail),
            Err(RefusalDetail::NameLength {
                min: 3,
                max: 20,
                len: 300
            })
        );
    }

    #[test]
    fn a_refused_character_is_named() {
        for (name, code, shown) in [
            ("ad\u{00AD}min", "U+00AD", None),
            ("Eve\u{200B}ann", "U+200B", None),
            ("Eve\u{202E}evE", "U+202E", None),
            ("Eve\u{2066}x", "U+2066", None),
            ("Eve\u{200D}Ann", "U+200D", None),
            ("Eve\u{E000}", "U+E000", None),
            ("Eve\u{0378}", "U+0378", None),
            ("two words", "U+0020", None),
            ("a;b", "U+003B", Some(";")),
            ("Zoë 🎲", "U+0020", None),
            ("Zoë🎲", "U+1F3B2", Some("🎲")),
        ] {
            assert_eq!(
                check_name(name).map_err(detail),
                Err(RefusalDetail::NameCharacter {
                    code_point: code.into(),
                    character: shown.map(str::to_string),
                }),
                "{name:?}"
            );
        }
        let e = check_name("ad\u{00AD}min").unwrap_err();
        assert!(e.message.contains("U+00AD"), "{}", e.message);
        assert_eq!(
            check_name("E\u{0334}\u{0335}\u{0336}\u{0337}ve").map_err(detail),
            Err(RefusalDetail::TooManyMarks {
                max: 3,
                code_point: "U+0337".into()
            })
        );
        assert!(
            check_name("E\u{0301}\u{0302}\u{0303}ve").is_ok(),
            "three marks are fine"
        );
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
            ("a".repeat(25).as_str(), "1 to 24 characters, not 25"),
            ("\u{0430}dmin", "would pass for"),
            ("Greedy", "would pass for"),
            ("", "1 to 24"),
        ] {
            let e = check_display_name(name).expect_err(name);
            assert!(e.message.contains(why), "{name:?}: {}", e.message);
            assert!(e.detail.is_some(), "{name:?}: a refusal with its detail");
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
            ("a\nb", "control character"),
            ("a\u{200B}b", "invisible"),
            ("a\u{E0041}b", "invisible"),
            ("Z\u{0335}\u{0321}\u{0322}\u{0327}algo", "marks"),
        ] {
            let e = check_chat_text(text).unwrap_err().to_string();
            assert!(e.contains(why), "{text:?}: {e}");
        }
    }
}
