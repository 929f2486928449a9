//! A suggested action the player picked: its mechanic, exactly as the engine offered it at the
//! end of the last turn (kept in that turn's record), is rolled before the model is asked, and
//! the model narrates from the result. The caller names the suggestion by id only, so neither a
//! player nor a model can slip in other arguments (an easier DC, another target).

use super::protocol::TurnRun;
use super::{GameMaster, GmError};
use crate::llm::Message;
use crate::store::CampaignId;
use crate::text::truncate_with_note;

impl GameMaster {
    /// Rolls the mechanic of the last turn's suggestion `id` as the first tool round of this
    /// turn. An id the last turn did not offer with a mechanic is refused, and nothing is
    /// written.
    pub(super) async fn roll_chosen(
        &self,
        campaign: &CampaignId,
        id: &str,
        run: &mut TurnRun<'_>,
    ) -> Result<(), GmError> {
        let last = self.store.recent_turns(campaign, 1).await?;
        let offered = last
            .last()
            .map(|h| h.record.choices.as_slice())
            .unwrap_or_default();
        let Some(call) = offered.iter().find(|c| c.id == id) else {
            return Err(GmError::Input(format!(
                "the last turn offered no action {:?} with a roll; its actions with one were: {}; or say what you do",
                // The id comes from the caller: echoed short, whatever its size.
                truncate_with_note(id, 64),
                if offered.is_empty() {
                    "none".to_owned()
                } else {
                    offered
                        .iter()
                        .map(|c| c.id.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                }
            )));
        };
        let mut call = call.clone();
        call.id = format!("chosen-{}", call.id);
        run.messages
            .push(Message::assistant_tool_calls(vec![call.clone()]));
        let raw = super::protocol::argument_text(&call.arguments);
        // The engine offered this call to the player: its tool is the one sent with it (the
        // gate still refuses it if its moment has passed).
        run.offered = crate::tools::tool_names()
            .into_iter()
            .filter(|t| *t == call.name)
            .collect();
        run.run_tool(self, &call.id, &call.name, &raw);
        run.note(format!(
            "the chosen action was rolled first: {} ({})",
            call.name, id
        ));
        Ok(())
    }
}
