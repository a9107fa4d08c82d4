//! The lab: what makes and measures the bots of `sagani_ai` but does not play: fitting the
//! playout policy to searches (`train`), the position value (`value_train`), tuning the solo
//! policy (`solo_tune`) and learning the solo value by temporal differences (`td_learn`). The
//! command line's `sagani train` runs them.

mod error;
pub mod solo_tune;
pub mod td_learn;
pub mod train;
pub mod value_train;

pub use error::SelfPlayError;
