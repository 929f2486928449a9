//! The cleric's Channel Divinity through `use_feature`, worked as the SRD gives it: Turn
//! Undead (undead within 30 ft save or flee for a minute; a turned creature flees on its turn
//! and takes no reactions), Destroy Undead at 5th level, Preserve Life; the Life domain's
//! Disciple of Life on a healing spell; and a model that cheats with them, refused each time
//! with what is allowed, changing nothing.

use std::sync::Arc;

use serde_json::{Value, json};

use dnd_engine::combat::may_act;
use dnd_engine::llm::ToolCall;
use dnd_engine::rules::{HitPoints, Spend};
use dnd_engine::state::{Change, GameState, Position, Target, TimedEffect, TimedKind};

#[path = "support/table.rs"]
mod table;
use table::{Table, at, cast, order};

fn turn_undead(who: &str) -> Value {
    json!({"character": who, "feature": "channel-divinity-turn-undead"})
}

fn preserve(who: &str, split: &str) -> Value {
    json!({"character": who, "feature": "channel-divinity-preserve-life", "option": split})
}

/// `party` in the ice chasm against copies of the harpy with these SRD templates (id = the
/// template), `hp` each, in the fight `ids`, everyone placed as `places` say (the chasm's
/// areas: the glacier's mouth at (0, 0), the dark archway at (80, 0)).
fn fight_undead(
    party: &[&str],
    undead: &[(&str, u32)],
    ids: &[&str],
    places: &[(&str, Position)],
) -> GameState {
    let mut state = table::seen_harpy(party);
    for (template, hp) in undead {
        let mut m = state.monsters[0].clone();
        m.id = (*template).into();
        m.name = template[..1].to_uppercase() + &template[1..];
        m.template = (*template).into();
        m.kind = "undead".into();
        m.hp = HitPoints::full(*hp);
        Arc::make_mut(&mut state.monsters).push(m);
    }
    let mut changes = vec![Change::EncounterStarted { order: order(ids) }];
    for (id, to) in places {
        changes.push(Change::Moved {
            creature: (*id).into(),
            to: *to,
        });
    }
    state.apply_all(&changes).unwrap();
    state
}

/// Hedda at the glacier's mouth; a zombie (CR 1/4) 10 ft away, a ghoul (CR 1) 20 ft away, a
/// skeleton 80 ft away at the archway; Hedda's turn.
fn crypt(seed: u64) -> Table {
    let state = fight_undead(
        &["hedda", "kraven"],
        &[("zombie", 22), ("ghoul", 22), ("skeleton", 13)],
        &["hedda", "zombie", "ghoul", "skeleton", "kraven"],
        &[
            ("hedda", at(0, 0, 0)),
            ("kraven", at(0, 5, 0)),
            ("zombie", at(10, 0, 0)),
            ("ghoul", at(20, 0, 0)),
            ("skeleton", at(80, 0, 0)),
        ],
    );
    Table::new(state, seed)
}

fn turned(state: &GameState, id: &str) -> bool {
    state
        .monster(id)
        .unwrap()
        .timed_effects
        .iter()
        .any(|e| e.kind == TimedKind::Turned && e.source == "hedda" && e.rounds_left == Some(10))
}

#[test]
fn turn_undead_turns_the_undead_within_30_ft_that_fail_a_wisdom_save() {
    let mut seen_both = false;
    for seed in 0..20 {
        let mut t = crypt(seed);
        let report = t.ok("use_feature", turn_undead("hedda"));
        let effect = report["effect"].as_str().unwrap();
        // Hedda's spell save DC: 8 + 2 + 3 (Wisdom 16).
        assert!(effect.contains("Wisdom save DC 13"), "{effect}");
        for (id, name) in [("zombie", "Zombie"), ("ghoul", "Ghoul")] {
            let fails = effect.contains(&format!("{name} fails"));
            assert_eq!(turned(&t.state, id), fails, "seed {seed}: {effect}");
            assert!(
                fails || effect.contains(&format!("{name} resists")),
                "{effect}"
            );
        }
        seen_both |= turned(&t.state, "zombie") && turned(&t.state, "ghoul");
        // The skeleton 80 ft away is beyond its reach.
        assert!(!effect.contains("Skeleton"), "{effect}");
        assert!(
            t.state
                .monster("skeleton")
                .unwrap()
                .timed_effects
                .is_empty()
        );
        // One use of Channel Divinity (1 at cleric 3, per short rest) and the action.
        assert_eq!(report["feature"], "Channel Divinity: Turn Undead");
        assert_eq!(
            (report["uses_left"].as_u64(), report["uses_of"].as_u64()),
            (Some(0), Some(1))
        );
        let hedda = t.state.character("hedda").unwrap();
        assert_eq!(hedda.feature_uses["channel-divinity-1-rest"].spent, 1);
        assert!(t.state.encounter.as_ref().unwrap().budget.action_used);
        // No creature is destroyed before 5th level.
        assert_eq!(t.state.monster("zombie").unwrap().hp.current, 22);
    }
    assert!(seen_both, "some seed turns both");
}

/// Starts Hedda's turning on `id` directly (the save is the previous test's).
fn turn_by_hand(t: &mut Table, id: &str) {
    t.apply(&[Change::TimedEffectStarted {
        effect: TimedEffect {
            source: "hedda".into(),
            spell: "Turn Undead".into(),
            target: id.into(),
            concentration: false,
            rounds_left: Some(10),
            ends_on_damage: true,
            level: 0,
            at_turn_end: false,
            kind: TimedKind::Turned,
        },
    }]);
}

/// Hedda at `hedda`, a zombie at `zombie`, Kraven at the glacier's mouth; Hedda's turn, then
/// the zombie's.
fn zombie_at(hedda: Position, zombie: Position) -> Table {
    let state = fight_undead(
        &["hedda", "kraven"],
        &[("zombie", 22)],
        &["hedda", "zombie", "kraven"],
        &[
            ("hedda", hedda),
            ("kraven", at(0, 5, 0)),
            ("zombie", zombie),
        ],
    );
    Table::new(state, 3)
}

#[test]
fn a_turned_undead_dashes_away_takes_no_reaction_and_damage_ends_it() {
    let mut t = zombie_at(at(5, 0, 0), at(10, 0, 0));
    turn_by_hand(&mut t, "zombie");
    // No reaction, no attack; it may still Dash.
    let no = may_act(&t.state, "zombie", Spend::Reaction)
        .unwrap_err()
        .to_string();
    assert!(no.contains("turned by Hedda"), "{no}");
    // Hedda steps out of the reach of the zombie beside her: no opportunity attack.
    let moved = t.ok(
        "move_in_fight",
        json!({"creature": "hedda", "to": "glacier-mouth", "feet": null}),
    );
    let hp = t.state.character("hedda").unwrap().hp;
    assert_eq!(moved["feet"], 5, "{moved}");
    assert!(!moved.to_string().contains("\"attacker\""), "{moved}");
    // Its turn: it flees toward the archway, the farthest place from Hedda, with a Dash.
    let before = dnd_engine::combat::positions::distance(&t.state, "zombie", "hedda");
    let report = t.ok("next_turn", json!({}));
    let text = report.to_string();
    assert!(text.contains("dashes away"), "{text}");
    assert!(
        !text.contains("\"attacker\":\"Zombie\""),
        "it attacks no one: {text}"
    );
    let after = dnd_engine::combat::positions::distance(&t.state, "zombie", "hedda");
    assert!(after > before + 20, "{before} -> {after}: {text}");
    assert_eq!(t.state.character("hedda").unwrap().hp, hp);
    assert!(turned(&t.state, "zombie") || t.state.monster("zombie").unwrap().hp.current < 22);
    // Damage ends the turning.
    t.apply(&[Change::Damage {
        target: Target::Monster("zombie".into()),
        amount: 1,
        critical: false,
    }]);
    assert!(!turned(&t.state, "zombie"));
    assert!(may_act(&t.state, "zombie", Spend::Reaction).is_ok());
}

#[test]
fn a_turned_undead_is_refused_its_attack_on_its_turn_but_may_dash() {
    let mut t = zombie_at(at(0, 0, 0), at(5, 0, 0));
    turn_by_hand(&mut t, "zombie");
    t.apply(&[Change::TurnAdvanced]);
    assert_eq!(t.turn_of(), "zombie");
    let no = t.refused("roll_attack", table::attack("zombie", "hedda"));
    assert!(
        no.contains("turned by Hedda Stonebrow's Turn Undead"),
        "{no}"
    );
    assert!(no.contains("may only Dash"), "{no}");
    t.ok("dash", json!({"creature": "zombie"}));
}

#[test]
fn a_turned_undead_with_nowhere_farther_to_flee_dodges() {
    // At the archway, 80 ft off: no place of the chasm is farther from Hedda.
    let mut t = zombie_at(at(0, 0, 0), at(80, 0, 0));
    turn_by_hand(&mut t, "zombie");
    let report = t.ok("next_turn", json!({}));
    assert!(report.to_string().contains("Dodges"), "{report}");
    assert!(!report.to_string().contains("\"attacker\""), "{report}");
}

#[test]
fn destroy_undead_at_5th_level_destroys_challenge_half_or_lower() {
    let mut seen = false;
    for seed in 0..30 {
        let mut t = crypt(seed);
        t.hero_mut("hedda").level = 5;
        let effect = t.ok("use_feature", turn_undead("hedda"))["effect"]
            .as_str()
            .unwrap()
            .to_owned();
        if effect.contains("Zombie fails") {
            // CR 1/4: destroyed, not turned.
            assert!(
                effect.contains("Zombie fails") && effect.contains("is destroyed"),
                "{effect}"
            );
            assert_eq!(t.state.monster("zombie").unwrap().hp.current, 0);
            assert!(!turned(&t.state, "zombie"));
        }
        if effect.contains("Ghoul fails") {
            // CR 1: only turned.
            assert!(turned(&t.state, "ghoul"), "{effect}");
            assert_eq!(t.state.monster("ghoul").unwrap().hp.current, 22);
            seen |= effect.contains("Zombie fails");
        }
    }
    assert!(seen, "some seed has both fail");
}

#[test]
fn preserve_life_shares_5_per_level_none_above_half() {
    let mut t = crypt(1);
    t.apply(&[Change::Damage {
        target: Target::Character("kraven".into()),
        amount: 25,
        critical: false,
    }]);
    t.apply(&[Change::Damage {
        target: Target::Character("hedda".into()),
        amount: 20,
        critical: false,
    }]);
    let kraven = t.state.character("kraven").unwrap().hp;
    let hedda = t.state.character("hedda").unwrap().hp;
    let kraven_room = kraven.max / 2 - kraven.current;
    let hedda_room = hedda.max / 2 - hedda.current;
    assert!(kraven_room >= 9 && hedda_room >= 5, "{kraven:?} {hedda:?}");
    // 15 hit points at cleric 3: too many asked, or one raised above half: refused.
    let much = t.refused("use_feature", preserve("hedda", "kraven: 10, hedda: 6"));
    assert!(much.contains("Preserve Life has 15"), "{much}");
    let above = t.refused(
        "use_feature",
        preserve("hedda", &format!("kraven: {}", kraven_room + 1)),
    );
    assert!(above.contains(&format!("up to {kraven_room}")), "{above}");
    let undead = t.refused("use_feature", preserve("hedda", "zombie: 3"));
    assert!(undead.contains("no effect on undead"), "{undead}");
    let none = t.refused(
        "use_feature",
        json!({"character": "hedda", "feature": "channel-divinity-preserve-life"}),
    );
    assert!(none.contains("give the split as option"), "{none}");
    assert!(
        none.contains(&format!("kraven up to {kraven_room}")),
        "{none}"
    );

    let report = t.ok("use_feature", preserve("hedda", "kraven: 9, hedda: 5"));
    assert_eq!(report["healed"], 14);
    assert_eq!(
        t.state.character("kraven").unwrap().hp.current,
        kraven.current + 9
    );
    assert_eq!(
        t.state.character("hedda").unwrap().hp.current,
        hedda.current + 5
    );
    assert_eq!(report["uses_left"], 0);
    // The one use is spent: Turn Undead waits for a rest too.
    let again = t.refused("use_feature", turn_undead("hedda"));
    assert!(
        again.contains("comes back after a short or long rest"),
        "{again}"
    );
}

/// Hedda's Cure Wounds on Kraven, with dice `seed`: the hit points it restored.
fn cure(seed: u64, life: bool, slot: u8) -> u64 {
    let mut t = Table::fight(
        &["hedda", "kraven"],
        &["hedda", "kraven", "frost-harpy"],
        seed,
    );
    t.apply(&[Change::Damage {
        target: Target::Character("kraven".into()),
        amount: 25,
        critical: false,
    }]);
    if !life {
        t.hero_mut("hedda").subclass = None;
    }
    let r = t.ok(
        "cast_spell",
        cast("hedda", "Cure Wounds", Some(slot), &["kraven"]),
    );
    r["effects"][0]["healed"].as_u64().unwrap()
}

#[test]
fn disciple_of_life_adds_2_plus_the_spell_level_to_a_healing_spell() {
    for seed in 0..5 {
        // 1d8 + 3 (Wisdom), and 2 + 1 more from a Life cleric.
        let plain = cure(seed, false, 1);
        assert!((4..=11).contains(&plain));
        assert_eq!(cure(seed, true, 1), plain + 3);
        // At a 2nd-level slot: 2d8 + 3, and 2 + 2 more.
        assert_eq!(cure(seed, true, 2), cure(seed, false, 2) + 4);
    }
    // A cantrip heals nothing, and Spare the Dying is no healing of 1st level: no bonus there.
}

/// A scripted model turns undead where there are none, twice, for the wrong hero, and names
/// Channel Divinity without its effect: each refused with what is allowed.
#[tokio::test]
async fn a_model_cheating_with_channel_divinity_is_refused() {
    // The harpy is no undead.
    let before = table::fight(&["hedda", "wren"], &["hedda", "wren", "frost-harpy"]);
    let cheats = vec![
        ToolCall::new("a", "use_feature", turn_undead("hedda")),
        ToolCall::new("b", "use_feature", turn_undead("wren")),
        ToolCall::new(
            "c",
            "use_feature",
            json!({"character": "hedda", "feature": "channel-divinity"}),
        ),
        ToolCall::new("d", "use_feature", preserve("hedda", "wren: 500")),
    ];
    let table::Played { results, after, .. } =
        table::scripted_turn(&before, cheats, "Hedda", "Begone, foul things!").await;
    assert_eq!(results.len(), 4, "{results:#?}");
    for (i, want) in [
        (0, "nothing to turn"),
        (1, "has no feature"),
        (
            2,
            "channel-divinity-turn-undead, channel-divinity-preserve-life",
        ),
        (3, "Preserve Life has 15"),
    ] {
        assert!(results[i].contains("\"error\""), "call {i}: {}", results[i]);
        assert!(results[i].contains(want), "call {i}: {}", results[i]);
    }
    assert_eq!(after.characters, before.characters);
}

#[test]
fn too_low_a_level_or_out_of_turn_is_refused_changing_nothing() {
    let mut t = crypt(2);
    t.hero_mut("hedda").level = 1;
    let low = t.refused("use_feature", turn_undead("hedda"));
    assert!(low.contains("comes at cleric level 2"), "{low}");
    t.hero_mut("hedda").level = 3;
    t.ok("next_turn", json!({}));
    // The undead have acted; now it is Kraven's turn, not Hedda's.
    assert_eq!(t.turn_of(), "kraven");
    let off = t.refused("use_feature", turn_undead("hedda"));
    assert!(off.contains("it is Kraven"), "{off}");
}

/// The offline game master plays Hedda's Channel Divinity on her turn: Turn Undead against an
/// undead foe (then the monsters act), Preserve Life when Kraven is below half his hit points,
/// and neither when nobody is hurt and no undead stands here.
#[tokio::test]
async fn the_offline_game_master_channels_divinity_for_hedda() {
    let spent = |outcome: &dnd_engine::gm::TurnOutcome| {
        outcome.changes.iter().any(|c| {
            matches!(c, Change::FeatureUsed { feature, .. } if feature == "channel-divinity-1-rest")
        })
    };
    let say = |line: &str| dnd_engine::gm::PlayerInput::new("Hedda", line);

    // Undead within 30 ft: Turn Undead, and the zombie takes its turn.
    let crypt = crypt(1).state;
    let (gm, _, id) = table::offline(&crypt).await;
    let outcome = gm.turn(&id, say("I smite the zombie!")).await.unwrap();
    assert!(spent(&outcome), "{:?}", outcome.changes);
    assert!(
        outcome
            .changes
            .iter()
            .any(|c| matches!(c, Change::TurnAdvanced)),
        "the monsters act after: {:?}",
        outcome.changes
    );

    // Kraven badly hurt against the harpy: Preserve Life raises him toward half.
    let mut hurt = table::fight(&["hedda", "kraven"], &["hedda", "kraven", "frost-harpy"]);
    hurt.apply(&Change::Damage {
        target: Target::Character("kraven".into()),
        amount: 24,
        critical: false,
    })
    .unwrap();
    let (gm, _, id) = table::offline(&hurt).await;
    let outcome = gm.turn(&id, say("I attack the harpy.")).await.unwrap();
    assert!(spent(&outcome), "{:?}", outcome.changes);
    assert!(
        outcome.changes.iter().any(
            |c| matches!(c, Change::Heal { target: Target::Character(k), .. } if k == "kraven")
        ),
        "{:?}",
        outcome.changes
    );

    // Nobody hurt, no undead: she strikes.
    let calm = table::fight(&["hedda", "kraven"], &["hedda", "kraven", "frost-harpy"]);
    let (gm, _, id) = table::offline(&calm).await;
    let outcome = gm.turn(&id, say("I attack the harpy.")).await.unwrap();
    assert!(!spent(&outcome), "{:?}", outcome.changes);
    assert!(outcome.changes.iter().any(|c| matches!(
        c,
        Change::Spent {
            spend: Spend::Attack,
            ..
        }
    )));
}
