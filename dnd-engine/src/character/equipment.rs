//! Starting equipment (the class's and background's kit with its choices, packs opened into
//! their contents, or gold rolled instead), and what the kit makes of the sheet: Armor Class
//! from the armour worn and attacks from the weapons carried.

use super::build_error::{Problem, Problems};
use super::builder::{BackgroundChoice, CharacterChoices, Settled, StartingKit};
use crate::dice::{DiceExpr, DieSource};
use crate::rules::Ability;
use crate::srd::{ArmorCategory, Class, EquipmentChoice, ItemCount, Srd, WeaponCategory, slugify};
use crate::state::{CharacterAttack, ItemStack};

/// The SRD's equipment packs and what each holds.
const PACKS: &[(&str, &[(&str, u32)])] = &[
    (
        "Burglar's Pack",
        &[
            ("Backpack", 1),
            ("Ball bearings (bag of 1,000)", 1),
            ("String (10 feet)", 1),
            ("Bell", 1),
            ("Candle", 5),
            ("Crowbar", 1),
            ("Hammer", 1),
            ("Piton", 10),
            ("Lantern, hooded", 1),
            ("Oil (flask)", 2),
            ("Rations (1 day)", 5),
            ("Tinderbox", 1),
            ("Waterskin", 1),
            ("Rope, hempen (50 feet)", 1),
        ],
    ),
    (
        "Diplomat's Pack",
        &[
            ("Chest", 1),
            ("Case, map or scroll", 2),
            ("Clothes, fine", 1),
            ("Ink (1 ounce bottle)", 1),
            ("Ink pen", 1),
            ("Lamp", 1),
            ("Oil (flask)", 2),
            ("Paper (one sheet)", 5),
            ("Perfume (vial)", 1),
            ("Sealing wax", 1),
            ("Soap", 1),
        ],
    ),
    (
        "Dungeoneer's Pack",
        &[
            ("Backpack", 1),
            ("Crowbar", 1),
            ("Hammer", 1),
            ("Piton", 10),
            ("Torch", 10),
            ("Tinderbox", 1),
            ("Rations (1 day)", 10),
            ("Waterskin", 1),
            ("Rope, hempen (50 feet)", 1),
        ],
    ),
    (
        "Entertainer's Pack",
        &[
            ("Backpack", 1),
            ("Bedroll", 1),
            ("Costume clothes", 2),
            ("Candle", 5),
            ("Rations (1 day)", 5),
            ("Waterskin", 1),
            ("Disguise kit", 1),
        ],
    ),
    (
        "Explorer's Pack",
        &[
            ("Backpack", 1),
            ("Bedroll", 1),
            ("Mess kit", 1),
            ("Tinderbox", 1),
            ("Torch", 10),
            ("Rations (1 day)", 10),
            ("Waterskin", 1),
            ("Rope, hempen (50 feet)", 1),
        ],
    ),
    (
        "Priest's Pack",
        &[
            ("Backpack", 1),
            ("Blanket", 1),
            ("Candle", 10),
            ("Tinderbox", 1),
            ("Alms box", 1),
            ("Block of incense", 2),
            ("Censer", 1),
            ("Vestments", 1),
            ("Rations (1 day)", 2),
            ("Waterskin", 1),
        ],
    ),
    (
        "Scholar's Pack",
        &[
            ("Backpack", 1),
            ("Book of lore", 1),
            ("Ink (1 ounce bottle)", 1),
            ("Ink pen", 1),
            ("Parchment (one sheet)", 10),
            ("Little bag of sand", 1),
            ("Small knife", 1),
        ],
    ),
];

/// The items of the non-weapon categories a kit offers, from the SRD's equipment tables.
const CATEGORIES: &[(&str, &[&str])] = &[
    ("Holy Symbols", &["Amulet", "Emblem", "Reliquary"]),
    ("Arcane Foci", &["Crystal", "Orb", "Rod", "Staff", "Wand"]),
    (
        "Druidic Foci",
        &["Sprig of mistletoe", "Totem", "Wooden staff", "Yew wand"],
    ),
    (
        "Musical Instruments",
        &[
            "Bagpipes",
            "Drum",
            "Dulcimer",
            "Flute",
            "Lute",
            "Lyre",
            "Horn",
            "Pan flute",
            "Shawm",
            "Viol",
        ],
    ),
];

/// The kit: the inventory and the gold.
#[derive(Debug, Default)]
pub(crate) struct Kit {
    pub(crate) inventory: Vec<ItemStack>,
    pub(crate) gold: u32,
}

/// The items `category` offers ("Martial Melee Weapons", "Holy Symbols").
pub fn category_items(srd: &Srd, category: &str) -> Vec<String> {
    if let Some((_, items)) = CATEGORIES.iter().find(|(c, _)| *c == category) {
        return items.iter().map(|s| (*s).to_owned()).collect();
    }
    let kind = if category.starts_with("Simple") {
        WeaponCategory::Simple
    } else {
        WeaponCategory::Martial
    };
    let melee_only = category.contains("Melee");
    srd.weapons
        .iter()
        .filter(|w| w.category == kind && !(melee_only && w.ranged))
        .map(|w| w.name.clone())
        .collect()
}

/// Rolls a class's starting gold (5d4 × 10 gp) with the engine's dice.
pub fn roll_starting_gold<S: DieSource + ?Sized>(class: &Class, rng: &mut S) -> u32 {
    let rolled = DiceExpr::parse(&class.starting_gold.dice)
        .and_then(|d| d.roll_total(rng))
        .unwrap_or(0);
    rolled.max(0) as u32 * class.starting_gold.multiplier
}

/// The least and most a class's starting gold can be.
fn gold_range(class: &Class) -> (u32, u32) {
    let (count, sides) = class
        .starting_gold
        .dice
        .split_once('d')
        .and_then(|(c, s)| Some((c.parse::<u32>().ok()?, s.parse::<u32>().ok()?)))
        .unwrap_or((0, 0));
    let m = class.starting_gold.multiplier;
    (count * m, count * sides * m)
}

/// The name a kit item goes by on the sheet: "Crossbow, light" is the "Light Crossbow" of the
/// weapons table, ammunition is counted in single pieces ("Arrows" × 20).
fn sheet_name(srd: &Srd, item: &str) -> String {
    match item {
        "Arrow" => return "Arrows".into(),
        "Crossbow bolt" => return "Crossbow bolts".into(),
        _ => {}
    }
    let flipped = item
        .split_once(", ")
        .map(|(a, b)| format!("{b} {a}"))
        .unwrap_or_else(|| item.to_owned());
    srd.weapon(&flipped)
        .map_or_else(|_| item.to_owned(), |w| w.name.clone())
}

/// Adds `quantity` of `name` (a pack opened into its contents), merging stacks.
fn add(srd: &Srd, inventory: &mut Vec<ItemStack>, name: &str, quantity: u32) {
    if let Some((_, contents)) = PACKS.iter().find(|(p, _)| *p == name) {
        for (item, n) in *contents {
            add(srd, inventory, item, n * quantity);
        }
        return;
    }
    let name = sheet_name(srd, name);
    match inventory.iter_mut().find(|s| s.name == name) {
        Some(stack) => stack.quantity += quantity,
        None => inventory.push(ItemStack::new(name, quantity)),
    }
}

/// The starting kit with its choices checked.
pub(crate) fn kit(
    choices: &CharacterChoices,
    srd: &Srd,
    settled: &Settled<'_>,
    problems: &mut Problems,
) -> Kit {
    let class = settled.class;
    let background = match &choices.background {
        BackgroundChoice::Srd(name) => srd.background(name).ok(),
        BackgroundChoice::Custom { .. } => None,
    };
    let picks = match &choices.equipment {
        StartingKit::Gold(gold) => {
            let (least, most) = gold_range(class);
            let m = class.starting_gold.multiplier.max(1);
            if !(least..=most).contains(gold) || gold % m != 0 {
                problems.add(
                    "equipment.gold",
                    Problem::NotAllowed {
                        what: format!(
                            "{} starting gold ({} × {m})",
                            class.name, class.starting_gold.dice
                        ),
                        given: gold.to_string(),
                        allowed: vec![format!("a multiple of {m} from {least} to {most}")],
                    },
                );
            }
            return Kit {
                inventory: Vec::new(),
                gold: *gold,
            };
        }
        StartingKit::Kit(picks) => picks,
    };
    let mut fixed: Vec<&ItemCount> = class.starting_equipment.iter().collect();
    let mut offered: Vec<&EquipmentChoice> = class.equipment_choices.iter().collect();
    if let Some(b) = background {
        fixed.extend(&b.starting_equipment);
        offered.extend(&b.equipment_choices);
    }
    if picks.len() != offered.len() {
        problems.add(
            "equipment.kit",
            Problem::WrongCount {
                what: format!(
                    "the equipment choices of a {}{}",
                    class.name,
                    background.map_or(String::new(), |b| format!(" and the {}", b.name))
                ),
                given: picks.len(),
                expected: offered.len(),
            },
        );
    }
    let mut inventory = Vec::new();
    for item in fixed {
        add(srd, &mut inventory, &item.item, item.quantity);
    }
    for (i, (pick, choice)) in picks.iter().zip(&offered).enumerate() {
        let field = format!("equipment.kit[{i}]");
        let Some(option) = pick
            .option
            .checked_sub(1)
            .and_then(|o| choice.options.get(o))
        else {
            problems.add(
                format!("{field}.option"),
                Problem::OutOfRange {
                    given: pick.option as i64,
                    min: 1,
                    max: choice.options.len() as i64,
                },
            );
            continue;
        };
        for item in &option.items {
            add(srd, &mut inventory, &item.item, item.quantity);
        }
        let wanted = option.any_of.as_ref().map_or(0, |a| usize::from(a.choose));
        if pick.picks.len() != wanted {
            let what = option
                .any_of
                .as_ref()
                .map_or("this option (it has no pick)".to_owned(), |a| {
                    format!("any of {}", a.category)
                });
            problems.add(
                format!("{field}.picks"),
                Problem::WrongCount {
                    what,
                    given: pick.picks.len(),
                    expected: wanted,
                },
            );
        }
        let Some(any) = &option.any_of else { continue };
        let allowed = category_items(srd, &any.category);
        for (j, p) in pick.picks.iter().enumerate() {
            match allowed.iter().find(|a| slugify(a) == slugify(p)) {
                Some(a) => add(srd, &mut inventory, a, 1),
                None => problems.not_allowed(
                    format!("{field}.picks[{j}]"),
                    &any.category,
                    p,
                    allowed.clone(),
                ),
            }
        }
    }
    Kit {
        inventory,
        gold: background.map_or(0, |b| b.starting_gold),
    }
}

/// Whether a proficiency list entry ("Martial Weapons", "Crossbows, light", "Battleaxes")
/// covers a weapon.
fn covers(entry: &str, name: &str, category: WeaponCategory) -> bool {
    let norm = |s: &str| {
        let flipped = s
            .split_once(", ")
            .map_or_else(|| s.to_owned(), |(a, b)| format!("{b} {a}"));
        slugify(&flipped).trim_end_matches('s').to_owned()
    };
    match entry {
        "Simple Weapons" => category == WeaponCategory::Simple,
        "Martial Weapons" => category == WeaponCategory::Martial,
        _ => norm(entry) == norm(name),
    }
}

/// The attacks of the weapons carried: Dexterity for a ranged weapon, the better of Strength
/// and Dexterity for a finesse one; proficient by the class's and race's proficiencies.
pub(crate) fn attacks(
    srd: &Srd,
    settled: &Settled<'_>,
    inventory: &[ItemStack],
) -> Vec<CharacterAttack> {
    let race_profs: Vec<String> = settled
        .race
        .traits()
        .iter()
        .flat_map(|t| t.proficiencies.clone())
        .collect();
    let scores = &settled.abilities;
    inventory
        .iter()
        .filter_map(|stack| srd.weapons.iter().find(|w| w.name == stack.name))
        .filter(|w| w.damage.count > 0 && w.damage.sides > 1)
        .map(|w| {
            let finesse = w.properties.iter().any(|p| p == "finesse");
            let better_dex =
                scores.modifier(Ability::Dexterity) > scores.modifier(Ability::Strength);
            let ability = if w.ranged || (finesse && better_dex) {
                Ability::Dexterity
            } else {
                Ability::Strength
            };
            let proficient = settled
                .class
                .weapons
                .iter()
                .chain(&race_profs)
                .any(|e| covers(e, &w.name, w.category));
            let thrown = w.properties.iter().any(|p| p == "thrown");
            let reach = if w.properties.iter().any(|p| p == "reach") {
                10
            } else {
                5
            };
            let range_ft = match w.range {
                Some((normal, _)) if w.ranged || thrown => normal,
                _ => reach,
            };
            CharacterAttack {
                name: w.name.clone(),
                ability,
                proficient,
                damage: w.damage,
                add_modifier_to_damage: true,
                magic_bonus: 0,
                range_ft,
                magical: false,
            }
        })
        .collect()
}

/// Armor Class: the best the carried armour (proficient) gives, or unarmoured (10 + Dex,
/// Unarmored Defense, Draconic Resilience); a shield's +2 if proficient; the Defense
/// fighting style's +1 in armour.
pub(crate) fn armor_class(
    srd: &Srd,
    settled: &Settled<'_>,
    feature_picks: &[String],
    inventory: &[ItemStack],
) -> i32 {
    let class = settled.class;
    let a = &settled.abilities;
    let dex = a.modifier(Ability::Dexterity);
    // The Life Domain's Bonus Proficiency is the one subclass feature of levels 1-5 that
    // adds armour (heavy armour).
    let bonus_heavy = settled.subclass
        && class
            .features_at(class.subclass.chosen_at, Some(&class.subclass.slug))
            .iter()
            .any(|f| f.slug == "bonus-proficiency" && class.slug == "cleric");
    let trained = |cat: ArmorCategory| {
        let has =
            |p: &str| class.armor.iter().any(|x| x == p) || (bonus_heavy && p == "Heavy Armor");
        has("All armor")
            || match cat {
                ArmorCategory::Light => has("Light Armor"),
                ArmorCategory::Medium => has("Medium Armor"),
                ArmorCategory::Heavy => has("Heavy Armor"),
                ArmorCategory::Shield => has("Shields"),
            }
    };
    let carried: Vec<_> = inventory
        .iter()
        .filter_map(|s| {
            srd.armor(&s.name)
                .or_else(|_| srd.armor(s.name.trim_end_matches(" Armor")))
                .ok()
        })
        .filter(|x| trained(x.category))
        .collect();
    let shield = carried
        .iter()
        .find(|x| x.category == ArmorCategory::Shield)
        .map(|s| s.base_ac);
    let worn = carried
        .iter()
        .filter(|x| x.category != ArmorCategory::Shield)
        .map(|x| {
            let dex_part = if x.dex_bonus {
                x.max_dex_bonus.map_or(dex, |m| dex.min(m))
            } else {
                0
            };
            x.base_ac + dex_part
        })
        .max();
    let defense = feature_picks
        .iter()
        .any(|p| p.ends_with("fighting-style-defense"));
    if let Some(ac) = worn {
        return ac + shield.unwrap_or(0) + i32::from(defense);
    }
    let mut unarmoured = 10 + dex + shield.unwrap_or(0);
    match class.slug.as_str() {
        "barbarian" => unarmoured += a.modifier(Ability::Constitution),
        "monk" if shield.is_none() => unarmoured += a.modifier(Ability::Wisdom),
        "sorcerer" if settled.subclass => unarmoured += 3,
        _ => {}
    }
    unarmoured
}
