//! `play --new-character`: a wizard that walks a new player through making a character, one
//! question at a time (race, class, ability scores, skills, the choices of race and class,
//! equipment, spells, a name), lists the options with each question and asks again, saying
//! why, when an answer is not one of them. The rules are the engine's
//! (`dnd_engine::character`): the wizard only offers what the builder accepts, and the
//! builder checks the result.

use std::collections::BTreeMap;

use dnd_engine::character::equipment::{category_items, roll_starting_gold};
use dnd_engine::character::{
    BackgroundChoice, CharacterChoices, KitChoice, POINT_BUY_BUDGET, STANDARD_ARRAY, ScoreMethod,
    StartingKit, point_buy_cost, roll_ability_scores,
};
use dnd_engine::dice::DieSource;
use dnd_engine::rules::{Ability, AbilityScores, Skill};
use dnd_engine::srd::{Class, EquipmentOption, Preparation, Selection, Srd, slugify};
use dnd_engine::state::Character;

/// Where the questions go and the answers come from: the terminal, or a script in tests.
pub trait Dialogue {
    /// Shows `question` and reads one answer; `None` when the player stops (Ctrl-D, Ctrl-C).
    fn ask(&mut self, question: &str) -> Option<String>;
    /// Shows a line.
    fn tell(&mut self, text: &str);
}

/// The player stopped before the end.
const STOPPED: &str = "character creation stopped; nothing was saved";

/// Asks until `parse` accepts the answer, telling the player why each refused one is wrong.
fn ask_until<T>(
    d: &mut dyn Dialogue,
    question: &str,
    mut parse: impl FnMut(&str) -> Result<T, String>,
) -> Result<T, String> {
    loop {
        let answer = d.ask(question).ok_or(STOPPED)?;
        match parse(answer.trim()) {
            Ok(value) => return Ok(value),
            Err(why) => d.tell(&format!("  {why}")),
        }
    }
}

/// Lists `options` numbered and asks for one, by number or name; returns its index.
fn pick(d: &mut dyn Dialogue, question: &str, options: &[String]) -> Result<usize, String> {
    d.tell(question);
    for (i, o) in options.iter().enumerate() {
        d.tell(&format!("  {}. {o}", i + 1));
    }
    ask_until(d, "> ", |answer| {
        if let Ok(n) = answer.parse::<usize>() {
            return n
                .checked_sub(1)
                .filter(|i| *i < options.len())
                .ok_or_else(|| format!("{n} is not on the list: type 1 to {}", options.len()));
        }
        options
            .iter()
            .position(|o| slugify(o) == slugify(answer))
            .ok_or_else(|| format!("{answer:?} is not on the list: type its number or its name"))
    })
}

/// Picks `count` different options, one question each.
fn pick_many(
    d: &mut dyn Dialogue,
    what: &str,
    count: usize,
    options: &[String],
) -> Result<Vec<String>, String> {
    let mut left = options.to_vec();
    let mut chosen = Vec::new();
    for n in 1..=count {
        let i = pick(d, &format!("{what} ({n} of {count}):"), &left)?;
        chosen.push(left.remove(i));
    }
    Ok(chosen)
}

/// Walks the player through a level-1 character and returns its sheet. `rng` rolls the
/// scores and the gold when the player asks for rolls.
pub fn create(
    d: &mut dyn Dialogue,
    srd: &Srd,
    rng: &mut dyn DieSource,
) -> Result<Character, String> {
    d.tell("A new character. Answer with a number or a name; Ctrl-D stops.");
    let mut choices = CharacterChoices {
        background: BackgroundChoice::Srd("Acolyte".into()),
        ..CharacterChoices::default()
    };
    // Race.
    let races: Vec<String> = srd
        .races
        .races
        .iter()
        .flat_map(|r| {
            let subs = r.subraces.iter().map(|s| s.name.clone());
            if r.subraces.is_empty() {
                vec![r.name.clone()]
            } else {
                subs.collect()
            }
        })
        .collect();
    choices.race = races[pick(d, "Race:", &races)?].clone();
    let race = srd.race(&choices.race).map_err(|e| e.to_string())?;
    if let Some(free) = &race.race.ability_bonus_choices {
        let options: Vec<String> = free.from.iter().map(|a| a.name().to_owned()).collect();
        let what = format!("+{} to an ability", free.bonus);
        for name in pick_many(d, &what, free.choose.into(), &options)? {
            choices
                .ability_choices
                .extend(Ability::ALL.into_iter().find(|a| a.name() == name));
        }
    }
    // Class, and the subclass when it comes at 1st level (the SRD has one per class).
    let classes: Vec<String> = srd.classes.iter().map(|c| c.name.clone()).collect();
    let class = &srd.classes[pick(d, "Class:", &classes)?];
    choices.class = class.name.clone();
    if class.subclass.chosen_at <= 1 {
        d.tell(&format!(
            "{}: {} (the SRD's).",
            class.subclass.kind, class.subclass.name
        ));
        choices.subclass = Some(class.subclass.name.clone());
    }
    choices.scores = scores(d, rng)?;
    // Skills: the class's, less those the background and race give already.
    let acolyte = srd.background("Acolyte").map_err(|e| e.to_string())?;
    d.tell(&format!(
        "Background: Acolyte ({}).",
        acolyte
            .skills
            .iter()
            .map(|s| s.name())
            .collect::<Vec<_>>()
            .join(", ")
    ));
    let had: Vec<Skill> = acolyte
        .skills
        .iter()
        .chain(race.traits().iter().flat_map(|t| &t.skills))
        .copied()
        .collect();
    let offer: Vec<String> = class
        .skill_choices
        .from
        .iter()
        .filter(|s| !had.contains(s))
        .map(|s| s.name().to_owned())
        .collect();
    let skills = pick_many(d, "Class skill", class.skill_choices.choose.into(), &offer)?;
    choices.skills = skills
        .iter()
        .filter_map(|s| Skill::ALL.into_iter().find(|k| k.name() == s))
        .collect();
    // The choices of racial traits and 1st-level class features.
    for t in race.traits() {
        let skills = t.skill_choices.as_ref().map(|s| Selection {
            choose: s.choose,
            from: s
                .from
                .iter()
                .filter(|k| !had.contains(k) && !choices.skills.contains(k))
                .map(|k| k.name().to_owned())
                .collect(),
        });
        let offer = [
            skills,
            t.spell_choices.clone(),
            t.proficiency_choices.clone(),
            t.options.clone(),
        ];
        for sel in offer.into_iter().flatten() {
            let names = sel
                .from
                .iter()
                .map(|o| trait_label(srd, o))
                .collect::<Vec<_>>();
            let picked = pick_many(d, &t.name, sel.choose.into(), &names)?;
            choices
                .race_traits
                .entry(t.slug.clone())
                .or_default()
                .extend(picked);
        }
    }
    let mut proficient: Vec<Skill> = had.clone();
    proficient.extend(&choices.skills);
    for f in class.features_at(1, choices.subclass.as_deref()) {
        let Some(sel) = &f.options else { continue };
        let names: Vec<String> = sel
            .from
            .iter()
            .filter(|o| {
                !f.slug.contains("expertise")
                    || proficient.iter().any(|s| slugify(s.name()) == slugify(o))
                    || o.as_str() == "Thieves' Tools"
            })
            .map(|o| {
                class
                    .feature(o)
                    .map_or_else(|| o.clone(), |x| x.name.clone())
            })
            .collect();
        let picked = pick_many(d, &f.name, sel.choose.into(), &names)?;
        choices.features.insert(f.slug.clone(), picked);
    }
    choices.equipment = equipment(d, srd, class, rng)?;
    spells(d, srd, class, &mut choices)?;
    choices.name = ask_until(d, "Name: ", |answer| {
        if answer.is_empty() || answer.chars().count() > 40 {
            Err("a name is 1 to 40 characters".into())
        } else {
            Ok(answer.to_owned())
        }
    })?;
    choices.build(srd).map_err(|e| e.to_string())
}

/// A racial trait option's name (a dragonborn ancestry's trait name; else the option itself).
fn trait_label(srd: &Srd, option: &str) -> String {
    srd.races
        .traits
        .iter()
        .find(|t| t.slug == option)
        .map_or_else(|| option.to_owned(), |t| t.name.clone())
}

/// The ability scores, by the method the player picks.
fn scores(d: &mut dyn Dialogue, rng: &mut dyn DieSource) -> Result<ScoreMethod, String> {
    let methods = [
        "Standard array: 15, 14, 13, 12, 10, 8, placed as you like".to_owned(),
        format!("Point buy: {POINT_BUY_BUDGET} points, each score 8 to 15"),
        "Roll: 4d6 drop the lowest, six times, placed as you like".to_owned(),
    ];
    let method = pick(d, "Ability scores:", &methods)?;
    let mut values: Vec<i32> = match method {
        0 => STANDARD_ARRAY.to_vec(),
        2 => {
            let rolled = roll_ability_scores(rng).to_vec();
            d.tell(&format!("You rolled {rolled:?}."));
            rolled
        }
        _ => Vec::new(),
    };
    let rolled = values.clone();
    let mut scores = [0i32; 6];
    let mut left = POINT_BUY_BUDGET;
    for (i, ability) in Ability::ALL.into_iter().enumerate() {
        scores[i] = if method == 1 {
            let question = format!("{} (8-15, {left} points left): ", ability.name());
            let score = ask_until(d, &question, |answer| {
                let n: i32 = answer
                    .parse()
                    .map_err(|_| "type a score from 8 to 15".to_owned())?;
                let cost = point_buy_cost(n).ok_or("point buy allows 8 to 15")?;
                if cost > left {
                    Err(format!("{n} costs {cost} point(s); {left} left"))
                } else {
                    Ok(n)
                }
            })?;
            left -= point_buy_cost(score).unwrap_or(0);
            score
        } else {
            let list: Vec<String> = values.iter().map(i32::to_string).collect();
            let question = format!("{} (one of {}): ", ability.name(), list.join(", "));
            let at = ask_until(d, &question, |answer| {
                let n: i32 = answer
                    .parse()
                    .map_err(|_| format!("type one of {}", list.join(", ")))?;
                values
                    .iter()
                    .position(|v| *v == n)
                    .ok_or_else(|| format!("{n} is not left: type one of {}", list.join(", ")))
            })?;
            values.remove(at)
        };
    }
    let scores = AbilityScores::new(
        scores[0], scores[1], scores[2], scores[3], scores[4], scores[5],
    );
    Ok(match method {
        0 => ScoreMethod::StandardArray { scores },
        1 => ScoreMethod::PointBuy { scores },
        _ => ScoreMethod::Rolled { rolled, scores },
    })
}

/// An equipment option in words ("Leather Armor, Longbow, 20 Arrow", "any Martial Weapons").
fn describe(option: &EquipmentOption) -> String {
    let mut parts: Vec<String> = option
        .items
        .iter()
        .map(|i| {
            if i.quantity == 1 {
                i.item.clone()
            } else {
                format!("{} {}", i.quantity, i.item)
            }
        })
        .collect();
    if let Some(any) = &option.any_of {
        parts.push(format!("{} of {}", any.choose, any.category));
    }
    parts.join(", ")
}

/// The kit with its choices, or the class's gold rolled.
fn equipment(
    d: &mut dyn Dialogue,
    srd: &Srd,
    class: &Class,
    rng: &mut dyn DieSource,
) -> Result<StartingKit, String> {
    let gold = &class.starting_gold;
    let ways = [
        "the class's and the Acolyte's equipment".to_owned(),
        format!(
            "gold instead ({} × {} gp, rolled)",
            gold.dice, gold.multiplier
        ),
    ];
    if pick(d, "Starting equipment:", &ways)? == 1 {
        let gold = roll_starting_gold(class, rng);
        d.tell(&format!("You have {gold} gp."));
        return Ok(StartingKit::Gold(gold));
    }
    let acolyte = srd.background("Acolyte").map_err(|e| e.to_string())?;
    let mut kit = Vec::new();
    for choice in class
        .equipment_choices
        .iter()
        .chain(&acolyte.equipment_choices)
    {
        let names: Vec<String> = choice.options.iter().map(describe).collect();
        let option = if names.len() == 1 {
            0
        } else {
            pick(d, "Take:", &names)?
        };
        let mut made = KitChoice {
            option: option + 1,
            picks: Vec::new(),
        };
        if let Some(any) = &choice.options[option].any_of {
            let items = category_items(srd, &any.category);
            for n in 1..=any.choose {
                let i = pick(
                    d,
                    &format!("{} ({n} of {}):", any.category, any.choose),
                    &items,
                )?;
                made.picks.push(items[i].clone());
            }
        }
        kit.push(made);
    }
    Ok(StartingKit::Kit(kit))
}

/// Cantrips and spells of a class that casts from 1st level.
fn spells(
    d: &mut dyn Dialogue,
    srd: &Srd,
    class: &Class,
    choices: &mut CharacterChoices,
) -> Result<(), String> {
    let (Some(casting), Some(table)) = (&class.spellcasting, class.level(1).and_then(|l| l.spells))
    else {
        return Ok(());
    };
    if casting.from_level > 1 {
        return Ok(());
    }
    let race_cantrips: Vec<&String> = choices.race_traits.values().flatten().collect();
    let list = |level: u8| -> Vec<String> {
        let mut names: Vec<String> = srd
            .spells
            .iter()
            .filter(|s| s.classes.iter().any(|c| slugify(c) == class.slug))
            .filter(|s| {
                if level == 0 {
                    s.level == 0
                } else {
                    (1..=level).contains(&s.level)
                }
            })
            .map(|s| s.name.clone())
            .filter(|n| !race_cantrips.contains(&n))
            .collect();
        names.sort();
        names
    };
    let cantrips = usize::from(table.cantrips_known.unwrap_or(0));
    choices.cantrips = pick_many(d, "Cantrip", cantrips, &list(0))?;
    let count = if casting.preparation == Preparation::Prepared {
        let scores = choices.scores.scores();
        let race = srd.race(&choices.race).map_err(|e| e.to_string())?;
        let bonus: i32 = race
            .ability_bonuses()
            .iter()
            .filter(|b| b.ability == casting.ability)
            .map(|b| i32::from(b.bonus))
            .sum::<i32>()
            + choices
                .ability_choices
                .iter()
                .filter(|a| **a == casting.ability)
                .count() as i32;
        let score = scores.score(casting.ability) + bonus;
        usize::try_from(((score - 10).div_euclid(2) + 1).max(1)).unwrap_or(1)
    } else {
        usize::from(table.spells_known.unwrap_or(0))
    };
    let mut offer = list(1);
    // The subclass's always-prepared spells are not picked again.
    let bonus: BTreeMap<&str, ()> = class
        .subclass
        .bonus_spells
        .iter()
        .filter(|b| b.level <= 1)
        .map(|b| (b.spell.as_str(), ()))
        .collect();
    if casting.preparation == Preparation::Prepared && choices.subclass.is_some() {
        offer.retain(|s| !bonus.contains_key(s.as_str()));
    }
    choices.spells = pick_many(d, "1st-level spell", count, &offer)?;
    Ok(())
}
