//! The encounter simulator: plays a fight out many times and reports how it tends to go.
//!
//! XP budgets (see [`crate::rules::encounter`]) only add numbers up; they cannot see that six
//! goblins with +4 to hit shred a party with AC 12, or that a single ogre folds against four
//! archers. This module plays the fight: initiative, every attack of every multiattack through
//! the same rules functions the game uses ([`crate::rules::attack`], [`crate::rules::damage`],
//! [`crate::rules::death`]), simple targeting, death saves, and reports the chance the party
//! wins, how long it takes and what it costs each character. Seeded: the same seed gives the same
//! report.
//!
//! The tactics are deliberately simple, and say so: characters focus the wounded enemy with the
//! fewest hit points left; monsters choose by the game's target rule
//! (`combat::monster_plan::pick_target`); nobody heals, flees, uses areas or spells with slots. A fight still going after
//! [`MAX_ROUNDS`] counts as a loss for the party.

mod from_srd;

use rand::RngExt;
use serde::{Deserialize, Serialize};
use smallvec::SmallVec;

use crate::dice::{Advantage, GameRng, seeded_rng};
use crate::rules::attack::{attack_hits, roll_damage};
use crate::rules::check::D20Roll;
use crate::rules::damage::{AtZero, Defenses, HitPoints, apply_damage};
use crate::rules::death::{DeathSaveOutcome, DeathSaves};
use crate::rules::{Ability, DamageDice};

pub use from_srd::MonsterConversionError;

/// A fight that lasts longer than this many rounds is stopped and counted as a party loss.
pub const MAX_ROUNDS: u32 = 100;

/// Which side a combatant fights on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// The player characters.
    Party,
    /// Their enemies.
    Monsters,
}

/// One thing a combatant does on its turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SimAction {
    /// An attack roll against the target's AC.
    Attack {
        /// The action's name ("Scimitar").
        name: String,
        /// Bonus to hit.
        to_hit: i32,
        /// Damage on a hit.
        damage: SmallVec<[DamageDice; 2]>,
        /// A magic weapon or a spell attack; otherwise the target's defenses against
        /// nonmagical attacks count.
        #[serde(default)]
        magical: bool,
    },
    /// A saving throw the target makes against a DC.
    Save {
        /// The action's name.
        name: String,
        /// The ability that saves.
        ability: Ability,
        /// The DC.
        dc: i32,
        /// Damage on a failed save.
        damage: SmallVec<[DamageDice; 2]>,
        /// Whether a success still takes half.
        half_on_success: bool,
    },
}

/// A combatant as the simulator sees it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Combatant {
    /// Its name, as it appears in the report.
    pub name: String,
    /// Its side.
    pub side: Side,
    /// Hit points at the start of the fight.
    pub hit_points: u32,
    /// Armor Class.
    pub armor_class: i32,
    /// Initiative bonus.
    pub initiative_bonus: i32,
    /// Dexterity score, for initiative ties.
    pub dexterity: i32,
    /// Saving throw bonuses, in [`Ability::ALL`] order.
    pub saving_throws: [i32; 6],
    /// Resistances, vulnerabilities, immunities.
    pub defenses: Defenses,
    /// Death saves (characters) or death at 0 (most monsters).
    pub at_zero: AtZero,
    /// What it does each turn, in order (a multiattack expanded into its attacks).
    pub actions: Vec<SimAction>,
}

impl Combatant {
    /// A combatant with no actions yet; saves default to 0 and it makes death saves on the
    /// party side and dies at 0 on the monsters' side.
    pub fn new(name: impl Into<String>, side: Side, hit_points: u32, armor_class: i32) -> Self {
        Combatant {
            name: name.into(),
            side,
            hit_points,
            armor_class,
            initiative_bonus: 0,
            dexterity: 10,
            saving_throws: [0; 6],
            defenses: Defenses::default(),
            at_zero: match side {
                Side::Party => AtZero::DeathSaves,
                Side::Monsters => AtZero::Dies,
            },
            actions: Vec::new(),
        }
    }

    /// Sets the initiative bonus and Dexterity score.
    pub fn with_initiative(mut self, bonus: i32, dexterity: i32) -> Self {
        self.initiative_bonus = bonus;
        self.dexterity = dexterity;
        self
    }

    /// Sets the saving throw bonuses (STR, DEX, CON, INT, WIS, CHA).
    pub fn with_saves(mut self, saving_throws: [i32; 6]) -> Self {
        self.saving_throws = saving_throws;
        self
    }

    /// Adds a nonmagical attack (a mundane weapon, a claw) made every turn; see
    /// [`with_magic_attack`](Combatant::with_magic_attack).
    pub fn with_attack(self, name: impl Into<String>, to_hit: i32, damage: &[DamageDice]) -> Self {
        self.with_attack_of(name.into(), to_hit, damage, false)
    }

    /// Adds a magical attack (a magic weapon, an attack cantrip) made every turn: defenses
    /// against nonmagical attacks do not count against it.
    pub fn with_magic_attack(
        self,
        name: impl Into<String>,
        to_hit: i32,
        damage: &[DamageDice],
    ) -> Self {
        self.with_attack_of(name.into(), to_hit, damage, true)
    }

    fn with_attack_of(
        mut self,
        name: String,
        to_hit: i32,
        damage: &[DamageDice],
        magical: bool,
    ) -> Self {
        self.actions.push(SimAction::Attack {
            name,
            to_hit,
            damage: damage.iter().copied().collect(),
            magical,
        });
        self
    }

    fn save_bonus(&self, ability: Ability) -> i32 {
        self.saving_throws[ability as usize]
    }
}

/// How each character fared over all runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CharacterOutcome {
    /// The character's name.
    pub name: String,
    /// Mean hit points lost by the end of a fight (a character at 0 lost them all).
    pub mean_hp_lost: f64,
    /// Share of fights in which the character dropped to 0 at least once.
    pub downed_probability: f64,
    /// Share of fights in which the character died.
    pub death_probability: f64,
}

/// What many simulated fights showed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SimulationReport {
    /// How many fights were played.
    pub runs: u32,
    /// Share of fights the party won (every monster dead).
    pub party_win_probability: f64,
    /// Mean rounds per fight.
    pub mean_rounds: f64,
    /// Per character, in the order given.
    pub characters: Vec<CharacterOutcome>,
    /// The seed, to reproduce the report.
    pub seed: u64,
}

/// Why a simulation could not run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SimulationError {
    /// One side is empty.
    #[error(
        "a fight needs at least one combatant on each side (party: {party}, monsters: {monsters})"
    )]
    EmptySide {
        /// Party members given.
        party: usize,
        /// Monsters given.
        monsters: usize,
    },
    /// A combatant has nothing to do.
    #[error("{0} has no attacks or save actions; give it at least one")]
    NoActions(String),
    /// Zero runs asked for.
    #[error("asked for 0 runs; ask for at least 1")]
    NoRuns,
}

/// The state of one combatant during one fight.
#[derive(Debug, Clone, Copy)]
struct Fighter {
    hp: HitPoints,
    saves: DeathSaves,
    dead: bool,
    downed: bool,
}

impl Fighter {
    fn standing(&self) -> bool {
        !self.dead && self.hp.current > 0
    }
}

/// What one fight came to.
struct FightResult {
    party_won: bool,
    rounds: u32,
}

/// Plays `runs` fights between `party` and `monsters` with generator seed `seed`.
pub fn simulate(
    party: &[Combatant],
    monsters: &[Combatant],
    runs: u32,
    seed: u64,
) -> Result<SimulationReport, SimulationError> {
    if party.is_empty() || monsters.is_empty() {
        return Err(SimulationError::EmptySide {
            party: party.len(),
            monsters: monsters.len(),
        });
    }
    if runs == 0 {
        return Err(SimulationError::NoRuns);
    }
    let mut everyone: Vec<Combatant> = Vec::with_capacity(party.len() + monsters.len());
    for c in party {
        everyone.push(Combatant {
            side: Side::Party,
            ..c.clone()
        });
    }
    for c in monsters {
        everyone.push(Combatant {
            side: Side::Monsters,
            ..c.clone()
        });
    }
    if let Some(idle) = everyone.iter().find(|c| c.actions.is_empty()) {
        return Err(SimulationError::NoActions(idle.name.clone()));
    }
    let mut arena = Arena::new(&everyone);
    let mut rng = seeded_rng(seed);
    let mut wins = 0u32;
    let mut rounds = 0u64;
    let mut hp_lost = vec![0u64; party.len()];
    let mut downed = vec![0u32; party.len()];
    let mut deaths = vec![0u32; party.len()];
    for _ in 0..runs {
        let result = arena.fight(&mut rng);
        wins += u32::from(result.party_won);
        rounds += u64::from(result.rounds);
        for (i, f) in arena.fighters[..party.len()].iter().enumerate() {
            hp_lost[i] += u64::from(f.hp.max - f.hp.current);
            downed[i] += u32::from(f.downed);
            deaths[i] += u32::from(f.dead);
        }
    }
    let n = f64::from(runs);
    Ok(SimulationReport {
        runs,
        party_win_probability: f64::from(wins) / n,
        mean_rounds: rounds as f64 / n,
        characters: party
            .iter()
            .enumerate()
            .map(|(i, c)| CharacterOutcome {
                name: c.name.clone(),
                mean_hp_lost: hp_lost[i] as f64 / n,
                downed_probability: f64::from(downed[i]) / n,
                death_probability: f64::from(deaths[i]) / n,
            })
            .collect(),
        seed,
    })
}

/// The combatants and the scratch space of fights, reused from one fight to the next.
struct Arena<'a> {
    combatants: &'a [Combatant],
    fighters: Vec<Fighter>,
    order: Vec<(i32, i32, u32, usize)>,
}

impl<'a> Arena<'a> {
    fn new(combatants: &'a [Combatant]) -> Self {
        Arena {
            combatants,
            fighters: Vec::with_capacity(combatants.len()),
            order: Vec::with_capacity(combatants.len()),
        }
    }

    fn fight(&mut self, rng: &mut GameRng) -> FightResult {
        self.fighters.clear();
        self.fighters
            .extend(self.combatants.iter().map(|c| Fighter {
                hp: HitPoints::full(c.hit_points),
                saves: DeathSaves::default(),
                dead: false,
                downed: false,
            }));
        // Initiative: total, then Dexterity, then a roll-off (see rules::initiative).
        self.order.clear();
        for (i, c) in self.combatants.iter().enumerate() {
            let total =
                i32::from(D20Roll::roll(Advantage::Normal, rng).natural) + c.initiative_bonus;
            self.order.push((total, c.dexterity, rng.random(), i));
        }
        self.order.sort_unstable_by(|a, b| b.cmp(a));
        for round in 1..=MAX_ROUNDS {
            for turn in 0..self.order.len() {
                let actor = self.order[turn].3;
                self.take_turn(actor, rng);
                if !self.side_standing(Side::Monsters) {
                    return FightResult {
                        party_won: true,
                        rounds: round,
                    };
                }
                if !self.side_standing(Side::Party) {
                    return FightResult {
                        party_won: false,
                        rounds: round,
                    };
                }
            }
        }
        FightResult {
            party_won: false,
            rounds: MAX_ROUNDS,
        }
    }

    fn side_standing(&self, side: Side) -> bool {
        self.combatants
            .iter()
            .zip(&self.fighters)
            .any(|(c, f)| c.side == side && f.standing())
    }

    fn take_turn(&mut self, actor: usize, rng: &mut GameRng) {
        let me = self.fighters[actor];
        if me.dead {
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
        let combatant = &self.combatants[actor];
        let per_turn: u32 = combatant
            .actions
            .iter()
            .map(|a| match a {
                SimAction::Attack { damage, .. } | SimAction::Save { damage, .. } => damage
                    .iter()
                    .map(|d| d.average().max(0) as u32)
                    .sum::<u32>(),
            })
            .sum();
        for action in &combatant.actions {
            let Some(target) = self.pick_target(combatant.side, per_turn) else {
                return;
            };
            self.resolve(action, target, rng);
        }
    }

    /// Characters focus the standing enemy with the fewest hit points; monsters pick by the
    /// game's own rule (`combat::monster_plan::pick_target`: the hero their turn's damage drops
    /// soonest, then the lowest AC), so the odds describe the fight the game plays.
    fn pick_target(&self, side: Side, per_turn: u32) -> Option<usize> {
        let enemies = self
            .combatants
            .iter()
            .zip(&self.fighters)
            .enumerate()
            .filter(|(_, (c, f))| c.side != side && f.standing());
        match side {
            Side::Party => enemies
                .min_by_key(|(_, (_, f))| f.hp.current)
                .map(|(i, _)| i),
            Side::Monsters => crate::combat::monster_plan::pick_target(
                enemies.map(|(i, (c, f))| (i, f.hp.current, c.armor_class)),
                per_turn,
            ),
        }
    }

    fn resolve(&mut self, action: &SimAction, target: usize, rng: &mut GameRng) {
        let defender = &self.combatants[target];
        let (damage, critical, halve, defenses) = match action {
            SimAction::Attack {
                to_hit,
                damage,
                magical,
                ..
            } => {
                let d20 = D20Roll::roll(Advantage::Normal, rng);
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
        let at_zero = defender.at_zero;
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

#[cfg(test)]
mod tests;
