-- Surface, take a GPS fix and send a satellite message, each with a time limit
-- (the NeedComms practice: give up on a fix after 7 minutes, on comms after 30),
-- written with the table form of the constructors.
NAME = "Surface and report"

STACK = {
    { BEHAVIOR = Guidance.DepthEnvelope,
      Guidance.DepthEnvelope.MAX_DEPTH:SET(Units.METER, 100) };

    { COMMAND = Guidance.Pitch,
      Guidance.Pitch.DEPTH:SET(Units.METER(30)),
      Guidance.Pitch.SPEED:SET(Units.METER_PER_SECOND, 1) };

    { COMMAND = Guidance.Wait, Guidance.Wait.DURATION:SET(Units.MINUTE(5)) };

    { COMMAND = Guidance.GoToSurface };

    {
        ID = "Report";
        PREEMPTIVE = true;
        { COMMAND = Guidance.ReadSensor,
          Guidance.ReadSensor.URI:SET(UniversalURI.PLATFORM_LOCATION_FIX),
          WITHIN = Units.MINUTE(7) };
        { COMMAND = Guidance.ReadSensor,
          Guidance.ReadSensor.URI:SET(UniversalURI.PLATFORM_COMMUNICATIONS),
          WITHIN = Units.MINUTE(30) };
    };
}
