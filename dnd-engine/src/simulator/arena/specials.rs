//! A monster's turn spent on a special action (a breath, a save action, a spell), decided by
//! the game's own odds and choice (`combat::monster_spells::better_spell` over the expected
//! damage: `save_fails`, `monster_plan::hit_chance`), over plain numbers.

use rand::RngExt;

use super::Arena;
use crate::combat::geometry;
use crate::combat::monster_plan::hit_chance;
use crate::combat::monster_spells::{better_spell, save_fails};
use crate::dice::{Advantage, GameRng};
use crate::rules::attack::roll_damage;
use crate::rules::damage::Defenses;
use crate::simulator::{Combatant, SimAction, Special};

/// The average damage of some dice.
fn average(damage: &[crate::rules::DamageDice]) -> f64 {
    damage.iter().map(|d| f64::from(d.average().max(0))).sum()
}

/// The damage `action` does `defender` on average (the odds the game's planner uses).
fn expected(action: &SimAction, defender: &Combatant) -> f64 {
    match action {
        SimAction::Attack { to_hit, damage, .. } => {
            hit_chance(*to_hit, defender.armor_class) * average(damage)
        }
        SimAction::Save {
            ability,
            dc,
            damage,
            half_on_success,
            ..
        } => {
            let fails = save_fails(*dc, defender.save_bonus(*ability));
            let half = if *half_on_success { 0.5 } else { 0.0 };
            (fails + (1.0 - fails) * half) * average(damage)
        }
    }
}

impl Arena<'_> {
    /// Whether special `k` of `actor` may be used now: not waiting for a recharge, a use of
    /// its pool left.
    fn available(&self, actor: usize, k: usize, special: &Special) -> bool {
        let f = &self.fighters[actor];
        let pools = &self.combatants[actor].pools;
        f.recharging & (1 << k) == 0
            && special.pool.is_none_or(|p| {
                let p = usize::from(p);
                p < pools.len() && f.pool_spent[p] < pools[p]
            })
    }

    /// The standing hostiles `action` reaches from where `actor` stands.
    fn reached(&self, actor: usize, action: &SimAction) -> Vec<usize> {
        let reach = action.reach();
        self.hostiles(actor)
            .filter(|&h| geometry::shot(reach, self.distance(actor, h)).is_ok())
            .collect()
    }

    /// Rolls the recharges due at the start of `actor`'s turn, then plays a special action if
    /// the rule says it does more than the turn's attacks. Whether it did.
    pub(super) fn special_turn(&mut self, actor: usize, rng: &mut GameRng) -> bool {
        let combatants = self.combatants;
        let me = &combatants[actor];
        for (k, special) in me
            .specials
            .iter()
            .enumerate()
            .take(super::super::MAX_SPECIALS)
        {
            if self.fighters[actor].recharging & (1 << k) != 0
                && let Some(min) = special.recharge
                && rng.random_range(1..=6u8) >= min
            {
                self.fighters[actor].recharging &= !(1 << k);
            }
        }
        let Some(first) = me.actions.first() else {
            return false;
        };
        let target = self.pick_target(actor, first.reach());
        let attack_value: f64 = target.map_or(0.0, |t| {
            me.actions.iter().map(|a| expected(a, &combatants[t])).sum()
        });
        let options = me
            .specials
            .iter()
            .enumerate()
            .take(super::super::MAX_SPECIALS)
            .filter(|(k, s)| self.available(actor, *k, s))
            .filter_map(|(k, s)| {
                let targets = if s.area {
                    self.reached(actor, &s.action)
                } else {
                    let t = self.pick_target(actor, s.action.reach())?;
                    let reach = s.action.reach();
                    geometry::shot(reach, self.distance(actor, t)).ok()?;
                    vec![t]
                };
                let value: f64 = targets
                    .iter()
                    .map(|&t| expected(&s.action, &combatants[t]))
                    .sum();
                (value > 0.0).then_some((value, (k, targets)))
            });
        let Some((k, targets)) = better_spell(options, attack_value) else {
            return false;
        };
        let special = &me.specials[k];
        if special.recharge.is_some() {
            self.fighters[actor].recharging |= 1 << k;
        }
        if let Some(p) = special.pool {
            self.fighters[actor].pool_spent[usize::from(p)] += 1;
        }
        if special.area {
            self.area(&special.action, &targets, rng);
        } else {
            self.resolve(&special.action, targets[0], Advantage::Normal, rng);
        }
        true
    }

    /// A save action on every one of `targets`, its damage rolled once (as the game rolls an
    /// area's damage once for everyone in it), halved on a success when it says so.
    fn area(&mut self, action: &SimAction, targets: &[usize], rng: &mut GameRng) {
        let SimAction::Save {
            ability,
            dc,
            damage,
            half_on_success,
            ..
        } = action
        else {
            for &t in targets {
                self.resolve(action, t, Advantage::Normal, rng);
            }
            return;
        };
        let rolled: Vec<(u32, crate::rules::DamageType)> = damage
            .iter()
            .map(|d| {
                (
                    roll_damage(d, false, &Defenses::default(), rng).rolled,
                    d.kind,
                )
            })
            .collect();
        for &t in targets {
            let defender = &self.combatants[t];
            let natural = i32::from(rng.random_range(1..=20u8));
            let saved = natural + defender.save_bonus(*ability) >= *dc;
            if saved && !half_on_success {
                continue;
            }
            let total: u32 = rolled
                .iter()
                .map(|&(n, kind)| {
                    let n = if saved { n / 2 } else { n };
                    defender.defenses.apply(n, kind).0
                })
                .sum();
            self.take(t, total, false);
        }
    }
}
