//! The warlock's pact weapon on the sheet: [`Change::PactWeaponConjured`] puts the weapon's
//! attack among the character's (marked " (pact)"), in place of any pact weapon it had; and
//! Thirsting Blade's two attacks an Attack action ([`pact_weapon_attacks`]).
//!
//! [`Change::PactWeaponConjured`]: super::Change::PactWeaponConjured

use std::sync::Arc;

use super::change::ChangeError;
use super::lookup::character_mut;
use super::{Change, Character, GameState};

/// What marks a pact weapon's attack (`character::warlock::PACT_WEAPON_MARK`).
const MARK: &str = " (pact)";

/// Applies [`Change::PactWeaponConjured`]; any other change is left alone.
pub(super) fn apply(state: &mut GameState, change: &Change) -> Result<(), ChangeError> {
    let Change::PactWeaponConjured { character, attack } = change else {
        return Ok(());
    };
    if !attack.name.ends_with(MARK) || !attack.magical || !attack.proficient {
        return Err(ChangeError::Invalid(format!(
            "a pact weapon's attack is named \"<weapon>{MARK}\", magical and proficient; {:?} is not",
            attack.name
        )));
    }
    let c = character_mut(state, character)?;
    let attacks = Arc::make_mut(&mut c.attacks);
    attacks.retain(|a| !a.name.ends_with(MARK)); // a new pact weapon replaces the old
    attacks.insert(0, attack.clone());
    Ok(())
}

/// Thirsting Blade (warlock 5, Pact of the Blade): two attacks with one Attack action while the
/// warlock holds a pact weapon; `None` otherwise. Which weapon swings is not checked here: the
/// pact weapon is first on the sheet, the attack a model names without a weapon.
pub fn pact_weapon_attacks(c: &Character) -> Option<u8> {
    let chose = |slug: &str| c.choices.values().flatten().any(|o| o == slug);
    let armed = c.attacks.iter().any(|a| a.name.ends_with(MARK));
    (c.class.eq_ignore_ascii_case("warlock")
        && c.level >= 5
        && armed
        && chose("pact-of-the-blade")
        && chose("eldritch-invocation-thirsting-blade"))
    .then_some(2)
}
