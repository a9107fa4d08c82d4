//! The Sagani server's wire protocol: the JSON of its HTTP API and WebSocket messages, declared
//! once for the server, the terminal client and the load generator (`docs/server-api.md`
//! describes it; `/api/openapi.json` is made from these types). Views, moves and previews are
//! the engine's own JSON (RECORD.md, `sagani_core::view`).

pub mod accounts;
pub mod challenges;
pub mod chat;
pub mod daily;
pub mod error;
pub mod games;
pub mod health;
pub mod live;
pub mod moves;
pub mod notices;
pub mod players;
pub mod schema;
pub mod seeks;
pub mod socket;
pub mod state;
pub mod study;
pub mod tiles;
pub mod time_control;
pub mod whole;

pub use accounts::{Confirmation, Credentials, Me, MeKind, PasswordChange};
pub use challenges::{
    ChallengeAccepted, ChallengeInfo, ChallengeList, ChallengeRequest, ChallengeSetting,
    ChallengeStatus, ChallengesFrom, FollowEntry, FollowList,
};
pub use chat::{ChatLineInfo, ChatLines, ChatQuery, ChatRequest};
pub use daily::{
    Attempt, Board, BoardEntry, Card, DailyStarted, ParInfo, ResultInfo, StartDaily, Today,
    VariantToday,
};
pub use error::{CellXY, ErrorBody, ErrorCode, IllegalReason, RefusalDetail, Unseen};
pub use games::{CreateGame, Created, Invite, JoinRequest, Joined, Lobby, LobbyEntry, SeatRequest};
pub use health::{Health, Ready};
pub use live::{LiveGame, LiveGames, LivePlayer};
pub use moves::{MoveList, MoveRequest, MoveResult, PreviewRequest, PreviewResult};
pub use players::{GameEntry, Leader, Leaderboard, MyGames, Profile, RatingEntry, SoloRecords};
pub use schema::{
    BotName, ChatSchema, CoveredSchema, DailyVariantName, Effect, MoveSchema, PhraseName,
    VariantName,
};
pub use seeks::{
    BotsInstead, SeekCreated, SeekPool, SeekPools, SeekRequest, SeekState, SeekStatusName,
};
pub use socket::{ClientMessage, ServerMessage, Update, WsError};
pub use state::{
    ClockState, DailyMark, EndReason, GameState, GameStatus, LeaveReason, NotRated, PlayedMove,
    RatingChange, Replaced, SeatInfo, SeatKind,
};
pub use study::{AnalysisAnswer, AnalysisRequest, RatedMove, ReplayAnswer, ReplayRequest};
pub use tiles::{TileArrow, TileInfo, Tiles};
pub use time_control::{StoredClockError, TimeControl, TimeControlError, OFFERED};
