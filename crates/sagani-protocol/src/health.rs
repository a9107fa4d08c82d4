//! The server's health, for operators and load balancers.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct Health {
    pub status: String,
    /// Games stored, as counted in the background (once a minute by default); absent until
    /// the first count after the server started.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub games: Option<u64>,
    /// Of those, the games that are not over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open: Option<u64>,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct Ready {
    /// `ready`.
    pub status: String,
}
