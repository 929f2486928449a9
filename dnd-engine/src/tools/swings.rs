//! What an attacker swings with: the swings of a named attack or the sheet's first in reach
//! (a character's weapon with its numbers, a monster's action or whole Multiattack), a
//! monster's limited attack spent as it is made, and whether an attack reaches.

use super::combat::Swing;
use super::creature::{self, CreatureInfo};
use super::{ToolContext, ToolError};
use crate::combat::positions::{self, PositionError, Reach};
use crate::state::Target;

/// Spends a monster's attack of limited use (the giant spider's Web, Recharge 5–6) as it is
/// made, or refuses it while it is spent (`monster_plan::usable`, `monster_plan::spend`).
pub(super) fn spend_limited(
    ctx: &mut ToolContext<'_>,
    who: &CreatureInfo<'_>,
    name: Option<&str>,
) -> Result<(), ToolError> {
    let (Some(template), Some(name)) = (who.template, name) else {
        return Ok(());
    };
    let Some(action) = template
        .actions
        .iter()
        .find(|a| a.name.eq_ignore_ascii_case(name) && a.usage.is_some())
    else {
        return Ok(());
    };
    let Some(m) = ctx.state.monster(who.target.id()) else {
        return Ok(());
    };
    if !crate::combat::monster_plan::usable(m, action) {
        let usable: Vec<&str> = template
            .actions
            .iter()
            .filter(|a| a.attack.is_some() && crate::combat::monster_plan::usable(m, a))
            .map(|a| a.name.as_str())
            .collect();
        return Err(ToolError::new(format!(
            "{}'s {} is spent until it comes back (a recharge roll at the start of its turn, or rest); attack with: {}",
            who.name,
            action.name,
            usable.join(", ")
        )));
    }
    let changes = crate::combat::monster_plan::spend(who.target.id(), action);
    ctx.commit(changes)
}

/// The swings an attack makes: a character's weapon; a monster's named action, or its
/// multiattack expanded into its steps.
pub(super) fn swings_of(
    ctx: &ToolContext<'_>,
    who: &CreatureInfo<'_>,
    name: Option<&str>,
) -> Result<Vec<Swing>, ToolError> {
    if let Target::Character(id) = &who.target {
        let c = ctx
            .state
            .character(id)
            .ok_or_else(|| ToolError::new("character vanished"))?;
        // Alter Self's claws, by their name.
        if let Some(swing) = name.and_then(|n| super::wards::natural_swing(c, n)) {
            return Ok(vec![swing]);
        }
        let attack = match name {
            None => c.attacks.first().cloned(),
            // A monk's unarmed strike, even where the sheet does not list it.
            Some(n) => crate::character::monk::attack_named(c, n),
        }
        .ok_or_else(|| {
            let mut valid: Vec<&str> = c.attacks.iter().map(|a| a.name.as_str()).collect();
            valid.extend(crate::effects::natural_weapon(&c.timed_effects, None).map(|w| w.0));
            ToolError::new(format!(
                "{} has no attack {:?}; valid: {}",
                c.name,
                name.unwrap_or(""),
                valid.join(", ")
            ))
        })?;
        // Martial Arts: Dexterity and the martial arts die for a monk's fists and weapons.
        let attack = crate::character::monk::martial_attack(ctx.srd, c, &attack);
        let attack = attack.as_ref();
        let (bonus, damage) = super::feature_fighting::swing_numbers(ctx, c, attack);
        return Ok(vec![Swing {
            name: attack.name.clone(),
            bonus,
            damage: vec![damage],
            magical: c.attack_is_magical(attack),
            reach: Reach::of_character_attack(ctx.srd, attack),
        }]);
    }
    let template = who
        .template
        .ok_or_else(|| ToolError::new("monster without a stat block"))?;
    let attack_actions: Vec<&str> = template
        .actions
        .iter()
        .filter(|a| a.attack.is_some())
        .map(|a| a.name.as_str())
        .collect();
    let wants_multi = name.is_none_or(|n| n.eq_ignore_ascii_case("multiattack"));
    let multi = template
        .actions
        .iter()
        .find_map(|a| a.multiattack.first())
        .filter(|_| wants_multi);
    let steps: Vec<(String, u32)> = match (multi, name) {
        (Some(steps), _) => steps.iter().map(|s| (s.action.clone(), s.count)).collect(),
        (None, Some(n)) if !n.eq_ignore_ascii_case("multiattack") => vec![(n.to_owned(), 1)],
        _ => attack_actions
            .first()
            .map(|n| vec![((*n).to_owned(), 1)])
            .unwrap_or_default(),
    };
    let mut swings = Vec::new();
    for (action_name, count) in steps {
        let Some(action) = template
            .actions
            .iter()
            .find(|a| a.name.eq_ignore_ascii_case(&action_name))
        else {
            return Err(ToolError::new(format!(
                "{} has no action {action_name:?}; valid: {}",
                who.name,
                attack_actions.join(", ")
            )));
        };
        let Some(attack) = &action.attack else {
            if multi.is_none() {
                // A breath or a song is played on the monster's turn (`next_turn`), through
                // the effects engine: no attack roll makes it.
                return Err(ToolError::new(format!(
                    "{}'s {} makes no attack roll: it forces a save, and the monster uses it on its own turn (next_turn); attack with: {}",
                    who.name,
                    action.name,
                    attack_actions.join(", ")
                )));
            }
            continue; // a multiattack step without an attack roll (a frightening glare)
        };
        let damage = if action.damage.is_empty() {
            action.damage_options.iter().take(1).copied().collect()
        } else {
            action.damage.clone()
        };
        for _ in 0..count {
            swings.push(Swing {
                name: action.name.clone(),
                bonus: attack.to_hit,
                damage: damage.clone(),
                magical: template.attack_is_magical(attack),
                reach: Reach::of_monster_attack(attack),
            });
        }
    }
    if swings.is_empty() {
        return Err(ToolError::new(format!(
            "{} has no attack roll to make; valid: {}",
            who.name,
            attack_actions.join(", ")
        )));
    }
    Ok(swings)
}

/// A character's attack when none is named: the first on the sheet that reaches the target
/// without disadvantage from range, else the first that reaches at all; `None` (the sheet's
/// first, which the range check then refuses with the distances) when none does, and for
/// monsters (their multiattack).
pub(super) fn first_in_reach(
    ctx: &ToolContext<'_>,
    attacker: &str,
    target: &str,
) -> Option<String> {
    let c = ctx.state.character(attacker)?;
    let victim = creature::find(ctx.state, ctx.srd, target).ok()?;
    let fits = |a: &&crate::state::CharacterAttack| {
        let reach = Reach::of_character_attack(ctx.srd, a);
        positions::attack_range(ctx.state, &c.id, victim.target.id(), &a.name, reach).ok()
    };
    c.attacks
        .iter()
        .find(|a| fits(a).is_some_and(|r| r.disadvantage.is_empty()))
        .or_else(|| c.attacks.iter().find(|a| fits(a).is_some()))
        .map(|a| a.name.clone())
}

/// A range error, with the attacks of a character that do reach the target from where it
/// stands ("attacks that reach: Javelin (range 30/120 ft)").
pub(super) fn in_reach_hint(
    ctx: &ToolContext<'_>,
    who: &CreatureInfo<'_>,
    target: &str,
    error: PositionError,
) -> String {
    let Some(c) = ctx.state.character(who.target.id()) else {
        return error.to_string();
    };
    let reaching: Vec<String> = c
        .attacks
        .iter()
        .filter_map(|a| {
            let reach = Reach::of_character_attack(ctx.srd, a);
            positions::attack_range(ctx.state, &c.id, target, &a.name, reach)
                .ok()
                .map(|_| format!("{} ({})", a.name, reach.describe()))
        })
        .collect();
    if reaching.is_empty() {
        error.to_string()
    } else {
        format!(
            "{error}; attacks that reach from here: {}",
            reaching.join(", ")
        )
    }
}

/// Whether `attacker`'s default attack (a monster's multiattack, a character's first that
/// reaches) can be made at `target` from where they stand, and `target` is not already down.
pub(super) fn reaches(ctx: &ToolContext<'_>, attacker: &str, target: &str) -> bool {
    let Ok(who) = creature::find(ctx.state, ctx.srd, attacker) else {
        return false;
    };
    let chosen = first_in_reach(ctx, attacker, target);
    let Ok(swings) = swings_of(ctx, &who, chosen.as_deref()) else {
        return false;
    };
    swings.iter().any(|swing| {
        positions::attack_range(ctx.state, attacker, target, &swing.name, swing.reach).is_ok()
    })
}
