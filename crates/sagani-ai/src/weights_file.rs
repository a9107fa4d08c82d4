//! What can be wrong with a file of weights the bots read: a policy, an evaluation, a TD value.

/// Why a file of weights cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum WeightsError {
    #[error("{path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    /// What is wrong inside the file at `path`.
    #[error("{path}: {source}")]
    In {
        path: String,
        source: Box<WeightsError>,
    },
    /// Not JSON of the expected shape; `what` is "a policy file", "an evaluation file", "JSON".
    #[error("not {what}: {source}")]
    NotJson {
        what: &'static str,
        source: serde_json::Error,
    },
    #[error("{part}: {name:?} is not a feature; the features are {features}")]
    NotAFeature {
        part: String,
        name: String,
        features: String,
    },
    #[error("{part}: {name:?} is {value}, not a number")]
    NotANumber {
        part: String,
        name: String,
        value: f32,
    },
    #[error("{part}: {name:?} is missing")]
    Missing { part: String, name: String },
    #[error("players: {0:?} is not 1, 2, 3 or 4")]
    NotAPlayerCount(String),
    #[error("not a TD value of {0} weights (\"td\": {0})")]
    NotTd(usize),
    #[error("weights: {0}")]
    TdWeights(serde_json::Error),
    #[error("weights: {0} finite numbers expected")]
    TdSize(usize),
}

impl WeightsError {
    /// The error as found in the file at `path`.
    pub fn in_file(self, path: &str) -> WeightsError {
        WeightsError::In {
            path: path.to_string(),
            source: Box::new(self),
        }
    }
}

/// The text of the file at `path`.
pub fn read(path: &str) -> Result<String, WeightsError> {
    std::fs::read_to_string(path).map_err(|source| WeightsError::Read {
        path: path.to_string(),
        source,
    })
}
