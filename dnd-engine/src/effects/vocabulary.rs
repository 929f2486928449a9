//! The vocabulary: what a spell (later a feature, an item, a trap, a monster's action) does, as
//! plain data. The bundled spells carry a list of these (`srd::Spell::effects`); the
//! interpreter ([`super::resolve`]) is the one place they mean anything.
//!
//! In JSON each effect is an object tagged by `"effect"`:
//!
//! ```
//! use dnd_engine::effects::Effect;
//!
//! let hold: Vec<Effect> = serde_json::from_str(r#"[
//!   {"effect": "only_creature_type", "creature_type": "humanoid"},
//!   {"effect": "save", "ability": "wisdom", "on_fail": [
//!     {"effect": "condition", "condition": "paralyzed", "duration": {"minutes": 1},
//!      "repeat_save": true}
//!   ]}
//! ]"#).unwrap();
//! assert_eq!(hold.len(), 2);
//! ```

use serde::{Deserialize, Serialize};

use crate::rules::{Ability, Condition, DamageType, DamageTypes};
use crate::srd::OnSave;
use crate::state::{RollOn, SpeedChange};

/// One thing an effect list does. Effects apply to each target of the casting in turn;
/// `spell_attack` and `save` wrap what follows a hit, a failure or a success.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "effect", rename_all = "snake_case")]
pub enum Effect {
    /// A spell attack against each target; `on_hit` applies on a hit (damage dice doubled on
    /// a critical hit).
    SpellAttack {
        /// A melee spell attack (Shocking Grasp, Inflict Wounds); otherwise ranged.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        melee: bool,
        /// What a hit does.
        on_hit: Vec<Effect>,
    },
    /// A saving throw by each target against the caster's spell save DC (or `dc`).
    Save {
        /// The ability that saves.
        ability: Ability,
        /// A DC of its own, instead of the caster's.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        dc: Option<i32>,
        /// What a success does to the damage in `on_fail`: half, or none (the default); the
        /// other effects of `on_fail` never apply on a success.
        #[serde(default = "no_damage", skip_serializing_if = "is_no_damage")]
        on_success: OnSave,
        /// Cover does not help this save (Sacred Flame).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        ignores_cover: bool,
        /// What a failure does.
        on_fail: Vec<Effect>,
    },
    /// Damage, rolled once for the casting and dealt to each target through its defenses.
    Damage {
        /// The dice.
        dice: Dice,
        /// The damage type.
        damage_type: DamageType,
    },
    /// Healing, rolled once and given to each target.
    Heal {
        /// The dice.
        dice: Dice,
    },
    /// Temporary hit points, rolled once and given to each target.
    TemporaryHp {
        /// The dice.
        dice: Dice,
    },
    /// Darts that hit without a roll (Magic Missile): `count`, and `per_slot_level` more for
    /// each slot level above the spell's; the targets named take them in turn (a creature may
    /// be named again), each dart rolled on its own.
    Darts {
        /// Darts at the spell's level.
        count: u8,
        /// More darts per slot level above.
        #[serde(default)]
        per_slot_level: u8,
        /// Each dart's damage.
        dice: Dice,
        /// The damage type.
        damage_type: DamageType,
    },
    /// A pool of hit points (Sleep): rolled, then the targets in order of current hit points,
    /// lowest first, each gain `condition` if their hit points fit in what is left of the
    /// pool (which they use up). Creatures already with the condition, at 0 hit points, of a
    /// type in `spares`, or immune to `immune_if_immune_to` are passed over.
    HpPool {
        /// The pool's dice.
        dice: Dice,
        /// What befalls each creature the pool covers.
        condition: Condition,
        /// For how long.
        duration: Duration,
        /// Creature types it spares ("undead").
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        spares: Vec<String>,
        /// A condition whose immunity spares a creature (Sleep: charmed).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        immune_if_immune_to: Option<Condition>,
        /// Damage ends it (Sleep).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        ends_on_damage: bool,
    },
    /// A condition for a while. Inside a `save`, `repeat_save` has the creature repeat that
    /// save at the end of each of its turns, a success ending it (Hold Person).
    Condition {
        /// The condition.
        condition: Condition,
        /// For how long.
        duration: Duration,
        /// Repeat the enclosing save at the end of each of its turns.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        repeat_save: bool,
        /// Damage ends it.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        ends_on_damage: bool,
    },
    /// A change to AC for a while.
    ArmorClass {
        /// Which change.
        change: ArmorChange,
        /// For how long.
        duration: Duration,
    },
    /// Dice added to (or taken from) a creature's rolls for a while (Bless, Bane: 1d4 on
    /// attack rolls and saving throws).
    RollDice {
        /// The dice (count and sides; no bonus).
        dice: Dice,
        /// Taken away instead of added.
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
        /// Once: spent by the first roll it counts on, which ends it (Guidance, Resistance).
        /// The SRD loader sets it where the description ends the spell after one roll.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        next_only: bool,
        /// For how long.
        duration: Duration,
    },
    /// Advantage (or disadvantage) for a while on some of the creature's rolls or on attack
    /// rolls against it: Faerie Fire (attacks against), Blur (disadvantage on attacks
    /// against), Vicious Mockery (disadvantage on its next attack), Guiding Bolt (advantage on the
    /// next attack against it, until the end of the caster's next turn), Haste (Dexterity saves).
    Advantage {
        /// Which rolls.
        on: RollOn,
        /// Only saves or checks of this ability.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ability: Option<Ability>,
        /// Disadvantage instead.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        disadvantage: bool,
        /// Spent by the first roll it counts on.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        next_only: bool,
        /// Only between the creature and the caster: on attacks against it, the caster's (True
        /// Strike); on its attacks, those against the caster (Bestow Curse).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        source_only: bool,
        /// For how long.
        duration: Duration,
    },
    /// A change to speed for a while: feet added (Ray of Frost -10, Longstrider +10), halved
    /// (Slow), doubled (Haste) or 0 (Hypnotic Pattern).
    Speed {
        /// The change.
        #[serde(flatten)]
        change: SpeedChange,
        /// Damage ends it (Hypnotic Pattern's daze).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        ends_on_damage: bool,
        /// For how long.
        duration: Duration,
    },
    /// The creature regains no hit points for a while (Chill Touch).
    NoHealing {
        /// For how long.
        duration: Duration,
    },
    /// Extra dice on the creature's weapon hits for a while (Divine Favor 1d4 radiant), or on
    /// its next weapon hit only (Branding Smite 2d6 radiant), or on the hits of one weapon (an
    /// oil's coating, `weapon` named as it is used). The dice are fixed as it is cast.
    WeaponDamage {
        /// The dice (no bonus).
        dice: Dice,
        /// Their damage type.
        damage_type: DamageType,
        /// Spent by the first hit.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        next_hit_only: bool,
        /// A coating on one weapon (an oil): the user names the weapon as it is used, only its
        /// hits get the dice, and it counts as magical meanwhile. Refused without `weapon`.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        coating: bool,
        /// The weapon coated, as named on the sheet ("Greatsword"), filled in by the use.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        weapon: Option<String>,
        /// For how long.
        duration: Duration,
    },
    /// Ends the first of `conditions` the creature has (Lesser Restoration: blinded, deafened,
    /// paralyzed or poisoned), with the timed effects that impose it.
    EndCondition {
        /// The conditions it may end, in the order tried.
        conditions: Vec<Condition>,
    },
    /// A character at 0 hit points, not dead, becomes stable (Spare the Dying).
    Stabilize,
    /// A condition with no duration of its own, kept until what ends it by the rules (Grease
    /// and Hideous Laughter knock a creature prone: it stays prone until it stands up).
    AddCondition {
        /// The condition.
        condition: Condition,
    },
    /// All targets must stand within `feet` of each other (Hold Person cast with a higher
    /// slot: 30 ft), where the fight keeps positions: the casting is refused otherwise.
    TargetsWithin {
        /// The greatest distance between two targets.
        feet: u32,
    },
    /// The target marked by the caster for a while (Hunter's Mark): each of the caster's
    /// weapon hits against it deals `dice` more, of the weapon's damage type.
    Mark {
        /// The extra dice (count and sides).
        dice: Dice,
        /// For how long.
        duration: Duration,
        /// Longer with a higher slot (Hunter's Mark: 8 hours from a 3rd-level slot, 24 from a
        /// 5th): the last whose `from_slot` the casting's slot reaches counts.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        by_slot: Vec<SlotDuration>,
    },
    /// The caster keeps a spectral weapon for a while (Spiritual Weapon): where the casting's
    /// attack struck, and on later turns a bonus action moves it up to 20 ft and repeats the
    /// spell's attack at a creature within 5 ft of it (`roll_attack` naming the spell).
    SpellWeapon {
        /// For how long.
        duration: Duration,
        /// Held in the caster's hand (Flame Blade): the casting makes no attack; on this or a
        /// later turn the caster's action repeats the spell's attack at a creature within 5 ft
        /// of the caster.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        held: bool,
    },
    /// A condition for a while that the creature gets out of by its own doing: `escape`, an
    /// action and a check of that ability against the caster's spell save DC (Web: Strength);
    /// `ends_on_acting`, its own attack or spell (Invisibility).
    ConditionUntil {
        /// The condition.
        condition: Condition,
        /// For how long at most.
        duration: Duration,
        /// The ability of the check an action makes to break free.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        escape: Option<Ability>,
        /// Ends when the creature attacks or casts a spell.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        ends_on_acting: bool,
    },
    /// The target's timed effects from spells end (Dispel Magic): each spell cast with a slot
    /// of `automatic_up_to` or lower (or of the slot this casting uses, if higher) at once; a
    /// higher one when the caster's spellcasting ability check meets 10 + its level.
    Dispel {
        /// The highest level ended without a check.
        automatic_up_to: u8,
    },
    /// A spell a creature is casting fails (Counterspell, cast as a reaction: `counter.rs`):
    /// one of `automatic_up_to` or lower (or of the slot this casting uses, if higher) at
    /// once; a higher one when the caster's spellcasting ability check meets 10 + its level.
    Counter {
        /// The highest level stopped without a check.
        automatic_up_to: u8,
    },
    /// A dead character returns to life with 1 hit point, if it died at most `within_rounds`
    /// ago (Revivify: 10, a minute); the casting is refused for anyone else.
    Revive {
        /// How long ago it may have died, in rounds.
        within_rounds: u32,
    },
    /// A target pushed `feet` straight away from the caster along the floor (Thunderwave, on a
    /// failed save: 10 ft), cut short at the room's edge; only where the fight keeps positions.
    Push {
        /// How far.
        feet: u32,
    },
    /// Every target must be of this creature type (Hold Person: "humanoid"; characters are
    /// humanoids): the casting is refused otherwise, before anything is rolled or spent.
    OnlyCreatureType {
        /// The type, as the stat blocks begin it.
        creature_type: String,
    },
    /// Resistance to damage types: for `duration` (Protection from Poison for an hour, the
    /// Flask of Warmth's cold and necrotic for a minute), or, without one, for as long as an
    /// item is carried (the Rimeheart Amulet's cold).
    Resistance {
        /// The damage types resisted.
        damage_types: DamageTypes,
        /// For how long; `None`: while the item is carried.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        duration: Option<Duration>,
    },
    /// While carried: the weapon the item is (its name without the "+N") adds `bonus` to its
    /// attack and damage rolls, and its attacks are magical (a +1 longsword).
    MagicWeapon {
        /// +1, +2 or +3.
        bonus: i32,
    },
    /// While carried: `bonus` more AC (+1 chain mail, a +2 shield); of several magic armours the
    /// best counts, and of several shields the best.
    MagicArmor {
        /// +1, +2 or +3.
        bonus: i32,
        /// A shield (which adds beside the armour) rather than armour.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        shield: bool,
    },

    /// A wielder's nonmagical weapons made magical for a while (Magic Weapon): `bonus` to their
    /// attack and damage rolls, one more for each `slot_levels_per_step` slot levels above the
    /// spell's, `most` at most (`effects/enchant.rs`). A weapon already magical gains nothing.
    WeaponPlus {
        /// The bonus at the spell's level.
        bonus: i32,
        /// Slot levels above the spell's that make one more (Magic Weapon: 2).
        #[serde(default = "one", skip_serializing_if = "is_one")]
        slot_levels_per_step: u8,
        /// The highest bonus (Magic Weapon: +3).
        most: i32,
        /// For how long.
        duration: Duration,
    },

    /// The wielder's weapons of these names empowered for a while (Shillelagh: a club or a
    /// quarterstaff): magical, a damage die of `sides`, and the caster's spellcasting modifier
    /// for attack and damage where it beats the weapon's own (`effects/enchant.rs`).
    EmpowerWeapon {
        /// The weapons, by name ("Club", "Quarterstaff").
        weapons: Vec<String>,
        /// The damage die's sides (Shillelagh: 8).
        sides: u16,
        /// For how long.
        duration: Duration,
    },
    /// The hit point maximum and current hit points raised for a while (Aid: 5, and 5 more
    /// per slot level above; `effects/enchant.rs`); the maximum drops back as it ends.
    RaiseMaxHp {
        /// By how much at the spell's level.
        amount: u32,
        /// More per slot level above.
        #[serde(default)]
        per_slot_level: u32,
        /// For how long.
        duration: Duration,
    },
    /// A choice the caster makes as it casts (Protection from Energy's damage type): the
    /// option `cast_spell`'s `choice` names stands in for this (`effects/choice.rs`).
    OneOf {
        /// The options, by name.
        options: Vec<super::choice::Choice>,
    },
    /// A ward for a while (Protection from Evil and Good): attacks against the creature by
    /// creatures of these types have disadvantage (`effects/ward.rs`).
    Ward {
        /// The types, as the stat blocks begin them ("undead", "fiend").
        creature_types: Vec<String>,
        /// For how long.
        duration: Duration,
    },

    // Monsters' actions (`effects/riders.rs` applies these two).
    /// The target's hit point maximum drops by the damage it took from this action (the
    /// damage effects before it in the list, or the hit that carried it), until it finishes
    /// a long rest; a maximum of 0 kills (the specter's Life Drain).
    MaxHpReduction,
    /// Conditions that hold while the acting monster keeps the action going (a bonus action on
    /// each of its turns) and until the target succeeds on the enclosing save, repeated at the
    /// end of each of its turns (the harpy's Luring Song: charmed and incapacitated).
    Hold {
        /// The conditions.
        conditions: Vec<Condition>,
    },

    /// An area that lasts (Moonbeam, Spirit Guardians, Spike Growth, Web, Call Lightning,
    /// Flaming Sphere, Heat Metal): the casting keeps it on the caster, and the spell's other
    /// effects are what it does to a creature it catches, at the moments its rules name
    /// (`effects/zones.rs`).
    Zone(super::zones::ZoneRules),
    /// Creatures that come to fight on the caster's side (Conjure Animals, Animate Dead):
    /// read by `tools/spell_summons.rs` alone, never by the resolver.
    Summon(super::Summon),
    // Moving creatures and guarding places (`teleport.rs`, `aloft.rs`, `warding.rs`, `glyph.rs`).
    /// The caster reappears at the point `cast_spell`'s `point` names, up to `feet` away (Misty
    /// Step: 30), where positions are kept; no opportunity attacks.
    Teleport {
        /// How far at most.
        feet: u32,
    },
    /// A flying speed for a while (Fly: 60 ft; Gaseous Form: 10 ft, its only speed; Levitate: 0,
    /// held in the air): off the floor meanwhile, down to it as it ends.
    Flying {
        /// The flying speed.
        feet: u32,
        /// Its only speed (Gaseous Form): the walking speed is replaced, not raised.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        only: bool,
        /// For how long.
        duration: Duration,
    },
    /// The creature rises `feet` straight up at once (Levitate: 20), no higher than the room
    /// reaches, where the fight keeps positions.
    Lift {
        /// How far up.
        feet: u32,
    },
    /// An exit of the caster's room, named by `cast_spell`'s `aim`, is locked by magic (Arcane
    /// Lock): `dc_bonus` is added to the DC to pick or force it (`effects/warding.rs`).
    LockExit {
        /// Added to the lock's DC.
        dc_bonus: i32,
    },
    /// An explosive rune on the area of the room `aim` names (Glyph of Warding): a hostile
    /// creature moving in bursts it on everyone within `radius_ft` (a save for half).
    Glyph {
        /// The burst's dice (grown by the slot as inscribed).
        dice: Dice,
        /// Their damage type.
        damage_type: DamageType,
        /// The burst's radius.
        radius_ft: u32,
        /// The save.
        ability: Ability,
    },
    /// No attacks or spells for a while (Gaseous Form), refused at the turn's gate.
    CannotAttackOrCast {
        /// For how long.
        duration: Duration,
    },
    /// The caster inside stone for a while (Meld into Stone): nothing targets it (total cover);
    /// moving out ends it.
    Meld {
        /// For how long.
        duration: Duration,
    },
    /// Resistance to all damage from nonmagical attacks for a while (Gaseous Form).
    NonmagicalResistance {
        /// For how long.
        duration: Duration,
    },
    /// A ward for a while (Sanctuary): before another creature attacks the warded creature or
    /// names it for a harmful spell, that creature makes a Wisdom save against the caster's
    /// spell save DC, and on a failure the attack or the spell on it is lost; the ward ends
    /// when the warded creature attacks or casts a spell on an enemy (`effects/sanctuary.rs`).
    Sanctuary {
        /// For how long.
        duration: Duration,
    },
    /// Illusory duplicates of the caster for a while (Mirror Image: 3): an attack against it
    /// first rolls a d20 and strikes a duplicate instead on 6+ with three left, 8+ with two,
    /// 11+ with one; a duplicate has AC 10 + the caster's Dexterity modifier and a hit
    /// destroys it (`effects/images.rs`).
    MirrorImage {
        /// Duplicates at the start.
        images: u8,
        /// For how long.
        duration: Duration,
    },
    /// A save only an unwilling target makes (Enlarge/Reduce: Constitution): a creature on the
    /// caster's side takes `on_fail` without a roll; any other saves against the caster's spell
    /// save DC, a success sparing it everything (`effects/size.rs`).
    SaveIfUnwilling {
        /// The ability that saves.
        ability: Ability,
        /// Only creatures of this type are affected (Calm Emotions: "humanoid"); any other is
        /// passed over without a roll (characters are humanoids).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        creature_type: Option<String>,
        /// What a failure (or a willing creature) gets.
        on_fail: Vec<Effect>,
    },
    /// The creature grown or shrunk for a while (Enlarge/Reduce): its weapon hits deal 1d4 more,
    /// or 1d4 less (at least 1), read by `effects::size_damage`; the advantage on Strength
    /// checks and saves is the spell's own `advantage` effects.
    SizeChange {
        /// Enlarged; otherwise reduced.
        enlarged: bool,
        /// For how long.
        duration: Duration,
    },
    /// A bond between the caster and the creature for a while (Warding Bond): +1 on the
    /// creature's saving throws (`effects::roll_bonus`), and whenever it takes damage its
    /// caster takes the same (`effects::bond_damage`); the AC and the resistance are the
    /// spell's own `armor_class` and `resistance` effects.
    Bond {
        /// For how long.
        duration: Duration,
    },
    /// A flat bonus to checks of one skill for a while (Pass without Trace: +10 to Dexterity
    /// (Stealth) checks), read by `effects::skill_bonus` inside every skill modifier.
    SkillBonus {
        /// The skill.
        skill: crate::rules::Skill,
        /// The bonus.
        bonus: i32,
        /// For how long.
        duration: Duration,
    },
    /// The caster blinks for a while (Blink): at the end of each of its turns a d20, on 11 or
    /// more it vanishes to the Ethereal Plane until the start of its next turn, where it can
    /// neither be targeted nor target anyone (`effects/blink.rs`).
    Blink {
        /// For how long.
        duration: Duration,
    },
    /// Strong emotions calmed (Calm Emotions, inside its save): the effects charming or
    /// frightening the creature end, or, `indifferent`, a monster stops fighting (its morale
    /// becomes surrendered, which an attack on it ends) (`effects/warding.rs`).
    Calm {
        /// Made indifferent rather than freed of charm and fear.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        indifferent: bool,
    },
    /// A natural weapon the creature grows for a while (Alter Self's claws): a melee attack
    /// by `name` with Strength and proficiency, 1d`sides` + Strength of `damage_type`, magical,
    /// `bonus` more to attack and damage; read by `effects::natural_weapon` (`effects/size.rs`).
    NaturalWeapon {
        /// The attack's name ("Claws").
        name: String,
        /// The damage die's sides (6).
        sides: u16,
        /// The bonus to attack and damage (+1).
        bonus: i32,
        /// The damage type.
        damage_type: DamageType,
        /// For how long.
        duration: Duration,
    },
    /// Silenced for a while (Silence, on each creature inside its sphere as cast): immune to
    /// thunder damage and unable to cast spells with a verbal component (`effects/silence.rs`).
    Silence {
        /// For how long.
        duration: Duration,
    },
}

fn no_damage() -> OnSave {
    OnSave::None
}

fn is_no_damage(on: &OnSave) -> bool {
    *on == OnSave::None
}

/// Dice of an effect: `count`d`sides` + `bonus` (+ the caster's spellcasting modifier), with
/// `per_slot_level` more dice (and `bonus_per_slot_level` more bonus) for each slot level above
/// the spell's, or, for a cantrip
/// (`by_tier`), the count times the caster's tier (×2 at level 5, ×3 at 11, ×4 at 17).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dice {
    /// Number of dice at the spell's level.
    pub count: u16,
    /// Their sides.
    pub sides: u16,
    /// A flat bonus.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub bonus: i32,
    /// Add the caster's spellcasting ability modifier.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub add_modifier: bool,
    /// More dice per slot level above the spell's.
    #[serde(default, skip_serializing_if = "is_zero_u16")]
    pub per_slot_level: u16,
    /// How many slot levels above the spell's make one step of `per_slot_level` dice
    /// (Spiritual Weapon: 2, "+1d8 for every two slot levels above 2nd"); 1 when absent.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub slot_levels_per_step: u8,
    /// More flat bonus per slot level above the spell's (False Life: 5).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub bonus_per_slot_level: i32,
    /// A cantrip's dice grow with the caster's level.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub by_tier: bool,
}

fn one() -> u8 {
    1
}

fn is_one(n: &u8) -> bool {
    *n == 1
}

fn is_zero(n: &i32) -> bool {
    *n == 0
}

fn is_zero_u16(n: &u16) -> bool {
    *n == 0
}

impl Dice {
    /// `count`d`sides`, the same at every level (an oil's, a potion's).
    pub const fn flat(count: u16, sides: u16) -> Dice {
        Dice {
            count,
            sides,
            bonus: 0,
            add_modifier: false,
            per_slot_level: 0,
            slot_levels_per_step: 1,
            bonus_per_slot_level: 0,
            by_tier: false,
        }
    }

    /// The dice cast at `slot` for a spell of `level` by a caster of `caster_level` whose
    /// spellcasting modifier is `modifier`: (count, sides, bonus).
    pub fn at(&self, level: u8, slot: u8, caster_level: u8, modifier: i32) -> (u16, u16, i32) {
        let above = u16::from(slot.saturating_sub(level));
        let tier = match caster_level {
            17.. => 4,
            11.. => 3,
            5.. => 2,
            _ => 1,
        };
        let count = if self.by_tier {
            self.count * tier
        } else {
            let steps = above / u16::from(self.slot_levels_per_step.max(1));
            self.count + self.per_slot_level * steps
        };
        let bonus = self.bonus
            + self.bonus_per_slot_level * i32::from(above)
            + if self.add_modifier { modifier } else { 0 };
        (count, self.sides, bonus)
    }
}

/// A change to AC.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ArmorChange {
    /// A base AC of this plus the creature's Dexterity modifier (Mage Armor: 13).
    BasePlusDexterity(i32),
    /// A bonus (Shield of Faith +2, Shield +5; a penalty when negative, Slow -2).
    Bonus(i32),
    /// AC no lower than this, whatever is worn (Barkskin: 16).
    AtLeast(i32),
}

/// A longer duration from a slot level on (`Effect::Mark`'s `by_slot`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SlotDuration {
    /// The lowest slot that gives it.
    pub from_slot: u8,
    /// The duration.
    pub duration: Duration,
}

impl SlotDuration {
    /// The duration a casting at `slot` gets: the last of `by_slot` the slot reaches, else
    /// `base`.
    pub fn at(base: Duration, by_slot: &[SlotDuration], slot: u8) -> Duration {
        by_slot
            .iter()
            .rfind(|d| slot >= d.from_slot)
            .map_or(base, |d| d.duration)
    }
}

/// How long an effect lasts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Duration {
    /// Rounds of six seconds.
    Rounds(u32),
    /// Minutes (ten rounds each).
    Minutes(u32),
    /// Hours.
    Hours(u32),
    /// Until the start of the caster's next turn (Shield).
    UntilYourNextTurn,
    /// Until the end of the caster's next turn (Guiding Bolt's glimmer): counted at the end of
    /// the caster's turns, the one it is cast in and the next.
    UntilEndOfYourNextTurn,
    /// Until dispelled.
    UntilDispelled,
}

impl Duration {
    /// Whether its rounds count at the end of the caster's turns (`state::TimedEffect::at_turn_end`).
    pub fn at_turn_end(self) -> bool {
        self == Duration::UntilEndOfYourNextTurn
    }

    /// In rounds (counted down at the start of each of the caster's turns); `None` until
    /// dispelled.
    pub fn rounds(self) -> Option<u32> {
        match self {
            Duration::Rounds(n) => Some(n),
            Duration::Minutes(n) => Some(n.saturating_mul(10)),
            Duration::Hours(n) => Some(n.saturating_mul(600)),
            Duration::UntilYourNextTurn => Some(1),
            Duration::UntilEndOfYourNextTurn => Some(2),
            Duration::UntilDispelled => None,
        }
    }
}
