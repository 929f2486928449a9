//! The LLM history a turn sends: the messages of the campaign's last turns in effect.
//!
//! The store has them ([`GameStore::recent_turns`]), but a game master that has just committed
//! a turn already holds every one of them: it sent the older ones with that turn and wrote the
//! newest. So after each commit it keeps them ([`RecentMemo`]), with the campaign's head, and
//! the next turn of the same campaign takes them back instead of reading and copying them
//! from the store. The head names the state in effect exactly (see [`crate::store`]): if any
//! other game committed or undid a turn since, the head differs and the turn reads the store,
//! as it does on a turn that folds old turns into the summary.
//!
//! [`GameStore::recent_turns`]: crate::store::GameStore::recent_turns

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use super::{GameMaster, GmError};
use crate::llm::Message;
use crate::state::GameState;
use crate::store::{CampaignId, HistoryEntry};

/// The messages of a campaign's last turns in effect, oldest first.
#[derive(Debug, Default)]
pub(super) struct Recent {
    /// Every turn's messages, one after the other.
    messages: Vec<Message>,
    /// How many messages each turn has, oldest first.
    turns: VecDeque<usize>,
}

impl Recent {
    /// The recent turns of these history entries (a record held only here gives up its
    /// messages; a shared one lends copies).
    fn of(entries: Vec<HistoryEntry>) -> Recent {
        let mut recent = Recent {
            messages: Vec::with_capacity(entries.iter().map(|h| h.record.llm_messages.len()).sum()),
            turns: VecDeque::with_capacity(entries.len() + 1),
        };
        for entry in entries {
            recent.turns.push_back(entry.record.llm_messages.len());
            match Arc::try_unwrap(entry.record) {
                Ok(record) => recent.messages.extend(record.llm_messages),
                Err(shared) => recent.messages.extend_from_slice(&shared.llm_messages),
            }
        }
        recent
    }

    /// How many messages the turns hold.
    pub(super) fn len(&self) -> usize {
        self.messages.len()
    }

    /// How many messages each turn holds, oldest first.
    pub(super) fn turn_sizes(&self) -> Vec<usize> {
        self.turns.iter().copied().collect()
    }

    /// Moves the messages to the end of `into` (the context being built); they come back with
    /// [`Recent::after`], into the same buffer.
    pub(super) fn move_into(&mut self, into: &mut Vec<Message>) {
        into.append(&mut self.messages);
    }

    /// The recent turns after a turn: the ones this turn was sent (moved back out of its
    /// context, where they start at `at`), then its own `messages`, at most `window` turns.
    pub(super) fn after(
        mut self,
        context: &mut Vec<Message>,
        at: usize,
        messages: &[Message],
        window: usize,
    ) -> Recent {
        let sent: usize = self.turns.iter().sum();
        // Back into the buffer they left (`append` kept its room): no new one each turn.
        self.messages.extend(context.drain(at..at + sent));
        self.messages.extend_from_slice(messages);
        self.turns.push_back(messages.len());
        while self.turns.len() > window {
            let oldest = self.turns.pop_front().unwrap_or_default();
            self.messages.drain(..oldest);
        }
        self
    }
}

/// The last turns a game master committed, for the next turn of the same campaign: see the
/// [module docs](self).
#[derive(Debug, Default)]
pub(super) struct RecentMemo {
    last: Mutex<Option<(CampaignId, u64, Recent)>>,
}

impl RecentMemo {
    /// Keeps `recent`: the campaign's last turns in effect once its head is `head`.
    pub(super) fn keep(&self, campaign: &CampaignId, head: u64, recent: Recent) {
        *self.last.lock().unwrap_or_else(|p| p.into_inner()) =
            Some((campaign.clone(), head, recent));
    }

    /// The kept turns, taken out, if they are the last `count` turns in effect of `campaign`
    /// at `head`. A turn that fails keeps nothing, so the next one reads the store.
    fn take(&self, campaign: &CampaignId, head: u64, count: usize) -> Option<Recent> {
        // Replaced whole under the lock: a poisoned one is still consistent.
        let mut last = self.last.lock().unwrap_or_else(|p| p.into_inner());
        match last.take() {
            Some((kept, at, recent))
                if kept == *campaign && at == head && recent.turns.len() == count =>
            {
                Some(recent)
            }
            _ => None,
        }
    }
}

impl GameMaster {
    /// The turns the model is sent this turn (the last `history_turns` in effect) and, on a
    /// turn that folds, the ones just before them, to fold into the summary. `head` is the
    /// campaign's head as loaded with `state`.
    pub(super) async fn load_history(
        &self,
        campaign: &CampaignId,
        state: &GameState,
        head: u64,
        folding: bool,
    ) -> Result<(Recent, Vec<HistoryEntry>), GmError> {
        let window = self.limits.history_turns;
        // `state.turn` counts the turns in effect: the store has this many to send.
        let count = window.min(usize::try_from(state.turn).unwrap_or(usize::MAX));
        if !folding && let Some(recent) = self.recent.take(campaign, head, count) {
            return Ok((recent, Vec::new()));
        }
        let wanted = if folding {
            window + self.limits.summary_every.max(1)
        } else {
            window
        };
        let mut history = self.store.recent_turns(campaign, wanted).await?;
        let beyond = history.len().saturating_sub(window);
        let folded: Vec<_> = history.drain(..beyond).collect();
        Ok((Recent::of(history), folded))
    }
}
