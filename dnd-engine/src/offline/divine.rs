//! The cleric's Channel Divinity in the offline game master's fights: on the cleric's turn,
//! Turn Undead when an undead foe stands here (the snapshot gives each monster's creature
//! type), else Preserve Life when the party is hurt below half its hit points; each in place
//! of the strike, since each takes the action. A refusal (no undead within 30 ft, a cleric of
//! another domain) costs nothing: the hero strikes instead.

use serde_json::{Value, json};

use super::plan::{Next, last_named};
use super::view::Turn;
use crate::tools::names as tool;

/// The feature the snapshot lists once the cleric's Channel Divinity is spent.
const POOL_PREFIX: &str = "channel-divinity";

/// The least healing Preserve Life must do to be worth its use.
const WORTH_HEALING: u32 = 5;

/// The Channel Divinity the cleric `hero` uses this turn instead of striking, if any: a cleric
/// of 2nd level or more, in a fight, its use left, not yet tried this turn.
pub(crate) fn channel_divinity(turn: &Turn, hero: &str) -> Option<(&'static str, Value)> {
    let now = &turn.now;
    let h = now.hero(hero)?;
    let ready = now.encounter.is_some()
        && !turn.ran(tool::USE_FEATURE)
        && h.class == "cleric"
        && h.level >= 2
        && !h.down
        && !h.spent_features.iter().any(|f| f.starts_with(POOL_PREFIX));
    if !ready {
        return None;
    }
    if now.foes().iter().any(|m| m.kind.starts_with("undead")) {
        return Some((
            tool::USE_FEATURE,
            json!({"character": hero, "feature": "channel-divinity-turn-undead", "target": null, "amount": null, "option": null}),
        ));
    }
    let split = preserve_life_split(turn, hero, 5 * u32::from(h.level));
    let total: u32 = split.iter().map(|(_, n)| n).sum();
    (total >= WORTH_HEALING).then(|| {
        let option: Vec<String> = split.iter().map(|(id, n)| format!("{id}: {n}")).collect();
        (
            tool::USE_FEATURE,
            json!({"character": hero, "feature": "channel-divinity-preserve-life", "target": null, "amount": null, "option": option.join(", ")}),
        )
    })
}

/// Preserve Life's split of `pool` hit points: the heroes below half their maximum (not down
/// for good, not last seen beyond 30 ft), the most hurt first, each raised to half at most.
fn preserve_life_split(turn: &Turn, cleric: &str, pool: u32) -> Vec<(String, u32)> {
    let now = &turn.now;
    let mut hurt: Vec<_> = now
        .party
        .iter()
        .filter(|h| h.hp.1 > 0 && h.hp.0 * 2 < h.hp.1)
        .filter(|h| now.distance(cleric, &h.id).is_none_or(|d| d <= 30))
        .collect();
    // The lowest share of its maximum first.
    hurt.sort_by_key(|h| (h.hp.0 * 100) / h.hp.1);
    let mut left = pool;
    let mut split = Vec::new();
    for h in hurt {
        let give = (h.hp.1 / 2).saturating_sub(h.hp.0).min(left);
        if give > 0 {
            split.push((h.id.clone(), give));
            left -= give;
        }
    }
    split
}

/// After a Channel Divinity this turn: the monsters act (`next_turn`) once it worked, or the
/// hero strikes `foe` when it was refused. `None` when none was used in the last round.
pub(crate) fn after_channel(turn: &Turn, hero: &str, foe: Option<&str>) -> Option<Next> {
    let step = last_named(turn, tool::USE_FEATURE)?;
    let feature = step.call.arguments.get("feature")?.as_str()?;
    if !feature.starts_with(POOL_PREFIX) {
        return None;
    }
    let now = &turn.now;
    if step.ok {
        now.encounter.as_ref()?;
        return Some(Next::Calls(if now.foes().is_empty() {
            super::fight::victory(turn, hero) // the last undead destroyed
        } else {
            vec![(tool::NEXT_TURN, json!({}))]
        }));
    }
    let foe = foe?;
    Some(Next::Calls(vec![(
        tool::ROLL_ATTACK,
        json!({"attacker": hero, "target": foe, "attack": null, "advantage": null}),
    )]))
}
