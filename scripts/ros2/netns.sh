# Network namespaces for the ROS 2 tests (sourced). Every DDS process of these tests
# runs inside a namespace made here, with only loopback up (and, for the fleet, veth
# pairs between these namespaces): nothing reaches the machine's real interfaces.
#   netns_up NAME            a namespace with lo up and a multicast route on lo
#   netns_link A IPA B IPB   a veth pair between namespaces A and B (/24 addresses)
#   netns_down               remove every namespace made by this shell
#   in_ns NAME CMD...        run CMD inside namespace NAME
SKR2_NETNS=()
netns_up() {
  ip netns add "$1"
  SKR2_NETNS+=("$1")
  ip -n "$1" link set lo up
  ip -n "$1" route add 224.0.0.0/4 dev lo 2>/dev/null || true
}
netns_link() {  # A IPA B IPB: veth between A and B, multicast routed over it
  local a="$1" ipa="$2" b="$3" ipb="$4" va="v${RANDOM}a" vb="v${RANDOM}b"
  ip link add "$va" netns "$a" type veth peer name "$vb" netns "$b"
  ip -n "$a" addr add "$ipa/24" dev "$va"
  ip -n "$b" addr add "$ipb/24" dev "$vb"
  ip -n "$a" link set "$va" up multicast on
  ip -n "$b" link set "$vb" up multicast on
}
netns_down() {
  local n
  for n in "${SKR2_NETNS[@]}"; do
    ip netns pids "$n" 2>/dev/null | xargs -r kill 2>/dev/null || true
    ip netns del "$n" 2>/dev/null || true
  done
  SKR2_NETNS=()
}
in_ns() { local n="$1"; shift; ip netns exec "$n" "$@"; }
