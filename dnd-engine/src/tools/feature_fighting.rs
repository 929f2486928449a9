//! Fighting styles on the attack path (`tools::combat` calls here): Archery's and Dueling's
//! numbers on a character's swing, Great Weapon Fighting's reroll on its hit, and Protection:
//! an ally beside the target of a monster's attack, holding a shield and seeing the attacker,
//! spends its reaction to give the attack disadvantage. The rules are
//! `character::fighting_style`.

use super::ToolContext;
use super::combat::Swing;
use super::creature::CreatureInfo;
use crate::character::fighting_style::{self as style, Style};
use crate::combat::positions;
use crate::rules::{AdvantageSources, AttackResult, Condition, Defenses, Spend};
use crate::state::{Change, Character, CharacterAttack};

/// A character's swing with `attack`: its attack bonus and damage with the fighting style's
/// (Archery, Dueling).
pub(super) fn swing_numbers(
    ctx: &ToolContext<'_>,
    c: &Character,
    attack: &CharacterAttack,
) -> (i32, crate::rules::DamageDice) {
    let mut damage = c.attack_damage(attack);
    damage.bonus += style::damage_bonus(ctx.srd, c, attack);
    (
        c.attack_bonus(attack) + style::attack_bonus(ctx.srd, c, attack),
        damage,
    )
}

/// Great Weapon Fighting on a character's hit in melee with a weapon in two hands.
pub(super) fn great_weapon(
    ctx: &mut ToolContext<'_>,
    who: &CreatureInfo<'_>,
    swing: &Swing,
    melee: bool,
    defenses: &Defenses,
    result: &mut AttackResult,
) {
    let Some(c) = ctx.state.character(who.target.id()) else {
        return;
    };
    let Some(attack) = c
        .attacks
        .iter()
        .find(|a| a.name.eq_ignore_ascii_case(&swing.name))
    else {
        return;
    };
    if result.hit && style::rerolls_low_dice(ctx.srd, c, attack, melee) {
        style::reroll_low_dice(result, defenses, ctx.rng);
    }
}

/// Protection: the first ally of `victim` (not the victim) with the style, a shield, its
/// reaction, within 5 ft of the victim and able to see the attacker gives a monster's attack
/// disadvantage; the reaction it spends goes with the roll's `ends`.
pub(super) fn protection(
    ctx: &ToolContext<'_>,
    who: &CreatureInfo<'_>,
    victim: &CreatureInfo<'_>,
    sources: &mut AdvantageSources,
    ends: &mut Vec<Change>,
) {
    if who.is_character() || !victim.is_character() || ctx.state.encounter.is_none() {
        return;
    }
    let attacker_seen = !who.conditions.has(Condition::Invisible);
    let protector = ctx.state.characters.iter().find(|c| {
        !c.id.eq_ignore_ascii_case(victim.target.id())
            && style::style(c) == Some(Style::Protection)
            && style::carries_shield(ctx.srd, c)
            && attacker_seen
            && !c.conditions.has(Condition::Blinded)
            && positions::distance(ctx.state, &c.id, victim.target.id()) <= 5
            && crate::combat::may_act(ctx.state, &c.id, Spend::Reaction).is_ok()
    });
    let Some(c) = protector else {
        return;
    };
    if let Ok(Some(spent)) = crate::combat::may_act(ctx.state, &c.id, Spend::Reaction) {
        sources.disadvantage(format!("{} interposes a shield (Protection)", c.name));
        ends.push(spent);
    }
}
