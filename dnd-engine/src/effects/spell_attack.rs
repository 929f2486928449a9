//! A spell attack, as the interpreter resolves it: the attack roll against one subject with
//! what changes it (Bless and Bane, cover, range, the fight's effects), its record and reasons,
//! and on a hit the damage (doubled dice on a critical hit) and the rest of `on_hit`.

use crate::dice::DieSource;

use super::casting::{Outcome, Subject, Why};
use super::resolve::Run;
use super::rolls::{keep_spent, roll_bonus};
use super::vocabulary::Effect;
use crate::rules::conditions::effective_defenses;
use crate::rules::{AttackProfile, AttackTarget, DamageDice, roll_attack_for};
use crate::state::{Change, RollKind};
use crate::store::RollDetail;

impl<R: DieSource + ?Sized> Run<'_, '_, R> {
    /// A spell attack against `s` (subject `i`): the roll with what changes it (Bless, cover,
    /// the fight's effects), and on a hit the damage and what else `on_hit` does.
    pub(super) fn attack(&mut self, on_hit: &[Effect], i: usize, s: &Subject) {
        let damage: Vec<DamageDice> = on_hit
            .iter()
            .filter_map(|e| match e {
                Effect::Damage { dice, damage_type } => Some(self.dice(dice, *damage_type)),
                _ => None,
            })
            .collect();
        let caster = self.casting.caster;
        let mut bonus = roll_bonus(self.state, &caster.id, RollKind::Attack, self.rng);
        keep_spent(&mut self.out.changes, self.casting, &mut bonus);
        let profile = AttackProfile {
            attack_bonus: caster.attack_bonus + bonus.total,
            damage: &damage,
            critical_range: 20,
        };
        let range = s.at.attack.as_ref();
        let cover = range.map_or(0, |r| r.armor_bonus());
        let defense = AttackTarget {
            armor_class: s.armor_class + cover,
            defenses: effective_defenses(&s.defenses, &s.conditions),
            hits_are_critical: false,
        };
        let situation = crate::combat::attack_situation(self.state, &caster.id, s.target.id());
        for end in situation.ends {
            if !self.out.changes.contains(&end) {
                self.out.changes.push(end);
            }
        }
        let mut sources = situation.sources;
        for why in range.iter().flat_map(|r| &r.disadvantage) {
            sources.disadvantage(why.clone());
        }
        let lucky = sources.lucky; // a halfling caster's natural 1 is rolled again
        let mut result = roll_attack_for(&profile, &defense, sources.resolve(), lucky, self.rng);
        let mut modifiers = bonus.reasons;
        // Bardic Inspiration on a miss it could turn, then Empowered Spell on the hit's dice.
        let already = &self.out.changes;
        let inspired = super::inspire_attack(
            self.state,
            &caster.id,
            &mut result,
            &profile,
            &defense,
            already,
            self.rng,
        );
        if let Some(i) = inspired {
            self.out.changes.push(i.spent);
            modifiers.push(i.reason);
        }
        modifiers.extend(self.empower_hit(&mut result, &defense.defenses));
        if cover > 0
            && let Some(area) = &s.at.cover
        {
            // As the other attacks say it: "+2 AC: half cover in the spire of rime".
            modifiers.insert(
                0,
                format!("+{cover} AC: {} in {}", area.cover.describe(), area.name),
            );
        }
        self.out.reasons.push(Why {
            subject: i,
            sources,
            modifiers,
        });
        let by = self.caster_target();
        self.record(
            format!("{} at {}", self.casting.source, s.name),
            i64::from(result.total),
            Some(by),
            RollDetail::Attack(result.clone()),
        );
        if result.hit {
            self.out.changes.push(Change::Damage {
                target: s.target.clone(),
                amount: result.total_damage,
                critical: result.critical,
            });
            for e in on_hit
                .iter()
                .filter(|e| !matches!(e, Effect::Damage { .. }))
            {
                self.inner(e, i, s, None, false);
            }
        }
        self.out.outcomes.push(Outcome::Attack {
            target: s.name.clone(),
            attack: result,
        });
    }
}
