//! ROS 1 transport (to come).
