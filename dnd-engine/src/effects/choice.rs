//! A choice the caster makes as it casts ([`Effect::OneOf`]): Protection from Energy's damage
//! type, Enhance Ability's enhancement. `cast_spell`'s `choice` argument names the option,
//! strictly (one of the names, any case); [`choose`] is the one place that reads it, swapping
//! the option's effects in before the interpreter runs. A casting with no choice to make must
//! name none, and one that needs a choice is refused without it, with the options listed.

use serde::{Deserialize, Serialize};

use super::casting::Refused;
use super::vocabulary::Effect;

/// One option of an [`Effect::OneOf`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Choice {
    /// Its name, as the caster names it ("fire", "bear's endurance").
    pub name: String,
    /// What it does.
    pub effects: Vec<Effect>,
}

fn names(options: &[Choice]) -> String {
    options
        .iter()
        .map(|o| format!("{:?}", o.name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `effects` of `spell` with its choice made: each [`Effect::OneOf`] replaced by the effects
/// of the option `choice` names. Refused when a choice is needed and missing or unknown, or
/// named where the spell has none to make.
pub fn choose(
    spell: &str,
    effects: &[Effect],
    choice: Option<&str>,
) -> Result<Vec<Effect>, Refused> {
    let needs = effects.iter().any(|e| matches!(e, Effect::OneOf { .. }));
    if !needs {
        return match choice {
            Some(c) => Err(Refused(format!(
                "{spell} has no choice to make, yet {c:?} was named: give choice null"
            ))),
            None => Ok(effects.to_vec()),
        };
    }
    let mut out = Vec::with_capacity(effects.len());
    for effect in effects {
        let Effect::OneOf { options } = effect else {
            out.push(effect.clone());
            continue;
        };
        let picked = choice.and_then(|c| {
            options
                .iter()
                .find(|o| o.name.eq_ignore_ascii_case(c.trim()))
        });
        let Some(picked) = picked else {
            let asked = choice.map_or("none".to_owned(), |c| format!("{c:?}"));
            return Err(Refused(format!(
                "{spell} needs a choice, one of {} (given: {asked})",
                names(options)
            )));
        };
        out.extend(picked.effects.iter().cloned());
    }
    Ok(out)
}

/// Refuses effects that still hold a choice (a monster's or a scroll's casting, which names
/// none), with the options.
pub(super) fn unchosen(spell: &str, effects: &[Effect]) -> Result<(), Refused> {
    match effects.iter().find_map(|e| match e {
        Effect::OneOf { options } => Some(options),
        _ => None,
    }) {
        Some(options) => Err(Refused(format!(
            "{spell} needs a choice, one of {}, which this casting cannot name",
            names(options)
        ))),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::effects::Duration;
    use crate::rules::{DamageType, DamageTypes};

    fn resist(t: DamageType) -> Choice {
        Choice {
            name: t.to_string(),
            effects: vec![Effect::Resistance {
                damage_types: [t].into_iter().collect::<DamageTypes>(),
                duration: Some(Duration::Hours(1)),
            }],
        }
    }

    #[test]
    fn the_named_option_replaces_the_choice_and_nothing_else_passes() {
        let effects = vec![Effect::OneOf {
            options: vec![resist(DamageType::Fire), resist(DamageType::Cold)],
        }];
        let fire = choose("Protection from Energy", &effects, Some("FIRE")).unwrap();
        assert_eq!(fire, resist(DamageType::Fire).effects);
        for wrong in [None, Some("poison")] {
            let err = choose("Protection from Energy", &effects, wrong).unwrap_err();
            assert!(err.0.contains(r#""fire", "cold""#), "{err}");
        }
        assert!(unchosen("Protection from Energy", &effects).is_err());
        let plain = vec![Effect::Stabilize];
        assert_eq!(choose("Spare the Dying", &plain, None).unwrap(), plain);
        assert!(choose("Spare the Dying", &plain, Some("fire")).is_err());
    }
}
