//! The encounter simulator: plays a fight out many times and reports how it tends to go.
//!
//! XP budgets (see [`crate::rules::encounter`]) only add numbers up; they cannot see that six
//! goblins with +4 to hit shred a party with AC 12, or that a single ogre folds against four
//! archers. This module plays the fight: initiative, every attack of every multiattack through
//! the same rules functions the game uses ([`crate::rules::attack`], [`crate::rules::damage`],
//! [`crate::rules::death`]), positions and movement, death saves, morale, and reports the
//! chance the party wins, how long it takes and what it costs each character. Seeded: the same
//! seed gives the same report.
//!
//! The fight is played by the combat engine's own rules, as pure functions over plain numbers
//! (no `GameState` is built: a report plays thousands of fights):
//!
//! - **Positions.** The sides start in two lines [`Battlefield::start_distance_ft`] apart
//!   (30 ft by default; a combatant may be placed with [`Combatant::at`]), with
//!   [`Battlefield::retreat_ft`] of room behind each; distance is the game's
//!   ([`Position::distance`]).
//! - **Reach and range** ([`combat::geometry::shot`](crate::combat::geometry::shot)): each
//!   attack has a [`Reach`]; a melee attack needs its target within reach, a ranged one within
//!   long range, with disadvantage past its normal range or with a hostile within 5 ft.
//! - **Movement**: each combatant moves up to its speed in straight lines
//!   ([`combat::geometry::step_toward`](crate::combat::geometry::step_toward)). A monster
//!   closes to its melee reach (5 ft without one) before it attacks, as in the game; a
//!   character closes to its attack's reach or normal range, and a ranged character that no
//!   hostile threatens steps back to keep its distance
//!   ([`combat::geometry::movement`](crate::combat::geometry::movement)).
//! - **Opportunity attacks**: a move that leaves a hostile's reach provokes one melee attack,
//!   one reaction a round ([`combat::geometry::provokes`](crate::combat::geometry::provokes)).
//! - **Targets**: monsters choose by the game's target rule
//!   ([`combat::monster_plan::pick_target`](crate::combat::monster_plan::pick_target)) among the
//!   heroes they reach, or among all when they reach none; characters focus the standing enemy
//!   with the fewest hit points left, wherever it stands.
//! - **Morale**: at the start of its turn a monster breaks by the game's rule
//!   ([`combat::monster_plan::breaks`](crate::combat::monster_plan::breaks)): below a quarter of
//!   its hit points with no ally standing it flees (or surrenders), and counts as beaten.
//!
//! - **Special actions** ([`Special`]): a monster's breath and other save actions (recharge
//!   rolled at the start of its turn, uses a day counted per fight) and its damaging spells
//!   (slots and innate uses as pools, [`Combatant::from_monster_in`]) replace its attacks on a
//!   turn when the game's rule says they do more: the same expected-damage odds and choice
//!   (`combat::monster_spells`: `save_fails`, `better_spell`; `monster_plan::hit_chance`); an
//!   area's damage is rolled once for every hostile in its reach.
//!
//! Not played: healing, holds and other spells without damage, cover and terrain, Disengage
//! and Dash, legendary actions; a fleeing monster simply leaves (as in the game, where it
//! provokes nothing). A fight still going after [`MAX_ROUNDS`] counts as a loss for the party.

mod arena;
mod from_character;
mod from_srd;

use serde::{Deserialize, Serialize};
use smallvec::SmallVec;

use crate::dice::seeded_rng;
use crate::rules::damage::{AtZero, Defenses};
use crate::rules::{Ability, DamageDice};

pub use crate::combat::monster_plan::Nerve;
pub use crate::combat::positions::Reach;
pub use crate::state::Position;
pub use from_character::CharacterConversionError;
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
        /// How far it reaches (melee at 5 ft unless given).
        #[serde(default = "melee_5")]
        reach: Reach,
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
        /// How far it reaches. The SRD data gives no area for a breath or a gaze, so 30 ft
        /// (a typical cone or line) unless given.
        #[serde(default = "save_reach")]
        reach: Reach,
    },
}

fn melee_5() -> Reach {
    Reach::melee(5)
}

/// The reach of a save action when none is given (see [`SimAction::Save`]).
pub(crate) fn save_reach() -> Reach {
    Reach::ranged(30, 30)
}

impl SimAction {
    /// How far it reaches.
    pub fn reach(&self) -> Reach {
        match self {
            SimAction::Attack { reach, .. } | SimAction::Save { reach, .. } => *reach,
        }
    }

    fn damage(&self) -> &[DamageDice] {
        match self {
            SimAction::Attack { damage, .. } | SimAction::Save { damage, .. } => damage,
        }
    }
}

/// An action a monster uses instead of its turn's attacks when the game's rule says it does
/// more (`monster_spells::better_spell` over the expected damage): a breath or another save
/// action, a damaging spell from its list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Special {
    /// What it does: a save (a breath, Sacred Flame, Fireball) or an attack roll (Fire Bolt).
    pub action: SimAction,
    /// It strikes every standing hostile within its reach, its damage rolled once (a breath,
    /// Fireball); otherwise one target.
    #[serde(default)]
    pub area: bool,
    /// Spent when used until a d6 at the start of its turn rolls this or higher.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recharge: Option<u8>,
    /// The pool of uses it spends one of (index into [`Combatant::pools`]: a slot level, an
    /// innate spell's or an action's uses a day); `None`: at will.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pool: Option<u8>,
}

/// The most pools of uses a combatant may have, and the most specials.
pub const MAX_POOLS: usize = 8;
/// The most specials a combatant may have.
pub const MAX_SPECIALS: usize = 32;

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
    /// Feet it moves a turn.
    #[serde(default = "default_speed")]
    pub speed: u32,
    /// For a monster: what decides whether its morale breaks (characters never break).
    #[serde(default)]
    pub nerve: Nerve,
    /// The melee attack it makes as an opportunity attack, when it is not among its
    /// `actions` (a goblin shoots its shortbow but still slashes with its scimitar at a
    /// creature leaving its reach); by default the melee attack of `actions` with the longest
    /// reach.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opportunity_attack: Option<SimAction>,
    /// Where it stands when the fight starts; by default in its side's line (see
    /// [`Battlefield`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<Position>,
    /// For a monster: what it may use instead of its attacks (at most [`MAX_SPECIALS`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub specials: Vec<Special>,
    /// The uses of each pool its specials spend, for one fight (at most [`MAX_POOLS`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pools: Vec<u8>,
}

fn default_speed() -> u32 {
    30
}

impl Combatant {
    /// A combatant with no actions yet; saves default to 0, speed to 30 ft, and it makes death
    /// saves on the party side and dies at 0 on the monsters' side.
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
            speed: default_speed(),
            nerve: Nerve::default(),
            opportunity_attack: None,
            start: None,
            specials: Vec::new(),
            pools: Vec::new(),
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

    /// Sets its speed in feet.
    pub fn with_speed(mut self, speed: u32) -> Self {
        self.speed = speed;
        self
    }

    /// Places it at the start of the fight.
    pub fn at(mut self, start: Position) -> Self {
        self.start = Some(start);
        self
    }

    /// Adds a nonmagical attack (a mundane weapon, a claw) made every turn, melee at 5 ft
    /// until [`with_reach`](Combatant::with_reach) says otherwise; see
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

    /// Sets the reach of the action added last (a longbow's `Reach::ranged(150, 600)`, a
    /// glaive's `Reach::melee(10)`).
    pub fn with_reach(mut self, reach: Reach) -> Self {
        if let Some(SimAction::Attack { reach: r, .. } | SimAction::Save { reach: r, .. }) =
            self.actions.last_mut()
        {
            *r = reach;
        }
        self
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
            reach: melee_5(),
        });
        self
    }

    fn save_bonus(&self, ability: Ability) -> i32 {
        self.saving_throws[ability as usize]
    }
}

/// Where a fight is played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Battlefield {
    /// How far apart the two sides' lines start, in feet: the party stands along x = 0, the
    /// monsters along x = this, each line 5 ft apart along y.
    #[serde(default = "default_start_distance")]
    pub start_distance_ft: u32,
    /// How far behind its own line a combatant can back away: the room's walls. Keeping at
    /// range works until a ranged character has its back to the wall.
    #[serde(default = "default_retreat")]
    pub retreat_ft: u32,
}

fn default_start_distance() -> u32 {
    30
}

fn default_retreat() -> u32 {
    30
}

impl Default for Battlefield {
    /// The sides 30 ft apart, with 30 ft of room behind each line.
    fn default() -> Self {
        Battlefield {
            start_distance_ft: default_start_distance(),
            retreat_ft: default_retreat(),
        }
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
    /// Share of fights the party won (no monster left fighting: dead, fled or surrendered).
    pub party_win_probability: f64,
    /// Mean rounds per fight.
    pub mean_rounds: f64,
    /// Mean monsters per fight whose morale broke (fled or surrendered).
    #[serde(default)]
    pub mean_monsters_broken: f64,
    /// Mean opportunity attacks per fight, both sides.
    #[serde(default)]
    pub mean_opportunity_attacks: f64,
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

/// Plays `runs` fights between `party` and `monsters` with generator seed `seed`, the sides
/// starting 30 ft apart (see [`simulate_on`]).
pub fn simulate(
    party: &[Combatant],
    monsters: &[Combatant],
    runs: u32,
    seed: u64,
) -> Result<SimulationReport, SimulationError> {
    simulate_on(&Battlefield::default(), party, monsters, runs, seed)
}

/// Plays `runs` fights between `party` and `monsters` on `field` with generator seed `seed`.
pub fn simulate_on(
    field: &Battlefield,
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
    let mut arena = arena::Arena::new(&everyone, field);
    let mut rng = seeded_rng(seed);
    let (mut wins, mut rounds, mut broken, mut opportunity) = (0u32, 0u64, 0u64, 0u64);
    let mut hp_lost = vec![0u64; party.len()];
    let mut downed = vec![0u32; party.len()];
    let mut deaths = vec![0u32; party.len()];
    for _ in 0..runs {
        let result = arena.fight(&mut rng);
        wins += u32::from(result.party_won);
        rounds += u64::from(result.rounds);
        broken += u64::from(result.broken);
        opportunity += u64::from(result.opportunity_attacks);
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
        mean_monsters_broken: broken as f64 / n,
        mean_opportunity_attacks: opportunity as f64 / n,
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

#[cfg(test)]
mod tests;
