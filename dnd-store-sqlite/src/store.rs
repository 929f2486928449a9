//! [`GameStore`] for [`SqliteStore`]: each method copies its arguments and runs its query
//! function (in `queries.rs`) on the blocking pool.

use async_trait::async_trait;
use dnd_engine::state::{GameState, StoryEvent};
use dnd_engine::store::{
    CampaignId, CampaignInfo, GameStore, HistoryEntry, Page, StoreError, TurnRecord,
};

use crate::{SqliteStore, queries};

#[async_trait]
impl GameStore for SqliteStore {
    async fn create_campaign(
        &self,
        name: &str,
        initial: &GameState,
    ) -> Result<CampaignId, StoreError> {
        let name = name.to_owned();
        let initial = initial.clone();
        self.run(move |conn, place| queries::create_campaign(conn, place, &name, &initial))
            .await
    }

    async fn load(&self, campaign: &CampaignId) -> Result<GameState, StoreError> {
        let id = campaign.clone();
        self.run(move |conn, place| queries::load(conn, place, &id))
            .await
    }

    async fn load_with_head(&self, campaign: &CampaignId) -> Result<(GameState, u64), StoreError> {
        let id = campaign.clone();
        self.run(move |conn, place| queries::load_with_head(conn, place, &id))
            .await
    }

    async fn commit_turn(
        &self,
        campaign: &CampaignId,
        record: TurnRecord,
    ) -> Result<u64, StoreError> {
        let id = campaign.clone();
        self.run(move |conn, place| queries::commit_turn(conn, place, &id, &record))
            .await
    }

    async fn list_campaigns(&self) -> Result<Vec<CampaignInfo>, StoreError> {
        self.run(queries::list_campaigns).await
    }

    async fn story_log(
        &self,
        campaign: &CampaignId,
        page: Page,
    ) -> Result<Vec<StoryEvent>, StoreError> {
        let id = campaign.clone();
        self.run(move |conn, place| queries::story_log(conn, place, &id, page))
            .await
    }

    async fn history(
        &self,
        campaign: &CampaignId,
        page: Page,
    ) -> Result<Vec<HistoryEntry>, StoreError> {
        let id = campaign.clone();
        self.run(move |conn, place| queries::history(conn, place, &id, page))
            .await
    }

    async fn recent_turns(
        &self,
        campaign: &CampaignId,
        count: usize,
    ) -> Result<Vec<HistoryEntry>, StoreError> {
        let id = campaign.clone();
        self.run(move |conn, place| queries::recent_turns(conn, place, &id, count))
            .await
    }

    async fn undo(&self, campaign: &CampaignId, turns: u32) -> Result<GameState, StoreError> {
        let id = campaign.clone();
        self.run(move |conn, place| queries::undo(conn, place, &id, turns))
            .await
    }

    async fn delete(&self, campaign: &CampaignId) -> Result<(), StoreError> {
        let id = campaign.clone();
        self.run(move |conn, place| queries::delete(conn, place, &id))
            .await
    }
}
