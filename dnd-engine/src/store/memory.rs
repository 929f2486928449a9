//! [`MemoryStore`]: campaigns in a map behind a lock, for tests and games without persistence.

use std::collections::BTreeMap;
use std::sync::Mutex;

use async_trait::async_trait;

use super::{
    CampaignId, CampaignInfo, GameStore, HistoryEntry, Page, StoreError, TurnRecord, replay,
};
use crate::state::{GameState, StoryEvent};

#[derive(Debug, Clone)]
struct Campaign {
    name: String,
    initial: GameState,
    current: GameState,
    history: Vec<HistoryEntry>,
}

/// A [`GameStore`] in memory. Cloning the store is not supported; share it with an `Arc`.
#[derive(Debug, Default)]
pub struct MemoryStore {
    inner: Mutex<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    next_id: u64,
    campaigns: BTreeMap<CampaignId, Campaign>,
}

impl MemoryStore {
    /// An empty store.
    pub fn new() -> MemoryStore {
        MemoryStore::default()
    }

    fn with<T>(
        &self,
        f: impl FnOnce(&mut Inner) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        // A panic while holding the lock cannot leave a half-applied turn (every mutation below
        // is computed first and swapped in last), so a poisoned lock is safe to keep using.
        let mut guard = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        f(&mut guard)
    }
}

impl Campaign {
    /// The history number of the last turn in effect, 0 for none (the store's head).
    fn head(&self) -> u64 {
        self.history
            .iter()
            .rev()
            .find(|h| !h.undone)
            .map_or(0, |h| h.turn)
    }
}

impl Inner {
    fn campaign(&mut self, id: &CampaignId) -> Result<&mut Campaign, StoreError> {
        self.campaigns
            .get_mut(id)
            .ok_or_else(|| StoreError::NotFound(id.clone()))
    }
}

/// The page of `items`, cloning only the entries on the page (an entry's record is shared).
fn page<'a, T: Clone + 'a>(items: impl Iterator<Item = &'a T>, page: Page) -> Vec<T> {
    items.skip(page.offset).take(page.limit).cloned().collect()
}

#[async_trait]
impl GameStore for MemoryStore {
    async fn create_campaign(
        &self,
        name: &str,
        initial: &GameState,
    ) -> Result<CampaignId, StoreError> {
        self.with(|inner| {
            inner.next_id += 1;
            let id = CampaignId(inner.next_id.to_string());
            inner.campaigns.insert(
                id.clone(),
                Campaign {
                    name: name.to_owned(),
                    initial: initial.clone(),
                    current: initial.clone(),
                    history: Vec::new(),
                },
            );
            Ok(id)
        })
    }

    async fn load(&self, campaign: &CampaignId) -> Result<GameState, StoreError> {
        self.with(|inner| Ok(inner.campaign(campaign)?.current.clone()))
    }

    async fn load_with_head(&self, campaign: &CampaignId) -> Result<(GameState, u64), StoreError> {
        self.with(|inner| {
            let c = inner.campaign(campaign)?;
            Ok((c.current.clone(), c.head()))
        })
    }

    async fn commit_turn(
        &self,
        campaign: &CampaignId,
        record: TurnRecord,
    ) -> Result<u64, StoreError> {
        self.with(|inner| {
            let c = inner.campaign(campaign)?;
            // Checked under the same lock as the write: no other commit can come between.
            record.check_after_turn(c.head())?;
            // All or nothing: on an invalid change `apply_to` leaves the state untouched.
            record.apply_to(&mut c.current)?;
            let turn = c.history.len() as u64 + 1;
            c.history.push(HistoryEntry {
                turn,
                undone: false,
                record: record.into(),
            });
            Ok(turn)
        })
    }

    async fn list_campaigns(&self) -> Result<Vec<CampaignInfo>, StoreError> {
        self.with(|inner| {
            Ok(inner
                .campaigns
                .iter()
                .map(|(id, c)| CampaignInfo {
                    id: id.clone(),
                    name: c.name.clone(),
                    turns: c.history.iter().filter(|h| !h.undone).count() as u64,
                })
                .collect())
        })
    }

    async fn story_log(
        &self,
        campaign: &CampaignId,
        p: Page,
    ) -> Result<Vec<StoryEvent>, StoreError> {
        self.with(|inner| {
            let c = inner.campaign(campaign)?;
            let events = c
                .history
                .iter()
                .filter(|h| !h.undone)
                .flat_map(|h| h.record.events.iter());
            Ok(page(events, p))
        })
    }

    async fn history(
        &self,
        campaign: &CampaignId,
        p: Page,
    ) -> Result<Vec<HistoryEntry>, StoreError> {
        self.with(|inner| Ok(page(inner.campaign(campaign)?.history.iter(), p)))
    }

    async fn recent_turns(
        &self,
        campaign: &CampaignId,
        count: usize,
    ) -> Result<Vec<HistoryEntry>, StoreError> {
        // Each entry's record is an `Arc`: the copies below share it.
        self.with(|inner| {
            let c = inner.campaign(campaign)?;
            let mut recent: Vec<HistoryEntry> = c
                .history
                .iter()
                .rev()
                .filter(|h| !h.undone)
                .take(count)
                .cloned()
                .collect();
            recent.reverse();
            Ok(recent)
        })
    }

    async fn undo(&self, campaign: &CampaignId, turns: u32) -> Result<GameState, StoreError> {
        self.with(|inner| {
            let c = inner.campaign(campaign)?;
            let in_effect: Vec<usize> = (0..c.history.len())
                .filter(|i| !c.history[*i].undone)
                .collect();
            if turns as usize > in_effect.len() {
                return Err(StoreError::NothingToUndo {
                    asked: turns,
                    available: in_effect.len() as u64,
                });
            }
            let keep = &in_effect[..in_effect.len() - turns as usize];
            let state = replay(&c.initial, keep.iter().map(|i| &*c.history[*i].record))?;
            for i in &in_effect[keep.len()..] {
                c.history[*i].undone = true;
            }
            c.current = state.clone();
            Ok(state)
        })
    }

    async fn delete(&self, campaign: &CampaignId) -> Result<(), StoreError> {
        self.with(|inner| {
            inner
                .campaigns
                .remove(campaign)
                .map(|_| ())
                .ok_or_else(|| StoreError::NotFound(campaign.clone()))
        })
    }
}
