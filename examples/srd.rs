//! Look up monsters, spells, rules topics and conditions in the bundled SRD, or in a
//! 5e-database folder loaded at run time.
//!
//! ```text
//! cargo run --example srd -- monster goblin
//! cargo run --example srd -- spell fireball
//! cargo run --example srd -- rule grappling
//! cargo run --example srd -- condition prone
//! cargo run --example srd -- list monsters|spells|rules|conditions
//! cargo run --example srd -- --5e-database DIR summary
//! cargo run --example srd -- --5e-database DIR monster adult red dragon
//! cargo run --example srd -- monster goblin --json
//! ```
//!
//! A name that is not found prints the error (with "did you mean") on stderr and exits with
//! status 1, as does a folder that does not load; bad usage prints the usage and exits 2.
//!
//! A 5e-database folder is text from outside: everything printed goes through
//! [`terminal_safe`](dnd_engine::text::terminal_safe) (the `out!` macro), so a record cannot
//! send escape sequences or control characters to the terminal.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use dnd_engine::rules::{Ability, DamageTypes, ability_modifier};
use dnd_engine::srd::{
    ActionUsage, AttackKind, ConditionInfo, FiveEDatabase, Monster, MonsterAction, OnSave,
    RulesTopic, Spell, Srd, load_dir,
};

/// `println!` with control characters and escape sequences removed from the line.
macro_rules! out {
    ($($arg:tt)*) => {
        println!("{}", dnd_engine::text::terminal_safe(&format!($($arg)*)))
    };
}

/// The command line.
#[derive(Debug, Parser)]
#[command(
    name = "srd",
    version,
    about = "Look up monsters, spells, rules topics and conditions in the SRD",
    args_override_self = true
)]
struct Cli {
    /// Read the SRD from a 5e-database folder instead of the bundled data.
    #[arg(long = "5e-database", value_name = "DIR", global = true)]
    database: Option<PathBuf>,
    /// Print the record as JSON.
    #[arg(long, global = true)]
    json: bool,
    #[command(subcommand)]
    lookup: Lookup,
}

/// What to look up.
#[derive(Debug, Subcommand)]
enum Lookup {
    /// A monster's stat block.
    Monster {
        /// Its name (several words are joined).
        #[arg(required = true)]
        name: Vec<String>,
    },
    /// A spell.
    Spell {
        /// Its name.
        #[arg(required = true)]
        name: Vec<String>,
    },
    /// A rules topic (name, summary, mechanics).
    Rule {
        /// Its name.
        #[arg(required = true)]
        name: Vec<String>,
    },
    /// A condition and its effects.
    Condition {
        /// Its name.
        #[arg(required = true)]
        name: Vec<String>,
    },
    /// Every name of a kind.
    List {
        /// monsters, spells, rules or conditions.
        #[arg(required = true, value_name = "monsters|spells|rules|conditions")]
        kind: Vec<String>,
    },
    /// What was loaded (with --5e-database: every record that did not load).
    Summary,
}

/// The command line as the lookups read it: the command's word and its argument.
#[derive(Debug)]
struct Options {
    database: Option<PathBuf>,
    json: bool,
    command: String,
    argument: String,
}

impl From<Cli> for Options {
    fn from(cli: Cli) -> Self {
        let (command, words) = match cli.lookup {
            Lookup::Monster { name } => ("monster", name),
            Lookup::Spell { name } => ("spell", name),
            Lookup::Rule { name } => ("rule", name),
            Lookup::Condition { name } => ("condition", name),
            Lookup::List { kind } => ("list", kind),
            Lookup::Summary => ("summary", Vec::new()),
        };
        Options {
            database: cli.database,
            json: cli.json,
            command: command.to_owned(),
            argument: words.join(" "),
        }
    }
}

fn main() -> ExitCode {
    // `--help` and `--version` exit 0; bad usage exits 2 with clap's message.
    let opts = Options::from(Cli::parse());
    let loaded: Option<FiveEDatabase> = match &opts.database {
        None => None,
        Some(dir) => match load_dir(dir) {
            Ok(db) => Some(db),
            Err(error) => {
                let error = error.to_string();
                eprintln!("error: {}", dnd_engine::text::terminal_safe(&error));
                return ExitCode::from(1);
            }
        },
    };
    if opts.command == "summary" {
        return summary(loaded.as_ref());
    }
    if let Some(db) = &loaded {
        let failed = db.failures().count();
        if failed > 0 {
            eprintln!("warning: {failed} records did not load (see the `summary` command)");
        }
    }
    let owned;
    let srd: &Srd = match loaded {
        Some(db) => {
            owned = db.into_srd();
            &owned
        }
        None => Srd::bundled(),
    };
    let name = opts.argument.as_str();
    let json = opts.json;
    let shown = match opts.command.as_str() {
        "monster" => srd.monster(name).map(|m| {
            show(json.then(|| serde_json::to_string_pretty(m)), || {
                print_monster(m)
            })
        }),
        "spell" => srd.spell(name).map(|s| {
            show(json.then(|| serde_json::to_string_pretty(s)), || {
                print_spell(s)
            })
        }),
        "rule" => srd.rule(name).map(|r| {
            show(json.then(|| serde_json::to_string_pretty(r)), || {
                print_rule(r)
            })
        }),
        "condition" => srd.condition(name).map(|c| {
            show(json.then(|| serde_json::to_string_pretty(c)), || {
                print_condition(c)
            })
        }),
        _ => return list(srd, name),
    };
    match shown {
        Ok(code) => code,
        Err(error) => {
            // "Did you mean" names records of the folder.
            let error = error.to_string();
            eprintln!("error: {}", dnd_engine::text::terminal_safe(&error));
            ExitCode::from(1)
        }
    }
}

/// Prints a record: as JSON when `json` holds its serialization, else with `print`.
fn show(json: Option<serde_json::Result<String>>, print: impl FnOnce()) -> ExitCode {
    let Some(json) = json else {
        print();
        return ExitCode::SUCCESS;
    };
    match json {
        Ok(text) => {
            out!("{text}");
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("error: cannot serialize: {error}");
            ExitCode::from(1)
        }
    }
}

fn list(srd: &Srd, what: &str) -> ExitCode {
    let names: Vec<&str> = match what {
        "monsters" => srd.monsters.iter().map(|m| m.name.as_str()).collect(),
        "spells" => srd.spells.iter().map(|s| s.name.as_str()).collect(),
        "rules" => srd.rules.iter().map(|r| r.name.as_str()).collect(),
        "conditions" => srd.conditions.iter().map(|c| c.name.as_str()).collect(),
        other => {
            eprintln!("cannot list {other:?}: expected monsters, spells, rules or conditions");
            return ExitCode::from(2);
        }
    };
    for name in names {
        out!("{name}");
    }
    ExitCode::SUCCESS
}

fn summary(loaded: Option<&FiveEDatabase>) -> ExitCode {
    let Some(db) = loaded else {
        let srd = Srd::bundled();
        out!(
            "bundled SRD: {} monsters, {} spells, {} conditions, {} weapons, {} armor, {} rules topics",
            srd.monsters.len(),
            srd.spells.len(),
            srd.conditions.len(),
            srd.weapons.len(),
            srd.armor.len(),
            srd.rules.len()
        );
        return ExitCode::SUCCESS;
    };
    out!("loaded {db}");
    out!(
        "  monsters: {} loaded, {} failed",
        db.monsters.loaded.len(),
        db.monsters.failures.len()
    );
    out!(
        "  spells:   {} loaded, {} failed",
        db.spells.loaded.len(),
        db.spells.failures.len()
    );
    out!("  spell effects: {}", db.spell_effects);
    for (file, failure) in db.failures() {
        out!("  {file}: {failure}");
    }
    if db.is_complete() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

fn signed(n: i32) -> String {
    format!("{n:+}")
}

fn types(set: DamageTypes) -> String {
    set.iter().map(|t| t.name()).collect::<Vec<_>>().join(", ")
}

fn print_monster(m: &Monster) {
    out!("{}", m.name);
    out!("{:?} {}, {}", m.size, m.kind, m.alignment);
    match &m.armor_note {
        Some(note) => out!("Armor Class {} ({note})", m.armor_class),
        None => out!("Armor Class {}", m.armor_class),
    }
    out!("Hit Points {} ({})", m.hit_points, m.hit_dice);
    let s = m.speed;
    let mut speeds = vec![format!("{} ft.", s.walk)];
    for (name, feet) in [
        ("fly", s.fly),
        ("swim", s.swim),
        ("climb", s.climb),
        ("burrow", s.burrow),
    ] {
        if feet > 0 {
            speeds.push(format!("{name} {feet} ft."));
        }
    }
    if s.hover {
        speeds.push("(hover)".into());
    }
    out!("Speed {}", speeds.join(", "));
    let scores: Vec<String> = Ability::ALL
        .iter()
        .map(|&a| {
            let score = m.abilities.score(a);
            format!(
                "{} {score} ({})",
                a.abbreviation().to_uppercase(),
                signed(ability_modifier(score))
            )
        })
        .collect();
    out!("{}", scores.join("  "));
    let line = |label: &str, items: Vec<String>| {
        if !items.is_empty() {
            out!("{label} {}", items.join(", "));
        }
    };
    line(
        "Saving Throws",
        m.saving_throws
            .iter()
            .map(|(a, b)| format!("{} {}", a.name(), signed(*b)))
            .collect(),
    );
    line(
        "Skills",
        m.skills
            .iter()
            .map(|(k, b)| format!("{k} {}", signed(*b)))
            .collect(),
    );
    let d = m.defenses;
    line(
        "Damage Vulnerabilities",
        (!d.vulnerabilities.is_empty())
            .then(|| types(d.vulnerabilities))
            .into_iter()
            .collect(),
    );
    line(
        "Damage Resistances",
        (!d.resistances.is_empty())
            .then(|| types(d.resistances))
            .into_iter()
            .collect(),
    );
    line(
        "Damage Immunities",
        (!d.immunities.is_empty())
            .then(|| types(d.immunities))
            .into_iter()
            .collect(),
    );
    line("Other Defenses", m.conditional_defenses.clone());
    line(
        "Condition Immunities",
        m.condition_immunities
            .iter()
            .map(|c| c.name().to_owned())
            .collect(),
    );
    let mut senses = vec![];
    if !m.senses.is_empty() {
        senses.push(m.senses.clone());
    }
    senses.push(format!("passive Perception {}", m.passive_perception));
    line("Senses", senses);
    line(
        "Languages",
        vec![if m.languages.is_empty() {
            "\u{2014}".into()
        } else {
            m.languages.clone()
        }],
    );
    out!("Challenge {} ({} XP)", m.challenge_rating, m.xp);
    for t in &m.traits {
        out!("\n{}. {}", t.name, t.description);
    }
    print_actions("Actions", &m.actions);
    if !m.reactions.is_empty() {
        out!("\nReactions");
        for r in &m.reactions {
            out!("{}. {}", r.name, r.description);
        }
    }
    print_actions("Legendary Actions", &m.legendary_actions);
}

fn print_actions(title: &str, actions: &[MonsterAction]) {
    if actions.is_empty() {
        return;
    }
    out!("\n{title}");
    for a in actions {
        match a.cost {
            Some(cost) if cost > 1 => {
                out!("{} (Costs {cost} Actions). {}", a.name, a.description)
            }
            _ => out!("{}. {}", a.name, a.description),
        }
        let mechanics = mechanics(a);
        if !mechanics.is_empty() {
            out!("  [{}]", mechanics.join("; "));
        }
    }
}

/// The structured part of an action, as the rules engine sees it.
fn mechanics(a: &MonsterAction) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(attack) = &a.attack {
        let kind = match attack.kind {
            AttackKind::MeleeWeapon => "melee weapon",
            AttackKind::RangedWeapon => "ranged weapon",
            AttackKind::MeleeOrRangedWeapon => "melee or ranged weapon",
            AttackKind::MeleeSpell => "melee spell",
            AttackKind::RangedSpell => "ranged spell",
        };
        let mut text = format!("{kind} {} to hit", signed(attack.to_hit));
        if let Some(reach) = attack.reach {
            text.push_str(&format!(", reach {reach} ft."));
        }
        if let Some((normal, long)) = attack.range {
            text.push_str(&format!(", range {normal}/{long} ft."));
        }
        out.push(text);
    }
    if let Some(save) = a.save {
        out.push(format!(
            "DC {} {} save{}",
            save.dc,
            save.ability.name(),
            on_save(save.on_success)
        ));
    }
    let dice = |list: &[dnd_engine::rules::DamageDice]| {
        list.iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" + ")
    };
    if !a.damage.is_empty() {
        out.push(format!("damage {}", dice(&a.damage)));
    }
    if !a.damage_options.is_empty() && a.damage_options != a.damage {
        let options: Vec<String> = a.damage_options.iter().map(ToString::to_string).collect();
        out.push(format!("one of {}", options.join(" | ")));
    }
    for (i, way) in a.multiattack.iter().enumerate() {
        let steps: Vec<String> = way
            .iter()
            .map(|s| format!("{} \u{d7}{}", s.action, s.count))
            .collect();
        out.push(format!(
            "{}{}",
            if i == 0 { "" } else { "or " },
            steps.join(", ")
        ));
    }
    match a.usage {
        Some(ActionUsage::Recharge { min }) => out.push(format!("recharge {min}\u{2013}6")),
        Some(ActionUsage::PerDay { times }) => out.push(format!("{times}/day")),
        Some(ActionUsage::AfterRest { short: true }) => {
            out.push("once per short or long rest".into())
        }
        Some(ActionUsage::AfterRest { short: false }) => out.push("once per long rest".into()),
        None => {}
    }
    out
}

fn on_save(on: OnSave) -> &'static str {
    match on {
        OnSave::Half => ", half on a success",
        OnSave::None => "",
        OnSave::Other => ", see the description",
    }
}

fn ordinal(level: u8) -> String {
    let suffix = match level {
        1 => "st",
        2 => "nd",
        3 => "rd",
        _ => "th",
    };
    format!("{level}{suffix}")
}

fn print_spell(s: &Spell) {
    out!("{}", s.name);
    let school = format!("{:?}", s.school).to_lowercase();
    match (s.level, s.ritual) {
        (0, _) => out!("{school} cantrip"),
        (level, false) => out!("{}-level {school}", ordinal(level)),
        (level, true) => out!("{}-level {school} (ritual)", ordinal(level)),
    }
    out!("Casting Time: {}", s.casting_time);
    out!("Range: {}", s.range);
    let c = &s.components;
    let mut parts = Vec::new();
    if c.verbal {
        parts.push("V".to_owned());
    }
    if c.somatic {
        parts.push("S".to_owned());
    }
    match c.material.as_deref() {
        Some("") => parts.push("M".to_owned()),
        Some(material) => parts.push(format!("M ({material})")),
        None => {}
    }
    out!("Components: {}", parts.join(", "));
    let concentration = if s.concentration {
        " (concentration)"
    } else {
        ""
    };
    out!("Duration: {}{concentration}", s.duration);
    if !s.classes.is_empty() {
        out!("Classes: {}", s.classes.join(", "));
    }
    // What it does, in the effects engine's vocabulary (the same JSON as the data), or why
    // it has none.
    if !s.effects.is_empty() {
        out!("Effects:");
        for effect in &s.effects {
            let json = serde_json::to_string(effect).unwrap_or_else(|e| e.to_string());
            out!("  {json}");
        }
    }
    if let Some(why) = s.narrative.as_ref().or(s.unmodelled.as_ref()) {
        out!("No effects: {why}");
    }
    if let Some(area) = &s.area {
        out!("Area: {}-foot {}", area.size, area.shape);
    }
    out!("\n{}", s.description);
    if let Some(higher) = &s.higher_levels {
        out!("\nAt Higher Levels. {higher}");
    }
}

fn print_rule(r: &RulesTopic) {
    out!("{}", r.name);
    if !r.aliases.is_empty() {
        out!("also: {}", r.aliases.join(", "));
    }
    out!("\n{}", r.summary);
    if !r.mechanics.is_empty() {
        out!("\nMechanics");
        for (name, value) in &r.mechanics {
            match value {
                serde_json::Value::String(text) => out!("  {name}: {text}"),
                other => out!("  {name}: {other}"),
            }
        }
    }
}

fn print_condition(c: &ConditionInfo) {
    out!("{}", c.name);
    for effect in &c.effects {
        out!("  - {effect}");
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    fn parse(args: &[&str]) -> Result<Options, String> {
        Cli::try_parse_from(std::iter::once("srd").chain(args.iter().copied()))
            .map(Options::from)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn commands_and_flags_in_any_order() {
        Cli::command().debug_assert();
        let opts = parse(&["monster", "adult", "red", "dragon", "--json"]).unwrap();
        assert_eq!(
            (opts.command.as_str(), opts.argument.as_str()),
            ("monster", "adult red dragon")
        );
        assert!(opts.json);
        let opts = parse(&["--5e-database=db", "summary"]).unwrap();
        assert_eq!(opts.database, Some(PathBuf::from("db")));
        assert_eq!(opts.command, "summary");
        assert!(parse(&["monster"]).is_err(), "a name is needed");
        assert!(parse(&["summary", "x"]).is_err(), "summary takes no name");
        assert!(parse(&["dance"]).is_err());
        assert!(
            parse(&["--dance", "summary"])
                .unwrap_err()
                .contains("--dance")
        );
    }
}
