//! What the wards on a creature do to the tools that attack it or cast at it, and what a
//! creature's size does to its weapon hits: Sanctuary's Wisdom save before an attack or a
//! harmful spell (`effects::sanctuary_on`), Mirror Image's d20 for whether a swing strikes a
//! duplicate (`effects::images_of`), Enlarge/Reduce's 1d4 (`effects::size_damage`), Blink's
//! d20 at the end of its caster's turn (`effects::blinking`), Alter Self's natural weapon as a
//! swing (`effects::natural_weapon`). The rules are in `effects`; this
//! rolls, records and reports them.

use super::creature::CreatureInfo;
use super::results::WardSave;
use super::{ToolContext, ToolError};
use crate::dice::DiceExpr;
use crate::rules::check::roll_check_with;
use crate::rules::conditions::save_modifiers;
use crate::rules::{Ability, AttackResult, DamageDice};
use crate::state::{RollKind, TimedEffect};
use crate::store::RollDetail;

/// The Wisdom save `who` makes before attacking `target` or naming it for a harmful spell, when
/// `target` is warded by Sanctuary: rolled and recorded. `None` when there is no ward.
pub(super) fn sanctuary_save(
    ctx: &mut ToolContext<'_>,
    who: &CreatureInfo<'_>,
    target: &CreatureInfo<'_>,
) -> Result<Option<WardSave>, ToolError> {
    let Some(ward) = crate::effects::sanctuary_on(ctx.state, who.target.id(), target.target.id())
    else {
        return Ok(None);
    };
    let (spell, dc) = (ward.spell.clone(), crate::effects::sanctuary_dc(ward));
    let (mut sources, auto_fail) = save_modifiers(&who.conditions, Ability::Wisdom);
    sources.extend(crate::combat::save_situation(
        ctx.state,
        who.target.id(),
        Ability::Wisdom,
    ));
    let bonus = ctx.roll_bonus(who.target.id(), RollKind::Save);
    let modifier = who.save(Ability::Wisdom) + bonus.total;
    let mut save = roll_check_with(modifier, dc, &sources, auto_fail, ctx.rng);
    let inspired = super::feature_bard::inspired_check(ctx, who.target.id(), &mut save);
    let note = inspired.map_or_else(String::new, |why| format!(" ({why})"));
    ctx.record_roll(
        format!(
            "{} Wisdom save against {spell} on {}{note}",
            who.name, target.name
        ),
        i64::from(save.total),
        Some(who.target.clone()),
        RollDetail::Save(save.clone()),
    );
    Ok(Some(WardSave {
        by: who.name.clone(),
        warded: target.name.clone(),
        spell,
        lost: !save.success,
        save,
    }))
}

/// Rolls `expr` (a well-formed `NdS`) and records it with `label`; its total.
fn roll_recorded(ctx: &mut ToolContext<'_>, expr: &str, label: String) -> u32 {
    let Ok(roll) = DiceExpr::parse(expr).and_then(|e| e.roll(ctx.rng)) else {
        return 0;
    };
    let total = roll.total().max(0) as u32;
    ctx.record_roll(label, i64::from(total), None, RollDetail::Dice(roll));
    total
}

/// Mirror Image's d20 before a swing at `target`: the duplicates and their AC when the swing
/// strikes one of them instead, else `None` (no duplicates, or the d20 fell short).
pub(super) fn duplicate_struck(
    ctx: &mut ToolContext<'_>,
    target: &CreatureInfo<'_>,
) -> Option<(TimedEffect, i32)> {
    let (images, left, armor_class) = crate::effects::images_of(ctx.state, target.target.id())?;
    let images = images.clone();
    let need = crate::effects::image_threshold(left);
    let label = format!(
        "{}: d20 for whether the attack strikes one of {}'s {left} duplicates ({need} or more)",
        images.spell, target.name
    );
    let d20 = roll_recorded(ctx, "1d20", label);
    (d20 >= u32::from(need)).then_some((images, armor_class))
}

/// The dice an enlarged attacker's weapon hit adds (1d4 of the swing's first damage type).
pub(super) fn enlarged_dice(
    ctx: &ToolContext<'_>,
    who: &CreatureInfo<'_>,
    damage: &[DamageDice],
) -> Option<DamageDice> {
    let (true, _) = crate::effects::size_damage(ctx.state, who.target.id())? else {
        return None;
    };
    damage.first().map(|d| DamageDice::new(1, 4, 0, d.kind))
}

/// A reduced attacker's hit deals 1d4 less (at least 1): rolled and taken off `result`.
pub(super) fn reduced_hit(
    ctx: &mut ToolContext<'_>,
    who: &CreatureInfo<'_>,
    result: &mut AttackResult,
) {
    if !result.hit || result.total_damage == 0 {
        return;
    }
    let Some((false, spell)) = crate::effects::size_damage(ctx.state, who.target.id()) else {
        return;
    };
    let label = format!("{spell}: 1d4 less damage from {}'s hit", who.name);
    let less = roll_recorded(ctx, "1d4", label);
    let reduced = result.total_damage.saturating_sub(less).max(1);
    result.total_damage = reduced;
}

/// Blink at the end of `creature`'s turn: the d20, recorded, and on 11 or more the creature
/// gone to the Ethereal Plane until its next turn starts.
pub(super) fn blink_at_turn_end(
    ctx: &mut ToolContext<'_>,
    creature: &str,
) -> Result<(), ToolError> {
    let Some(blink) = crate::effects::blinking(ctx.state, creature) else {
        return Ok(());
    };
    let label = format!(
        "{}: d20 for whether {} vanishes to the Ethereal Plane ({} or more)",
        blink.spell,
        ctx.state.name_of(creature),
        crate::effects::BLINK_AT_LEAST
    );
    let d20 = roll_recorded(ctx, "1d20", label);
    let d20 = u8::try_from(d20).unwrap_or(u8::MAX);
    ctx.commit(crate::effects::blinked(&blink, d20).into_iter().collect())
}

/// The swing of the natural weapon `c` has by `name` (Alter Self's claws): Strength and
/// proficiency plus its bonus to hit, its die plus Strength plus its bonus in damage, magical,
/// in melee at 5 ft.
pub(super) fn natural_swing(
    c: &crate::state::Character,
    name: &str,
) -> Option<super::combat::Swing> {
    let (name, sides, bonus, kind) = crate::effects::natural_weapon(&c.timed_effects, Some(name))?;
    let strength = c.abilities.modifier(Ability::Strength);
    Some(super::combat::Swing {
        name: name.to_owned(),
        bonus: strength + c.proficiency_bonus() + bonus,
        damage: vec![DamageDice::new(1, sides, strength + bonus, kind)],
        magical: true,
        reach: crate::combat::positions::Reach::melee(5),
    })
}
