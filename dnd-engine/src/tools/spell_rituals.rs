//! Casting a spell as a ritual (the SRD's "Rituals"): a spell with the ritual tag, cast by a
//! class with ritual casting (bard, cleric, druid, wizard), uses no slot and takes 10 minutes
//! longer than its casting time, so it is never cast in a fight; the clock advances by that
//! time with the casting (`Change::TimeAdvanced`).

use super::{ToolContext, ToolError};
use crate::srd::{RitualCasting, Spell};
use crate::state::{Change, Character};

/// How `caster`'s class casts rituals (the class data's `ritual_casting`): none, those it
/// knows or has prepared, or any in its spellbook.
fn ritual_casting(ctx: &ToolContext<'_>, caster: &Character) -> RitualCasting {
    ctx.srd
        .class(&caster.class)
        .ok()
        .and_then(|c| c.spellcasting.as_ref())
        .map_or(RitualCasting::None, |s| s.ritual_casting)
}

/// Whether `caster` may cast `spell` as a ritual without having it prepared: a wizard's
/// spellbook ritual, or a warlock's Book of Ancient Secrets one (the cast path otherwise asks
/// for a spell on the sheet).
pub(super) fn from_spellbook(ctx: &ToolContext<'_>, caster: &Character, spell: &Spell) -> bool {
    let wizard = spell.ritual
        && ritual_casting(ctx, caster) == RitualCasting::Spellbook
        && crate::character::preparing::spellbook_of(caster)
            .iter()
            .any(|s| crate::srd::slugify(s) == spell.slug);
    wizard || crate::character::tome::ancient_ritual(caster, spell)
}

/// Minutes a casting time takes ("1 minute", "10 minutes", "1 hour"); 0 for an action, a bonus
/// action or a reaction.
fn casting_minutes(casting_time: &str) -> u32 {
    let lower = casting_time.to_ascii_lowercase();
    let mut words = lower.split_whitespace();
    let (Some(n), Some(unit)) = (words.next(), words.next()) else {
        return 0;
    };
    let n: u32 = n.parse().unwrap_or(0);
    match unit.trim_end_matches('s') {
        "minute" => n,
        "hour" => n.saturating_mul(60),
        _ => 0,
    }
}

/// What casting `spell` as a ritual adds to the casting (the clock's advance), or why it may
/// not be cast so: not a ritual, a class without ritual casting, a fight running, or a slot
/// named.
pub(super) fn ritual(
    ctx: &ToolContext<'_>,
    caster: &Character,
    spell: &Spell,
    slot_level: Option<u8>,
) -> Result<Vec<Change>, ToolError> {
    if !spell.ritual {
        return Err(ToolError::new(format!(
            "{} is not a ritual: cast it with a slot (ritual null)",
            spell.name
        )));
    }
    if ritual_casting(ctx, caster) == RitualCasting::None
        // Pact of the Chain: Find Familiar as a ritual.
        && !crate::character::warlock::known_by_pact(caster, spell)
        && !crate::character::tome::ancient_ritual(caster, spell)
    {
        return Err(ToolError::new(format!(
            "a {} casts no rituals (a bard, cleric, druid or wizard does): cast {} with a slot",
            caster.class, spell.name
        )));
    }
    if ctx.state.encounter.is_some() {
        return Err(ToolError::new(format!(
            "a ritual takes 10 minutes longer than its casting time, so never in a fight: cast {} with a slot now, or as a ritual once the fight is over",
            spell.name
        )));
    }
    if slot_level.is_some() {
        return Err(ToolError::new(format!(
            "a ritual uses no slot: cast {} as a ritual with slot_level null",
            spell.name
        )));
    }
    Ok(vec![Change::TimeAdvanced {
        minutes: 10 + casting_minutes(&spell.casting_time),
    }])
}

#[cfg(test)]
mod tests {
    use super::casting_minutes;

    #[test]
    fn casting_times_in_minutes() {
        assert_eq!(casting_minutes("1 action"), 0);
        assert_eq!(casting_minutes("1 minute"), 1);
        assert_eq!(casting_minutes("10 minutes"), 10);
        assert_eq!(casting_minutes("1 hour"), 60);
    }
}
