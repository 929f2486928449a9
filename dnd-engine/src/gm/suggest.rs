//! Suggested actions from code alone: what the engine already knows the hero can do where it
//! stands (strike a foe in view, take a known way, search, speak with someone here, work at a
//! found trap, rest), each with the tool call that would resolve it, so the odds come from the
//! same rules as any suggestion. [`Suggestions::Code`], the default, spares the turn the second
//! model call of the two-phase protocol; [`Suggestions::Model`] asks the model for them as the
//! two-phase design first did (a call more each turn, suggestions with more imagination).

use serde_json::json;

use super::outcome::{ActionList, ActionMechanic, ActionSuggestion, SuggestedAction};
use crate::srd::Srd;
use crate::state::GameState;

/// Where a two-phase turn's suggested actions come from.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Suggestions {
    /// A second model call after the narration (the two-phase design).
    Model,
    /// Code, from the state: no second call (the default: one call fewer every turn).
    #[default]
    Code,
}

/// Up to five suggestions for `speaker` (a character's id or name), best first; none when
/// the speaker is no hero of the party.
pub fn from_state(state: &GameState, speaker: &str, srd: &Srd) -> Vec<SuggestedAction> {
    let Some(hero) = state
        .characters
        .iter()
        .find(|c| c.id.eq_ignore_ascii_case(speaker) || c.name.eq_ignore_ascii_case(speaker))
    else {
        return Vec::new();
    };
    let Some(here) = state.party_location() else {
        return Vec::new();
    };
    let mut actions = Vec::new();
    let mut add = |id: String, description: String, tool: &str, arguments: serde_json::Value| {
        actions.push(ActionSuggestion {
            id,
            description,
            reason: None,
            mechanic: Some(ActionMechanic {
                tool: tool.to_owned(),
                arguments: arguments.to_string(),
            }),
        });
    };
    let foes = state
        .monsters
        .iter()
        .filter(|m| m.location == here.id && m.revealed && m.hostile && m.is_alive());
    for m in foes.take(2) {
        add(
            format!("attack-{}", m.id),
            format!("Attack {}", m.name),
            crate::tools::names::ROLL_ATTACK,
            json!({"attacker": hero.id, "target": m.id, "attack": null, "advantage": null}),
        );
    }
    for f in here
        .features
        .iter()
        .filter(|f| f.trap_known() && f.trap_armed())
    {
        add(
            format!("disarm-{}", f.id),
            format!("Disarm the trap on {}", f.name),
            crate::tools::names::DISARM_TRAP,
            json!({"character": hero.id, "feature": f.id}),
        );
    }
    for n in state.npcs.iter().filter(|n| n.location == here.id).take(2) {
        add(
            format!("talk-{}", n.id),
            format!("Speak with {}", n.name),
            crate::tools::names::TALK_TO,
            json!({"character": hero.id, "npc": n.id, "topic": null, "give": null}),
        );
    }
    add(
        "search".to_owned(),
        "Search the area".to_owned(),
        crate::tools::names::ROLL_SKILL_CHECK,
        json!({"creature": hero.id, "skill": "perception", "dc": 12, "advantage": null,
               "reason": "searching the area", "subject": null}),
    );
    for e in here.exits.iter().filter(|e| !e.hidden).take(2) {
        add(
            format!("go-{}", e.direction.replace(' ', "-")),
            format!("Go {}", e.direction),
            crate::tools::names::MOVE_TO,
            json!({"exit": e.direction}),
        );
    }
    actions.truncate(5);
    ActionList { actions }.into_suggestions(state, srd)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adventure::Adventure;

    #[test]
    fn the_first_room_offers_the_harpy_a_search_and_the_way_on_with_odds() {
        let state = Adventure::built_in().new_game(&["kraven"]).unwrap();
        let mut state = state;
        let seen = state
            .monsters
            .iter()
            .map(|m| m.id.clone())
            .collect::<Vec<_>>();
        for id in seen.iter().filter(|id| *id == "frost-harpy") {
            state
                .apply(&crate::state::Change::MonsterRevealed {
                    monster: id.clone(),
                })
                .unwrap();
        }
        let list = from_state(&state, "Kraven", Srd::bundled());
        let ids: Vec<&str> = list.iter().map(|a| a.id.as_str()).collect();
        assert_eq!(ids, ["attack-frost-harpy", "search", "go-east"]);
        assert!(
            list[0].chance.is_some(),
            "the attack carries the engine's odds"
        );
        assert!(from_state(&state, "nobody", Srd::bundled()).is_empty());
    }

    #[tokio::test]
    async fn code_suggestions_spare_the_turn_its_second_call() {
        use crate::gm::{GameMaster, PlayerInput, Protocol};
        use crate::llm::{CompletionResponse, ScriptedProvider};
        use crate::store::{GameStore, MemoryStore};
        use std::sync::Arc;

        let provider = Arc::new(ScriptedProvider::new(vec![Ok(
            CompletionResponse::from_text("The wind howls over the chasm. What do you do?"),
        )]));
        let store = Arc::new(MemoryStore::new());
        let state = Adventure::built_in().new_game(&["kraven"]).unwrap();
        let id = store.create_campaign("Glacier", &state).await.unwrap();
        let gm = GameMaster::builder(provider.clone(), store)
            .protocol(Protocol::TwoPhase)
            .suggestions(Suggestions::Code)
            .seed(1)
            .build();
        let outcome = gm
            .turn(&id, PlayerInput::new("Kraven", "I look around."))
            .await
            .unwrap();
        assert_eq!(provider.requests().len(), 1, "the narration only");
        let ids: Vec<&str> = outcome
            .suggested_actions
            .iter()
            .map(|a| a.id.as_str())
            .collect();
        assert!(
            ids.contains(&"search") && ids.contains(&"go-east"),
            "{ids:?}"
        );
    }
}
