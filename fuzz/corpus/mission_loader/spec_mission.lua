NAME = "Test Mission"

startLat = workSite.latitude;                   -- from workSite.cfg
startLon = workSite.longitude;
wp4 = Units.DEGREE( startLat, startLon )           -- start/end location
wp1 = Units.DEGREE( startLat, startLon-0.01 )      -- a bit west
wp2 = Units.DEGREE( startLat+0.01, startLon-0.01 ) -- a bit north from there
wp3 = Units.DEGREE( startLat+0.01, startLon )      -- and east again

STACK = {

-- some high priority behaviors
BEHAVIOR( Guidance.AltitudeEnvelope )
    :SET( Guidance.AltitudeEnvelope.MIN_ALTITUDE, Units.METER, 20 );

BEHAVIOR( Guidance.OffshoreEnvelope )
    :SET( Guidance.OffshoreEnvelope.MIN_OFFSHORE, Units.KILOMETER, 1 )
    :SET( Guidance.OffshoreEnvelope.MAX_OFFSHORE, Units.KILOMETER, 50 );

BEHAVIOR( Guidance.DepthEnvelope )
    :SET( Guidance.DepthEnvelope.MIN_DEPTH, Units.METER, 0 )
    :SET( Guidance.DepthEnvelope.MAX_DEPTH, Units.METER, 300 );

-- GPS (and Iridium) Update
-- Once an hour, if we are already heading up,
-- Otherwise, once every two hours.
{
    WHEN=( UniversalURI.PLATFORM_LOCATION_FIX:ELAPSED( Units.HOUR( 1 ) )
           :OR( UniversalURI.PLATFORM_COMMUNICATIONS:ELAPSED( Units.HOUR( 1 ) ) )
         )
         :AND( UniversalURI.PLATFORM_PITCH_ANGLE:GT( Units.DEGREE( 15 ) ) )
         :OR( UniversalURI.PLATFORM_LOCATION_FIX:ELAPSED( Units.HOUR( 2 ) ) )
         :OR( UniversalURI.PLATFORM_COMMUNICATIONS:ELAPSED( Units.HOUR( 2 ) ) );

    ID="NeedSatFix";

    COMMAND( Guidance.GoToSurface );

    {
        ID="SurfOps";

        -- Surface operations are always preemptive
        PREEMPTIVE = true;

        COMMAND( Guidance.ReadSensor )
            :SET(Guidance.ReadSensor.URI, UniversalURI.PLATFORM_LOCATION_FIX );

        COMMAND( Guidance.ReadSensor )
            :SET(Guidance.ReadSensor.URI, UniversalURI.PLATFORM_COMMUNICATIONS );
    }
};

-- A set of commands to repeat two times:
{
    ID="RepeatOps";

    {
        WHILE=UniversalURI.DEPTH:GT( Units.FOOT( 1 ) );

        BEHAVIOR( Guidance.ReadSensor )
            :SET( Guidance.ReadSensor.URI, UniversalURI.SEA_WATER_SALINITY );

        BEHAVIOR( Guidance.ReadSensor )
            :SET( Guidance.ReadSensor.URI, UniversalURI.SEA_WATER_TEMPERATURE );
    };

    BEHAVIOR( Guidance.DepthEnvelope )
        :SET( Guidance.DepthEnvelope.MIN_DEPTH, Units.METER, 5 );

    BEHAVIOR( Guidance.YoYo )
        :SET( Guidance.YoYo.UP_SPEED, Units.METER_PER_SECOND, Control.SpeedControl.SPEED_SLOW)
        :SET( Guidance.YoYo.DOWN_SPEED, Units.METER_PER_SECOND, Control.SpeedControl.SPEED_FAST);

    COMMAND( Guidance.Waypoint )
        :SET( Guidance.Waypoint.WAYPOINT, wp1 )
        :SET( Guidance.Waypoint.CAPTURE_RADIUS, Units.METER, 100 );

    COMMAND( Guidance.Waypoint )
        :SET( Guidance.Waypoint.WAYPOINT, wp2 )
        :SET( Guidance.Waypoint.CAPTURE_RADIUS, Units.METER, 100 );

    COMMAND( Guidance.Waypoint )
        :SET( Guidance.Waypoint.WAYPOINT, wp3 )
        :SET( Guidance.Waypoint.CAPTURE_RADIUS, Units.METER, 100 );

    COMMAND( Guidance.Waypoint )
        :SET( Guidance.Waypoint.WAYPOINT, wp4 )
        :SET( Guidance.Waypoint.CAPTURE_RADIUS, Units.METER, 100 );

    REPEAT=2
};

} -- end of STACK