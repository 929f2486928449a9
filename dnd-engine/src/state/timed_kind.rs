//! What a timed effect is: [`TimedEffect`] (its source, duration and what ends it) and the
//! [`TimedKind`]s it may be, with the small types they carry. How effects start, count down
//! and end is `state::timed`.

use serde::{Deserialize, Serialize};

use super::change::ChangeError;
use crate::rules::{Ability, Condition, DamageType, DamageTypes};

/// One timed effect on a creature.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimedEffect {
    /// Who made it, by id (the caster).
    pub source: String,
    /// What made it ("Bless").
    pub spell: String,
    /// Who has it, by id.
    pub target: String,
    /// Ends when the source's concentration on `spell` ends.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub concentration: bool,
    /// Rounds of six seconds left (ten a minute); `None`: until dispelled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounds_left: Option<u32>,
    /// Ends when its creature takes damage (Sleep).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ends_on_damage: bool,
    /// The level of the slot its spell was cast with (0: a cantrip, or not known): what Dispel
    /// Magic measures.
    #[serde(default, skip_serializing_if = "is_zero_u8")]
    pub level: u8,
    /// Its rounds count down at the end of each of its source's turns instead of the start:
    /// "until the end of your next turn" is two such rounds, the turn it began in and the next
    /// (Guiding Bolt's glimmer).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub at_turn_end: bool,
    /// What it does.
    pub kind: TimedKind,
}

fn is_zero_u8(n: &u8) -> bool {
    *n == 0
}

/// What a timed effect does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "does", rename_all = "snake_case")]
pub enum TimedKind {
    /// A bonus to AC (Shield of Faith +2, Shield +5). Two from the same spell do not stack.
    ArmorBonus {
        /// The bonus.
        bonus: i32,
    },
    /// A base AC, already with the Dexterity modifier (Mage Armor 13 + Dex): the higher of it
    /// and the sheet's AC counts (the sheet does not say whether armour is worn).
    ArmorBase {
        /// The AC.
        armor_class: i32,
    },
    /// Dice added to (or, for a penalty, taken from) some rolls (Bless and Bane: 1d4 on attack
    /// rolls and saves). Two from the same spell do not stack.
    RollDice {
        /// How many dice.
        count: u16,
        /// Their sides.
        sides: u16,
        /// Taken away instead of added (Bane).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        penalty: bool,
        /// On attack rolls.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        attacks: bool,
        /// On saving throws.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        saves: bool,
        /// On ability checks (Guidance).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        checks: bool,
        /// Once: the first roll it counts on spends it and ends the effect (Guidance,
        /// Resistance: "add a d4 to one ability check ..., then the spell ends").
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        next_only: bool,
    },
    /// Marked by its source (Hunter's Mark): each of the source's weapon hits against it
    /// deals `count`d`sides` more, of the weapon's damage type (`effects::mark_damage`).
    Marked {
        /// How many dice.
        count: u16,
        /// Their sides.
        sides: u16,
    },
    /// A spectral weapon its creature wields (Spiritual Weapon, on its caster): a bonus action
    /// on a later turn repeats the spell's attack, cast at `slot`, from `at` (where it last
    /// struck; `None` where the fight keeps no positions) moved up to 20 ft.
    SpellWeapon {
        /// The slot the spell was cast with (its damage).
        slot: u8,
        /// Where the weapon hovers.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<super::Position>,
    },
    /// A condition its creature gets out of by its own doing, added and lifted with the effect:
    /// an action and a check (Web: Strength against the caster's DC, `escape`), or its own
    /// attack or spell (Invisibility, `ends_on_acting`), or the duration.
    ConditionUntil {
        /// The condition.
        condition: Condition,
        /// The check an action makes to end it, and its DC.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        escape: Option<RepeatSave>,
        /// Its creature's attack or spell ends it.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        ends_on_acting: bool,
    },
    /// A condition, added with the effect and lifted with it (Hold Person's paralysis,
    /// Sleep's unconsciousness).
    Condition {
        /// The condition.
        condition: Condition,
        /// A save repeated at the end of each of the creature's turns; a success ends it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        repeat_save: Option<RepeatSave>,
    },
    /// Advantage (or disadvantage) on some of the creature's rolls, or on attacks against it
    /// (Faerie Fire, Blur, Vicious Mockery); read by `combat::effects` alone.
    Advantage {
        /// Which rolls.
        on: RollOn,
        /// Only saves or checks of this ability (Haste: Dexterity saves).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ability: Option<Ability>,
        /// Disadvantage instead.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        disadvantage: bool,
        /// Ends with the first roll it counts on (Vicious Mockery's next attack).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        next_only: bool,
        /// Only between the creature and its source: on attacks against it, its source's (True
        /// Strike); on its attacks, those against its source (Bestow Curse).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        source_only: bool,
    },
    /// A change to the creature's speed (Ray of Frost -10 ft, Longstrider +10 ft, Haste
    /// doubled, Slow halved, Hypnotic Pattern 0): read by [`speed_with`](super::speed_with).
    Speed {
        /// The change.
        #[serde(flatten)]
        change: SpeedChange,
    },
    /// The creature regains no hit points (Chill Touch): `Change::Heal` heals it by 0.
    NoHealing,
    /// Resistance to some damage types (Protection from Poison): read by [`resistances_with`](super::resistances_with).
    Resistance {
        /// The types.
        damage_types: DamageTypes,
    },
    /// Weapons of these names empowered (Shillelagh): magical, a d`sides` damage die, and
    /// `modifier` (the caster's spellcasting modifier, fixed as cast) for attack and damage
    /// where it beats the weapon's own; read by `effects::empowered`.
    EmpoweredWeapon {
        /// The weapons, by name.
        weapons: Vec<String>,
        /// The damage die's sides.
        sides: u16,
        /// The ability modifier it attacks with.
        modifier: i32,
    },
    /// The hit point maximum and current hit points raised by `amount` while it lasts (Aid);
    /// `timed_hp.rs` raises them as it starts and takes the maximum back as it ends.
    MaxHpRaised {
        /// By how much.
        amount: u32,
    },
    /// Warded against creatures of these types (Protection from Evil and Good): their attacks
    /// against it have disadvantage; read by `effects::attack_advantage`.
    Ward {
        /// The types ("undead", "fiend").
        creature_types: Vec<String>,
    },
    /// A bonus to attack and damage rolls with the creature's nonmagical weapons, which count as
    /// magical (Magic Weapon +1 to +3): read by `effects::spell_weapon_plus`.
    WeaponPlus {
        /// The bonus.
        bonus: i32,
    },
    /// Extra damage dice on the creature's weapon hits (Divine Favor 1d4 radiant; Branding
    /// Smite 2d6 on the next hit only): read by [`weapon_damage`](super::weapon_damage).
    WeaponDamage {
        /// How many dice.
        count: u16,
        /// Their sides.
        sides: u16,
        /// Their damage type.
        damage_type: DamageType,
        /// Ends with the first hit it adds to.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        next_hit_only: bool,
        /// Only on the hits of this weapon (as named on the sheet), which counts as magical
        /// meanwhile: a coating (the Hearthfire Oil). `None`: every weapon hit.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        weapon: Option<String>,
    },
    /// An area that lasts, kept on its caster (Moonbeam, Spirit Guardians, Web, Call
    /// Lightning): where it is and whom it was fixed on; what it does and when are its spell's
    /// data, read by `effects::zones`.
    Zone(Box<ZoneKept>),
    /// The spell that keeps a summoned creature (`state::summons`): when it ends (its
    /// concentration, its duration), the creature is gone.
    Summoned,
    /// A speed to fly with (Fly 60 ft; Gaseous Form 10 ft, its only speed), or, at 0 ft, held in
    /// the air without one (Levitate): read by `timed_aloft.rs`, which also brings the creature
    /// down to the floor as the last one ends.
    Flying {
        /// The flying speed.
        feet: u32,
        /// Its only speed: the walking speed is replaced, not raised.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        only: bool,
    },
    /// An explosive rune its caster inscribed on an area of a room (Glyph of Warding), kept on
    /// the caster until it bursts or is dispelled: read by `effects::glyph`.
    Glyph(Box<GlyphKept>),
    /// The creature cannot attack or cast spells (Gaseous Form): read by [`bars_attacks`](super::bars_attacks).
    CannotAttackOrCast,
    /// The creature is inside stone (Meld into Stone): nothing can target it; read by
    /// [`melded`](super::melded), and ended by its own move.
    Melded,
    /// Resistance to every damage type from nonmagical attacks (Gaseous Form): read by
    /// [`nonmagical_resistances_with`](super::nonmagical_resistances_with).
    NonmagicalResistance,
    /// Sanctuary: another creature attacking it, or naming it for a harmful spell, first makes
    /// a Wisdom save against `dc` (its caster's, as cast), losing the attack or spell on a
    /// failure; read by `effects::sanctuary_on`.
    Sanctuary {
        /// The save's DC.
        dc: i32,
    },
    /// Mirror Image's duplicates: `left` of them (1 to 3), each of AC `armor_class` (10 + the
    /// caster's Dexterity modifier, as cast); read by `effects::images_of`.
    MirrorImages {
        /// Duplicates left.
        left: u8,
        /// A duplicate's AC.
        armor_class: i32,
    },
    /// Grown (or shrunk) by Enlarge/Reduce: 1d4 more (or less, at least 1) on its weapon hits;
    /// read by `effects::size_damage`.
    SizeChanged {
        /// Enlarged; otherwise reduced.
        enlarged: bool,
    },
    /// Warding Bond: +1 on its saving throws (`effects::roll_bonus`), and its source takes the
    /// same damage it takes (`effects::bond_damage`).
    Bonded,
    /// A flat bonus to checks of one skill (Pass without Trace: +10 Stealth): read by
    /// `effects::skill_bonus`.
    SkillBonus {
        /// The skill.
        skill: crate::rules::Skill,
        /// The bonus.
        bonus: i32,
    },
    /// Blink: a d20 at the end of each of its turns, 11 or more sending it to the Ethereal
    /// Plane (`ethereal`) until the start of its next turn; read by `effects::ethereal`.
    Blinking {
        /// On the Ethereal Plane now.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        ethereal: bool,
    },
    /// A natural weapon it has grown (Alter Self): an attack by `name`, 1d`sides` of
    /// `damage_type`, magical, `bonus` to attack and damage; read by `effects::natural_weapon`.
    NaturalWeapon {
        /// The attack's name.
        name: String,
        /// The damage die's sides.
        sides: u16,
        /// The bonus to attack and damage.
        bonus: i32,
        /// The damage type.
        damage_type: DamageType,
    },
    /// Inside a Silence: immune to thunder damage, no spells with a verbal component; read by
    /// `effects::silence_immunities` and `effects::silenced`.
    Silenced,
    /// The creature can take no reactions (Open Hand Technique, until the end of the monk's
    /// next turn): read by `combat::may_act`.
    NoReactions,
    /// A druid in a beast's shape (Wild Shape): the beast's body on the sheet while it lasts,
    /// the druid's kept here and given back as it ends (`state::timed_shape`).
    WildShape(Box<super::timed_shape::ShapeKept>),
    /// Turned by its source's Channel Divinity (Turn Undead, Turn the Unholy): it moves away
    /// from its source, takes no reactions and acts only to Dash (or Dodge where it cannot get
    /// away); ends on damage. Read by `state::turned_by` (the gate and the monster's turn).
    Turned,
    /// A Divine Smite readied: the creature's next melee weapon hit spends a spell slot of
    /// `slot` level for radiant dice (`character::divine::smite_dice`); a miss spends nothing.
    SmiteReady {
        /// The slot's level.
        slot: u8,
    },
    /// A weapon blessed (Sacred Weapon): `bonus` to attack rolls with it, and it counts as
    /// magical; read by `state::blessed_weapon_bonus`.
    BlessedWeapon {
        /// The weapon, by name on the sheet.
        weapon: String,
        /// The bonus to attack rolls.
        bonus: i32,
    },
    /// A barbarian's Rage (`state::rage`, `character::barbarian`): `damage` more on its melee
    /// weapon hits with Strength, no spellcasting; its companions named "Rage" give the
    /// resistance and the advantage on Strength checks and saves. It ends early when its
    /// creature is knocked unconscious, or a turn of its ends without its having attacked or
    /// taken damage since its last (`kept_up`); a frenzied rage leaves a level of exhaustion.
    Raging {
        /// The rage damage (the class table's, at the level it began).
        damage: i32,
        /// Attacked or took damage since the start of its creature's current turn.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        kept_up: bool,
        /// A Berserker's frenzy: a bonus-action melee attack each turn, exhaustion after.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        frenzied: bool,
    },
    /// Reckless Attack: advantage on its melee weapon attacks using Strength this turn; read by
    /// `character::barbarian::attack_sources` (attacks against it are a companion
    /// `Advantage` on `AttacksAgainst`).
    Reckless,
    /// A once-a-turn feature spent this turn (Colossus Slayer): nothing but the record, ended
    /// with its source's turn; read by `character::ranger`.
    UsedThisTurn,
    /// A Bardic Inspiration die its creature holds: rolled and added to the first of its attack
    /// rolls, checks or saves that fails by no more than the die's largest face, then spent
    /// (`effects::inspire_check`, `effects::inspire_attack`).
    Inspired {
        /// The die's sides.
        sides: u16,
    },
    /// A weapon attack its creature made this turn (Horde Breaker follows one): at whom, with
    /// what; nothing but the record, ended with its source's turn; read by
    /// `character::ranger::struck_this_turn`.
    Struck {
        /// The creature attacked, by id.
        at: String,
        /// The weapon, by name on the sheet.
        weapon: String,
    },
}

fn is_zero(n: &i32) -> bool {
    *n == 0
}

/// A change to a creature's speed, as a spell gives it (`effects::Effect::Speed`) and as it
/// lasts on the creature (`TimedKind::Speed`): feet added, then halved, doubled, or 0.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpeedChange {
    /// Feet added (negative: taken away).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub feet: i32,
    /// Halved.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub halved: bool,
    /// Doubled.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub doubled: bool,
    /// Speed 0.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stopped: bool,
}

impl SpeedChange {
    /// Whether it changes anything.
    pub fn is_some(&self) -> bool {
        self.feet != 0 || self.halved || self.doubled || self.stopped
    }
}

/// Which rolls a [`TimedKind::Advantage`] is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RollOn {
    /// The creature's attack rolls.
    Attacks,
    /// Attack rolls against the creature.
    AttacksAgainst,
    /// The creature's saving throws.
    Saves,
    /// The creature's ability checks.
    Checks,
}

/// A save a creature repeats against a timed effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RepeatSave {
    /// The ability.
    pub ability: Ability,
    /// The DC (the caster's, when it was cast).
    pub dc: i32,
}

impl TimedKind {
    /// The area kept, for a [`TimedKind::Zone`].
    pub fn zone(&self) -> Option<&ZoneKept> {
        match self {
            TimedKind::Zone(z) => Some(z),
            _ => None,
        }
    }

    /// The area kept, to change, for a [`TimedKind::Zone`].
    pub fn zone_mut(&mut self) -> Option<&mut ZoneKept> {
        match self {
            TimedKind::Zone(z) => Some(z),
            _ => None,
        }
    }

    /// The glyph, for a [`TimedKind::Glyph`].
    pub fn glyph(&self) -> Option<&GlyphKept> {
        match self {
            TimedKind::Glyph(g) => Some(g),
            _ => None,
        }
    }
}

/// An area that lasts, kept on its caster ([`TimedKind::Zone`], boxed: most timed effects are
/// far smaller, and every `Change` and outcome that carries one is as large as the largest).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ZoneKept {
    /// The slot the spell was cast with (its damage).
    pub slot: u8,
    /// Its centre; `None` on its caster (Spirit Guardians) or where no positions are kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<super::Position>,
    /// The creatures (ids) it was fixed on: who it catches where no positions are kept, and
    /// Heat Metal's holder.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub on: Vec<String>,
    /// The creatures (ids) it caught on entering or starting a turn during the fight's turn
    /// `caught_in` (round, turn index): each is caught so only the first time on a turn.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub caught: Vec<String>,
    /// The turn `caught` is for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caught_in: Option<(u32, usize)>,
}

/// A glyph inscribed on an area ([`TimedKind::Glyph`], boxed like [`ZoneKept`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GlyphKept {
    /// The location.
    pub location: String,
    /// The area warded (its id).
    pub area: String,
    /// The burst's save and its DC.
    pub save: RepeatSave,
    /// How many dice.
    pub count: u16,
    /// Their sides.
    pub sides: u16,
    /// Their damage type.
    pub damage_type: DamageType,
    /// The burst's radius, from the area's point.
    pub radius_ft: u32,
}

/// Which rolls [`roll_dice_on`](super::roll_dice_on) is asked about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RollKind {
    /// An attack roll.
    Attack,
    /// A saving throw.
    Save,
    /// An ability check.
    Check,
}

impl TimedKind {
    /// Refuses a kind that would do nothing or cannot be read: no dice, no damage type, no
    /// change of speed, an ability on attack rolls.
    pub(super) fn check(&self) -> Result<(), ChangeError> {
        let wrong = match self {
            TimedKind::RollDice { count, sides, .. }
            | TimedKind::WeaponDamage { count, sides, .. } => {
                (*count == 0 || *sides == 0).then_some("its dice need a count and sides")
            }
            TimedKind::MaxHpRaised { amount } => {
                (*amount == 0).then_some("a raised maximum adds at least 1")
            }
            TimedKind::EmpoweredWeapon { weapons, sides, .. } => (weapons.is_empty()
                || *sides == 0)
                .then_some("an empowered weapon names a weapon and a die"),
            TimedKind::Ward { creature_types } => creature_types
                .is_empty()
                .then_some("a ward names at least one creature type"),
            TimedKind::WeaponPlus { bonus } => {
                (!(1..=3).contains(bonus)).then_some("a weapon's magic bonus is +1 to +3")
            }
            TimedKind::NaturalWeapon { name, sides, .. } => (name.trim().is_empty() || *sides == 0)
                .then_some("a natural weapon has a name and a die"),
            TimedKind::SkillBonus { bonus, .. } => {
                (*bonus == 0).then_some("a skill bonus adds something")
            }
            TimedKind::MirrorImages { left, .. } => {
                (!(1..=3).contains(left)).then_some("Mirror Image keeps 1 to 3 duplicates")
            }
            TimedKind::Resistance { damage_types } => damage_types
                .is_empty()
                .then_some("a resistance names at least one damage type"),
            TimedKind::Speed { change } => {
                (!change.is_some()).then_some("a speed change adds feet, halves, doubles or stops")
            }
            TimedKind::Advantage {
                on: RollOn::Attacks | RollOn::AttacksAgainst,
                ability: Some(_),
                ..
            } => Some("an ability narrows only saves and checks, not attack rolls"),
            TimedKind::Advantage {
                on: RollOn::Saves | RollOn::Checks,
                source_only: true,
                ..
            } => Some("only attack rolls can count between a creature and the source alone"),
            _ => None,
        };
        match wrong {
            Some(why) => Err(ChangeError::Invalid(format!(
                "this timed effect does nothing as given: {why}"
            ))),
            None => Ok(()),
        }
    }
}
