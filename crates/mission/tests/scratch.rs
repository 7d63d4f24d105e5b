#[test]
fn scratch() {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/missions/test_mission.lua");
    match skipper_mission::load_file(&p, Default::default()) {
        Ok(m) => { for it in &m.items { println!("{:30} line {:3} parent {:?} end {} seq {} guard {:?}", it.path, it.line, it.parent, it.end, it.is_sequential(), std::mem::discriminant(&it.guard)); } for w in &m.warnings { println!("{w}"); } }
        Err(e) => println!("{e}"),
    }
    for src in ["NAME='x'\nSTACK={ BEHAVIOR(Guidance.Nope) }", "NAME='x'\nSTACK = {\n  COMMAND(Guidance.Waypoint):SET(Guidance.Waypoint.CAPTURE_RADIUS, Units.SECOND, 3)\n}", "x = = 3", "while true do end", "t={} for i=1,1e9 do t[i]=string.rep('x', 1000)..i end", "NAME='x' STACK={ WHEN=true, COMMAND(Guidance.Wait):SET(Guidance.Wait.DURATION, Units.SECOND(3)) }", "os.exit(1)", "NAME='a'\nSTACK={ {ID='a', COMMAND(Guidance.Wait):SET(Guidance.Wait.DURATION, Units.SECOND(3))},\n {ID='a',\n REPEAT=-1,\n COMMAND(Guidance.Wait):SET(Guidance.Wait.DURATION, Units.SECOND(3))} }",
    "NAME='t'\nSTACK={ { BEHAVIOR = Guidance.DepthEnvelope, Guidance.DepthEnvelope.MAX_DEPTH:SET(Units.METER(30)), WHEN=(true):OR(UniversalURI.DEPTH:GT(Units.METER(3))) } }"] {
        match skipper_mission::load_str(src, "m.lua") { Ok(m) => println!("OK {:?}", m.items.iter().map(|i| &i.path).collect::<Vec<_>>()), Err(e) => println!("{e}\n---") }
    }
}
