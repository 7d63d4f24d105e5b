//! Speech through a fake `espeak-ng`: the words reach it, and a slow one never holds up
//! the caller.

mod fake_espeak;
use fake_espeak::fake_espeak;
use skipper_sps::speech::{Speaker, QUEUE};

#[test]
fn espeak_is_called_with_the_words() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("said.txt");
    let p = fake_espeak(
        dir.path(),
        &format!(
            "printf '%s|' \"$@\" >> {}\necho >> {}",
            out.display(),
            out.display()
        ),
    );
    let mut s = Speaker::with_program(p.as_os_str());
    s.say("robot1", "tour complete");
    s.say("robot2", "-not an option");
    let st = s.finish();
    assert_eq!(st.spoken, 2, "{st:?}");
    let said = std::fs::read_to_string(&out).unwrap();
    assert_eq!(said, "--|tour complete|\n--|-not an option|\n");
}

#[test]
fn a_slow_espeak_never_holds_up_the_caller() {
    // espeak-ng waits until the test lets it go: every say() still returns, and
    // what does not fit in the queue is dropped
    let dir = tempfile::tempdir().unwrap();
    let gate = dir.path().join("go");
    let p = fake_espeak(
        dir.path(),
        &format!("while [ ! -e {} ]; do sleep 0.01; done", gate.display()),
    );
    let mut s = Speaker::with_program(p.as_os_str());
    for k in 0..(QUEUE + 20) {
        s.say("robot1", &format!("utterance {k}"));
    }
    std::fs::write(&gate, "").unwrap();
    let st = s.finish();
    assert!(st.dropped >= 19, "{st:?}");
    assert_eq!(st.spoken + st.dropped, (QUEUE + 20) as u64, "{st:?}");
}
