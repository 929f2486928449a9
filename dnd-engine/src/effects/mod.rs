//! The effects engine: what spells (and, as the issue goes on, features, items, traps and
//! monsters' actions) do, as data from one small vocabulary ([`Effect`]), resolved by one
//! interpreter ([`resolve`]).
//!
//! | file | owns |
//! |---|---|
//! | `vocabulary.rs` | [`Effect`] and its parts ([`Dice`], [`Duration`], [`ArmorChange`]): plain serde data, what `srd::Spell::effects` holds |
//! | `choice.rs` | [`Effect::OneOf`]: the caster's choice (Protection from Energy's type, Enhance Ability's enhancement), named strictly by `cast_spell`'s `choice` and swapped in by [`choose`] before [`resolve`], which refuses one left unmade |
//! | `enchant.rs` | [`Effect::WeaponPlus`] (Magic Weapon): the bonus a slot gives, the timed kind it starts, and [`spell_weapon_plus`], the one read of it (`Character::magic_weapon_bonus`) |
//! | `ward.rs` | [`Effect::Ward`] (Protection from Evil and Good): the disadvantage on attacks against the warded creature by the listed types, read inside [`attack_advantage`] |
//! | `acting.rs` | [`acting_ends`]: what a creature's own attack or spell ends (Invisibility) |
//! | `casting.rs` | what the interpreter takes ([`Caster`], [`Casting`], [`Subject`]) and gives ([`Resolution`], [`Outcome`], [`Why`], [`Refused`]) |
//! | `resolve.rs` | [`resolve`]: an effect list for a [`Casting`] on its [`Subject`]s against a `GameState` and an rng, giving a [`Resolution`] (changes, rolls, [`Outcome`]s); nothing committed |
//! | `lasting.rs` | the lasting kinds beyond AC, dice and conditions (advantage, speed, no healing, resistance, weapon damage and an oil's coating on one weapon, prone kept with its cause): the timed kind each starts, and [`attack_advantage`] / [`roll_advantage`], which `combat::effects` asks |
//! | `refusals.rs` | what refuses a casting before anything is rolled (a choice unmade, a creature type, targets apart, a revival too late, an oil on a weapon not carried, no target) |
//! | `pool.rs` | the effects that take all the subjects at once: darts shared out, an HP pool lowest first |
//! | `items.rs` | what items need: [`ItemData`] (what using and carrying an item does), the SRD's [`MagicItem`]s and the spell scroll's [`ScrollLevel`]s, the reads of what carried items add (AC, a weapon's bonus, resistances) |
//! | `legendary.rs` | Legendary Resistance: a monster's failed save turned into a success, so many a day, when the failure would do more than damage |
//! | `riders.rs` | what monsters' actions carry beyond damage, as the interpreter applies it: a maximum drained, a hold kept up |
//! | `magic.rs` | what ends or undoes magic: [`Effect::Dispel`] (Dispel Magic: a spell's timed effects on a creature, with a check above the automatic level), [`Effect::Revive`] (Revivify: refused for anyone but a character dead within its rounds) |
//! | `counter.rs` | [`Effect::Counter`] (Counterspell): whether a spell being cast fails, at the automatic level or by a check above it; cast in the reaction window of `tools/reactions.rs` |
//! | `marks.rs` | [`mark_damage`]: the dice a caster's weapon hit adds against a creature it marked ([`Effect::Mark`], Hunter's Mark) |
//! | `movement.rs` | [`Effect::Push`]: a creature pushed away from the caster (`combat::geometry::push_away`), where positions are kept |
//! | `weapon.rs` | [`Effect::SpellWeapon`]: the spectral weapon a caster keeps (Spiritual Weapon; Flame Blade's held in hand, `held`), where it hovers, and whether it reaches a creature on a later turn ([`weapon_reaches`]) |
//! | `spell_attack.rs` | the interpreter's spell attack: the roll against one creature with what changes it, and on a hit its damage and the rest of what the hit does |
//! | `summon.rs` | `Effect::Summon`'s vocabulary and its rule over numbers: which creature a summoning may bring and how many at a slot (read by `tools/spell_summons.rs`) |
//! | `teleport.rs` | [`Effect::Teleport`] (Misty Step): [`teleport`] checks the point `cast_spell` names against the room (inside, within reach, unoccupied, in sight, somewhere to stand) and gives the move, before the interpreter runs |
//! | `aloft.rs` | [`Effect::Flying`] (Fly, Gaseous Form; Levitate's hanging at 0 ft), [`Effect::Lift`] (Levitate's rise), [`Effect::CannotAttackOrCast`] and [`Effect::NonmagicalResistance`] (Gaseous Form), [`Effect::Meld`] (Meld into Stone); what flying does later is `state/timed_aloft.rs` |
//! | `warding.rs` | [`Effect::LockExit`] (Arcane Lock): [`lock_exit`] checks the exit `cast_spell`'s `aim` names in the caster's room and gives the `Change::ExitWarded` that locks it and raises its DC (read by `tools/locks.rs`) |
//! | `glyph.rs` | [`Effect::Glyph`] (Glyph of Warding): [`inscribe`] keeps the rune on an area of the room as a timed effect on its caster; [`set_off`] finds the glyphs a hostile creature's move into their area sets off, and [`burst`] says whom each catches and with what save (run by `tools/glyphs.rs` after a move) |
//! | `special.rs` | the interpreter's arm for those special effects (advantage granted, a condition until escaped or acted, a mark, dispel, revive, push), beside `resolve.rs` |
//! | `zones.rs` | [`Effect::Zone`]: an area that lasts (Moonbeam, Spirit Guardians, Spike Growth, Web, Call Lightning, Heat Metal), kept on its caster; whom it catches and when, and what its caster may do with it again ([`Again`]) |
//! | `sanctuary.rs` | [`Effect::Sanctuary`]: the Wisdom save before attacking a warded creature or naming it for a harmful spell ([`sanctuary_on`]), and what ends the ward ([`sanctuary_ends`]) |
//! | `images.rs` | [`Effect::MirrorImage`]: the duplicates an attack may strike instead ([`images_of`], [`image_threshold`], [`image_destroyed`]) |
//! | `size.rs` | [`Effect::SaveIfUnwilling`] (only a creature not on the caster's side saves: Enlarge/Reduce, Levitate, Calm Emotions) and [`Effect::SizeChange`] (Enlarge/Reduce: [`size_damage`]); [`Effect::NaturalWeapon`] (Alter Self: [`natural_weapon`]) |
//! | `bond.rs` | [`Effect::Bond`] (Warding Bond): +1 on saves inside [`roll_bonus`], the caster's share of the damage ([`bond_damage`]), the bond broken at 0 HP ([`bond_broken`]); [`Effect::SkillBonus`]'s flat bonus on a skill's checks ([`skill_bonus`], Pass without Trace) |
//! | `blink.rs` | [`Effect::Blink`]: the end-of-turn d20 to the Ethereal Plane ([`blinked`]), the return at the start of the turn ([`returned`]), and [`ethereal`] / [`apart`], the one read of who can be targeted |
//! | `silence.rs` | [`Effect::Silence`]: thunder immunity ([`silence_immunities`], inside `defenses_now`) and no verbal spells ([`silenced`]) for those inside as cast |
//! | `wards.rs` | the interpreter's arm for those, beside `resolve.rs` |
//! | `metamagic.rs` | a sorcerer's Metamagic inside the interpreter: Empowered Spell's rerolls of the lowest damage dice ([`resolve_empowered`], [`reroll_lowest`]); Careful Spell is [`Subject::careful`] |
//! | `inspired.rs` | a Bardic Inspiration die held (`TimedKind::Inspired`) added to the roll it can turn: a failed check or save ([`inspire_check`]) or a missed attack ([`inspire_attack`]) the die's largest face could still carry |
//! | `rolls.rs` | what timed effects do later: [`roll_bonus`] (Bless and Bane on attack rolls and saves; Guidance and Resistance on one roll, returned spent), [`end_of_turn_saves`] (Hold Person's repeated save) |
//!
//! What lasts is a `state::TimedEffect` on the creature, started and ended by `Change`s the
//! state checks; its duration, concentration and damage end it there (`state/timed.rs`).
//! Tools stay thin: `tools::spells` builds the subjects (range and cover from
//! `combat::targeting`), calls [`resolve`], commits, and runs damage's follow-up saves.

mod acting;
mod aloft;
mod blink;
mod bond;
mod casting;
mod choice;
mod counter;
mod enchant;
mod glyph;
mod images;
mod inspired;
mod items;
mod lasting;
mod legendary;
mod magic;
mod marks;
mod metamagic;
mod movement;
mod pool;
mod refusals;
mod resolve;
mod riders;
mod rolls;
mod sanctuary;
mod silence;
mod size;
mod special;
mod spell_attack;
mod summon;
mod teleport;
mod vocabulary;
mod ward;
mod warding;
mod wards;
mod weapon;
mod zones;

pub use acting::acting_ends;
pub use blink::{BLINK_AT_LEAST, apart, blinked, blinking, ethereal, returned};
pub use bond::{bond_broken, bond_damage, skill_bonus};
pub use casting::{Caster, Casting, Outcome, Refused, Resolution, Subject, Why};
pub use choice::{Choice, choose};
pub use counter::{Countered, counter, counters_up_to};
pub use enchant::{empowered, spell_weapon_plus};
pub use glyph::{burst, glyph_of, inscribe, set_off};
pub use images::{image_destroyed, image_threshold, images_of};
pub use inspired::{Inspired, inspire_attack, inspire_check};
pub use items::{
    ItemData, ItemKind, MagicItem, ScrollLevel, armor_bonus, carried_resistances, plus_bonus,
    scroll_check_dc, scroll_spell, weapon_bonus,
};
pub use lasting::{Lasting, attack_advantage, roll_advantage};
pub use legendary::LEGENDARY_RESISTANCE;
pub use marks::mark_damage;
pub use metamagic::{reroll_lowest, resolve_empowered};
pub use resolve::resolve;
pub use riders::resolve_hit;
pub use rolls::{Bonus, RepeatedSave, end_of_turn_saves, roll_bonus};
pub use sanctuary::{harmful, sanctuary_dc, sanctuary_ends, sanctuary_on};
pub use silence::{hushed, silence_immunities, silenced};
pub use size::{natural_weapon, size_damage};
pub use summon::{Command, Summon, SummonOption, SummonRefused, SummonScaling};
pub use teleport::{teleport, teleport_feet};
pub use vocabulary::{ArmorChange, Dice, Duration, Effect, SlotDuration};
pub use warding::{lock_bonus, lock_exit};
pub use weapon::{WEAPON_MOVE_FT, WEAPON_REACH_FT, weapon_of, weapon_reaches};
pub use zones::{
    Again, AgainDoes, ZoneRules, casting_effects, catches, caught_effects, difficult_feet,
    first_this_turn, may_move, start_zone, steps_inside, turn_now, updated, zone_of, zone_rules,
    zones,
};
