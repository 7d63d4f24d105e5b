-- A waypoint that lies 200 m off the coast, behind an OffshoreEnvelope that keeps
-- the vehicle at least 1 km offshore: the envelope wins, the vehicle runs along the
-- 1 km line, and the waypoint is given up after 90 minutes (WITHIN).
NAME = "Offshore guard"

nearCoast = Units.DEGREE(workSite.latitude + 0.02, workSite.longitude + 0.0650)

STACK = {
    BEHAVIOR(Guidance.OffshoreEnvelope)
        :SET(Guidance.OffshoreEnvelope.MIN_OFFSHORE, Units.KILOMETER, 1);

    {
        ID = "Transit";
        -- hold 10 m while the transit lasts (it stops with its substack)
        BEHAVIOR(Guidance.Pitch):SET(Guidance.Pitch.DEPTH, Units.METER, 10);

        COMMAND(Guidance.Waypoint)
            :SET(Guidance.Waypoint.WAYPOINT, nearCoast)
            :SET(Guidance.Waypoint.SPEED, Units.METER_PER_SECOND, 1)
            :WITHIN(Units.MINUTE, 90);
    };

    COMMAND(Guidance.GoToSurface);
}
