//! A Skipper ROS 2 node: one DDS participant (RustDDS) on the domain of
//! `ROS_DOMAIN_ID`, discovering peers on 127.0.0.1 only unless told otherwise
//! ([`Discovery`]), with `/rosout`, `/parameter_events` and rclpy-compatible parameter
//! services (the spinner thread serves them), and names resolved against its namespace
//! and `--ros-args` remaps. Services use the Enhanced service mapping, the one
//! rmw_fastrtps_cpp speaks.

use crate::action::ActionType;
use crate::args::{ParamValue, RosArgs};
use crate::error::Ros2Error;
use crate::msg::RosType;
use crate::outlet::{Advertise, Outlet};
use crate::qos;
use ros2_client::dds::rustdds::DomainParticipantBuilder;
use ros2_client::dds::rustdds::Topic;
use ros2_client::log::LogLevel;
use ros2_client::ros2::QosProfile;
use ros2_client::rosout::{NodeLoggingHandle, RosoutRaw};
use ros2_client::{
    ActionTypeName, Context, Message, MessageTypeName, Name, Node, NodeName, NodeOptions,
    ParameterValue, Publisher, ServiceMapping, Subscription,
};
use std::net::{IpAddr, Ipv4Addr};
use std::sync::Arc;
use std::thread::JoinHandle;

/// Where the node looks for peers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Discovery {
    /// This machine only (127.0.0.1), as `ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST`: the
    /// default.
    Localhost,
    /// The networks of these local addresses (and loopback).
    Networks(Vec<IpAddr>),
    /// Every interface (DDS's own default).
    All,
}

impl Discovery {
    /// From `--ros2-host ADDR`: loopback stays [`Discovery::Localhost`], `0.0.0.0` /
    /// `::` is [`Discovery::All`], another address its network. That address must be
    /// one of this machine's: DDS would otherwise match no interface and quietly stay on
    /// this machine, while the user believes the node is on the network.
    pub fn from_host(host: Option<IpAddr>) -> Result<Self, Ros2Error> {
        Ok(match host {
            None => Self::Localhost,
            Some(h) if h.is_loopback() => Self::Localhost,
            Some(h) if h.is_unspecified() => Self::All,
            Some(h) => {
                // binding succeeds exactly for an address assigned to an interface here
                std::net::UdpSocket::bind((h, 0)).map_err(|e| {
                    Ros2Error::Config(format!(
                        "--ros2-host {h}: not an address of this machine ({e}); give one of \
                         its interfaces' addresses, or 0.0.0.0 for every interface"
                    ))
                })?;
                Self::Networks(vec![h])
            }
        })
    }
    /// The warning to print when peers beyond this machine may join.
    pub fn warning(&self, node: &str) -> Option<String> {
        let reach = match self {
            Self::Localhost => return None,
            Self::Networks(a) => format!(
                "the networks of {}",
                a.iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Self::All => "every network interface".to_string(),
        };
        Some(format!(
            "warning: the ROS 2 node {node} discovers peers on {reach}, not only this machine: other machines on the domain can send goals to the robots and drive them (DDS without security has no authentication)"
        ))
    }
}

/// How to start a node.
pub struct NodeConfig {
    /// the node's name unless `--ros-args -r __node:=` says otherwise
    pub name: String,
    /// the namespace unless `-r __ns:=` says otherwise
    pub namespace: String,
    /// what the command line and environment said
    pub args: RosArgs,
    /// where peers are discovered
    pub discovery: Discovery,
    /// parameters the node declares, with their defaults (`-p` overrides them)
    pub parameters: Vec<(String, ParameterValue)>,
    /// called when a client sets a parameter; `Err` refuses the value
    pub on_set: Option<Box<ParamSetter>>,
}

/// A parameter change handler: name, new value; `Err(reason)` refuses it.
pub type ParamSetter = dyn Fn(&str, &ParameterValue) -> Result<(), String> + Send + Sync;

/// A running node.
pub struct Ros2Node {
    node: Node,
    context: Context,
    log: Arc<NodeLoggingHandle>,
    args: RosArgs,
    namespace: String,
    spinner: Option<JoinHandle<()>>,
}

/// A `-p` value as a ROS 2 parameter value.
pub fn param_value(v: &ParamValue) -> ParameterValue {
    match v {
        ParamValue::Bool(b) => ParameterValue::Boolean(*b),
        ParamValue::Int(i) => ParameterValue::Integer(*i),
        ParamValue::Double(d) => ParameterValue::Double(*d),
        ParamValue::Str(s) => ParameterValue::String(s.clone()),
    }
}

impl Ros2Node {
    /// Join the domain and start the node's background work.
    pub fn start(config: NodeConfig) -> Result<Self, Ros2Error> {
        let args = config.args;
        let name = args.node_name.clone().unwrap_or(config.name);
        let namespace = args.namespace.clone().unwrap_or(config.namespace);
        // ros2-client panics on some names it does not take: check them before any DDS
        crate::names::check_node_name(&name)
            .and_then(|()| crate::names::check_namespace(&namespace))
            .map_err(Ros2Error::Config)?;
        let mut builder = DomainParticipantBuilder::new(args.domain_id);
        builder = match &config.discovery {
            Discovery::Localhost => builder.with_only_networks([IpAddr::V4(Ipv4Addr::LOCALHOST)]),
            Discovery::Networks(a) => builder.with_only_networks(
                a.iter()
                    .copied()
                    .chain([IpAddr::V4(Ipv4Addr::LOCALHOST)])
                    .collect::<Vec<_>>(),
            ),
            Discovery::All => builder,
        };
        let participant = builder
            .build()
            .map_err(|e| Ros2Error::create("a DDS participant", e))?;
        let context = Context::from_domain_participant(participant)
            .map_err(|e| Ros2Error::create("a ROS 2 context", e))?;
        let mut options = NodeOptions::new()
            .enable_rosout(true)
            .start_parameter_services(true);
        for (n, default) in config.parameters {
            let v = args.param_value(&n).map(param_value).unwrap_or(default);
            options = options.declare_parameter(&n, v);
        }
        if let Some(on_set) = config.on_set {
            options = options.parameter_set_action(Box::new(move |n, v| on_set(n, v)));
        }
        let node_name = NodeName::new(&namespace, &name)
            .map_err(|e| Ros2Error::Config(format!("node {name} in {namespace}: {e}")))?;
        let mut node = context
            .clone()
            .new_node(node_name, options)
            .map_err(|e| Ros2Error::create(format!("node {name}"), e))?;
        let spinner = node
            .spinner()
            .map_err(|e| Ros2Error::create("the node's spinner", e))?;
        let spinner = std::thread::Builder::new()
            .name("ros2-spinner".into())
            .spawn(move || {
                let _ = futures::executor::block_on(spinner.spin());
            })?;
        let log = Arc::new(node.logging_handle());
        Ok(Self {
            node,
            context,
            log,
            args,
            namespace,
            spinner: Some(spinner),
        })
    }

    /// The fully qualified node name (`/skipper`).
    pub fn fully_qualified_name(&self) -> String {
        self.node.fully_qualified_name()
    }

    /// The domain id.
    pub fn domain_id(&self) -> u16 {
        self.node.domain_id()
    }

    /// A name as the node resolves it: relative names go under its namespace, then the
    /// `--ros-args` remaps apply.
    pub fn resolve(&self, name: &str) -> String {
        let qualified = if name.starts_with('/') {
            name.to_string()
        } else if self.namespace == "/" {
            format!("/{name}")
        } else {
            format!("{}/{name}", self.namespace)
        };
        self.args.remapped(name, &qualified)
    }

    fn name(&self, name: &str) -> Result<Name, Ros2Error> {
        let full = self.resolve(name);
        crate::names::check_name(&full).map_err(Ros2Error::Config)?;
        Name::parse(&full).map_err(|e| Ros2Error::Config(format!("ROS 2 name {full}: {e}")))
    }

    /// The DDS topic of `T` on `topic`, and what to call it in errors (`role` and its
    /// resolved name).
    fn topic<T: RosType>(
        &mut self,
        role: &str,
        topic: &str,
        qos: &QosProfile,
    ) -> Result<(Topic, String), Ros2Error> {
        let name = self.name(topic)?;
        let what = format!("{role} {}", self.resolve(topic));
        match self
            .node
            .create_topic(&name, MessageTypeName::new(T::PACKAGE, T::NAME), qos)
        {
            Ok(t) => Ok((t, what)),
            Err(e) => Err(Ros2Error::create(what, e)),
        }
    }

    /// A publisher of `T` on `topic`.
    pub fn publisher<T: Message + RosType>(
        &mut self,
        topic: &str,
        qos: QosProfile,
    ) -> Result<Publisher<T>, Ros2Error> {
        let (t, what) = self.topic::<T>("publisher", topic, &qos)?;
        self.node
            .create_publisher(&t, Some(qos))
            .map_err(|e| Ros2Error::create(what, e))
    }

    /// A subscription to `T` on `topic`.
    pub fn subscription<T: Message + RosType + 'static>(
        &mut self,
        topic: &str,
        qos: QosProfile,
    ) -> Result<Subscription<T>, Ros2Error> {
        let (t, what) = self.topic::<T>("subscription", topic, &qos)?;
        self.node
            .create_subscription(&t, Some(qos))
            .map_err(|e| Ros2Error::create(what, e))
    }

    /// The services and topics of action `ty` on `name` (Enhanced service mapping).
    pub fn action_server<A: ActionType>(
        &mut self,
        name: &str,
        ty: &A,
    ) -> Result<crate::action::RawServer<A>, Ros2Error> {
        let n = self.name(name)?;
        self.node
            .create_action_server(
                ServiceMapping::Enhanced,
                &n,
                &ActionTypeName::new(ty.package(), ty.name()),
                qos::action(),
            )
            .map_err(|e| Ros2Error::create(format!("action server {}", self.resolve(name)), e))
    }

    /// The peers this node's participant discovers (for [`crate::reply`]).
    pub fn peers(&self) -> crate::reply::Peers {
        crate::reply::Peers::new(self.context.domain_participant())
    }

    /// A handle that writes to `/rosout` from any thread.
    pub fn logger(&self) -> Logger {
        Logger {
            handle: self.log.clone(),
            name: self.node.base_name().to_string(),
        }
    }

    /// A parameter's current value.
    pub fn parameter(&self, name: &str) -> Option<ParameterValue> {
        self.node.get_parameter(name)
    }

    /// The node itself, for what this crate does not wrap.
    pub fn inner(&mut self) -> &mut Node {
        &mut self.node
    }

    /// The node itself, read-only.
    pub fn inner_ref(&self) -> &Node {
        &self.node
    }

    /// The topics discovered on the graph so far (ROS names and DDS type names).
    pub fn discovered_topics(&self) -> Vec<ros2_client::DiscoveredTopic> {
        self.context.discovered_topics()
    }
}

impl Advertise for Ros2Node {
    fn advertise<M: Message + RosType + Clone + 'static>(
        &mut self,
        topic: &str,
        qos: QosProfile,
    ) -> Result<Box<dyn Outlet<M>>, Ros2Error> {
        Ok(Box::new(self.publisher::<M>(topic, qos)?))
    }
}

impl Drop for Ros2Node {
    fn drop(&mut self) {
        self.node.stop_spinner();
        if let Some(t) = self.spinner.take() {
            let _ = t.join();
        }
    }
}

/// Writes log lines to `/rosout` (rcl_interfaces/Log) in the node's name.
#[derive(Clone)]
pub struct Logger {
    handle: Arc<NodeLoggingHandle>,
    name: String,
}

impl Logger {
    /// Log `msg` at `level`.
    pub fn log(&self, level: LogLevel, msg: &str) {
        self.handle.rosout_raw(
            ros2_client::builtin_interfaces::Time::now(),
            level,
            &self.name,
            msg,
            file!(),
            "skipper",
            line!(),
        );
    }
    /// A warning.
    pub fn warn(&self, msg: &str) {
        self.log(LogLevel::Warn, msg)
    }
    /// Information.
    pub fn info(&self, msg: &str) {
        self.log(LogLevel::Info, msg)
    }
}
