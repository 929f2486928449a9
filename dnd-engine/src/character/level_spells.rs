//! The spells and slots a level brings: the class table's slots (or the warlock's pact
//! slots), how many spells and cantrips the level adds, and the player's picks checked against
//! the class's list and the slot levels it can cast.

use super::levelling::{LevelUpError, choice};
use crate::srd::{Class, Spell, Srd};
use crate::state::{Character, PactSlots};

/// The class table's slots at `level`: levels 1 to 5, or the warlock's pact slots.
pub(super) fn slots(class: &Class, level: u8) -> (Option<[u8; 5]>, Option<PactSlots>) {
    let Some(casting) = &class.spellcasting else {
        return (None, None);
    };
    let table = class.slots_at(level);
    if casting.pact_magic {
        let pact = table
            .iter()
            .enumerate()
            .rev()
            .find(|(_, n)| **n > 0)
            .map(|(i, n)| PactSlots {
                count: *n,
                level: i as u8 + 1,
            });
        (None, pact)
    } else {
        (Some(table), None)
    }
}

/// How many new cantrips and spells of 1st level or higher the level adds: the class table's
/// growth for a known-spells class, two spellbook spells a level for the wizard, the cantrips'
/// growth for the others (who prepare from their whole list).
pub(super) fn new_spell_counts(class: &Class, level: u8) -> (usize, usize) {
    let Some(casting) = &class.spellcasting else {
        return (0, 0);
    };
    let at = |l: u8| class.level(l).and_then(|l| l.spells);
    let (now, before) = (at(level), at(level - 1));
    let grow = |f: fn(&crate::srd::LevelSpells) -> Option<u8>| {
        let n = now.as_ref().and_then(f).unwrap_or(0);
        let b = before.as_ref().and_then(f).unwrap_or(0);
        usize::from(n.saturating_sub(b))
    };
    let cantrips = grow(|s| s.cantrips_known);
    let spells = match casting.preparation {
        crate::srd::Preparation::Known => grow(|s| s.spells_known),
        crate::srd::Preparation::Prepared
            if casting.ritual_casting == crate::srd::RitualCasting::Spellbook
                && level > casting.from_level =>
        {
            2
        }
        crate::srd::Preparation::Prepared => 0,
    };
    (cantrips, spells)
}

/// `learned` split into the spells written in a spellbook (a wizard's of 1st level or higher)
/// and those known at once (cantrips, and every spell of a class without a spellbook).
pub(super) fn split_written(
    class: &Class,
    srd: &Srd,
    learned: &[String],
) -> (Vec<String>, Vec<String>) {
    let book = class
        .spellcasting
        .as_ref()
        .is_some_and(|s| s.ritual_casting == crate::srd::RitualCasting::Spellbook);
    learned
        .iter()
        .cloned()
        .partition(|name| book && srd.spell(name).is_ok_and(|s| s.level > 0))
}

/// The feature that adds a cantrip known beyond the class table's (the Land druid's).
pub(super) const BONUS_CANTRIP: &str = "bonus-cantrip";

/// Cantrips the level's `features` add beyond the class table's (Bonus Cantrip).
pub(super) fn bonus_cantrips(features: &[&crate::srd::ClassFeature]) -> usize {
    features.iter().filter(|f| f.slug == BONUS_CANTRIP).count()
}

/// The highest spell level the class's slots at `level` cast (0: none).
fn highest_spell_level(class: &Class, level: u8) -> u8 {
    match slots(class, level) {
        (_, Some(p)) => p.level,
        (Some(s), None) => s.iter().rposition(|n| *n > 0).map_or(0, |i| i as u8 + 1),
        (None, None) => 0,
    }
}

/// The spells chosen, checked: as many as the level adds (and `bonus` more cantrips), on the
/// class's list, of a level its slots at the new level can cast, not known already, none twice.
pub(super) fn spells(
    c: &Character,
    class: &Class,
    srd: &Srd,
    level: u8,
    bonus: usize,
    chosen: &[String],
) -> Result<Vec<String>, LevelUpError> {
    let (cantrips, leveled) = new_spell_counts(class, level);
    let cantrips = cantrips + bonus;
    let highest = highest_spell_level(class, level);
    let known = |name: &str| {
        c.spells
            .iter()
            .chain(&c.spellbook)
            .any(|k| k.eq_ignore_ascii_case(name))
    };
    let learnable = |cantrip: bool| -> Vec<String> {
        learnable(c, class, srd, level, cantrip)
            .map(|s| s.name.clone())
            .collect()
    };
    let mut learned = Vec::new();
    let (mut got_cantrips, mut got_spells) = (0, 0);
    for name in chosen {
        let spell = srd
            .spell(name)
            .ok()
            .filter(|s| s.classes.contains(&class.slug));
        let Some(spell) = spell else {
            let cantrip = got_cantrips < cantrips && got_spells >= leveled;
            return Err(choice(
                "spells",
                format!("{name:?} is not on the {} spell list", class.name),
                learnable(cantrip),
            ));
        };
        if spell.level > highest {
            return Err(choice(
                "spells",
                format!(
                    "{} is a level-{} spell; at level {level} a {} casts up to level {highest}",
                    spell.name, spell.level, class.name
                ),
                learnable(false),
            ));
        }
        if known(&spell.name) || learned.contains(&spell.name) {
            return Err(choice(
                "spells",
                format!("{} knows {} already", c.name, spell.name),
                learnable(spell.level == 0),
            ));
        }
        if spell.level == 0 {
            got_cantrips += 1;
        } else {
            got_spells += 1;
        }
        learned.push(spell.name.clone());
    }
    if got_cantrips != cantrips {
        return Err(choice(
            "spells",
            format!("level {level} adds {cantrips} cantrip(s); {got_cantrips} chosen"),
            learnable(true),
        ));
    }
    if got_spells != leveled {
        return Err(choice(
            "spells",
            format!(
                "level {level} adds {leveled} spell(s) of level 1 to {highest}; {got_spells} chosen"
            ),
            learnable(false),
        ));
    }
    Ok(learned)
}

/// The spells of the class's list `c` may learn at `level`: cantrips, or spells of 1st level up
/// to what its slots cast, that it does not know yet, in the SRD's order.
pub(super) fn learnable<'a>(
    c: &'a Character,
    class: &'a Class,
    srd: &'a Srd,
    level: u8,
    cantrip: bool,
) -> impl Iterator<Item = &'a Spell> + 'a {
    let highest = highest_spell_level(class, level);
    srd.spells
        .iter()
        .filter(move |s| s.classes.contains(&class.slug))
        .filter(move |s| {
            if cantrip {
                s.level == 0
            } else {
                (1..=highest).contains(&s.level)
            }
        })
        .filter(move |s| {
            !c.spells
                .iter()
                .chain(&c.spellbook)
                .any(|k| k.eq_ignore_ascii_case(&s.name))
        })
}
