//! Fair dice through real turns: an offline game master plays a seeded session with a fight;
//! its log verifies, and every kind of tampering is caught and named.

use std::sync::Arc;

use serde_json::json;

use super::*;
use crate::adventure::Adventure;
use crate::dice::fair::ServerSeed;
use crate::gm::{GameMaster, PlayerInput};
use crate::llm::{CompletionResponse, ScriptedProvider, ToolCall};
use crate::store::{MemoryStore, RollDetail};

/// Seeded server seeds: the sessions replay exactly.
const SEEDS: NewSeeds = NewSeeds::Seeded(21);

/// A campaign of the built-in adventure with fair dice on, and its game master.
async fn fair_campaign() -> (Arc<MemoryStore>, CampaignId, GameMaster) {
    let state = Adventure::built_in().new_game(&["kraven"]).unwrap();
    let store = Arc::new(MemoryStore::new());
    let id = store.create_campaign("Fair", &state).await.unwrap();
    let status = turn_on(&*store, &id, Some("player-seed"), SEEDS)
        .await
        .unwrap();
    assert!(status.on);
    assert_eq!(status.client_seed.as_deref(), Some("player-seed"));
    let gm = crate::offline::OfflineGm::game_master(store.clone())
        .seed(7)
        .build();
    (store, id, gm)
}

/// Plays `turns` turns: looks around, then takes the suggested actions in turn (the first, the
/// second, ...), as a player at the table might.
async fn play(gm: &GameMaster, id: &CampaignId, turns: usize) {
    let mut input = PlayerInput::new("Kraven", "I look around.");
    for turn in 0..turns {
        let outcome = gm.turn(id, input).await.unwrap();
        let actions = &outcome.suggested_actions;
        let pick = actions.get(turn % actions.len().max(1));
        input = match pick {
            Some(action) => PlayerInput::choose("Kraven", action),
            None => PlayerInput::new("Kraven", "I attack the nearest foe."),
        };
    }
}

/// A session of several turns, with an undo and a reveal in the middle, revealed at the end.
async fn session() -> (Arc<MemoryStore>, CampaignId, FairLog) {
    let (store, id, gm) = fair_campaign().await;
    // The second turn attacks: undone, and the fight played again.
    play(&gm, &id, 2).await;
    check_undo(&*store, &id, 1).await.unwrap();
    store.undo(&id, 1).await.unwrap();
    play(&gm, &id, 5).await;
    reveal(&*store, &id, AfterReveal::Recommit, SEEDS)
        .await
        .unwrap();
    play(&gm, &id, 4).await;
    let status = reveal(&*store, &id, AfterReveal::Off, SEEDS).await.unwrap();
    assert!(!status.on);
    assert_eq!(status.revealed.len(), 2);
    let log = export(&*store, &id).await.unwrap();
    (store, id, log)
}

fn kinds(log: &FairLog) -> Vec<&'static str> {
    log.rolls
        .iter()
        .map(|r| match r.detail {
            RollDetail::Attack(_) => "attack",
            RollDetail::Check(_) => "check",
            RollDetail::Save(_) => "save",
            RollDetail::Damage(_) => "damage",
            RollDetail::Initiative(_) => "initiative",
            _ => "other",
        })
        .collect()
}

#[tokio::test]
async fn a_real_play_session_verifies_across_an_undo_and_a_reveal() {
    let (_, _, log) = session().await;
    let kinds = kinds(&log);
    assert!(kinds.contains(&"attack"), "{kinds:?}");
    assert!(kinds.contains(&"initiative"), "{kinds:?}");
    assert!(log.rolls.len() >= 6, "{kinds:?}");
    assert!(
        log.rolls.iter().any(|r| r.undone),
        "the undone turn's rolls are in the log"
    );
    let report = verify(&log);
    assert!(report.ok(), "{:?}", report.failures);
    assert_eq!(report.verified, log.rolls.len());
    assert_eq!(report.unrevealed, 0);
    // Every nonce belongs to one turn, and no turn after the undo reused the undone one's.
    let undone: Vec<u64> = log
        .rolls
        .iter()
        .filter(|r| r.undone)
        .map(|r| r.nonce)
        .collect();
    assert!(
        log.rolls
            .iter()
            .filter(|r| !r.undone)
            .all(|r| !undone.contains(&r.nonce))
    );
}

#[tokio::test]
async fn changing_a_die_a_nonce_a_shown_face_or_the_seed_fails_and_names_the_roll() {
    let (_, _, log) = session().await;
    let at = log
        .rolls
        .iter()
        .position(|r| matches!(r.detail, RollDetail::Attack(_)))
        .unwrap();
    let roll = log.rolls[at].clone();
    let named = |report: &VerifyReport| {
        report.failures.iter().any(|f| {
            f.turn == roll.turn && f.label.contains(&roll.label) && f.nonce == Some(roll.nonce)
        })
    };

    let mut die = log.clone();
    let first = &mut die.rolls[at].dice[0];
    first.face = first.face % first.sides + 1;
    let report = verify(&die);
    assert!(!report.ok() && named(&report), "{:?}", report.failures);
    assert!(
        report
            .failures
            .iter()
            .any(|f| f.reason.contains("but the seed gives")),
        "{:?}",
        report.failures
    );

    let mut nonce = log.clone();
    nonce.rolls[at].nonce += 1;
    let report = verify(&nonce);
    assert!(!report.ok(), "{:?}", report.failures);
    assert!(
        report
            .failures
            .iter()
            .any(|f| f.turn == roll.turn && f.label == roll.label),
        "{:?}",
        report.failures
    );

    // The detail's d20 changed, the record's dice left alone.
    let mut shown = log.clone();
    let RollDetail::Attack(attack) = &mut shown.rolls[at].detail else {
        unreachable!()
    };
    attack.d20.rolls[0] = attack.d20.rolls[0] % 20 + 1;
    let report = verify(&shown);
    assert!(!report.ok() && named(&report), "{:?}", report.failures);
    assert!(
        report
            .failures
            .iter()
            .any(|f| f.reason.contains("not among the dice")),
        "{:?}",
        report.failures
    );

    let mut seed = log.clone();
    let other = ServerSeed::generate();
    let covering = seed
        .seeds
        .iter()
        .position(|s| (s.first_turn..=s.last_turn).contains(&roll.turn))
        .unwrap();
    seed.seeds[covering].server_seed = other.reveal();
    let report = verify(&seed);
    assert!(
        report
            .failures
            .iter()
            .any(|f| f.reason.contains("does not hash")),
        "{:?}",
        report.failures
    );
    // A seed swapped with its commitment is not the one recorded before play.
    seed.seeds[covering].commitment = other.commitment();
    let report = verify(&seed);
    assert!(
        report
            .failures
            .iter()
            .any(|f| f.reason.contains("was not recorded before")),
        "{:?}",
        report.failures
    );
    assert!(
        report.failures.iter().any(|f| named_loose(f, &roll)),
        "the rolls it covered are named: {:?}",
        report.failures
    );
}

fn named_loose(failure: &VerifyFailure, roll: &LoggedRoll) -> bool {
    failure.turn == roll.turn && failure.nonce == Some(roll.nonce)
}

#[tokio::test]
async fn the_commitment_is_recorded_before_the_first_roll() {
    let (store, id, _) = session().await;
    let history = store.history(&id, Page::first(1000)).await.unwrap();
    let committed = history
        .iter()
        .position(|h| {
            h.record
                .changes
                .iter()
                .any(|c| matches!(c, Change::FairCommitted { .. }))
        })
        .unwrap();
    let first_roll = history
        .iter()
        .position(|h| h.record.rolls.iter().any(|r| r.fair.is_some()))
        .unwrap();
    assert!(committed < first_roll, "{committed} {first_roll}");
    assert!(history[committed].record.rolls.is_empty());
    // And no roll of the campaign before the commitment is fair (none could be).
    assert!(
        history[..committed]
            .iter()
            .all(|h| h.record.rolls.iter().all(|r| r.fair.is_none()))
    );
}

#[tokio::test]
async fn the_seed_in_force_is_in_no_debug_print_status_or_log_before_its_reveal() {
    let (store, id, gm) = fair_campaign().await;
    play(&gm, &id, 3).await;
    let state = store.load(&id).await.unwrap();
    let secret = state.fair.current.as_ref().unwrap().seed.reveal();
    let history = store.history(&id, Page::first(100)).await.unwrap();
    let status = serde_json::to_string(&FairStatus::of(&state)).unwrap();
    let log = export(&*store, &id).await.unwrap();
    let report = verify(&log);
    assert!(report.ok() && report.unrevealed > 0 && report.verified == 0);
    let printed = [
        format!("{state:?}"),
        format!("{history:?}"),
        status,
        serde_json::to_string(&log).unwrap(),
        serde_json::to_string(&report).unwrap(),
    ];
    for text in printed {
        assert!(!text.contains(&secret), "the seed leaked: {text:.200}");
    }
    // Revealed, it is in the log and it checks.
    reveal(&*store, &id, AfterReveal::Recommit, SEEDS)
        .await
        .unwrap();
    let log = export(&*store, &id).await.unwrap();
    assert!(serde_json::to_string(&log).unwrap().contains(&secret));
    assert!(verify(&log).ok() && verify(&log).verified > 0);
}

#[tokio::test]
async fn undo_past_a_reveal_is_refused_and_operations_say_what_is_wrong() {
    let (store, id, gm) = fair_campaign().await;
    play(&gm, &id, 1).await;
    let refused = turn_on(&*store, &id, None, SEEDS).await.unwrap_err();
    assert!(refused.to_string().contains("already on"), "{refused}");
    assert!(matches!(
        set_client_seed(&*store, &id, "bad:seed", SEEDS).await,
        Err(FairError::Refused(_))
    ));
    reveal(&*store, &id, AfterReveal::Off, SEEDS).await.unwrap();
    let refused = check_undo(&*store, &id, 1).await.unwrap_err();
    assert!(refused.to_string().contains("revealed"), "{refused}");
    assert!(matches!(
        reveal(&*store, &id, AfterReveal::Off, SEEDS).await,
        Err(FairError::Refused(_))
    ));
    // Off again: the ordinary dice, and no fair record on the new turn's rolls.
    play(&gm, &id, 2).await;
    let history = store.history(&id, Page::first(100)).await.unwrap();
    assert!(
        history
            .last()
            .unwrap()
            .record
            .rolls
            .iter()
            .all(|r| r.fair.is_none())
    );
}

#[tokio::test]
async fn a_cheating_model_cannot_choose_the_nonce_or_the_seed() {
    let state = Adventure::built_in().new_game(&["kraven"]).unwrap();
    let store = Arc::new(MemoryStore::new());
    let id = store.create_campaign("Cheat", &state).await.unwrap();
    turn_on(&*store, &id, Some("table"), SEEDS).await.unwrap();
    let call = |id: &str, args: serde_json::Value| ToolCall::new(id, "roll_dice", args);
    let provider = Arc::new(ScriptedProvider::new(vec![
        Ok(CompletionResponse::from_tool_calls(vec![
            call(
                "c1",
                json!({"expression": "1d20", "reason": "luck", "advantage": null, "nonce": 0}),
            ),
            call(
                "c2",
                json!({"expression": "1d20", "reason": "luck", "advantage": null, "seed": "00"}),
            ),
            call(
                "c3",
                json!({"expression": "1d20", "reason": "luck", "advantage": null}),
            ),
        ])),
        Ok(CompletionResponse::from_text("The dice fall.")),
        Ok(CompletionResponse::from_text(r#"{"actions": []}"#)),
    ]));
    let gm = GameMaster::builder(provider, store.clone())
        .suggestions(crate::gm::Suggestions::Model)
        .build();
    let outcome = gm
        .turn(&id, PlayerInput::new("Kraven", "I roll."))
        .await
        .unwrap();
    let calls: Vec<bool> = outcome
        .trace
        .iter()
        .filter_map(|s| match s {
            crate::gm::TraceStep::ToolCall { ok, .. } => Some(*ok),
            _ => None,
        })
        .collect();
    assert_eq!(
        calls,
        [false, false, true],
        "a nonce or seed argument is refused"
    );
    assert_eq!(outcome.rolls.len(), 1);
    let fair = outcome.rolls[0].fair.as_ref().unwrap();
    // The one roll's nonce is the turn's first, whatever the model asked for.
    assert_eq!(fair.nonce, crate::dice::fair::nonce(outcome.turn, 0));
    reveal(&*store, &id, AfterReveal::Off, SEEDS).await.unwrap();
    assert!(verify(&export(&*store, &id).await.unwrap()).ok());
}
