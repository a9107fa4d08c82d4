//! Accounts: signing up, logging in, a new password, who is logged in.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    /// 3–20 characters after Unicode normalisation (NFKC): letters and decimal digits of any
    /// script (Unicode categories L and Nd), `_` and `-`; a letter or digit may carry up to 3
    /// combining marks (category M: accents, vowel signs). Nothing invisible, no spaces, no
    /// controls of the writing direction. Unique regardless of case and of look-alikes ("B0b"
    /// is taken when "Bob" is), and not passing for a bot or the site's staff. Kept and shown
    /// in NFKC; a log-in may type it in any case and normal form. A refusal is `bad_request`
    /// with `detail` `name_length`, `name_character`, `too_many_marks` or `name_reserved`.
    #[schema(
        min_length = 3,
        max_length = 20,
        pattern = r"^[\p{L}\p{Nd}_-][\p{L}\p{M}\p{Nd}_-]*$"
    )]
    pub name: String,
    /// 8–200 characters, not the name (`detail` `password_length` or `password_is_name`).
    #[schema(min_length = 8, max_length = 200)]
    pub password: String,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PasswordChange {
    pub password: String,
    pub new_password: String,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Confirmation {
    pub password: String,
}

/// Who a request is: an account (by its session cookie) or a guest.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Me {
    pub kind: MeKind,
    /// The account's name as signed up (none for a guest).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// An account, or a guest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum MeKind {
    Account,
    Guest,
}

impl Me {
    pub fn account(name: &str) -> Me {
        Me {
            kind: MeKind::Account,
            name: Some(name.to_string()),
        }
    }

    pub fn guest() -> Me {
        Me {
            kind: MeKind::Guest,
            name: None,
        }
    }
}
