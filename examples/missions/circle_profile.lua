-- Profile the water column while circling a station west of the start
-- (the profile_station practice): yo-yo between 2 m and 60 m, or 10 m off the
-- bottom, circling at 300 m; the whole mission is limited to 40 minutes.
NAME = "Circle profile"

station = Units.DEGREE(workSite.latitude, workSite.longitude - 0.02)

STACK = {
    WITHIN = Units.MINUTE(40);

    BEHAVIOR(Guidance.AltitudeEnvelope)
        :SET(Guidance.AltitudeEnvelope.MIN_ALTITUDE, Units.METER, 10);

    BEHAVIOR(Guidance.ReadSensor)
        :SET(Guidance.ReadSensor.URI, UniversalURI.SEA_WATER_TEMPERATURE)
        :WHILE(UniversalURI.DEPTH:GT(Units.METER(1)));

    BEHAVIOR(Guidance.YoYo)
        :SET(Guidance.YoYo.MIN_DEPTH, Units.METER, 2)
        :SET(Guidance.YoYo.MAX_DEPTH, Units.METER, 60)
        :SET(Guidance.YoYo.PITCH, Units.DEGREE, 25)
        :SET(Guidance.YoYo.DOWN_SPEED, Units.METER_PER_SECOND, 1)
        :SET(Guidance.YoYo.UP_SPEED, Units.METER_PER_SECOND, 1);

    BEHAVIOR(Guidance.Circle)
        :SET(Guidance.Circle.CENTER, station)
        :SET(Guidance.Circle.RADIUS, Units.METER, 300)
        :SET(Guidance.Circle.TURN_TO_PORT, true)
        :SET(Guidance.Circle.SPEED, Units.METER_PER_SECOND, 1);
}
