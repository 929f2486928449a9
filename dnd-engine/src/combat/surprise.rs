//! Surprise, as the SRD decides it when a fight starts: each creature hiding from the other
//! side rolls Dexterity (Stealth); a creature that notices no threat (whose passive Perception
//! is below the Stealth of everyone on the other side) is surprised. A surprised creature
//! cannot move or act on its first turn, and cannot take a reaction until that turn ends
//! (`state::EffectKind::Surprised`, which the gate reads and the end of its turn removes).
//!
//! Who hides: monsters that join the fight unseen (not yet revealed to the party) hide from
//! the heroes; heroes hide from the monsters only when the call says they crept up
//! (`start_encounter`'s `sneaking`), and then every hero in the fight must be sneaking, since a
//! hero in the open is a threat noticed.

use crate::dice::DieSource;

use super::actions::{passive_perception, skill_of};
use crate::rules::check::roll_check_with;
use crate::rules::conditions::check_modifiers;
use crate::rules::{AdvantageSources, CheckResult, Skill};
use crate::srd::Srd;
use crate::state::{GameState, MonsterInstance};

/// One Stealth roll of a creature hiding as the fight starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StealthRoll {
    /// The hider's id.
    pub id: String,
    /// The check (against the best passive Perception on the other side).
    pub result: CheckResult,
}

/// Who hid, what they rolled, and who is surprised.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Surprise {
    /// The Stealth rolls, hiders in order.
    pub rolls: Vec<StealthRoll>,
    /// The ids of the surprised.
    pub surprised: Vec<String>,
}

/// Decides surprise for a fight about to start between the living heroes and `monsters`:
/// the unseen monsters hide; the heroes hide when `sneaking` names every one of them.
pub fn decide(
    state: &GameState,
    srd: &Srd,
    monsters: &[&MonsterInstance],
    sneaking: &[String],
    rng: &mut (impl DieSource + ?Sized),
) -> Surprise {
    let heroes: Vec<&str> = state
        .characters
        .iter()
        .filter(|c| !c.dead && c.hp.current > 0)
        .map(|c| c.id.as_str())
        .collect();
    let foes: Vec<&str> = monsters.iter().map(|m| m.id.as_str()).collect();
    let mut surprise = Surprise::default();
    // The monsters ambush only if none of them is in sight.
    if !monsters.is_empty() && monsters.iter().all(|m| !m.revealed) {
        surprise.extend(state, srd, &foes, &heroes, rng);
    }
    let all_sneak = !heroes.is_empty()
        && heroes
            .iter()
            .all(|h| sneaking.iter().any(|s| s.eq_ignore_ascii_case(h)));
    if all_sneak {
        surprise.extend(state, srd, &heroes, &foes, rng);
    }
    surprise
}

impl Surprise {
    /// `hiders` roll Stealth; each of `watchers` that beats none of them is surprised.
    fn extend(
        &mut self,
        state: &GameState,
        srd: &Srd,
        hiders: &[&str],
        watchers: &[&str],
        rng: &mut (impl DieSource + ?Sized),
    ) {
        let best_eye = watchers
            .iter()
            .map(|w| passive_perception(state, srd, w))
            .max()
            .unwrap_or(10);
        let mut totals = Vec::new();
        for hider in hiders {
            let conditions = state
                .character(hider)
                .map(|c| c.conditions)
                .or_else(|| state.monster(hider).map(|m| m.conditions))
                .unwrap_or_default();
            let (sources, auto_fail): (AdvantageSources, _) =
                check_modifiers(&conditions, false, false);
            let modifier = skill_of(state, srd, hider, Skill::Stealth);
            // Unseen by the sharpest eye on the other side: a total above its passive Perception.
            let result = roll_check_with(modifier, best_eye + 1, &sources, auto_fail, rng);
            totals.push(result.total);
            self.rolls.push(StealthRoll {
                id: (*hider).to_owned(),
                result,
            });
        }
        for watcher in watchers {
            let eye = passive_perception(state, srd, watcher);
            // It notices a threat when its passive Perception reaches any hider's Stealth.
            if totals.iter().all(|t| eye < *t) {
                self.surprised.push((*watcher).to_owned());
            }
        }
    }
}
