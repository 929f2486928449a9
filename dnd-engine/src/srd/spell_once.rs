//! Dice a spell adds to one roll only (Guidance, Resistance: "add a d4 to one ability check
//! ..., then the spell ends"), marked once when the data is read: the effects data may say
//! `"next_only": true` itself, and where it does not, the description decides, so the spell
//! is spent by the first roll it counts on whichever loader read it.

use super::Spell;
use crate::effects::Effect;

/// Sets `next_only` on `spell`'s dice added to rolls when its description ends the spell after
/// one roll ("..., then the spell ends", "Once before the spell ends, ...").
pub fn fill(spell: &mut Spell) {
    let text = spell.description.to_ascii_lowercase();
    let once = text.contains("then the spell ends") || text.contains("once before the spell ends");
    if !once {
        return;
    }
    for effect in &mut spell.effects {
        if let Effect::RollDice { next_only, .. } = effect {
            *next_only = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::effects::Effect;
    use crate::srd::Srd;

    fn once(name: &str) -> bool {
        let spell = Srd::bundled().spell(name).unwrap();
        spell.effects.iter().any(|e| {
            matches!(
                e,
                Effect::RollDice {
                    next_only: true,
                    ..
                }
            )
        })
    }

    #[test]
    fn guidance_and_resistance_count_once_and_bless_for_its_duration() {
        assert!(once("Guidance"));
        assert!(once("Resistance"));
        assert!(!once("Bless"));
        assert!(!once("Bane"));
    }
}
