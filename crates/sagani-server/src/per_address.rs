//! Things held open per client address (connections, requests through a proxy, WebSockets),
//! each counted until its slot is dropped, so one address can't hold what everyone needs.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Open things per client address (the `ClientAddr` key: an IPv4 address or an IPv6 /64).
#[derive(Default)]
pub struct PerAddress(Mutex<HashMap<String, usize>>);

/// One open thing of an address, counted until dropped.
pub struct Slot {
    counts: Arc<PerAddress>,
    addr: String,
}

impl PerAddress {
    /// Counts one more for `addr`, or `None` when `max` are open already (0: no cap).
    pub fn open(self: &Arc<Self>, addr: &str, max: usize) -> Option<Slot> {
        let mut open = self.0.lock().expect("per-address lock");
        let n = open.entry(addr.to_string()).or_insert(0);
        if max > 0 && *n >= max {
            return None;
        }
        *n += 1;
        Some(Slot {
            counts: self.clone(),
            addr: addr.to_string(),
        })
    }

    /// How many `addr` holds now.
    pub fn held(&self, addr: &str) -> usize {
        let open = self.0.lock().expect("per-address lock");
        open.get(addr).copied().unwrap_or(0)
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut open = self.counts.0.lock().expect("per-address lock");
        if let Some(n) = open.get_mut(&self.addr) {
            *n -= 1;
            // Addresses that hold nothing leave the map, so it does not grow with every
            // address ever seen.
            if *n == 0 {
                open.remove(&self.addr);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_holds_at_most_max_and_gets_them_back() {
        let counts = Arc::new(PerAddress::default());
        let a: Vec<Slot> = (0..3).map(|_| counts.open("a", 3).unwrap()).collect();
        assert!(counts.open("a", 3).is_none(), "a fourth for a");
        let b = counts.open("b", 3).expect("b is counted apart");
        drop(a);
        assert_eq!(counts.held("a"), 0);
        assert!(counts.open("a", 3).is_some());
        assert_eq!(counts.held("b"), 1);
        drop(b);
        assert!(
            counts.0.lock().unwrap().get("b").is_none(),
            "b left the map"
        );
        assert!(counts.open("c", 0).is_some(), "0 is no cap");
    }
}
