//! What the server keeps of a campaign only while it runs: the lock that lets one turn play at a
//! time, the last turn's suggested actions, the rate limit's window, and the channel that
//! carries each turn's events to every seat's `/events` stream.

use std::collections::{BTreeMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::http::StatusCode;
use axum::response::sse::Event;
use dnd_engine::gm::SuggestedAction;
use dnd_engine::offline::OfflinePlayer;
use tokio::sync::{OwnedMutexGuard, broadcast};

use crate::error::ApiError;

/// How many frames a slow `/events` listener may fall behind before it skips some.
const CHANNEL_FRAMES: usize = 1024;

/// One server-sent event: its name and JSON data.
#[derive(Debug, Clone)]
pub struct Frame {
    /// `narration`, `tool_call`, `tool_result`, `outcome`, `error`, `turn_started`, `view`.
    pub event: &'static str,
    /// Its data.
    pub data: serde_json::Value,
}

impl Frame {
    /// A frame.
    pub fn new(event: &'static str, data: serde_json::Value) -> Frame {
        Frame { event, data }
    }

    /// As an SSE event.
    pub fn to_event(&self) -> Event {
        Event::default()
            .event(self.event)
            .data(self.data.to_string())
    }
}

/// A campaign's live part.
#[derive(Debug)]
pub struct Live {
    /// Held for the whole of a turn, an undo or a delete.
    lock: Arc<tokio::sync::Mutex<()>>,
    /// The last turn's suggested actions (`POST .../actions` picks one by its index from 1),
    /// and the hero (by name) they were suggested for: the hero who played that turn.
    pub suggestions: Mutex<(String, Vec<SuggestedAction>)>,
    /// When the turns of the last minute started.
    starts: Mutex<VecDeque<Instant>>,
    /// Every seat's `/events` stream listens here.
    pub events: broadcast::Sender<Frame>,
    /// When the campaign last changed (Unix seconds), while the server runs.
    pub updated: Mutex<Option<u64>>,
    /// The AI companions' players, by hero id: each remembers what it tried.
    pub companions: Mutex<BTreeMap<String, OfflinePlayer>>,
}

impl Default for Live {
    fn default() -> Self {
        Live {
            lock: Arc::new(tokio::sync::Mutex::new(())),
            suggestions: Mutex::new((String::new(), Vec::new())),
            starts: Mutex::new(VecDeque::new()),
            events: broadcast::channel(CHANNEL_FRAMES).0,
            updated: Mutex::new(None),
            companions: Mutex::new(BTreeMap::new()),
        }
    }
}

impl Live {
    /// The campaign's lock, or 409 `turn_in_progress` while a turn holds it.
    pub fn try_lock(&self) -> Result<OwnedMutexGuard<()>, ApiError> {
        Arc::clone(&self.lock).try_lock_owned().map_err(|_| {
            ApiError::new(
                StatusCode::CONFLICT,
                "turn_in_progress",
                "a turn of this campaign is being played; wait for its outcome (GET .../events \
                 shows it), then act",
            )
        })
    }

    /// Counts a turn starting now, or 429 `rate_limited` when `per_minute` turns started in
    /// the last minute (with the seconds until one more may).
    pub fn count_turn(&self, per_minute: u32) -> Result<(), ApiError> {
        let now = Instant::now();
        let mut starts = self.starts.lock().unwrap_or_else(|e| e.into_inner());
        while starts
            .front()
            .is_some_and(|t| now.duration_since(*t) >= Duration::from_secs(60))
        {
            starts.pop_front();
        }
        if starts.len() >= per_minute as usize {
            let wait = starts
                .front()
                .map_or(60, |t| {
                    60u64.saturating_sub(now.duration_since(*t).as_secs())
                })
                .max(1);
            let mut error = ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "rate_limited",
                format!(
                    "this campaign played {per_minute} turns in the last minute, the most \
                     allowed; try again in {wait} s"
                ),
            );
            error.retry_after = Some(wait);
            return Err(error);
        }
        starts.push_back(now);
        Ok(())
    }

    /// Marks the campaign changed now.
    pub fn touch(&self) {
        *self.updated.lock().unwrap_or_else(|e| e.into_inner()) = Some(unix_now());
    }
}

/// Seconds since 1970.
pub fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}
