//! One fight at a time, by the combat engine's pure rules (see the module docs of
//! [`super`]): the arena keeps what each combatant is during a fight, and reuses its space from
//! one fight to the next.

use rand::RngExt;
use smallvec::SmallVec;

use super::{Battlefield, Combatant, MAX_ROUNDS, Side, SimAction};
use crate::combat::geometry::{self, Movement};
use crate::combat::monster_plan::{breaks, pick_target};
use crate::combat::positions::Reach;
use crate::dice::{Advantage, GameRng};
use crate::rules::attack::{attack_hits, roll_damage};
use crate::rules::check::D20Roll;
use crate::rules::damage::{HitPoints, apply_damage};
use crate::rules::death::{DeathSaveOutcome, DeathSaves};
use crate::state::Position;

mod specials;

/// The state of one combatant during one fight.
#[derive(Debug, Clone, Copy)]
pub(super) struct Fighter {
    pub(super) hp: HitPoints,
    saves: DeathSaves,
    pub(super) dead: bool,
    pub(super) downed: bool,
    /// Its morale broke: it fled or surrendered.
    pub(super) broken: bool,
    pub(super) at: Position,
    /// Its reaction is unused since the start of its last turn.
    reaction: bool,
    /// Its specials waiting for a recharge, one bit each.
    pub(super) recharging: u32,
    /// Uses spent of each of its pools.
    pub(super) pool_spent: [u8; super::MAX_POOLS],
}

impl Fighter {
    /// Still in the fight: alive, above 0 and not broken.
    pub(super) fn standing(&self) -> bool {
        !self.dead && !self.broken && self.hp.current > 0
    }
}

/// What one fight came to.
pub(super) struct FightResult {
    pub(super) party_won: bool,
    pub(super) rounds: u32,
    /// Monsters whose morale broke.
    pub(super) broken: u32,
    pub(super) opportunity_attacks: u32,
}

/// What the arena works out once per report about a combatant.
struct Profile<'a> {
    /// How far along x it may back off: the wall behind its side's line.
    wall_x: i32,
    /// Its actions' average damage a turn, for the target rule.
    per_turn: u32,
    /// Its opportunity attack and that attack's reach.
    opportunity: Option<(&'a SimAction, u32)>,
    start: Position,
}

/// The combatants and the scratch space of fights, reused from one fight to the next.
pub(super) struct Arena<'a> {
    combatants: &'a [Combatant],
    profiles: Vec<Profile<'a>>,
    pub(super) fighters: Vec<Fighter>,
    order: Vec<(i32, i32, u32, usize)>,
    broken: u32,
    opportunity_attacks: u32,
}

impl<'a> Arena<'a> {
    pub(super) fn new(combatants: &'a [Combatant], field: &Battlefield) -> Self {
        let mut lines = [0i32; 2];
        let feet = |ft: u32| i32::try_from(ft).unwrap_or(i32::MAX / 4);
        let far_line = feet(field.start_distance_ft);
        let profiles = combatants
            .iter()
            .map(|c| {
                let line = usize::from(c.side == Side::Monsters);
                let start = c.start.unwrap_or(Position {
                    x: if line == 1 { far_line } else { 0 },
                    y: lines[line],
                    z: 0,
                });
                lines[line] += 5;
                let wall_x = match c.side {
                    Side::Party => -feet(field.retreat_ft),
                    Side::Monsters => far_line + feet(field.retreat_ft),
                };
                Profile {
                    wall_x,
                    per_turn: c
                        .actions
                        .iter()
                        .flat_map(|a| a.damage())
                        .map(|d| d.average().max(0) as u32)
                        .sum(),
                    opportunity: opportunity_attack(c),
                    start,
                }
            })
            .collect();
        Arena {
            combatants,
            profiles,
            fighters: Vec::with_capacity(combatants.len()),
            order: Vec::with_capacity(combatants.len()),
            broken: 0,
            opportunity_attacks: 0,
        }
    }

    pub(super) fn fight(&mut self, rng: &mut GameRng) -> FightResult {
        self.start(rng);
        for round in 1..=MAX_ROUNDS {
            if let Some(result) = self.round(round, rng) {
                return result;
            }
        }
        self.result(false, MAX_ROUNDS)
    }

    /// Sets up a fight: everyone at full hit points in their starting places, initiative
    /// rolled.
    pub(super) fn start(&mut self, rng: &mut GameRng) {
        self.fighters.clear();
        self.fighters.extend(
            self.combatants
                .iter()
                .zip(&self.profiles)
                .map(|(c, p)| Fighter {
                    hp: HitPoints::full(c.hit_points),
                    saves: DeathSaves::default(),
                    dead: false,
                    downed: false,
                    broken: false,
                    at: p.start,
                    reaction: true,
                    recharging: 0,
                    pool_spent: [0; super::MAX_POOLS],
                }),
        );
        self.broken = 0;
        self.opportunity_attacks = 0;
        // Initiative: total, then Dexterity, then a roll-off (see rules::initiative).
        self.order.clear();
        for (i, c) in self.combatants.iter().enumerate() {
            let total =
                i32::from(D20Roll::roll(Advantage::Normal, rng).natural) + c.initiative_bonus;
            self.order.push((total, c.dexterity, rng.random(), i));
        }
        self.order.sort_unstable_by(|a, b| b.cmp(a));
    }

    /// Plays round `round`: the result once a side has no one left standing.
    pub(super) fn round(&mut self, round: u32, rng: &mut GameRng) -> Option<FightResult> {
        for turn in 0..self.order.len() {
            let actor = self.order[turn].3;
            self.take_turn(actor, rng);
            let monsters = self.side_standing(Side::Monsters);
            if !monsters || !self.side_standing(Side::Party) {
                return Some(self.result(!monsters, round));
            }
        }
        None
    }

    fn result(&self, party_won: bool, rounds: u32) -> FightResult {
        FightResult {
            party_won,
            rounds,
            broken: self.broken,
            opportunity_attacks: self.opportunity_attacks,
        }
    }

    fn side_standing(&self, side: Side) -> bool {
        self.combatants
            .iter()
            .zip(&self.fighters)
            .any(|(c, f)| c.side == side && f.standing())
    }

    pub(super) fn distance(&self, a: usize, b: usize) -> u32 {
        self.fighters[a].at.distance(self.fighters[b].at)
    }

    /// The standing combatants hostile to `actor`.
    pub(super) fn hostiles(&self, actor: usize) -> impl Iterator<Item = usize> + '_ {
        let side = self.combatants[actor].side;
        (0..self.combatants.len())
            .filter(move |&i| self.combatants[i].side != side && self.fighters[i].standing())
    }

    fn take_turn(&mut self, actor: usize, rng: &mut GameRng) {
        let me = self.fighters[actor];
        if me.dead || me.broken {
            return;
        }
        if me.hp.current == 0 {
            if !me.saves.stable {
                let roll = self.fighters[actor].saves.roll(rng);
                match roll.outcome {
                    DeathSaveOutcome::RegainsOneHitPoint => self.fighters[actor].hp.current = 1,
                    DeathSaveOutcome::Dies => self.fighters[actor].dead = true,
                    _ => {}
                }
            }
            return;
        }
        self.fighters[actor].reaction = true;
        let combatants = self.combatants;
        let combatant = &combatants[actor];
        if combatant.side == Side::Monsters && self.morale_breaks(actor) {
            self.fighters[actor].broken = true;
            self.broken += 1;
            return;
        }
        if !combatant.specials.is_empty() && self.special_turn(actor, rng) {
            return;
        }
        let mut left = combatant.speed;
        for action in &combatant.actions {
            let reach = action.reach();
            let Some(target) = self.pick_target(actor, reach) else {
                return;
            };
            left = left.saturating_sub(self.move_for(actor, target, reach, left, rng));
            if !self.fighters[actor].standing() {
                return; // an opportunity attack dropped it on the way
            }
            let Ok(shot) = geometry::shot(reach, self.distance(actor, target)) else {
                continue; // still out of reach: this action is lost
            };
            // The nearest hostile matters only to a shot (a hostile within 5 ft).
            let nearest = match shot {
                geometry::Shot::Melee => None,
                geometry::Shot::Ranged { .. } => {
                    self.hostiles(actor).map(|h| self.distance(actor, h)).min()
                }
            };
            let advantage = if geometry::shot_has_disadvantage(shot, nearest) {
                Advantage::Disadvantage
            } else {
                Advantage::Normal
            };
            self.resolve(action, target, advantage, rng);
        }
    }

    /// The game's morale rule (`monster_plan::breaks`) for a monster at the start of its turn.
    fn morale_breaks(&self, actor: usize) -> bool {
        let me = &self.fighters[actor];
        let allies_standing = (0..self.combatants.len()).any(|i| {
            i != actor && self.combatants[i].side == Side::Monsters && self.fighters[i].standing()
        });
        let c = &self.combatants[actor];
        breaks(
            me.hp.current,
            me.hp.max,
            c.nerve,
            allies_standing,
            true,
            c.speed,
        )
        .is_some()
    }

    /// Characters focus the standing enemy with the fewest hit points, wherever it stands;
    /// monsters pick by the game's own rule (`combat::monster_plan::pick_target`: the hero
    /// their turn's damage drops soonest, then the lowest AC) among the heroes this action
    /// reaches from where they stand, or among all when it reaches none, as the game's monster
    /// plan does.
    pub(super) fn pick_target(&self, actor: usize, reach: Reach) -> Option<usize> {
        match self.combatants[actor].side {
            Side::Party => self
                .hostiles(actor)
                .min_by_key(|&i| self.fighters[i].hp.current),
            Side::Monsters => {
                // Each hero once: whether this action reaches it from here, its HP and AC.
                let heroes: SmallVec<[(usize, bool); 16]> = self
                    .hostiles(actor)
                    .map(|i| (i, geometry::shot(reach, self.distance(actor, i)).is_ok()))
                    .collect();
                let any_reached = heroes.iter().any(|&(_, reached)| reached);
                pick_target(
                    heroes
                        .iter()
                        .filter(|&&(_, reached)| reached || !any_reached)
                        .map(|&(i, _)| {
                            (
                                i,
                                self.fighters[i].hp.current,
                                self.combatants[i].armor_class,
                            )
                        }),
                    self.profiles[actor].per_turn,
                )
            }
        }
    }

    /// Moves `actor` before it acts against `target`, by the shared movement decision: a
    /// monster closes to its melee reach (5 ft without one), as the game's monsters do; a
    /// character by its action's reach, stepping back when it shoots and nothing threatens it.
    /// The feet it used.
    pub(super) fn move_for(
        &mut self,
        actor: usize,
        target: usize,
        reach: Reach,
        left: u32,
        rng: &mut GameRng,
    ) -> u32 {
        if left == 0 {
            return 0;
        }
        let distance = self.distance(actor, target);
        let decided = match self.combatants[actor].side {
            Side::Monsters => {
                let melee = self.profiles[actor].opportunity.map_or(5, |(_, r)| r);
                geometry::movement(Reach::melee(melee), distance, true, left)
            }
            Side::Party => {
                let threatened = reach.melee_ft.is_none() && self.threatened(actor);
                geometry::movement(reach, distance, threatened, left)
            }
        };
        let from = self.fighters[actor].at;
        let (to, feet) = match decided {
            Movement::Stay => return 0,
            Movement::Toward { within_ft } => {
                geometry::step_toward(from, self.fighters[target].at, within_ft, Some(left))
            }
            Movement::Away { max_ft } => {
                // Straight back toward its own side, no farther than the wall behind its line.
                let feet = i32::try_from(max_ft).unwrap_or(i32::MAX / 4);
                let wall = self.profiles[actor].wall_x;
                let x = match self.combatants[actor].side {
                    Side::Party => (from.x - feet).max(wall.min(from.x)),
                    Side::Monsters => (from.x + feet).min(wall.max(from.x)),
                };
                geometry::step_toward(from, Position { x, ..from }, 0, Some(max_ft))
            }
        };
        if feet > 0 {
            self.move_to(actor, from, to, rng);
        }
        feet
    }

    /// Whether a standing hostile has `actor` within its melee reach.
    fn threatened(&self, actor: usize) -> bool {
        self.hostiles(actor).any(|h| {
            self.profiles[h]
                .opportunity
                .is_some_and(|(_, reach)| self.distance(actor, h) <= reach)
        })
    }

    /// Moves `mover` from `from` to `to`: each standing hostile whose reach it leaves and whose
    /// reaction is unused makes its opportunity attack first; one that drops the mover stops
    /// it where it was.
    fn move_to(&mut self, mover: usize, from: Position, to: Position, rng: &mut GameRng) {
        let side = self.combatants[mover].side;
        for h in 0..self.combatants.len() {
            let f = self.fighters[h];
            if self.combatants[h].side == side || !f.standing() || !f.reaction {
                continue;
            }
            let Some((attack, reach)) = self.profiles[h].opportunity else {
                continue;
            };
            if geometry::provokes(from.distance(f.at), to.distance(f.at), reach, false) {
                self.fighters[h].reaction = false;
                self.opportunity_attacks += 1;
                self.resolve(attack, mover, Advantage::Normal, rng);
                if !self.fighters[mover].standing() {
                    return;
                }
            }
        }
        self.fighters[mover].at = to;
    }

    pub(super) fn resolve(
        &mut self,
        action: &SimAction,
        target: usize,
        advantage: Advantage,
        rng: &mut GameRng,
    ) {
        let defender = &self.combatants[target];
        let (damage, critical, halve, defenses) = match action {
            SimAction::Attack {
                to_hit,
                damage,
                magical,
                ..
            } => {
                let d20 = D20Roll::roll(advantage, rng);
                let (hit, critical) = attack_hits(d20, *to_hit, defender.armor_class, 20, false);
                if !hit {
                    return;
                }
                (
                    damage,
                    critical,
                    false,
                    defender.defenses.against_attack(*magical),
                )
            }
            SimAction::Save {
                ability,
                dc,
                damage,
                half_on_success,
                ..
            } => {
                let natural = i32::from(rng.random_range(1..=20u8));
                let saved = natural + defender.save_bonus(*ability) >= *dc;
                if saved && !half_on_success {
                    return;
                }
                (damage, false, saved, defender.defenses)
            }
        };
        let mut total = 0u32;
        for dice in damage {
            total += roll_damage(dice, critical, &defenses, rng).taken;
        }
        if halve {
            total /= 2;
        }
        self.take(target, total, critical);
    }

    /// Fighter `target` takes `total` damage (after its defenses): down at 0, dead by massive
    /// damage or by the death saves a hit at 0 costs (two for a critical hit).
    pub(super) fn take(&mut self, target: usize, total: u32, critical: bool) {
        let at_zero = self.combatants[target].at_zero;
        let fighter = &mut self.fighters[target];
        let outcome = apply_damage(&mut fighter.hp, total, at_zero, critical);
        if outcome.dropped_to_zero {
            fighter.downed = true;
        }
        if outcome.killed {
            fighter.dead = true;
        } else if outcome.death_save_failures > 0 {
            fighter.dead |=
                fighter.saves.take_damage(outcome.death_save_failures) == DeathSaveOutcome::Dies;
        }
    }
}

/// A combatant's opportunity attack and its reach: the one it was given, else its melee attack
/// with the longest reach (the game's rule, `geometry::longest_reach`).
fn opportunity_attack(c: &Combatant) -> Option<(&SimAction, u32)> {
    if let Some(given) = &c.opportunity_attack {
        return Some((given, given.reach().melee_ft?));
    }
    geometry::longest_reach(c.actions.iter().filter_map(|a| match a {
        SimAction::Attack { reach, .. } => Some((a, reach.melee_ft?)),
        SimAction::Save { .. } => None,
    }))
}
