//! Publishing and subscribing on a [`Node`]: a publisher of one compiled-in message type
//! ([`TypedPublisher`]) or of a type known at run time ([`DynPublisher`]), and
//! subscriptions that decode each message (counted and skipped when it does not decode).

use crate::msg::actionlib_msgs::WireType;
use crate::msg::dynamic::DynMessage;
use crate::msg::schema::MsgSchema;
use crate::msg::{DecodeError, Message, MessageType, Reader};
use crate::node::{Handler, Node, Publisher, RosError, Subscriber};
use std::marker::PhantomData;
use std::sync::Arc;

/// A publisher of one compiled-in message type.
pub struct TypedPublisher<M: Message> {
    publisher: Publisher,
    _m: PhantomData<fn(M)>,
}

impl<M: Message> TypedPublisher<M> {
    /// Advertise `topic` with `M`'s type, md5sum and definition.
    pub fn advertise(node: &Node, topic: &str, latched: bool) -> Result<Self, RosError> {
        Ok(Self {
            publisher: advertise_as(node, topic, WireType::of::<M>(), latched)?,
            _m: PhantomData,
        })
    }
    /// [`TypedPublisher::advertise`] with a `queue_size` per subscriber
    /// ([`Node::advertise_queued`]).
    pub fn advertise_queued(
        node: &Node,
        topic: &str,
        latched: bool,
        queue_size: usize,
    ) -> Result<Self, RosError> {
        Ok(Self {
            publisher: advertise_queued_as(node, topic, WireType::of::<M>(), latched, queue_size)?,
            _m: PhantomData,
        })
    }
    /// Publish a message.
    pub fn publish(&self, m: &M) {
        self.publisher.publish_with(|w| m.encode(w));
    }
    /// The untyped publisher.
    pub fn raw(&self) -> &Publisher {
        &self.publisher
    }
}

/// A publisher of a message type known at run time.
pub struct DynPublisher {
    publisher: Publisher,
    schema: Arc<MsgSchema>,
}

impl DynPublisher {
    /// Advertise `topic` with `schema`'s type, md5sum and definition.
    pub fn advertise(
        node: &Node,
        topic: &str,
        schema: &Arc<MsgSchema>,
        latched: bool,
    ) -> Result<Self, RosError> {
        Ok(Self {
            publisher: advertise_as(node, topic, WireType::of_schema(schema), latched)?,
            schema: schema.clone(),
        })
    }
    /// [`DynPublisher::advertise`] with a `queue_size` per subscriber
    /// ([`Node::advertise_queued`]).
    pub fn advertise_queued(
        node: &Node,
        topic: &str,
        schema: &Arc<MsgSchema>,
        latched: bool,
        queue_size: usize,
    ) -> Result<Self, RosError> {
        let t = WireType::of_schema(schema);
        Ok(Self {
            publisher: advertise_queued_as(node, topic, t, latched, queue_size)?,
            schema: schema.clone(),
        })
    }
    /// The topic's type.
    pub fn schema(&self) -> &Arc<MsgSchema> {
        &self.schema
    }
    /// Publish a message; refused (nothing sent) when it is of another type.
    pub fn publish(&self, m: &DynMessage) -> Result<(), RosError> {
        self.schema
            .check(m)
            .map_err(|e| RosError::BadName(format!("{}: {e}", self.publisher.topic())))?;
        self.publisher.publish_with(|w| m.encode(w));
        Ok(())
    }
    /// The untyped publisher.
    pub fn raw(&self) -> &Publisher {
        &self.publisher
    }
}

/// Advertise `topic` as the type `ty`.
pub fn advertise_as(
    node: &Node,
    topic: &str,
    ty: WireType<'_>,
    latched: bool,
) -> Result<Publisher, RosError> {
    node.advertise(topic, ty.name, ty.md5sum, ty.definition, latched)
}

/// [`advertise_as`] with a `queue_size` per subscriber ([`Node::advertise_queued`]).
pub fn advertise_queued_as(
    node: &Node,
    topic: &str,
    ty: WireType<'_>,
    latched: bool,
    queue_size: usize,
) -> Result<Publisher, RosError> {
    node.advertise_queued(
        topic,
        ty.name,
        ty.md5sum,
        ty.definition,
        latched,
        queue_size,
    )
}

/// Subscribe to `topic` with `M`'s type; `f` gets each decoded message and its
/// publisher's caller id. Messages that do not decode are counted and skipped.
pub fn subscribe<M: Message>(
    node: &Node,
    topic: &str,
    f: impl Fn(M, &str) + Send + Sync + 'static,
) -> Result<Subscriber, RosError> {
    subscribe_as(node, topic, WireType::of::<M>(), M::decode_fields, f)
}

/// Subscribe to `topic` with a type known at run time.
pub fn subscribe_dyn(
    node: &Node,
    topic: &str,
    schema: &Arc<MsgSchema>,
    f: impl Fn(DynMessage, &str) + Send + Sync + 'static,
) -> Result<Subscriber, RosError> {
    let s = schema.clone();
    subscribe_as(
        node,
        topic,
        WireType::of_schema(schema),
        move |r| DynMessage::decode_fields(&s, r),
        f,
    )
}

/// Subscribe to `topic` as the type `ty`, reading each body with `decode`.
pub fn subscribe_as<V>(
    node: &Node,
    topic: &str,
    ty: WireType<'_>,
    decode: impl Fn(&mut Reader<'_>) -> Result<V, DecodeError> + Send + Sync + 'static,
    f: impl Fn(V, &str) + Send + Sync + 'static,
) -> Result<Subscriber, RosError> {
    subscribe_queued_as(node, topic, ty, None, decode, f)
}

/// [`subscribe_as`] with a subscriber `queue_size` ([`Node::subscribe_queued`]).
pub fn subscribe_queued_as<V>(
    node: &Node,
    topic: &str,
    ty: WireType<'_>,
    queue_size: Option<usize>,
    decode: impl Fn(&mut Reader<'_>) -> Result<V, DecodeError> + Send + Sync + 'static,
    f: impl Fn(V, &str) + Send + Sync + 'static,
) -> Result<Subscriber, RosError> {
    let name = ty.name.to_string();
    let handler: Handler = Arc::new(move |b: &[u8], from: &str| {
        let mut r = Reader::new(b);
        let m = decode(&mut r)
            .and_then(|m| r.finish().map(|()| m))
            .map_err(|e| format!("{name}: {e}"))?;
        f(m, from);
        Ok(())
    });
    node.subscribe_queued(
        topic,
        ty.name,
        ty.md5sum,
        ty.definition,
        handler,
        queue_size,
    )
}
