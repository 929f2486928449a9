//! The adventure format through the public API: the built-in adventure validates, round-trips
//! and starts games; a started game serializes and moves; files that cannot be read say which.

use dnd_engine::adventure::Adventure;
use dnd_engine::state::{Change, GameState, Mode};

fn glacier() -> Adventure {
    Adventure::from_json(Adventure::built_in_json(), "wailing_glacier.json")
        .unwrap_or_else(|e| panic!("the built-in adventure must validate:\n{e}"))
}

#[test]
fn the_built_in_adventure_validates_and_round_trips() {
    let adventure = glacier();
    assert_eq!(adventure, Adventure::built_in());
    assert_eq!(adventure.title, "The Wailing Glacier");
    adventure.validate("built-in").unwrap();
    let text = serde_json::to_string_pretty(&adventure).unwrap();
    assert_eq!(
        Adventure::from_json(&text, "again.json").unwrap(),
        adventure
    );
}

#[test]
fn new_game_builds_for_each_hero_and_for_all() {
    let adventure = glacier();
    for id in adventure.character_ids() {
        let game = adventure.new_game(&[id]).unwrap();
        assert_eq!(game.characters.len(), 1);
        assert_eq!(game.characters[0].id, id);
        assert_eq!(game.party_location().unwrap().id, "ice-chasm");
    }
    let game = adventure.new_game(&[]).unwrap();
    assert_eq!(game.characters.len(), 4);
    assert!(game.characters.iter().all(|c| c.location == "ice-chasm"));
    assert_eq!(game.locations.len(), 5);
    for location in game.locations.iter() {
        assert_eq!(location.visited, location.id == "ice-chasm");
    }
    let harpy = game.monster("frost-harpy").unwrap();
    assert_eq!(
        (harpy.name.as_str(), harpy.template.as_str()),
        ("Frost Harpy", "harpy")
    );
    assert_eq!(
        (harpy.hp.current, harpy.hp.max, harpy.armor_class),
        (30, 30, 11)
    );
    assert!(game.monsters.iter().all(|m| !m.revealed));
    let jarl = game.monster("hollow-jarl").unwrap();
    assert_eq!(
        (jarl.hp.max, jarl.armor_class, jarl.hostile),
        (22, 12, true)
    );
    assert!(!game.monster("mere-light").unwrap().hostile);
    assert_eq!(game.npc("sigrun").unwrap().location, "hall-of-echoes");
    assert_eq!(game.time.describe(), "day 1, 08:00");
    assert_eq!(game.mode, Mode::Exploration);
    assert_eq!(*game.flags, adventure.flags);
    assert_eq!(*game.summary, *adventure.summary);

    let error = adventure.new_game(&["kraven", "gandalf"]).unwrap_err();
    assert_eq!(
        error.to_string(),
        "adventure \"The Wailing Glacier\": party[1]: no pregenerated character \"gandalf\"; \
         the characters are: kraven, isolde, hedda, wren"
    );
    assert!(adventure.new_game(&["wren", "wren"]).is_err());
}

#[test]
fn a_new_game_serializes_and_moves_through_the_first_open_exit() {
    let mut game = glacier().new_game(&["kraven"]).unwrap();
    let json = serde_json::to_string(&game).unwrap();
    let back: GameState = serde_json::from_str(&json).unwrap();
    assert_eq!(back, game);

    let here = game.party_location().unwrap();
    let exit = here.exits.iter().find(|e| e.is_passable()).unwrap().clone();
    game.apply(&Change::PartyMoved {
        exit: exit.direction.clone(),
    })
    .unwrap();
    let there = game.party_location().unwrap();
    assert_eq!(there.id, exit.to);
    assert!(there.visited);

    // The hidden crawlway cannot be used before it is found.
    let crawlway = Change::PartyMoved {
        exit: "crawlway".into(),
    };
    assert!(game.clone().apply(&crawlway).is_err());
    game.apply(&Change::ExitFound {
        location: there.id.clone(),
        direction: "crawlway".into(),
    })
    .unwrap();
    game.apply(&crawlway).unwrap();
    assert_eq!(game.party_location().unwrap().id, "throne-of-rime");
    // The Rime Door is locked until opened.
    let door = Change::PartyMoved {
        exit: "rime door".into(),
    };
    assert!(game.clone().apply(&door).is_err());
}

#[test]
fn a_file_that_cannot_be_read_is_named() {
    let path = std::env::temp_dir().join("no-such-dir-for-dnd-tests/missing-adventure.json");
    let error = Adventure::load(&path).unwrap_err();
    let text = error.to_string();
    assert!(text.starts_with(&path.display().to_string()), "{text}");
    assert!(text.contains("cannot read the file"), "{text}");
}

#[test]
fn a_file_on_disk_loads_and_reports_with_its_name() {
    let dir = std::env::temp_dir().join(format!("dnd-adventure-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("glacier.json");
    std::fs::write(&good, Adventure::built_in_json()).unwrap();
    assert_eq!(Adventure::load(&good).unwrap(), glacier());
    let bad = dir.join("broken.json");
    let broken = Adventure::built_in_json().replace("\"to\": \"wisp-mere\"", "\"to\": \"mere\"");
    std::fs::write(&bad, broken).unwrap();
    let error = Adventure::load(&bad).unwrap_err().to_string();
    let _ = std::fs::remove_dir_all(&dir);
    // Both exits into the mere are reported, each on its own line.
    let rooms =
        "the rooms are: ice-chasm, hall-of-echoes, wisp-mere, throne-of-rime, glacier-heart";
    let name = bad.display();
    assert_eq!(
        error,
        format!(
            "{name}: rooms[hall-of-echoes].exits[down].to: no room \"mere\"; {rooms}\n\
             {name}: rooms[throne-of-rime].exits[south].to: no room \"mere\"; {rooms}"
        )
    );
}

/// Kraven alone against the two fights, through the encounter simulator (which swings his
/// greatsword every turn and knows nothing of Second Wind, Action Surge or potions).
#[test]
fn the_fights_suit_one_third_level_fighter() {
    use dnd_engine::rules::{Ability, DamageDice, DamageType};
    use dnd_engine::simulator::{Combatant, Side, simulate};
    use dnd_engine::srd::Srd;

    let game = glacier().new_game(&["kraven"]).unwrap();
    let kraven = &game.characters[0];
    let greatsword = &kraven.attacks[0];
    let hero = |extra: &[DamageDice]| {
        let mut damage = vec![kraven.attack_damage(greatsword)];
        damage.extend_from_slice(extra);
        let hero = Combatant::new(&kraven.name, Side::Party, kraven.hp.max, kraven.armor_class)
            .with_initiative(
                kraven.abilities.modifier(Ability::Dexterity),
                kraven.abilities.dexterity,
            )
            .with_saves(Ability::ALL.map(|a| kraven.save_modifier(a)));
        let bonus = kraven.attack_bonus(greatsword);
        // The Hearthfire Oil (the extra fire) makes the blade magical.
        if extra.is_empty() {
            hero.with_attack(&greatsword.name, bonus, &damage)
        } else {
            hero.with_magic_attack(&greatsword.name, bonus, &damage)
        }
    };
    let foe = |id: &str, hit_points: u32| {
        let monster = game.monster(id).unwrap();
        let template = Srd::bundled().monster(&monster.template).unwrap();
        let mut foe = Combatant::from_monster(template).unwrap();
        foe.hit_points = hit_points;
        foe
    };
    let win = |hero: Combatant, foe: Combatant| {
        simulate(&[hero], &[foe], 2_000, 7)
            .unwrap()
            .party_win_probability
    };

    let harpy = win(hero(&[]), foe("frost-harpy", 30));
    assert!(harpy > 0.8, "the entrance fight should be won: {harpy}");
    // The Hollow Jarl, a specter, resists mundane steel (the simulator halves each hit). A
    // fair fight alone, a likely win with the Hearthfire Oil from the mere (magic, so no
    // resistance, and 1d4 fire more, which it does resist).
    let alone = win(hero(&[]), foe("hollow-jarl", 22));
    assert!((0.25..0.8).contains(&alone), "the climax alone: {alone}");
    let oiled = win(
        hero(&[DamageDice::new(1, 4, 0, DamageType::Fire)]),
        foe("hollow-jarl", 22),
    );
    assert!(
        oiled > 0.75 && oiled > alone + 0.25,
        "the climax with the oil: {oiled} (alone {alone})"
    );
}
