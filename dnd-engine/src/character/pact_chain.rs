//! The Pact of the Chain (warlock 3) as rules over the sheet: Find Familiar is the warlock's
//! (`character::warlock::known_by_pact`), and its familiar may take one of the special forms
//! ([`CHAIN_FORMS`]: imp, pseudodragon, quasit, sprite) besides the spell's own; a caster
//! without the pact is refused them. When the warlock takes the Attack action it may forgo
//! one of its attacks for the familiar's, made with the familiar's reaction (played by
//! `tools::feature_chain`).

use crate::effects::{Summon, SummonOption};
use crate::srd::{Srd, slugify};
use crate::state::{Character, GameState, MonsterInstance};

/// The option slug of the pact boon.
pub const PACT_OF_THE_CHAIN: &str = "pact-of-the-chain";

/// The spell whose familiar the pact serves.
pub const FIND_FAMILIAR: &str = "find-familiar";

/// The special forms a chain warlock's familiar may take (SRD monster slugs).
pub const CHAIN_FORMS: [&str; 4] = ["imp", "pseudodragon", "quasit", "sprite"];

/// Whether `c` took the Pact of the Chain and has it at its level.
pub fn chained(srd: &Srd, c: &Character) -> bool {
    super::features::chose(c, PACT_OF_THE_CHAIN)
        && super::uses::feature_of(srd, c, PACT_OF_THE_CHAIN).is_ok()
}

/// Whether `creature` (a name or slug) is one of the special forms.
pub fn chain_form(creature: &str) -> bool {
    let slug = slugify(creature.trim());
    CHAIN_FORMS.contains(&slug.as_str())
}

/// Find Familiar's summoning as a chain warlock casts it: the special forms added as one more
/// option (one familiar, as the others).
pub fn with_chain_forms(summon: &Summon) -> Summon {
    let mut summon = summon.clone();
    summon.options.push(SummonOption {
        challenge_rating: None,
        named: CHAIN_FORMS.iter().map(|f| (*f).to_owned()).collect(),
        count: 1,
    });
    summon
}

/// `c`'s familiar (Find Familiar's creature, not gone), if it has one.
pub fn familiar_of<'s>(state: &'s GameState, c: &Character) -> Option<&'s MonsterInstance> {
    state.monsters.iter().find(|m| {
        m.is_summon()
            && m.summoned
                .as_ref()
                .is_some_and(|s| s.by == c.id && slugify(&s.spell) == FIND_FAMILIAR)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_special_forms_are_known_by_name_or_slug() {
        assert!(chain_form("Imp"));
        assert!(chain_form(" pseudodragon "));
        assert!(chain_form("Sprite"));
        assert!(!chain_form("owl"));
    }
}
