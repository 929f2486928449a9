//! The two effects that take all the subjects at once rather than each in turn: darts that
//! hit without a roll, shared out among the creatures named (Magic Missile), and a pool of hit
//! points that fells the lowest current hit points first (Sleep, Color Spray).

use super::casting::{Outcome, Subject};
use super::resolve::Run;
use super::vocabulary::{Dice, Effect};
use crate::dice::DieSource;
use crate::rules::DamageType;
use crate::rules::attack::roll_damage;
use crate::rules::conditions::effective_defenses;
use crate::state::{Change, TimedKind};
use crate::store::RollDetail;

impl<R: DieSource + ?Sized> Run<'_, '_, R> {
    pub(super) fn darts(
        &mut self,
        subjects: &[Subject],
        count: u8,
        per_slot_level: u8,
        dice: &Dice,
        kind: DamageType,
    ) {
        let c = self.casting;
        let n = usize::from(count)
            + usize::from(per_slot_level) * usize::from(c.slot.saturating_sub(c.level));
        let dice = self.dice(dice, kind);
        for k in 0..n {
            let s = &subjects[k % subjects.len()];
            let defenses = effective_defenses(&s.defenses, &s.conditions);
            let mut dealt = roll_damage(&dice, false, &defenses, self.rng);
            let said = self.empower(&mut dealt, &defenses); // Empowered Spell
            let said = said.map_or_else(String::new, |s| format!(" ({s})"));
            let by = self.caster_target();
            self.record(
                format!("{} hits {}{said}", c.source, s.name),
                i64::from(dealt.taken),
                Some(by),
                RollDetail::Damage(dealt.clone()),
            );
            if dealt.taken > 0 {
                self.out.changes.push(Change::Damage {
                    target: s.target.clone(),
                    amount: dealt.taken,
                    critical: false,
                });
            }
            self.out.outcomes.push(Outcome::Damage {
                target: s.name.clone(),
                damage: dealt.taken,
                rolled: dealt,
            });
        }
    }

    pub(super) fn pool(&mut self, subjects: &[Subject], effect: &Effect) {
        let Effect::HpPool {
            dice,
            condition,
            duration,
            spares,
            immune_if_immune_to,
            ends_on_damage,
        } = effect
        else {
            return;
        };
        let rolled = self.once(effect, dice, DamageType::Force, "pool");
        let mut left = rolled;
        let mut order: Vec<&Subject> = subjects.iter().collect();
        order.sort_by_key(|s| s.hp); // lowest current hit points first (stable: as named)
        for s in order {
            let why = if s.hp == 0 {
                Some("at 0 hit points".to_owned())
            } else if s.conditions.has(*condition) {
                Some(format!("already {condition}"))
            } else if let Some(kind) = spares.iter().find(|k| s.is_type(k)) {
                Some(format!("{kind}: the spell spares it"))
            } else if let Some(c) =
                immune_if_immune_to.filter(|c| s.condition_immunities.contains(c))
            {
                Some(format!("immune to being {c}"))
            } else if let Some(why) = (*condition == crate::rules::Condition::Unconscious)
                .then(|| crate::character::race::magic_sleep_refused(self.state, s.target.id()))
                .flatten()
            {
                Some(why.to_owned())
            } else if s.hp > left {
                Some(format!(
                    "{} hit points, more than the {left} left in the pool",
                    s.hp
                ))
            } else {
                None
            };
            if let Some(why) = why {
                self.out.outcomes.push(Outcome::Unaffected {
                    target: s.name.clone(),
                    why,
                });
                continue;
            }
            left -= s.hp;
            let kind = TimedKind::Condition {
                condition: *condition,
                repeat_save: None,
            };
            self.start(s, kind, *duration, *ends_on_damage);
        }
        self.out.outcomes.push(Outcome::Pool { rolled, left });
    }
}
