//! How [`Change::SpellsPrepared`] applies: a preparing caster's new list, checked again for
//! its timing (outside a fight, once after each long rest; `character::preparing` decides what
//! may be prepared), so a hand-made change cannot prepare twice between rests.

use super::lookup::character_mut;
use super::{Change, ChangeError, GameState};

/// Applies `SpellsPrepared`; any other change is left alone.
pub(super) fn apply(state: &mut GameState, change: &Change) -> Result<(), ChangeError> {
    let Change::SpellsPrepared {
        character,
        spells,
        spellbook,
    } = change
    else {
        return Ok(());
    };
    if state.encounter.is_some() {
        return Err(ChangeError::Invalid(
            "spells are prepared at the end of a long rest, not in a fight".into(),
        ));
    }
    let now = state.time;
    let c = character_mut(state, character)?;
    if !crate::character::preparing::rested_since_preparing(c) {
        return Err(ChangeError::Invalid(format!(
            "{} has prepared spells since its last long rest; the list changes again after the next one",
            c.name
        )));
    }
    c.spells = std::sync::Arc::new(spells.clone());
    c.spellbook = spellbook.clone();
    c.prepared_at = Some(now);
    Ok(())
}
