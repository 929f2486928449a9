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
            let at = recent.messages.len();
            match Arc::try_unwrap(entry.record) {
                Ok(record) => recent.messages.extend(record.llm_messages),
                Err(shared) => recent.messages.extend_from_slice(&shared.llm_messages),
            }
            super::context::past_turn(&mut recent.messages[at..]);
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
    /// context, where they start at `at`), then its own `messages` as later turns are sent
    /// them ([`past_turn`](super::context::past_turn)), at most `window` turns.
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
        let start = self.messages.len();
        self.messages.extend_from_slice(messages);
        super::context::past_turn(&mut self.messages[start..]);
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

/// Which past turns a turn is sent, and which it folds into the summary first.
///
/// Between two folds the history only grows, one turn at a time, so every call's history is
/// the previous call's with a turn added (what a provider's prompt cache reuses); a fold then
/// moves the oldest `every` turns into the summary at once, leaving `keep`. So a turn is sent
/// between `keep` and `keep + every - 1` past turns, and the prefix changes once every `every`
/// turns instead of on every turn, as a sliding window would.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Window {
    /// How many past turns are sent.
    pub(super) sent: usize,
    /// How many turns just before them are folded into the summary this turn (0 or `every`).
    pub(super) folded: usize,
}

impl Window {
    /// The window of the turn played after `turns` turns in effect, with
    /// [`GmLimits::history_turns`](super::GmLimits::history_turns) as `keep` and
    /// [`GmLimits::summary_every`](super::GmLimits::summary_every) as `every`. It depends on
    /// the turn count alone, so an undone turn undoes its fold too.
    pub(super) fn of(turns: u64, keep: usize, every: usize) -> Window {
        let every = every.max(1) as u64;
        let keep = keep as u64;
        // The turns folded so far: a multiple of `every`, leaving at least `keep`.
        let start = |t: u64| {
            if t < keep + every {
                0
            } else {
                (t - keep) / every * every
            }
        };
        let (now, before) = (start(turns), start(turns.saturating_sub(1)));
        let folded = if turns > 0 { now - before } else { 0 };
        Window {
            sent: usize::try_from(turns - now).unwrap_or(usize::MAX),
            folded: usize::try_from(folded).unwrap_or(usize::MAX),
        }
    }
}

impl GameMaster {
    /// The window of the turn played after `turns` turns in effect (see [`Window`]).
    pub(super) fn window(&self, turns: u64) -> Window {
        Window::of(turns, self.limits.history_turns, self.limits.summary_every)
    }

    /// The turns the model is sent this turn and, on a turn that folds, the ones just before
    /// them, to fold into the summary ([`Window`]). `head` is the campaign's head as loaded
    /// with `state`.
    pub(super) async fn load_history(
        &self,
        campaign: &CampaignId,
        state: &GameState,
        head: u64,
    ) -> Result<(Recent, Vec<HistoryEntry>), GmError> {
        let window = self.window(state.turn);
        if window.folded == 0
            && let Some(recent) = self.recent.take(campaign, head, window.sent)
        {
            return Ok((recent, Vec::new()));
        }
        let mut history = self
            .store
            .recent_turns(campaign, window.sent + window.folded)
            .await?;
        let beyond = history.len().saturating_sub(window.sent);
        let folded: Vec<_> = history.drain(..beyond).collect();
        Ok((Recent::of(history), folded))
    }
}

#[cfg(test)]
mod tests {
    use super::Window;

    #[test]
    fn the_history_grows_between_folds_and_folds_every_turns_at_once() {
        // keep 2, every 4: turns 0..=5 send all they have; turn 6 folds 4 and sends 2.
        let sent: Vec<(usize, usize)> = (0..=14)
            .map(|t| {
                let w = Window::of(t, 2, 4);
                (w.sent, w.folded)
            })
            .collect();
        assert_eq!(
            sent,
            vec![
                (0, 0),
                (1, 0),
                (2, 0),
                (3, 0),
                (4, 0),
                (5, 0),
                (2, 4),
                (3, 0),
                (4, 0),
                (5, 0),
                (2, 4),
                (3, 0),
                (4, 0),
                (5, 0),
                (2, 4)
            ]
        );
    }

    #[test]
    fn the_window_holds_for_any_settings() {
        for keep in 0..5 {
            for every in 0..6 {
                let mut folded_total = 0;
                for t in 0..60u64 {
                    let w = Window::of(t, keep, every);
                    folded_total += w.folded;
                    // Every turn is either sent or folded, never both, never lost.
                    assert_eq!(
                        folded_total + w.sent,
                        t as usize,
                        "keep {keep} every {every} t {t}"
                    );
                    assert!(
                        w.sent < keep + every.max(1),
                        "keep {keep} every {every} t {t}"
                    );
                    assert!(w.folded == 0 || w.folded == every.max(1));
                }
            }
        }
    }
}
