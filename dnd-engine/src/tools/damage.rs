//! What damage sets off besides hit points, for every tool that deals it (an attack, a spell, a
//! fall or hazard, a monster's save-based action): a held creature's save against the holds of
//! monsters other than the source (a harpy's song), and a concentrating character's
//! Constitution save to keep its spell (DC 10 or half the damage, whichever is higher).

use super::results::{ConcentrationSave, HoldSave};
use super::{ToolContext, ToolError, creature};
use crate::rules::Ability;
use crate::rules::check::roll_check_with;
use crate::rules::conditions::save_modifiers;
use crate::rules::spellcasting::concentration_dc;
use crate::state::Change;
use crate::store::RollDetail;

/// The saves one instance of damage called for.
#[derive(Debug, Default)]
pub(super) struct AfterDamage {
    /// Saves against holds on the creature.
    pub hold_saves: Vec<HoldSave>,
    /// Its concentration save, if it was concentrating.
    pub concentration: Option<ConcentrationSave>,
    /// The Hellish Rebuke it answered with, a character hurt by a hostile monster.
    pub rebuke: Option<super::results::ReactionCast>,
}

/// Commits `changes` and `rolls` at once, then makes the saves damage calls for (held
/// creatures, concentration), once for all each creature took from `source` (the caster's or
/// the monster's id). What each hurt creature rolled after its damage, by id.
pub(super) fn commit_with_follow_ups(
    ctx: &mut ToolContext<'_>,
    source: &str,
    changes: Vec<Change>,
    rolls: Vec<crate::store::RollRecord>,
) -> Result<Vec<(String, AfterDamage)>, ToolError> {
    let mut hurt: Vec<(String, u32)> = Vec::new();
    for change in &changes {
        if let Change::Damage { target, amount, .. } = change {
            match hurt.iter_mut().find(|(id, _)| id == target.id()) {
                Some((_, total)) => *total += amount,
                None => hurt.push((target.id().to_owned(), *amount)),
            }
        }
    }
    ctx.commit(changes)?;
    ctx.log.rolls.extend(rolls);
    let mut after = Vec::new();
    for (id, amount) in hurt {
        let done = after_damage(ctx, &id, amount, Some(source))?;
        after.push((id, done));
    }
    Ok(after)
}

/// After `creature` (an id) took `amount` damage from `source` (a creature's id, or `None` for
/// a fall or a hazard): the saves it calls for, rolled, recorded and applied. Nothing for no
/// damage, or for one already down (0 hit points ends concentration and holds do not matter).
pub(super) fn after_damage(
    ctx: &mut ToolContext<'_>,
    creature: &str,
    amount: u32,
    source: Option<&str>,
) -> Result<AfterDamage, ToolError> {
    bond_share(ctx, creature, amount)?;
    super::feature_warlock::dark_ones_blessing(ctx, creature, amount, source)?;
    let standing = creature::find(ctx.state, ctx.srd, creature).is_ok_and(|c| c.standing);
    if amount == 0 || !standing {
        return Ok(AfterDamage::default());
    }
    let hold_saves = super::monster_turn::saves_on_damage(ctx, creature, source)?;
    let concentration = concentration_save(ctx, creature, amount)?;
    let rebuke = match source {
        Some(by) => super::spell_granted::rebuke(ctx, creature, by, amount)?,
        None => None,
    };
    Ok(AfterDamage {
        hold_saves,
        concentration,
        rebuke,
    })
}

/// Warding Bond: the casters bonded to `creature` take the `amount` it took
/// (`effects::bond_damage`), each making its own concentration save; a caster at 0 hit points
/// breaks its bonds (`effects::bond_broken`).
fn bond_share(ctx: &mut ToolContext<'_>, creature: &str, amount: u32) -> Result<(), ToolError> {
    for (caster, change) in crate::effects::bond_damage(ctx.state, creature, amount) {
        ctx.commit(vec![change])?;
        let broken = crate::effects::bond_broken(ctx.state, &caster);
        if broken.is_empty() {
            concentration_save(ctx, &caster, amount)?;
        } else {
            ctx.commit(broken)?;
        }
    }
    Ok(())
}

/// The Constitution save a concentrating character makes on taking `amount` damage; a failure
/// ends the spell.
fn concentration_save(
    ctx: &mut ToolContext<'_>,
    creature: &str,
    amount: u32,
) -> Result<Option<ConcentrationSave>, ToolError> {
    let Some(spell) = crate::state::concentration_of(ctx.state, creature).map(str::to_owned) else {
        return Ok(None);
    };
    let who = creature::find(ctx.state, ctx.srd, creature)?;
    let (sources, auto_fail) = save_modifiers(&who.conditions, Ability::Constitution);
    let dc = concentration_dc(amount);
    // Bless adds a d4, Bane takes one away, as on any save (`effects::roll_bonus`).
    let blessed = ctx.roll_bonus(who.target.id(), crate::state::RollKind::Save);
    let mut result = roll_check_with(
        who.save(Ability::Constitution) + blessed.total,
        dc,
        &sources,
        auto_fail,
        ctx.rng,
    );
    let inspired = super::feature_bard::inspired_check(ctx, who.target.id(), &mut result);
    let note = inspired.map_or_else(String::new, |why| format!(" ({why})"));
    let (name, id) = (who.name.to_owned(), who.target.id().to_owned());
    ctx.record_roll(
        format!("{name} Constitution save to keep {spell}{note}"),
        i64::from(result.total),
        Some(who.target.clone()),
        RollDetail::Save(result.clone()),
    );
    if !result.success {
        ctx.commit(vec![Change::Concentration {
            character: id.clone(),
            spell: None,
        }])?;
    }
    Ok(Some(ConcentrationSave {
        by: id,
        spell,
        kept: result.success,
        result,
    }))
}
