//! Rules 24-26: a pre-emptive item suspends every lower-priority item outside its subtree,
//! including items outside its parent, but not earlier ones; they resume where they were.

mod common;
use common::{mission, Bench, WAIT};
use skipper_mission::ItemState;

const SRC: &str = "
BEHAVIOR(Guidance.DepthEnvelope):SET(Guidance.DepthEnvelope.MAX_DEPTH, Units.METER, 200);
{ ID = \"ops\"; WHEN = UniversalURI.DEPTH:GT(Units.METER(100));
  { ID = \"surf\"; PREEMPTIVE = true;
    COMMAND(Guidance.Wait):SET(Guidance.Wait.DURATION, Units.SECOND, 5); };
};
{ ID = \"work\";
  BEHAVIOR(Guidance.YoYo);
  COMMAND(Guidance.Wait):SET(Guidance.Wait.DURATION, Units.SECOND, 10);
  COMMAND(Guidance.Wait):SET(Guidance.Wait.DURATION, Units.SECOND, 10);
};";

#[test]
fn preemptive_suspends_later_items_outside_its_parent_but_not_earlier_ones() {
    let mut b = Bench::new(&mission(SRC));
    b.ticks(3); // t=0..2
    assert_eq!(b.state("work/2"), ItemState::Active);
    b.set("DEPTH", 250.0);
    b.tick(); // t=3: ops latches, surf runs and pre-empts
    assert_eq!(b.state("ops/surf"), ItemState::Active);
    let by = b.index("ops/surf");
    assert_eq!(b.state("work"), ItemState::Preempted(by));
    assert_eq!(b.state("work/1"), ItemState::Preempted(by));
    assert_eq!(b.state("work/2"), ItemState::Preempted(by));
    // the envelope above keeps running and no output comes from `work`
    assert_eq!(b.state("1"), ItemState::Active);
    assert_eq!(
        b.exec.winners().vertical,
        Some(b.index("1")),
        "the envelope corrects"
    );
    assert_eq!(b.exec.winners().speed, None);
    b.set("DEPTH", 50.0);
    b.ticks(5); // t=4..8: the surf wait ends at t=8
    assert_eq!(b.state("ops"), ItemState::Armed);
    // resumed, not restarted (rule 25 with rule 13's semantics): the YoYo steers again and
    // the first wait keeps its start time (t=0), so it ends at t=10
    assert_eq!(b.state("work/1"), ItemState::Active);
    assert_eq!(b.state("work/2"), ItemState::Active);
    assert_eq!(b.exec.winners().vertical, Some(b.index("work/1")));
    b.tick(); // t=9
    assert_eq!(b.state("work/2"), ItemState::Active);
    b.tick(); // t=10
    assert_eq!(b.state("work/2"), ItemState::Completed);
}

#[test]
fn a_false_preemptive_clause_does_not_preempt() {
    let mut b = Bench::new(&mission(&format!(
        "{{ ID = \"a\"; PREEMPTIVE = UniversalURI.DEPTH:GT(Units.METER(100)); BEHAVIOR(Guidance.YoYo); {WAIT}100); }};
         {{ ID = \"b\"; WHEN = true; {WAIT}100); }};"
    )));
    b.tick();
    assert_eq!(b.state("b"), ItemState::Active);
    b.set("DEPTH", 150.0);
    b.tick();
    assert_eq!(b.state("b"), ItemState::Preempted(b.index("a")));
    b.set("DEPTH", 50.0);
    b.tick();
    assert_eq!(
        b.state("b"),
        ItemState::Active,
        "rule 25: resumes when the clause is false"
    );
}
