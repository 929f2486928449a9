//! The rogue's features in play. Sneak Attack is the engine's, never the model's: `roll_attack`
//! asks [`sneak_attack`] on every swing (the rule is `character::rogue`), adds the dice to a
//! qualifying attack, and a hit that lands spends the turn's Sneak Attack ([`sneak_spent`]: an
//! `EffectKind::SneakAttacked` on the encounter, keyed by the turn, so an opportunity attack on
//! another creature's turn may sneak again, once in that turn).

use super::ToolContext;
use super::combat::Swing;
use super::creature::CreatureInfo;
use crate::character::rogue::{self, NoSneak, Sneak, SneakFacts};
use crate::dice::Advantage;
use crate::state::{Change, Effect, EffectKind, GameState};

/// Whether `rogue` dealt Sneak Attack in the turn being played now.
fn sneaked_this_turn(state: &GameState, rogue: &str) -> bool {
    state.encounter.as_ref().is_some_and(|e| {
        e.effects_of(rogue).any(|x| {
            matches!(x.kind, EffectKind::SneakAttacked { turn } if turn == e.turn)
                && x.round == e.round
        })
    })
}

/// Another enemy of `target` (not `rogue`, able to act) within 5 ft of it, by name.
fn ally_beside(state: &GameState, rogue: &str, target: &str) -> Option<String> {
    crate::combat::positions::hostiles(state, target)
        .into_iter()
        .filter(|id| !id.eq_ignore_ascii_case(rogue))
        .find(|id| crate::combat::positions::distance(state, id, target) <= 5)
        .map(|id| state.name_of(&id).to_owned())
}

/// Sneak Attack on `who`'s `swing` at `victim`, whose roll resolves to `roll`: `None` when it
/// cannot apply (not a character with Sneak Attack, not a finesse or ranged weapon), else the
/// dice to add or why not.
pub(super) fn sneak_attack(
    ctx: &ToolContext<'_>,
    who: &CreatureInfo<'_>,
    victim: &CreatureInfo<'_>,
    swing: &Swing,
    roll: Advantage,
) -> Option<Result<Sneak, NoSneak>> {
    let c = ctx.state.character(who.target.id())?;
    let kind = swing.damage.first()?.kind;
    let ally = ally_beside(ctx.state, &c.id, victim.target.id());
    let facts = SneakFacts {
        roll,
        ally_beside: ally.as_deref(),
        used_this_turn: sneaked_this_turn(ctx.state, &c.id),
    };
    rogue::sneak_attack(ctx.srd, c, &swing.name, kind, facts)
}

/// The change that spends `rogue`'s Sneak Attack for the turn being played (none outside a
/// fight, where no turn is counted).
pub(super) fn sneak_spent(state: &GameState, rogue: &str) -> Option<Change> {
    let e = state.encounter.as_ref()?;
    Some(Change::EffectStarted {
        effect: Effect {
            creature: rogue.to_owned(),
            round: e.round,
            kind: EffectKind::SneakAttacked { turn: e.turn },
        },
    })
}

/// What the attack report says of Sneak Attack: applied, with its dice and why, or why not.
pub(super) fn sneak_report(
    sneak: Option<&Result<Sneak, NoSneak>>,
    landed: bool,
    hit: bool,
) -> Option<String> {
    Some(match sneak? {
        Ok(s) if landed => format!("Sneak Attack: +{} ({})", s.dice, s.because),
        Ok(_) if hit => "no Sneak Attack: the hit struck a duplicate".to_owned(),
        Ok(_) => "no Sneak Attack: the attack missed (still unused this turn)".to_owned(),
        Err(why) => why.to_string(),
    })
}
