//! The server's health, for operators and load balancers.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct Health {
    pub status: String,
    /// Games stored.
    pub games: u64,
    /// Of those, the games that are not over.
    pub open: u64,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct Ready {
    /// `ready`.
    pub status: String,
}
