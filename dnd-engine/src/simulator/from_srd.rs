//! Turning an SRD stat block into a simulator [`Combatant`].

use smallvec::SmallVec;

use super::{Combatant, Side, SimAction, save_reach};
use crate::combat::geometry::{fighting_speed, longest_reach};
use crate::combat::monster_plan::{Nerve, attack_choice};
use crate::combat::positions::Reach;
use crate::rules::{Ability, AtZero, DamageDice};
use crate::srd::{Monster, MonsterAction, OnSave};

/// Why a monster could not be turned into a combatant.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MonsterConversionError {
    /// None of its actions deals damage through an attack or a save.
    #[error(
        "{0} has no action that deals damage with an attack roll or a saving throw, so it cannot fight in the simulator"
    )]
    NoDamagingAction(String),
    /// Its multiattack names an action it does not have.
    #[error("{monster}'s multiattack uses {action:?}, which is not one of its actions")]
    UnknownAction {
        /// The monster.
        monster: String,
        /// The missing action.
        action: String,
    },
}

impl Combatant {
    /// A monster as a combatant: its AC, average hit points, Dexterity for initiative, saves,
    /// defenses, its speed in a fight (flying when it flies), its nerve (the morale rule's
    /// data), and on its turn its usual multiattack (or, without one, its most damaging single
    /// action), each attack with the reach and range its stat block gives. Its opportunity
    /// attack is its melee attack with the longest reach, as in the game. Actions without
    /// damage (a frightful presence) are skipped.
    pub fn from_monster(monster: &Monster) -> Result<Combatant, MonsterConversionError> {
        let mut combatant = Combatant::new(
            monster.name.clone(),
            Side::Monsters,
            monster.hit_points,
            monster.armor_class,
        )
        .with_initiative(
            monster.abilities.modifier(Ability::Dexterity),
            monster.abilities.dexterity,
        );
        for (i, ability) in Ability::ALL.into_iter().enumerate() {
            combatant.saving_throws[i] = monster
                .saving_throws
                .get(&ability)
                .copied()
                .unwrap_or_else(|| monster.abilities.modifier(ability));
        }
        combatant.defenses = monster.defenses;
        combatant.at_zero = AtZero::Dies;
        combatant.speed = fighting_speed(&monster.speed);
        combatant.nerve = Nerve::of(monster);
        // The same reading as the game's `positions::melee_attack`.
        combatant.opportunity_attack = longest_reach(monster.actions.iter().filter_map(|a| {
            let reach = Reach::of_monster_attack(a.attack.as_ref()?);
            Some((a, reach.melee_ft?))
        }))
        .and_then(|(a, _)| sim_action(monster, a));

        // A Multiattack naming an action the stat block lacks is bad data, not a weaker monster.
        let multiattack = monster.actions.iter().find_map(|a| a.multiattack.first());
        for step in multiattack.into_iter().flatten() {
            if find(monster, &step.action).is_none() {
                return Err(MonsterConversionError::UnknownAction {
                    monster: monster.name.clone(),
                    action: step.action.clone(),
                });
            }
        }
        // The attack the game's planner would make (one rule: `monster_plan::attack_choice`).
        if let Some((_, steps)) = attack_choice(monster) {
            for (action, count) in steps {
                if let Some(sim) = sim_action(monster, action) {
                    for _ in 0..count {
                        combatant.actions.push(sim.clone());
                    }
                }
            }
        }
        if combatant.actions.is_empty() {
            let best = monster
                .actions
                .iter()
                .filter(|a| a.usage.is_none())
                .filter_map(|a| sim_action(monster, a))
                .max_by_key(expected_damage);
            combatant.actions.extend(best);
        }
        if combatant.actions.is_empty() {
            return Err(MonsterConversionError::NoDamagingAction(
                monster.name.clone(),
            ));
        }
        Ok(combatant)
    }
}

fn find<'m>(monster: &'m Monster, name: &str) -> Option<&'m MonsterAction> {
    monster
        .actions
        .iter()
        .find(|a| a.name.eq_ignore_ascii_case(name))
}

fn sim_action(monster: &Monster, action: &MonsterAction) -> Option<SimAction> {
    let damage: SmallVec<[DamageDice; 2]> = if action.damage.is_empty() {
        action.damage_options.first().copied().into_iter().collect()
    } else {
        action.damage.iter().copied().collect()
    };
    if damage.is_empty() {
        return None;
    }
    if let Some(attack) = &action.attack {
        return Some(SimAction::Attack {
            name: action.name.clone(),
            to_hit: attack.to_hit,
            damage,
            magical: monster.attack_is_magical(attack),
            reach: Reach::of_monster_attack(attack),
        });
    }
    action.save.map(|save| SimAction::Save {
        name: action.name.clone(),
        ability: save.ability,
        dc: save.dc,
        damage,
        half_on_success: save.on_success == OnSave::Half,
        reach: save_reach(),
    })
}

fn expected_damage(action: &SimAction) -> i32 {
    let damage = match action {
        SimAction::Attack { damage, .. } | SimAction::Save { damage, .. } => damage,
    };
    damage.iter().map(DamageDice::average).sum()
}
