//! [`GameStore`] for [`PostgresStore`]: each method takes a connection from the pool and runs
//! its query function (in `queries.rs`) on it.

use async_trait::async_trait;
use dnd_engine::state::{GameState, StoryEvent};
use dnd_engine::store::{
    CampaignId, CampaignInfo, GameStore, HistoryEntry, Page, StoreError, TurnRecord,
};

use crate::{PostgresStore, queries};

#[async_trait]
impl GameStore for PostgresStore {
    async fn create_campaign(
        &self,
        name: &str,
        initial: &GameState,
    ) -> Result<CampaignId, StoreError> {
        let mut client = self.client().await?;
        queries::create_campaign(&mut client, &self.place, name, initial).await
    }

    async fn load(&self, campaign: &CampaignId) -> Result<GameState, StoreError> {
        let mut client = self.client().await?;
        queries::load(&mut client, &self.place, campaign).await
    }

    async fn load_with_head(&self, campaign: &CampaignId) -> Result<(GameState, u64), StoreError> {
        let mut client = self.client().await?;
        queries::load_with_head(&mut client, &self.place, campaign).await
    }

    async fn commit_turn(
        &self,
        campaign: &CampaignId,
        record: TurnRecord,
    ) -> Result<u64, StoreError> {
        let mut client = self.client().await?;
        queries::commit_turn(&mut client, &self.place, campaign, &record).await
    }

    async fn list_campaigns(&self) -> Result<Vec<CampaignInfo>, StoreError> {
        let mut client = self.client().await?;
        queries::list_campaigns(&mut client, &self.place).await
    }

    async fn story_log(
        &self,
        campaign: &CampaignId,
        page: Page,
    ) -> Result<Vec<StoryEvent>, StoreError> {
        let mut client = self.client().await?;
        queries::story_log(&mut client, &self.place, campaign, page).await
    }

    async fn history(
        &self,
        campaign: &CampaignId,
        page: Page,
    ) -> Result<Vec<HistoryEntry>, StoreError> {
        let mut client = self.client().await?;
        queries::history(&mut client, &self.place, campaign, page).await
    }

    async fn recent_turns(
        &self,
        campaign: &CampaignId,
        count: usize,
    ) -> Result<Vec<HistoryEntry>, StoreError> {
        let mut client = self.client().await?;
        queries::recent_turns(&mut client, &self.place, campaign, count).await
    }

    async fn undo(&self, campaign: &CampaignId, turns: u32) -> Result<GameState, StoreError> {
        let mut client = self.client().await?;
        queries::undo(&mut client, &self.place, campaign, turns).await
    }

    async fn delete(&self, campaign: &CampaignId) -> Result<(), StoreError> {
        let mut client = self.client().await?;
        queries::delete(&mut client, &self.place, campaign).await
    }
}
