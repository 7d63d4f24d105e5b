//! The node's clock, as roscpp and rospy keep it: the system clock, or, when the
//! parameter `/use_sim_time` is true at `ros.init`, the time the last `/clock` message
//! (rosgraph_msgs/Clock) said (zero until the first one). `ros.Time.now()`, the sleeps
//! of `ros.Duration`, `ros.Rate` and `ros.Time.sleepUntil`, the actionlib clients' wait
//! timeouts and the stamps of goals and statuses all read this clock, so a script in
//! simulated time runs as fast (or as slowly) as the simulation publishes `/clock`.
//! A sleep in simulated time ends when the clock reaches its end, when the clock jumps
//! back (a simulation restarted), or at a stop request.

use crate::runtime::Stop;
use skipper_ros1_wire::msg::sensor::Clock as ClockMsg;
use skipper_ros1_wire::node::Subscriber;
use skipper_ros1_wire::time::{Clock, SystemClock, Time};
use skipper_ros1_wire::{topics::subscribe, Node, RosError};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// The time `/clock` says, and a way to wait for it to move.
#[derive(Debug, Default)]
pub(crate) struct SimTime {
    nanos: Mutex<u64>,
    moved: Condvar,
}

impl SimTime {
    fn set(&self, t: Time) {
        let mut n = self.nanos.lock().unwrap_or_else(|e| e.into_inner());
        *n = t.as_nanos();
        self.moved.notify_all();
    }

    fn get(&self) -> u64 {
        *self.nanos.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Wait until the time is `end` or later, or went back before `from`; false on a
    /// stop request.
    fn wait_until(&self, end: u64, from: u64, stop: &Stop) -> bool {
        let mut n = self.nanos.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if *n >= end || *n < from {
                return true;
            }
            if stop.is_requested() {
                return false;
            }
            // wake now and then to see a stop request
            n = self
                .moved
                .wait_timeout(n, Duration::from_millis(20))
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }
}

/// Where "now" comes from for a script.
#[derive(Debug, Clone, Default)]
pub(crate) enum RosClock {
    /// The system clock.
    #[default]
    Wall,
    /// `/clock`.
    Sim(Arc<SimTime>),
}

impl Clock for RosClock {
    fn now(&self) -> Time {
        match self {
            RosClock::Wall => SystemClock.now(),
            RosClock::Sim(s) => Time::from_nanos(s.get()),
        }
    }
}

impl RosClock {
    /// The time now.
    pub fn now(&self) -> Time {
        Clock::now(self)
    }

    /// `true` in simulated time.
    pub fn is_sim(&self) -> bool {
        matches!(self, RosClock::Sim(_))
    }

    /// Sleep `d` of this clock's time; false when a stop request ended it.
    pub fn sleep(&self, stop: &Stop, d: Duration) -> bool {
        match self {
            RosClock::Wall => stop.sleep(d),
            RosClock::Sim(s) => {
                let from = s.get();
                let end = from.saturating_add(d.as_nanos().min(u128::from(u64::MAX)) as u64);
                s.wait_until(end, from, stop)
            }
        }
    }

    /// How long of this clock's time has passed since `start` (a time of this clock).
    pub fn since(&self, start: Time) -> Duration {
        self.now().since(start)
    }
}

/// The clock a node with these parameters keeps: `/clock` (subscribed here; keep the
/// subscriber as long as the node) when `/use_sim_time` is true, else the wall clock.
pub(crate) fn for_node(node: &Node) -> Result<(RosClock, Option<Subscriber>), RosError> {
    use skipper_ros1_wire::xmlrpc::Value;
    let sim = match node.get_param("/use_sim_time") {
        Some(Value::Bool(b)) => b,
        Some(Value::Int(i)) => i != 0,
        _ => false,
    };
    if !sim {
        return Ok((RosClock::Wall, None));
    }
    let time = Arc::new(SimTime::default());
    let t = time.clone();
    let sub = subscribe(node, "/clock", move |m: ClockMsg, _| t.set(m.clock))?;
    Ok((RosClock::Sim(time), Some(sub)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_simulated_sleep_ends_when_the_clock_gets_there_or_jumps_back() {
        let s = Arc::new(SimTime::default());
        s.set(Time::from_nanos(1_000));
        let clock = RosClock::Sim(s.clone());
        let stop = Stop::new();
        let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let (s2, d2) = (s.clone(), done.clone());
        let ticker = std::thread::spawn(move || {
            // the clock moves only when told: half a second at a time, until the sleep ends
            let mut t = 1_000;
            while !d2.load(std::sync::atomic::Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(2));
                t += 500_000_000;
                s2.set(Time::from_nanos(t));
            }
        });
        let from = clock.now();
        assert!(clock.sleep(&stop, Duration::from_secs(5)));
        done.store(true, std::sync::atomic::Ordering::SeqCst);
        assert!(clock.since(from) >= Duration::from_secs(5));
        ticker.join().unwrap();
        // back in time: the sleep ends
        let s3 = s.clone();
        let back = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(5));
            s3.set(Time::from_nanos(10));
        });
        assert!(clock.sleep(&stop, Duration::from_secs(3600)));
        back.join().unwrap();
        stop.request();
        assert!(!clock.sleep(&stop, Duration::from_secs(3600)));
    }
}
