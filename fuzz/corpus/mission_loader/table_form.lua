NAME = "t"
STACK = { { BEHAVIOR = Guidance.DepthEnvelope, Guidance.DepthEnvelope.MAX_DEPTH:SET(Units.METER(30)), WHEN = (true):OR(UniversalURI.DEPTH:GT(Units.METER(3))) } }
