NAME="r"
STACK={ {ID="a", REPEAT=-1, WITHIN=Units.METER(3), WHEN=UniversalURI.DEPTH, COMMAND(Guidance.Wait)}, {ID="a"} }
