//! The interpreter: one list of [`Effect`]s, one caster, its targets, a state and an rng in;
//! the changes to commit, the rolls to record and a typed report out. Nothing is committed
//! here, so a refusal (or a change the state refuses) leaves everything as it was.

use super::casting::{Casting, Outcome, Refused, Resolution, Subject, Why};
use super::legendary::{self, LEGENDARY_RESISTANCE};
use super::rolls::{keep_spent, roll_bonus};
use super::vocabulary::{ArmorChange, Dice, Duration, Effect};
use crate::combat::targeting::save_bonus;
use crate::dice::DiceExpr;
use crate::dice::DieSource;
use crate::rules::attack::roll_damage;
use crate::rules::check::roll_check_with;
use crate::rules::conditions::{effective_defenses, save_modifiers};
use crate::rules::damage::DefenseApplied;
use crate::rules::{Ability, DamageDealt, DamageDice, DamageType, Defenses};
use crate::srd::OnSave;
use crate::state::{Change, GameState, RepeatSave, RollKind, Target, TimedEffect, TimedKind};
use crate::store::{RollDetail, RollRecord};

/// Resolves `effects` for `casting` on `subjects` (in the order named; a creature named twice
/// only for darts). Refuses an illegal target before anything is rolled.
pub fn resolve<R: DieSource + ?Sized>(
    state: &GameState,
    casting: Casting<'_>,
    subjects: &[Subject],
    effects: &[Effect],
    rng: &mut R,
) -> Result<Resolution, Refused> {
    resolve_with(state, casting, subjects, effects, 0, 0, rng)
}

/// [`resolve`] with the damage a hit dealt before (`riders.rs`) and Empowered Spell's
/// `rerolls` (`metamagic.rs`).
pub(super) fn resolve_with<R: DieSource + ?Sized>(
    state: &GameState,
    casting: Casting<'_>,
    subjects: &[Subject],
    effects: &[Effect],
    taken_before: u32,
    rerolls: u8,
    rng: &mut R,
) -> Result<Resolution, Refused> {
    let held = super::refusals::refuse(state, casting, subjects, effects)?;
    let mut run = Run {
        state,
        casting,
        rng,
        out: Resolution::for_subjects(subjects.len()),
        rolled: Vec::new(),
        taken_before,
        rerolls,
    };
    // A zone used again (Call Lightning's next bolt) keeps the concentration it has: moving
    // it again would end the spell's own effects.
    let already = crate::state::concentration_of(state, &casting.caster.id)
        .is_some_and(|on| on.eq_ignore_ascii_case(casting.source));
    if casting.concentration && !already {
        run.out.changes.push(Change::Concentration {
            character: casting.caster.id.clone(),
            spell: Some(casting.source.to_owned()),
        });
    }
    for effect in effects {
        if held && matches!(effect, Effect::SpellAttack { .. }) {
            continue;
        }
        match effect {
            Effect::Darts {
                count,
                per_slot_level,
                dice,
                damage_type,
            } => run.darts(subjects, *count, *per_slot_level, dice, *damage_type),
            Effect::HpPool { .. } => run.pool(subjects, effect),
            Effect::OnlyCreatureType { .. } | Effect::TargetsWithin { .. } => {}
            Effect::SpellWeapon { duration, .. } => {
                let (change, outcome) = super::weapon::summon(state, casting, subjects, *duration);
                run.out.changes.push(change);
                run.out.outcomes.push(outcome);
            }
            _ => {
                for (i, s) in subjects.iter().enumerate() {
                    run.top(effect, i, s);
                }
            }
        }
    }
    Ok(run.out)
}

/// Damage a target took from one effect, after its defenses.
#[derive(Debug, Clone, Copy)]
pub(super) struct Dealt {
    amount: u32,
    defense: DefenseApplied,
}

impl Default for Dealt {
    fn default() -> Dealt {
        Dealt {
            amount: 0,
            defense: DefenseApplied::None,
        }
    }
}

pub(super) struct Run<'a, 'c, R: ?Sized> {
    pub(super) state: &'a GameState,
    pub(super) casting: Casting<'c>,
    pub(super) rng: &'a mut R,
    pub(super) out: Resolution,
    /// Dice rolled once per casting, by the effect's address: damage as dealt before
    /// defenses, healing and temporary hit points as totals.
    rolled: Vec<(usize, u32, Option<DamageDealt>)>,
    /// Damage each subject took before these effects (the hit that carried them).
    pub(super) taken_before: u32,
    /// Empowered Spell's damage dice left to roll again (`metamagic.rs`).
    pub(super) rerolls: u8,
}

impl<R: DieSource + ?Sized> Run<'_, '_, R> {
    pub(super) fn caster_target(&self) -> Target {
        match self.state.character(&self.casting.caster.id) {
            Some(_) => Target::Character(self.casting.caster.id.clone()),
            None => Target::Monster(self.casting.caster.id.clone()),
        }
    }

    pub(super) fn record(
        &mut self,
        label: String,
        total: i64,
        roller: Option<Target>,
        detail: RollDetail,
    ) {
        self.out
            .rolls
            .push(RollRecord::new(label, total, roller, detail));
    }

    /// Whether a heal gives `s` nothing now (Chill Touch), reporting why.
    fn heals_nothing(&mut self, s: &Subject) -> bool {
        let why = super::lasting::heals_nothing(self.state, s);
        let blocked = why.is_some();
        self.out.outcomes.extend(why);
        blocked
    }

    /// A condition kept until what ends it by the rules (prone), started as a timed effect
    /// with no duration that records its cause; never held by concentration (prone outlasts
    /// Hideous Laughter).
    fn add_condition(&mut self, s: &Subject, condition: crate::rules::Condition) {
        let (kind, outcome) = super::lasting::add_condition(s, condition);
        if let Some(kind) = kind {
            let mut effect = self.effect(s, kind, Duration::UntilDispelled, false);
            effect.concentration = false;
            self.out.changes.push(Change::TimedEffectStarted { effect });
        }
        self.out.outcomes.push(outcome);
    }

    fn dice_at(&self, dice: &Dice) -> (u16, u16, i32) {
        let c = self.casting;
        dice.at(c.level, c.slot, c.caster.level, c.caster.modifier)
    }

    pub(super) fn dice(&self, dice: &Dice, kind: DamageType) -> DamageDice {
        let c = self.casting;
        let (count, sides, bonus) = dice.at(c.level, c.slot, c.caster.level, c.caster.modifier);
        DamageDice::new(count, sides, bonus, kind)
    }

    /// The dice of `effect`, rolled the first time it is asked for in this casting: the
    /// total (damage as dealt before any defense; the roll itself stays in `rolled`).
    pub(super) fn once(
        &mut self,
        effect: &Effect,
        dice: &Dice,
        kind: DamageType,
        label: &str,
    ) -> u32 {
        let key = std::ptr::from_ref(effect) as usize;
        if let Some((_, total, _)) = self.rolled.iter().find(|(k, ..)| *k == key) {
            return *total;
        }
        let dice = self.dice(dice, kind);
        let by = self.caster_target();
        let mut label = format!("{} {label}", self.casting.source);
        let (total, dealt) = if matches!(effect, Effect::Damage { .. }) {
            let mut dealt = roll_damage(&dice, false, &Defenses::default(), self.rng);
            if let Some(said) = self.empower(&mut dealt, &Defenses::default()) {
                label = format!("{label} ({said})");
            }
            self.record(
                label,
                i64::from(dealt.rolled),
                Some(by),
                RollDetail::Damage(dealt.clone()),
            );
            (dealt.rolled, Some(dealt))
        } else {
            // Plain dice through the dice engine (a heal, a pool): a well-formed NdS+M always
            // rolls; the total is at least 0.
            let roll = DiceExpr::parse(&dice.dice_text()).and_then(|e| e.roll(self.rng));
            let total = roll.as_ref().map_or(0, |r| r.total().max(0) as u32);
            if let Ok(roll) = roll {
                let detail = if matches!(effect, Effect::Heal { .. }) {
                    RollDetail::Healing(roll)
                } else {
                    RollDetail::Dice(roll)
                };
                self.record(label, i64::from(total), Some(by), detail);
            }
            (total, None)
        };
        self.rolled.push((key, total, dealt));
        total
    }

    /// An effect at the top of the list, on one subject.
    pub(super) fn top(&mut self, effect: &Effect, i: usize, s: &Subject) {
        match effect {
            Effect::SpellAttack { on_hit, .. } => self.attack(on_hit, i, s),
            Effect::Save {
                ability,
                dc,
                on_success,
                ignores_cover,
                on_fail,
            } => self.save(*ability, *dc, *on_success, *ignores_cover, on_fail, i, s),
            Effect::Damage { .. } => {
                let dealt = self.damage(effect, s, false);
                let key = std::ptr::from_ref(effect) as usize;
                let rolled = self.rolled.iter().find(|(k, ..)| *k == key);
                if let Some((.., Some(rolled))) = rolled.cloned() {
                    self.out.outcomes.push(Outcome::Damage {
                        target: s.name.clone(),
                        damage: dealt.amount,
                        rolled: DamageDealt {
                            taken: dealt.amount,
                            defense: dealt.defense,
                            ..rolled
                        },
                    });
                }
            }
            _ => {
                self.inner(effect, i, s, None, false);
            }
        }
    }

    /// An effect that follows a hit, a failed save (`save`), or a success for half
    /// (`half`), on subject `i`: its damage dealt, anything else applied. The damage it dealt.
    pub(super) fn inner(
        &mut self,
        effect: &Effect,
        i: usize,
        s: &Subject,
        save: Option<RepeatSave>,
        half: bool,
    ) -> Dealt {
        if half && !matches!(effect, Effect::Damage { .. }) {
            return Dealt::default(); // a success spares everything but half the damage
        }
        match effect {
            Effect::Damage { .. } => self.damage(effect, s, half),
            Effect::Heal { .. } if self.heals_nothing(s) => Dealt::default(),
            Effect::Heal { dice } => {
                // Disciple of Life adds to each creature a Life cleric's healing spell heals.
                let extra = crate::character::divine::disciple_of_life_bonus(
                    self.state,
                    &self.casting.caster.id,
                    if self.casting.level == 0 {
                        0
                    } else {
                        self.casting.slot
                    },
                );
                let amount = self.once(effect, dice, DamageType::Force, "heals") + extra;
                self.out.changes.push(Change::Heal {
                    target: s.target.clone(),
                    amount,
                });
                let mut rolled = self.dice(dice, DamageType::Force).dice_text();
                if extra > 0 {
                    rolled.push_str(&format!(" + {extra} (Disciple of Life)"));
                }
                self.out.outcomes.push(Outcome::Healed {
                    target: s.name.clone(),
                    healed: amount,
                    rolled,
                });
                Dealt::default()
            }
            Effect::TemporaryHp { dice } => {
                let amount = self.once(effect, dice, DamageType::Force, "temporary hit points");
                self.out.changes.push(Change::TemporaryHp {
                    target: s.target.clone(),
                    amount,
                });
                self.out.outcomes.push(Outcome::TemporaryHp {
                    target: s.name.clone(),
                    amount,
                });
                Dealt::default()
            }
            Effect::Condition {
                condition,
                duration,
                repeat_save,
                ends_on_damage,
            } => {
                if s.condition_immunities.contains(condition) {
                    self.out.outcomes.push(Outcome::Unaffected {
                        target: s.name.clone(),
                        why: format!("immune to being {condition}"),
                    });
                    return Dealt::default();
                }
                let kind = TimedKind::Condition {
                    condition: *condition,
                    repeat_save: save.filter(|_| *repeat_save),
                };
                self.start(s, kind, *duration, *ends_on_damage);
                Dealt::default()
            }
            Effect::ArmorClass { change, duration } => {
                let kind = match change {
                    ArmorChange::Bonus(bonus) => TimedKind::ArmorBonus { bonus: *bonus },
                    ArmorChange::BasePlusDexterity(base) => TimedKind::ArmorBase {
                        armor_class: base + s.dexterity,
                    },
                    ArmorChange::AtLeast(floor) => TimedKind::ArmorBase {
                        armor_class: *floor,
                    },
                };
                self.start(s, kind, *duration, false);
                Dealt::default()
            }
            Effect::RollDice {
                dice,
                penalty,
                attacks,
                saves,
                checks,
                next_only,
                duration,
            } => {
                let kind = TimedKind::RollDice {
                    count: dice.count,
                    sides: dice.sides,
                    penalty: *penalty,
                    attacks: *attacks,
                    saves: *saves,
                    checks: *checks,
                    next_only: *next_only,
                };
                self.start(s, kind, *duration, false);
                Dealt::default()
            }
            Effect::AddCondition { condition } => {
                self.add_condition(s, *condition);
                Dealt::default()
            }
            Effect::EndCondition { conditions } => {
                let (changes, outcome) = super::lasting::end_condition(self.state, s, conditions);
                self.out.changes.extend(changes);
                self.out.outcomes.push(outcome);
                Dealt::default()
            }
            Effect::Stabilize => {
                let (change, outcome) = super::lasting::stabilize(self.state, s);
                self.out.changes.extend(change);
                self.out.outcomes.push(outcome);
                Dealt::default()
            }
            Effect::Advantage { duration, .. }
            | Effect::Speed { duration, .. }
            | Effect::NoHealing { duration }
            | Effect::Resistance {
                duration: Some(duration),
                ..
            }
            | Effect::WeaponDamage { duration, .. } => {
                let ends_on_damage = matches!(
                    effect,
                    Effect::Speed {
                        ends_on_damage: true,
                        ..
                    }
                );
                if let Some(kind) = super::lasting::timed_kind(effect, |d| self.dice_at(d)) {
                    self.start(s, kind, *duration, ends_on_damage);
                }
                Dealt::default()
            }
            Effect::Ward { duration, .. } => {
                if let Some(kind) = super::ward::timed_kind(effect) {
                    self.start(s, kind, *duration, false);
                }
                Dealt::default()
            }
            Effect::RaiseMaxHp { duration, .. }
            | Effect::WeaponPlus { duration, .. }
            | Effect::EmpowerWeapon { duration, .. } => {
                let kind = super::enchant::timed_kind(effect, &self.casting);
                if let Some(kind) = kind {
                    self.start(s, kind, *duration, false);
                }
                Dealt::default()
            }
            Effect::ConditionUntil { .. }
            | Effect::Mark { .. }
            | Effect::Dispel { .. }
            | Effect::Revive { .. }
            | Effect::Push { .. } => {
                self.special(effect, s);
                Dealt::default()
            }
            // Nested attacks and saves apply to the same creature; darts and pools are read
            // at the top only (the data's tests keep them there).
            Effect::SpellAttack { .. } | Effect::Save { .. } => {
                self.top(effect, i, s);
                Dealt::default()
            }
            Effect::MaxHpReduction | Effect::Hold { .. } => {
                self.rider(effect, s);
                Dealt::default()
            }
            // A counter acts on a spell being cast, not on a creature (`counter.rs`).
            Effect::Counter { .. } => Dealt::default(),
            // Swapped for its option before resolving (`choice.rs`), refused if left.
            Effect::OneOf { .. } => Dealt::default(),
            // Read by the tools (`tools/spell_summons.rs`), which build the creatures.
            Effect::Summon(_) => Dealt::default(),
            Effect::Darts { .. }
            | Effect::SpellWeapon { .. }
            | Effect::HpPool { .. }
            | Effect::OnlyCreatureType { .. }
            | Effect::TargetsWithin { .. } => Dealt::default(),
            // What an item does while carried is read from the inventory
            // (`Character::carried`), not used.
            Effect::Resistance { duration: None, .. }
            | Effect::MagicWeapon { .. }
            | Effect::MagicArmor { .. } => Dealt::default(),
            // Started by the tool with its aim (`zones::start_zone`), never per creature.
            Effect::Zone(_) => Dealt::default(),
            // Checked and applied before the interpreter runs (`teleport.rs`, `warding.rs`).
            Effect::Teleport { .. } | Effect::LockExit { .. } | Effect::Glyph { .. } => {
                Dealt::default()
            }
            Effect::Flying { .. }
            | Effect::Lift { .. }
            | Effect::CannotAttackOrCast { .. }
            | Effect::Meld { .. }
            | Effect::NonmagicalResistance { .. } => {
                self.aloft(effect, s);
                Dealt::default()
            }
            Effect::Sanctuary { .. }
            | Effect::MirrorImage { .. }
            | Effect::SaveIfUnwilling { .. }
            | Effect::SizeChange { .. }
            | Effect::Bond { .. }
            | Effect::SkillBonus { .. }
            | Effect::Blink { .. }
            | Effect::Calm { .. }
            | Effect::NaturalWeapon { .. }
            | Effect::Silence { .. } => {
                self.wards(effect, i, s);
                Dealt::default()
            }
        }
    }

    pub(super) fn start(
        &mut self,
        s: &Subject,
        kind: TimedKind,
        duration: Duration,
        ends_on_damage: bool,
    ) {
        // A monster this casting has already slain carries nothing more (Guiding Bolt's glimmer
        // on a harpy its damage killed): the state would refuse the effect, and the casting
        // with it.
        if matches!(s.target, Target::Monster(_)) && s.hp > 0 && self.taken_by(&s.target) >= s.hp {
            self.out.outcomes.push(Outcome::Unaffected {
                target: s.name.clone(),
                why: "slain by the same casting".to_owned(),
            });
            return;
        }
        let effect = self.effect(s, kind, duration, ends_on_damage);
        self.out.changes.push(Change::TimedEffectStarted {
            effect: effect.clone(),
        });
        self.out.outcomes.push(Outcome::Started {
            target: s.name.clone(),
            effect,
        });
    }

    /// The timed effect of `kind` this casting leaves on `s`.
    fn effect(
        &self,
        s: &Subject,
        kind: TimedKind,
        duration: Duration,
        ends_on_damage: bool,
    ) -> TimedEffect {
        TimedEffect {
            source: self.casting.caster.id.clone(),
            spell: self.casting.source.to_owned(),
            target: s.target.id().to_owned(),
            concentration: self.casting.concentration,
            rounds_left: duration.rounds(),
            ends_on_damage,
            level: self.casting.slot,
            at_turn_end: duration.at_turn_end(),
            kind,
        }
    }

    /// Deals the damage of a `Damage` effect (rolled once for the casting) to `s`, halved
    /// for a success that halves.
    fn damage(&mut self, effect: &Effect, s: &Subject, half: bool) -> Dealt {
        let Effect::Damage { dice, damage_type } = effect else {
            return Dealt::default();
        };
        let rolled = self.once(effect, dice, *damage_type, "damage");
        let base = if half { rolled / 2 } else { rolled };
        let (amount, defense) =
            effective_defenses(&s.defenses, &s.conditions).apply(base, *damage_type);
        if amount > 0 {
            self.out.changes.push(Change::Damage {
                target: s.target.clone(),
                amount,
                critical: false,
            });
        }
        Dealt { amount, defense }
    }

    #[allow(clippy::too_many_arguments)] // the fields of one `Effect::Save`
    pub(super) fn save(
        &mut self,
        ability: Ability,
        dc: Option<i32>,
        on_success: OnSave,
        ignores_cover: bool,
        on_fail: &[Effect],
        i: usize,
        s: &Subject,
    ) {
        let dc = dc.unwrap_or(self.casting.caster.save_dc);
        let (mut sources, auto_fail) = save_modifiers(&s.conditions, ability);
        sources.extend(crate::combat::save_situation(
            self.state,
            s.target.id(),
            ability,
        ));
        // Dwarven Resilience, Brave, Fey Ancestry, Gnome Cunning: what the save is against.
        let against =
            crate::character::race::threats_of(self.state.srd(), self.casting.source, on_fail);
        sources.extend(crate::character::race::save_sources(
            self.state,
            s.target.id(),
            ability,
            &against,
        ));
        let cover = s.at.cover.as_ref().filter(|_| !ignores_cover);
        let cover = save_bonus(cover, ability);
        let mut bonus = roll_bonus(self.state, s.target.id(), RollKind::Save, self.rng);
        keep_spent(&mut self.out.changes, self.casting, &mut bonus);
        let modifier = s.saves[ability as usize] + cover.as_ref().map_or(0, |c| c.0) + bonus.total;
        let mut result = roll_check_with(modifier, dc, &sources, auto_fail, self.rng);
        let mut modifiers: Vec<String> = cover.map(|(_, why)| why).into_iter().collect();
        modifiers.extend(bonus.reasons);
        if s.spared {
            // Sculpt Spells: a pocket of safety in the spell; the roll stands for the record.
            result.success = true;
            modifiers.push("Sculpt Spells: succeeds automatically".to_owned());
        } else {
            self.careful_save(s, &mut result, &mut modifiers); // Careful Spell
        }
        self.inspired_save(s, &mut result, &mut modifiers); // Bardic Inspiration
        if !result.success
            && let Some(spend) = legendary::resist(self.state, s, on_fail)
        {
            self.out.changes.push(spend);
            result.success = true;
            modifiers.push(format!("{LEGENDARY_RESISTANCE}: it chooses to succeed"));
        }
        // "Goblin 2 Dexterity save against Fireball (+2: half cover in the ice bridge)", in one
        // allocation: a casting on a crowd writes one of these per creature.
        let mut label = String::with_capacity(64);
        for part in [
            s.name.as_str(),
            " ",
            ability.name(),
            " save against ",
            self.casting.source,
        ] {
            label.push_str(part);
        }
        for (k, m) in modifiers.iter().enumerate() {
            label.push_str(if k == 0 { " (" } else { ", " });
            label.push_str(m);
        }
        if !modifiers.is_empty() {
            label.push(')');
        }
        self.record(
            label,
            i64::from(result.total),
            Some(s.target.clone()),
            RollDetail::Save(result.clone()),
        );
        self.out.reasons.push(Why {
            subject: i,
            sources,
            modifiers,
        });
        let repeat = Some(RepeatSave { ability, dc });
        let mut dealt = Dealt::default();
        // A sculpted creature takes nothing, not even the half a success would take.
        if (!result.success || on_success == OnSave::Half) && !s.spared {
            for e in on_fail {
                let d = self.inner(e, i, s, repeat, result.success);
                if d.amount > 0 || d.defense != DefenseApplied::None {
                    dealt.amount += d.amount;
                    dealt.defense = d.defense;
                }
            }
        }
        self.out.outcomes.push(Outcome::Save {
            target: s.name.clone(),
            save: result,
            damage: dealt.amount,
            defense: dealt.defense,
        });
    }
}
