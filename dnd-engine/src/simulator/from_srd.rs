//! Turning an SRD stat block into a simulator [`Combatant`].

use smallvec::SmallVec;

use super::{Combatant, MAX_POOLS, MAX_SPECIALS, Side, SimAction, Special, save_reach};
use crate::combat::geometry::{fighting_speed, longest_reach};
use crate::combat::monster_plan::{Nerve, attack_choice};
use crate::combat::positions::Reach;
use crate::effects::Effect;
use crate::rules::{Ability, AtZero, DamageDice};
use crate::srd::{
    ActionUsage, Monster, MonsterAction, MonsterSpellcasting, OnSave, Spell, SpellReach, Srd,
};

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
        // Its save actions with damage (a breath, Engulf) as specials, used when the game's
        // rule says they do more than its attacks.
        for action in &monster.actions {
            if action.attack.is_some() || action.save.is_none() {
                continue;
            }
            let Some(sim) = sim_action(monster, action) else {
                continue;
            };
            let pool = match action.usage {
                Some(ActionUsage::PerDay { times }) => combatant.pool(times),
                Some(ActionUsage::AfterRest { .. }) => combatant.pool(1),
                _ => None,
            };
            let recharge = match action.usage {
                Some(ActionUsage::Recharge { min }) => Some(min),
                _ => None,
            };
            combatant.special(Special {
                action: sim,
                area: true,
                recharge,
                pool,
            });
        }
        Ok(combatant)
    }

    /// [`Combatant::from_monster`], with the damaging spells of its list (`srd` has them) as
    /// specials: at will, or spending its slots of the spell's level or an innate use a day
    /// (each a pool). Spells without damage (holds, healing) are not played.
    pub fn from_monster_in(
        monster: &Monster,
        srd: &Srd,
    ) -> Result<Combatant, MonsterConversionError> {
        let mut combatant = Combatant::from_monster(monster)?;
        let Some(casting) = &monster.spellcasting else {
            return Ok(combatant);
        };
        let modifier = monster.abilities.modifier(casting.ability);
        let slot_pools: Vec<(u8, Option<u8>)> = casting
            .slots
            .iter()
            .map(|l| (l.level, combatant.pool(l.slots)))
            .collect();
        for name in casting.spells() {
            let Ok(spell) = srd.spell(name) else { continue };
            let pool = if casting.at_will.iter().any(|s| s.eq_ignore_ascii_case(name)) {
                None
            } else if let Some(innate) = casting
                .innate
                .iter()
                .find(|i| i.spell.eq_ignore_ascii_case(name))
            {
                match combatant.pool(innate.per_day) {
                    Some(p) => Some(p),
                    None => continue,
                }
            } else {
                match slot_pools.iter().find(|(level, _)| *level == spell.level) {
                    Some((_, Some(p))) => Some(*p),
                    _ => continue,
                }
            };
            if let Some(action) = spell_action(spell, casting, modifier) {
                combatant.special(Special {
                    action,
                    area: spell.area.is_some(),
                    recharge: None,
                    pool,
                });
            }
        }
        Ok(combatant)
    }

    /// A new pool of `uses`, its index; `None` when it has [`MAX_POOLS`] already.
    fn pool(&mut self, uses: u8) -> Option<u8> {
        (self.pools.len() < MAX_POOLS).then(|| {
            self.pools.push(uses);
            (self.pools.len() - 1) as u8
        })
    }

    /// Adds a special, unless it has [`MAX_SPECIALS`] already.
    fn special(&mut self, special: Special) {
        if self.specials.len() < MAX_SPECIALS {
            self.specials.push(special);
        }
    }
}

/// A damaging spell as a simulator action, cast at its own level: a spell attack or a save
/// whose failure deals damage, reaching as far as the spell does; `None` for any other.
fn spell_action(spell: &Spell, casting: &MonsterSpellcasting, modifier: i32) -> Option<SimAction> {
    let reach = match spell.reach() {
        SpellReach::Within(feet) if spell.range == crate::srd::SpellRange::Touch => {
            Reach::melee(feet.max(5))
        }
        SpellReach::Within(feet) => Reach::ranged(feet, feet),
        _ => return None,
    };
    let dice_of = |effects: &[Effect]| -> SmallVec<[DamageDice; 2]> {
        effects
            .iter()
            .filter_map(|e| match e {
                Effect::Damage { dice, damage_type } => {
                    let (count, sides, bonus) =
                        dice.at(spell.level, spell.level, casting.caster_level, modifier);
                    Some(DamageDice::new(count, sides, bonus, *damage_type))
                }
                _ => None,
            })
            .collect()
    };
    let action = match spell.effects.first()? {
        Effect::SpellAttack { on_hit, .. } => SimAction::Attack {
            name: spell.name.clone(),
            to_hit: casting.attack_bonus,
            damage: dice_of(on_hit),
            magical: true,
            reach,
        },
        Effect::Save {
            ability,
            dc,
            on_success,
            on_fail,
            ..
        } => SimAction::Save {
            name: spell.name.clone(),
            ability: *ability,
            dc: dc.unwrap_or(casting.save_dc),
            damage: dice_of(on_fail),
            half_on_success: *on_success == OnSave::Half,
            reach,
        },
        _ => return None,
    };
    (!action.damage().is_empty()).then_some(action)
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
