//! Cooperative states across agents (rule 18): two engines running the same behavior
//! share a capacity-1 state through the team-message hook, as robots of a team would
//! over their network.

use skipper_xabsl::compile;
use skipper_xabsl::engine::{Engine, TeamMessage};
use skipper_xabsl::loader::MemLoader;
use std::sync::Arc;

const TEAM: &str = r#"
namespace sym("Symbols") {
  bool input wants;
  float output role;
}
"#;

const OPTION: &str = r#"
option team {
  initial state support {
    decision { if (wants) goto striker; else stay; }
    action { role = 0; }
  }
  state striker capacity 1 {
    decision { if (!wants || conflict) goto support; else stay; }
    action { role = 1; }
  }
}
"#;

fn robot(priority: i32, ticks: i32) -> Engine {
    let mut files = MemLoader::new();
    files.add("sym.xabsl", TEAM).add("team.xabsl", OPTION).add(
        "agents.xabsl",
        "include \"sym.xabsl\";\ninclude \"team.xabsl\";\nagent player(\"Player\", team);\n",
    );
    let c = compile("agents.xabsl", &files);
    assert!(!c.diagnostics.has_errors(), "{}", c.render());
    let mut e = Engine::new(Arc::new(c.program)).unwrap();
    e.set_agent_priority(priority);
    e.set_synchronization_ticks(ticks);
    e
}

/// One team cycle: each robot takes in the other's last message, runs, and sends.
fn cycle(robots: &mut [Engine; 2], inbox: &mut [TeamMessage; 2], now: u64) {
    let sent = inbox.clone();
    for (i, r) in robots.iter_mut().enumerate() {
        r.prepare_incoming_messages();
        r.process_incoming_message(&sent[1 - i]);
        r.execute(now);
        r.generate_outgoing_message(&mut inbox[i]);
    }
}

fn in_striker(e: &Engine) -> bool {
    let team = e.program().option("team").unwrap();
    e.active_state(team) == 1
}

#[test]
fn two_agents_share_a_capacity_one_state() {
    let mut robots = [robot(2, 2), robot(1, 2)];
    let wants = robots[0].program().symbol("wants").unwrap();
    for r in robots.iter_mut() {
        r.set_bool(wants, true);
    }
    let mut inbox = [TeamMessage::default(), TeamMessage::default()];
    let mut holders = Vec::new();
    for t in 0..20u64 {
        cycle(&mut robots, &mut inbox, 1000 + 100 * t);
        let who: Vec<bool> = robots.iter().map(in_striker).collect();
        assert!(
            !(who[0] && who[1]),
            "both in the capacity-1 state at cycle {t}"
        );
        holders.push(who);
    }
    // the higher priority agent got it after the synchronisation ticks, and kept it
    assert_eq!(holders[1], vec![false, false]);
    assert_eq!(holders[2], vec![true, false]);
    assert_eq!(holders[19], vec![true, false]);
    assert_eq!(inbox[0].coop_states_executed, vec![0]);
    assert_eq!(inbox[1].coop_states_entering, vec![0]);

    // the holder gives it up: the other one takes it
    robots[0].set_bool(wants, false);
    let mut handed_over = None;
    for t in 20..40u64 {
        cycle(&mut robots, &mut inbox, 1000 + 100 * t);
        let who: Vec<bool> = robots.iter().map(in_striker).collect();
        assert!(
            !(who[0] && who[1]),
            "both in the capacity-1 state at cycle {t}"
        );
        if who[1] && handed_over.is_none() {
            handed_over = Some(t);
        }
    }
    assert!(handed_over.is_some(), "the second agent never entered");
    assert!(!in_striker(&robots[0]));
}

#[test]
fn without_synchronisation_both_enter_and_see_the_conflict() {
    let mut robots = [robot(1, 0), robot(1, 0)];
    let wants = robots[0].program().symbol("wants").unwrap();
    for r in robots.iter_mut() {
        r.set_bool(wants, true);
    }
    let mut inbox = [TeamMessage::default(), TeamMessage::default()];
    cycle(&mut robots, &mut inbox, 0);
    // nobody heard of the other yet: both entered
    assert!(robots.iter().all(in_striker));
    cycle(&mut robots, &mut inbox, 100);
    // each sees the other executing the state: conflict, both leave
    let team = robots[0].program().option("team").unwrap();
    assert!(robots.iter().all(|r| r.conflict(team, 1)));
    assert!(robots.iter().all(|r| !in_striker(r)));
}
