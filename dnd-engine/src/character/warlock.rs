//! The warlock's Eldritch Invocations, Pact Boon and the Fiend's Dark One's Blessing as rules
//! over the sheet: what was chosen is read from `Character::choices` (option slugs such as
//! "eldritch-invocation-agonizing-blast", "pact-of-the-blade"); how many invocations a level
//! knows and from which level each may be taken is the class data's, which the builder asks
//! here ([`offer_at`]). The tools play them (`tools::feature_warlock`).

use crate::effects::Effect;
use crate::rules::Ability;
use crate::srd::{Class, ClassFeature, Selection, Spell, Srd, Weapon};
use crate::state::{Character, CharacterAttack};

/// The feature whose options are the invocations.
pub const INVOCATIONS: &str = "eldritch-invocations";

/// What a pact weapon's attack is called on the sheet: the weapon's name and this.
pub const PACT_WEAPON_MARK: &str = " (pact)";

/// Whether `c` took the invocation `name` ("agonizing-blast").
pub fn invoked(c: &Character, name: &str) -> bool {
    super::features::chose(c, &format!("eldritch-invocation-{name}"))
}

/// Whether `c` took the pact boon `name` ("blade", "chain", "tome").
pub fn pact(c: &Character, name: &str) -> bool {
    super::features::chose(c, &format!("pact-of-the-{name}"))
}

/// The invocations offered at `level` when the builder checks `feature`'s picks: as many as
/// the level's `invocations_known` (two, three at 5th), from those whose own level is reached.
/// `None` for any other feature, whose offer is the data's as written.
pub fn offer_at(class: &Class, level: u8, feature: &ClassFeature) -> Option<Selection> {
    if feature.slug != INVOCATIONS {
        return None;
    }
    let offer = feature.options.as_ref()?;
    let known = class.level(level)?.numbers.invocations_known?;
    let from = offer
        .from
        .iter()
        .filter(|o| class.feature(o).is_none_or(|f| f.level <= level))
        .cloned()
        .collect();
    Some(Selection {
        choose: known,
        from,
    })
}

/// Eldritch Blast as `c` casts it with its invocations, or `None` when they change nothing:
/// Agonizing Blast adds the Charisma modifier (the warlock's spellcasting one) to each beam's
/// damage; Repelling Blast pushes a creature a beam hits 10 feet away; Eldritch Spear makes
/// its range 300 feet.
pub fn eldritch_blast(c: &Character, spell: &Spell) -> Option<Spell> {
    let agonizing = invoked(c, "agonizing-blast");
    let repelling = invoked(c, "repelling-blast");
    let spear = invoked(c, "eldritch-spear");
    if spell.slug != "eldritch-blast" || !(agonizing || repelling || spear) {
        return None;
    }
    let mut spell = spell.clone();
    if spear {
        spell.range = crate::srd::SpellRange::Feet(300);
    }
    for effect in &mut spell.effects {
        if let Effect::SpellAttack { on_hit, .. } = effect {
            for hit in on_hit.iter_mut() {
                if let Effect::Damage { dice, .. } = hit {
                    dice.add_modifier |= agonizing;
                }
            }
            if repelling {
                on_hit.push(Effect::Push { feet: 10 });
            }
        }
    }
    Some(spell)
}

/// A spell `c` casts at will through an invocation, without a slot (its casting is as the
/// spell's own level): Mage Armor on itself (Armor of Shadows), False Life (Fiendish Vigor).
pub fn at_will(c: &Character, spell: &Spell) -> Option<&'static str> {
    match spell.slug.as_str() {
        "mage-armor" if invoked(c, "armor-of-shadows") => Some("Armor of Shadows"),
        "false-life" if invoked(c, "fiendish-vigor") => Some("Fiendish Vigor"),
        _ => None,
    }
}

/// Whether `c` knows `spell` by its pact: Find Familiar (Pact of the Chain), or a cantrip it
/// chose with the Book of Shadows (Pact of the Tome: its picks under "pact-of-the-tome").
pub fn known_by_pact(c: &Character, spell: &Spell) -> bool {
    (spell.slug == "find-familiar" && pact(c, "chain"))
        || (spell.level == 0
            && pact(c, "tome")
            && c.choices
                .get("pact-of-the-tome")
                .is_some_and(|picks| picks.iter().any(|p| crate::srd::slugify(p) == spell.slug)))
}

/// The temporary hit points Dark One's Blessing gives `c` for dropping a hostile creature to
/// 0 hit points: Charisma modifier + warlock level, at least 1; `None` without the feature.
pub fn dark_ones_blessing(srd: &Srd, c: &Character) -> Option<u32> {
    super::uses::feature_of(srd, c, "dark-ones-blessing").ok()?;
    let amount = c.abilities.modifier(Ability::Charisma) + i32::from(c.level);
    Some(u32::try_from(amount.max(1)).unwrap_or(1))
}

/// The pact weapon `c` conjures in the shape of `weapon` (a melee weapon): proficient,
/// magical, with Strength, or Dexterity for a finesse weapon when it is higher.
pub fn pact_weapon(c: &Character, weapon: &Weapon) -> Result<CharacterAttack, String> {
    if weapon.ranged {
        return Err(format!(
            "a pact weapon takes the form of a melee weapon; {} is ranged",
            weapon.name
        ));
    }
    let finesse = weapon
        .properties
        .iter()
        .any(|p| p.eq_ignore_ascii_case("finesse"));
    let dex = c.abilities.modifier(Ability::Dexterity);
    let ability = if finesse && dex > c.abilities.modifier(Ability::Strength) {
        Ability::Dexterity
    } else {
        Ability::Strength
    };
    let reach = weapon
        .properties
        .iter()
        .any(|p| p.eq_ignore_ascii_case("reach"));
    Ok(CharacterAttack {
        name: format!("{}{PACT_WEAPON_MARK}", weapon.name),
        ability,
        proficient: true,
        damage: weapon.damage,
        add_modifier_to_damage: true,
        magic_bonus: 0,
        range_ft: if reach { 10 } else { 5 },
        magical: true,
    })
}
