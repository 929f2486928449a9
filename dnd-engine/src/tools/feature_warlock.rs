//! The warlock's invocations and pact in play: `cast_spell` asks here how a warlock's
//! invocations change its spells (Agonizing and Repelling Blast on Eldritch Blast; Mage Armor
//! and False Life at will), which spells its pact grants (Find Familiar, the Tome's cantrips);
//! `use_feature pact-of-the-blade` conjures the pact weapon (an action); and every damage
//! asks [`dark_ones_blessing`]. The rules are `character::warlock`'s.

use super::features::{FeatureUse, Played};
use super::{ToolContext, ToolError};
use crate::character::warlock;
use crate::rules::Spend;
use crate::srd::Spell;
use crate::state::{Change, Character, Target};

/// The spell as `c` casts it: Eldritch Blast changed by its invocations, else `None` (the
/// SRD's spell as it is).
pub(super) fn invoked_spell(c: &Character, spell: &Spell) -> Option<Spell> {
    warlock::eldritch_blast(c, spell)
}

/// Whether `c` may cast `spell` without having it among its spells: an invocation's at-will
/// spell, or its pact's.
pub(super) fn granted(c: &Character, spell: &Spell) -> bool {
    warlock::at_will(c, spell).is_some() || warlock::known_by_pact(c, spell)
}

/// Whether this casting is an invocation's at will (no slot); refuses a slot level given, and
/// Armor of Shadows' Mage Armor on anyone but the warlock.
pub(super) fn at_will(
    c: &Character,
    spell: &Spell,
    slot_level: Option<u8>,
    targets: &[String],
) -> Result<bool, ToolError> {
    let Some(invocation) = warlock::at_will(c, spell) else {
        return Ok(false);
    };
    if slot_level.is_some() {
        return Err(ToolError::new(format!(
            "{invocation} casts {} at will with no slot: leave slot_level null",
            spell.name
        )));
    }
    let others = targets
        .iter()
        .any(|t| !t.eq_ignore_ascii_case(&c.id) && !t.eq_ignore_ascii_case(&c.name));
    if spell.slug == "mage-armor" && others {
        return Err(ToolError::new(format!(
            "Armor of Shadows casts Mage Armor on {} only: name no other target",
            c.name
        )));
    }
    Ok(true)
}

/// Pact of the Blade (warlock 3): conjures the pact weapon named in `option` (a melee weapon
/// of the SRD) in the warlock's hand, an action in a fight. A new one replaces the old.
pub(super) fn pact_of_the_blade(
    using: &FeatureUse<'_>,
    ctx: &mut ToolContext<'_>,
) -> Result<Played, ToolError> {
    let c = &using.c;
    if !warlock::pact(c, "blade") {
        let chosen = c
            .choices
            .get("pact-boon")
            .map_or("none".to_owned(), |p| p.join(", "));
        return Err(ToolError::new(format!(
            "{} did not choose the Pact of the Blade (its pact boon: {chosen})",
            c.name
        )));
    }
    let a = using.args;
    if a.target.is_some() || a.amount.is_some() {
        return Err(ToolError::new(
            "Pact of the Blade takes no target or amount: name the weapon's form in option (\"Longsword\")",
        ));
    }
    let Some(form) = a.option.as_deref() else {
        return Err(ToolError::new(
            "Pact of the Blade needs option: the melee weapon whose form the pact weapon takes (\"Longsword\")",
        ));
    };
    let weapon = ctx
        .srd
        .weapon(form)
        .map_err(|e| ToolError::new(e.to_string()))?;
    let attack = warlock::pact_weapon(c, weapon).map_err(ToolError::new)?;
    let mut changes = super::features::costing(ctx, &c.id, Spend::Action)?;
    let name = attack.name.clone();
    changes.push(Change::PactWeaponConjured {
        character: c.id.clone(),
        attack,
    });
    ctx.commit(changes)?;
    Ok(Played {
        effect: format!(
            "{} conjures a pact weapon in the form of a {}: attack with \"{name}\" (magical, proficient)",
            c.name, weapon.name
        ),
        ..Played::default()
    })
}

/// Dark One's Blessing (Fiend 1): when `creature` (an id), a hostile monster, has just been
/// dropped to 0 hit points by `source`'s `amount` of damage, a warlock of the Fiend gains its
/// temporary hit points (Charisma modifier + warlock level, at least 1).
pub(super) fn dark_ones_blessing(
    ctx: &mut ToolContext<'_>,
    creature: &str,
    amount: u32,
    source: Option<&str>,
) -> Result<(), ToolError> {
    let Some(warlock) = source.and_then(|s| ctx.state.character(s)) else {
        return Ok(());
    };
    let dropped = ctx
        .state
        .monster(creature)
        .is_some_and(|m| m.hp.current == 0 && m.hostile && m.summoned.is_none());
    if amount == 0 || !dropped {
        return Ok(());
    }
    let Some(gained) = warlock::dark_ones_blessing(ctx.srd, warlock) else {
        return Ok(());
    };
    let target = Target::Character(warlock.id.clone());
    ctx.commit(vec![Change::TemporaryHp {
        target,
        amount: gained,
    }])
}
