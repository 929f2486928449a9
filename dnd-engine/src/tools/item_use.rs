//! `use_item` for an item whose data the effects engine resolves (`effects::ItemData`): a
//! potion or a flask drunk by the user or fed to a creature within 5 ft, an amulet's power,
//! and a spell scroll read through the same path as `cast_spell` (`spell_effects::cast`) with
//! no slot spent. The rules live in `effects`; this file builds the subjects and commits.

use super::creature;
use super::results::ItemUsed;
use super::{ToolContext, ToolError};
use crate::combat::targeting::SpellTarget;
use crate::effects::{self, Caster, Casting, Effect, ItemData, ItemKind, Outcome};
use crate::rules::check::roll_check_with;
use crate::rules::conditions::check_modifiers;
use crate::state::{Change, Character, ItemStack, Target, TimedKind};
use crate::store::RollDetail;

/// The farthest a potion is handed to another creature (the creature must be within reach).
const HAND_OVER_FT: u32 = 5;

/// Uses `stack` (whose data is `data`) on `target` (null: the user): its effects resolved
/// with the user as the caster, the stack used up if the data says so. The action is spent.
pub(super) fn use_effects(
    ctx: &mut ToolContext<'_>,
    user: &Character,
    stack: &ItemStack,
    data: &ItemData,
    target: Option<&str>,
) -> Result<ItemUsed, ToolError> {
    if data.on_use.iter().any(is_coating) {
        return coat(ctx, user, stack, data, target);
    }
    let who = creature::find(ctx.state, ctx.srd, target.unwrap_or(&user.id))?;
    if ctx.state.character(who.target.id()).is_some_and(|c| c.dead) {
        return Err(ToolError::new(format!(
            "{} is dead; {} cannot help",
            who.name, stack.name
        )));
    }
    let distance = if who.target.id() == user.id {
        0
    } else if data.kind != ItemKind::Potion {
        return Err(ToolError::new(format!(
            "{} works on its user only ({}); only a potion is given to another creature: leave target null",
            stack.name, user.name
        )));
    } else {
        let kept = crate::combat::positions::position_of(ctx.state, &user.id).is_some();
        let apart = crate::combat::positions::distance(ctx.state, &user.id, who.target.id());
        if kept && apart > HAND_OVER_FT {
            return Err(ToolError::new(format!(
                "{} is {apart} ft from {}: {} is given only to a creature within {HAND_OVER_FT} ft (move closer first, or use it yourself)",
                who.name, user.name, stack.name
            )));
        }
        apart
    };
    use_effects_on(ctx, user, stack, data, who.target.id(), distance)
}

/// Resolves `data`'s use on the creature `target` (an id) `distance` ft from `user`, commits
/// it with the stack's use, and reports it.
fn use_effects_on(
    ctx: &mut ToolContext<'_>,
    user: &Character,
    stack: &ItemStack,
    data: &ItemData,
    target: &str,
    distance: u32,
) -> Result<ItemUsed, ToolError> {
    let who = creature::find(ctx.state, ctx.srd, target)?;
    let caster = Caster {
        id: user.id.clone(),
        name: user.name.clone(),
        attack_bonus: 0,
        save_dc: 0,
        modifier: 0,
        level: user.level,
    };
    let casting = Casting {
        caster: &caster,
        source: &stack.name,
        level: 0,
        slot: 0,
        concentration: false,
    };
    let subjects = [who.subject(SpellTarget {
        distance_ft: distance,
        attack: None,
        cover: None,
    })];
    let resolution = effects::resolve(ctx.state, casting, &subjects, &data.on_use, ctx.rng)
        .map_err(|e| ToolError::new(e.to_string()))?;
    let mut changes = Vec::new();
    if data.consumed {
        changes.push(Change::ItemRemoved {
            character: user.id.clone(),
            item: stack.name.clone(),
            quantity: 1,
        });
    }
    if data.per_day.is_some() {
        changes.push(Change::ItemPowerUsed {
            character: user.id.clone(),
            item: stack.name.clone(),
        });
    }
    changes.extend(resolution.changes);
    ctx.commit(changes)?;
    // The dice as rolled ("2d4+2 (3, 1) + 2 = 6"), for a healing result.
    let rolled = resolution
        .rolls
        .iter()
        .find_map(|r| match r.detail.as_ref() {
            RollDetail::Healing(roll) => Some(roll.to_string()),
            _ => None,
        });
    ctx.log.rolls.extend(resolution.rolls);
    if let ([Outcome::Healed { target, healed, .. }], Some(rolled)) =
        (resolution.outcomes.as_slice(), rolled)
    {
        let hp = match &who.target {
            Target::Character(id) => ctx
                .state
                .character(id)
                .map(|c| crate::state::compact::hit_points(c.hp.current, c.hp.max)),
            Target::Monster(id) => ctx
                .state
                .monster(id)
                .map(|m| crate::state::compact::hit_points(m.hp.current, m.hp.max)),
        }
        .unwrap_or_default();
        return Ok(ItemUsed::Healed {
            used: stack.name.clone(),
            on: target.clone(),
            rolled,
            healed_up_to: *healed,
            hp,
        });
    }
    let (effects, lasting): (Vec<Outcome>, Vec<Outcome>) = resolution
        .outcomes
        .into_iter()
        .partition(|o| !matches!(o, Outcome::Started { .. }));
    Ok(ItemUsed::Resolved {
        used: stack.name.clone(),
        user: user.name.clone(),
        effects,
        lasting,
    })
}

fn is_coating(e: &Effect) -> bool {
    matches!(e, Effect::WeaponDamage { coating: true, .. })
}

/// Coats one of `user`'s weapons with an oil: `weapon` (as named on the sheet; null: the
/// first in melee reach) is written into the oil's coating effects, which the interpreter
/// checks and starts on the user like a potion's (a timed effect for the oil's duration).
fn coat(
    ctx: &mut ToolContext<'_>,
    user: &Character,
    stack: &ItemStack,
    data: &ItemData,
    weapon: Option<&str>,
) -> Result<ItemUsed, ToolError> {
    let weapon = weapon
        .map(str::to_owned)
        .or_else(|| {
            let melee = user.attacks.iter().find(|a| a.range_ft <= 10);
            melee.map(|a| a.name.clone())
        })
        .unwrap_or_default();
    let mut named = data.clone();
    for effect in &mut named.on_use {
        if let Effect::WeaponDamage {
            coating: true,
            weapon: w,
            ..
        } = effect
        {
            *w = Some(weapon.clone());
        }
    }
    let used = use_effects_on(ctx, user, stack, &named, &user.id, 0)?;
    let ItemUsed::Resolved { lasting, .. } = &used else {
        return Ok(used);
    };
    let extra = lasting.iter().find_map(|o| match o {
        Outcome::Started { effect, .. } => match &effect.kind {
            TimedKind::WeaponDamage {
                count,
                sides,
                damage_type,
                ..
            } => Some(format!("{count}d{sides} {damage_type}")),
            _ => None,
        },
        _ => None,
    });
    let sheet_name = user
        .attacks
        .iter()
        .find(|a| a.name.eq_ignore_ascii_case(&weapon))
        .map_or(weapon.clone(), |a| a.name.clone());
    Ok(ItemUsed::Coated {
        used: stack.name.clone(),
        coated: sheet_name,
        effect: "its attacks count as magical while the coating lasts".to_owned(),
        extra_damage_per_hit: extra,
    })
}

/// The highest spell level `c` can cast with its slots (0: cantrips only).
fn highest_castable(c: &Character) -> u8 {
    let slots = &c.spell_slots;
    let full = (1..=9u8)
        .rev()
        .find(|l| slots.max[usize::from(*l) - 1] > 0)
        .unwrap_or(0);
    let pact = if slots.pact_max > 0 {
        slots.pact_level
    } else {
        0
    };
    full.max(pact)
}

/// Reads a spell scroll: the spell must be on the reader's class list; a spell above the
/// levels the reader can cast needs a spellcasting check (DC 10 + its level), and a failure
/// uses the scroll up for nothing. The spell is cast through `cast_spell`'s effects path with
/// the scroll's save DC and attack bonus, spending the spell's casting time but no slot.
pub(super) fn read_scroll(
    ctx: &mut ToolContext<'_>,
    user: &Character,
    stack: &ItemStack,
    targets: &[String],
) -> Result<ItemUsed, ToolError> {
    let name = effects::scroll_spell(&stack.name)
        .ok_or_else(|| ToolError::new(format!("{} names no spell", stack.name)))?;
    let spell = ctx
        .srd
        .spell(name)
        .map_err(|e| ToolError::new(e.to_string()))?;
    if !spell
        .classes
        .iter()
        .any(|c| c.eq_ignore_ascii_case(&user.class))
    {
        return Err(ToolError::new(format!(
            "{} is not on the {} spell list, so {} cannot read the scroll; it is on the list of: {}",
            spell.name,
            user.class,
            user.name,
            spell.classes.join(", ")
        )));
    }
    if spell.effects.is_empty() {
        return Err(ToolError::new(format!(
            "the engine has no effects data for {} yet, so its scroll cannot be read through the engine; narrate what the party tries instead",
            spell.name
        )));
    }
    let Some(ability) = user.spellcasting_ability else {
        return Err(ToolError::new(format!(
            "{} has no spellcasting ability to read a scroll with",
            user.name
        )));
    };
    if user.conditions.has(crate::rules::Condition::Blinded) {
        return Err(ToolError::new(format!(
            "{} is blinded and cannot read the scroll",
            user.name
        )));
    }
    let row = ctx
        .srd
        .scroll_level(spell.level)
        .ok_or_else(|| ToolError::new(format!("no spell scroll row for level {}", spell.level)))?;
    super::encounter::act_casting(ctx, &user.id, &spell.name)?;
    if !user.can_act() {
        return Err(ToolError::new(format!(
            "{} cannot read: down or incapacitated",
            user.name
        )));
    }
    let used_up = vec![Change::ItemRemoved {
        character: user.id.clone(),
        item: stack.name.clone(),
        quantity: 1,
    }];
    let modifier = user.abilities.modifier(ability);
    let mut check = None;
    if spell.level > highest_castable(user) {
        let dc = effects::scroll_check_dc(spell.level);
        let (sources, auto_fail) = check_modifiers(&user.conditions, true, false);
        let result = roll_check_with(modifier, dc, &sources, auto_fail, ctx.rng);
        ctx.record_roll(
            format!("{} reads {} ({ability} check)", user.name, stack.name),
            i64::from(result.total),
            Some(Target::Character(user.id.clone())),
            RollDetail::Check(result.clone()),
        );
        if !result.success {
            ctx.commit(used_up)?;
            return Ok(ItemUsed::ScrollRead {
                used: stack.name.clone(),
                spell: spell.name.clone(),
                check: Some(result),
                cast: None,
                lost: true,
            });
        }
        check = Some(result);
    }
    let prepared = super::spell_effects::Prepared {
        caster: user,
        spell,
        slot: (spell.level > 0).then_some(spell.level),
        changes: used_up,
        attack_bonus: row.attack_bonus,
        save_dc: row.save_dc,
        modifier,
        zone: None,
        again: false,
        sculpted: Vec::new(),
        twinned: false,
        careful: Vec::new(),
        rerolls: 0,
    };
    let cast = super::spell_effects::cast(ctx, prepared, None, None, None, targets)?;
    Ok(ItemUsed::ScrollRead {
        used: stack.name.clone(),
        spell: spell.name.clone(),
        check,
        cast: Some(Box::new(cast)),
        lost: false,
    })
}
